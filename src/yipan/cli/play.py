"""``yipan play GAME``: a human against the AI in the terminal (or alone, against chance).

The loop reads a move (in the game's notation), or ``help``, ``undo``, ``moves``, ``quit``;
nonsense or an illegal move re-prompts with the reason; end of input or Ctrl-C ends the game
cleanly. Chance (2048's new tiles) is drawn with the game's probabilities from the seeded
``random.Random``; undo goes back to the human's previous turn, never before the first.
The board is drawn as the human sees it (``Game.as_seen_by``): in poker the AI's cards stay
face down until a showdown.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any, TextIO

from ..core import CHANCE, CapabilityError, Game, GameHooks, describe_centipawns, describe_value
from ..engines import (
    engine_help,
    engine_spec,
    has_network,
    load_network,
    make_player,
    player_engines,
)
from ..players import (
    HumanPlayer,
    Player,
    QuitRequested,
    ResignRequested,
    UndoRequested,
    check_ai,
)
from .common import UsageError, input_file, level, prepare_game, seconds, start_game_command
from .keys import KEYS_HELP, key_reader

KEYED_GAMES = ("2048",)
"""Games played a key at a time at a terminal (no Enter after each move)."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play", help="play a game against the AI", add_help=False,
        description="yipan play GAME [game options] [--first human|ai] [--level L]")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--first", choices=("human", "ai"), default="human",
                        help="who moves first (default: human)")
    parser.add_argument("--level", default="perfect", type=level, metavar="LEVEL",
                        help="the AI's strength: perfect, medium, easy (default: perfect)")
    parser.add_argument("--time", type=seconds, default=None, metavar="SECONDS",
                        help="seconds the AI may think per move (games too large to solve)")
    parser.add_argument("--seed", type=int, default=None, help="seed the AI's choices")
    names = player_engines()
    parser.add_argument("--ai", choices=names, default="auto", metavar="ENGINE",
                        help="the AI (default auto, the game's own): " + engine_help(names))
    parser.add_argument("--network", type=input_file, default=None, metavar="FILE",
                        help="the network for --ai puct or net (default: the shipped one)")


def run(args: argparse.Namespace) -> int:
    args, game, hooks = start_game_command("play", args.argv, "Play against the AI.",
                                           add_play_arguments, prepare=False)
    rng = random.Random(args.seed)
    earlier: list[Any] = []
    check_player(game, args.ai, args.network, args.first)  # all checked before compiling
    if hooks.start is not None and (started := hooks.start(game, args.hook_options)):
        game, earlier = started  # a game resumed from a record (Go's --sgf FILE)
    if args.network is not None:
        load_network(game, args.network)  # a bad file is refused before compiling
    prepare_game(game)
    finish: Callable[[list[Any]], str | None] | None = None
    if hooks.finish is not None:
        keep, options = hooks.finish, args.hook_options

        def finish(history: list[Any]) -> str | None:
            return keep(game, earlier[:-1] + history, options)
    if game.info.players == 1:
        read: Callable[[str], str] = input
        if game.info.name in KEYED_GAMES and sys.stdin.isatty():
            print(KEYS_HELP)
            read = key_reader()
        return play_interactive(game, None, human_side=0, rng=rng, hooks=hooks, read=read)
    ai = make_player(game, args.ai, args.level, rng, args.time, args.network)
    human = 0 if args.first == "human" else 1
    if not game.info.perfect_information and hooks.start is None:
        return play_hands(game, ai, human_side=human, rng=rng, hooks=hooks)
    return play_interactive(game, ai, human_side=human, rng=rng, hooks=hooks,
                            state=earlier[-1] if earlier else None, finish=finish)


def check_player(game: Game, ai: str, network: str | None = None, first: str = "human"
                 ) -> None:
    """Refuse the AI a command line asks for if it cannot be made, before its engine is
    prepared (a first run compiles for minutes)."""
    if network is not None and ai == "auto":
        raise UsageError("--network is for --ai puct or --ai net")
    if game.info.players == 1 and first == "ai":
        raise UsageError(f"{game.info.title} has one player: you (try `yipan watch "
                         f"{game.info.name}` to watch the AI play it)")
    if game.info.players == 1 and ai == "auto":
        return  # play: the human alone; watch: the game's AI is checked below
    if not engine_spec(ai, "play").serves(game):
        raise CapabilityError(f"--ai {ai} cannot play {game.info.title}")
    if ai == "net" and network is None and not has_network(game):
        raise CapabilityError(f"no network for {game.info.title}: give --network FILE "
                              f"(made by yipan train {game.info.name})")
    if ai == "auto":
        check_ai(game)


def play_hands(game: Game, ai: Player, *, human_side: int = 0,
               rng: random.Random | None = None, read: Callable[[str], str] = input,
               out: TextIO | None = None, hooks: GameHooks | None = None) -> int:
    """Hand after hand of a game of chance and hidden cards (poker, Liar's Dice), the seats
    swapped each hand as the button moves, with the human's running total, until the human
    declines another hand or leaves; returns the exit status (0). One hand alone says little
    about who plays better: the total over many does."""
    out = out or sys.stdout

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    total = 0.0
    hands = 0
    while True:
        won: list[float] = []
        play_interactive(game, ai, human_side=human_side, rng=rng, read=read, out=out,
                         hooks=hooks, won=won)
        if not won:  # left during the hand
            break
        hands += 1
        total += won[0]
        say(f"running total: you {total:+g} after {hands} hand{'s' if hands > 1 else ''}")
        if not _another(read, say):
            break
        human_side = 1 - human_side
        say()
    if hands:
        say(f"bye: you {'won' if total > 0 else 'lost' if total < 0 else 'broke even'}"
            f"{f' {abs(total):g}' if total else ''} over {hands} hand{'s' if hands > 1 else ''}")
    return 0


def _another(read: Callable[[str], str], say: Callable[[str], None]) -> bool:
    """Whether the human wants another hand (Enter or y: yes; n, quit, end of input: no)."""
    while True:
        try:
            answer = read("another hand? [Y/n] ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            say("")
            return False
        if answer in ("", "y", "yes"):
            return True
        if answer in ("n", "no", "q", "quit", "exit"):
            return False
        say("answer y (or Enter) for another hand, n to stop")


def play_interactive(game: Game, ai: Player | None, *, human_side: int = 0,
                     rng: random.Random | None = None, read: Callable[[str], str] = input,
                     out: TextIO | None = None, state: Any = None,
                     hooks: GameHooks | None = None,
                     finish: Callable[[list[Any]], str | None] | None = None,
                     won: list[float] | None = None) -> int:
    """Run a human-vs-AI game on the terminal; returns the exit status (0).
    ``won`` receives what the human won (the game's returns) if the game is played to its end.

    Besides moves and the human player's words (help, undo, resign, quit...), the name of a
    figure of the game (chess: ``fen``) prints it, and the name of a format of its hooks'
    ``export`` (chess: ``pgn``) prints the game so far in it. ``finish`` receives the states
    played when the game ends or is left (the game's own way of keeping it, such as Go's
    --save), and may answer a line to show."""
    out = out or sys.stdout
    rng = rng or random.Random()

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    played: list[Any] = []  # played[i] leads from history[i] to history[i + 1]

    def exports() -> dict[str, str]:
        if hooks is None or hooks.export is None:
            return {}
        return dict(hooks.export(game, history[0], list(played)))

    def extra(word: str) -> str | None:
        figures = game.figures(history[-1])
        name = "_".join(word.replace("-", " ").split())  # "black captures" names black_captures
        if name in figures:
            return f"{name.replace('_', ' ')}: {figures[name]}"
        if hooks is not None and hooks.export is not None:
            return exports().get(word)
        return None

    start = game.initial_state() if state is None else state
    words = [*game.figures(start)]
    if hooks is not None and hooks.export is not None:
        words += list(hooks.export(game, start, []))
    extra_help = "".join(f"\n  {word.replace('_', ' '):<6} show the {word.replace('_', ' ')}"
                         for word in words)
    human = HumanPlayer(read, say, extra=extra, extra_help=extra_help)

    def after(position: Any) -> list[Any]:
        """The position, and the chance draws that follow it until a player is to move
        (each draw recorded in ``played``)."""
        states = [position]
        while game.outcome(states[-1]) is None and game.to_move(states[-1]) == CHANCE:
            outcomes = game.chance_outcomes(states[-1])
            draw = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            states.append(game.play(states[-1], draw))
            played.append(draw)
        return states

    history = after(start)
    names = game.player_names

    def board(position: Any) -> str:
        return game.render(game.as_seen_by(position, human_side))

    if ai is None:
        say(f"{game.info.title}: your game.")
    else:
        say(f"{game.info.title}: you are {names[human_side]}, the AI is "
            f"{names[1 - human_side]}.")
    say("Type 'help' for help.")
    say()
    say(board(history[-1]))
    while (outcome := game.outcome(history[-1])) is None:
        current = history[-1]
        mover = game.to_move(current)
        if mover != human_side and ai is not None:
            say("thinking...")
            choice = ai.choose(game, current)
            child = game.play_checked(current, choice.move)
            played.append(choice.move)
            history.extend(after(child))
            note = ""
            if choice.result is not None:
                result = choice.result
                value = result.move_values.get(choice.move, result.value)
                judged = (describe_centipawns(value, result.exact)
                          if game.values_in_centipawns
                          else describe_value(value, result.exact, result.scale, result.bounded))
                note = f" ({judged} for the AI)"
            text = game.format_move(choice.move)
            named = game.describe_move(current, choice.move)
            say(f"AI plays {text}{'' if named == text else f' = {named}'}{note}")
            say()
            say(board(history[-1]))
            continue
        try:
            move = human.choose(game, current).move
        except QuitRequested:
            say()
            say("bye: game left unfinished")
            if finish is not None and (saved := finish(history)):
                say(saved)
            return 0
        except ResignRequested:
            say()
            winner = f"the AI wins ({names[1 - human_side]})" if ai is not None else "game over"
            say(f"you resign: {winner}.")
            return 0
        except UndoRequested:
            earlier = _previous_turn(game, history, human_side)
            if earlier is None:
                say("nothing to undo")
            else:
                del history[earlier + 1:]
                del played[earlier:]
                say(board(history[-1]))
            continue
        child = game.play(current, move)
        played.append(move)
        history.extend(after(child))
        say()
        say(board(history[-1]))
    say()
    figures = ", ".join(f"{name.replace('_', ' ')} {value}"
                        for name, value in game.figures(history[-1]).items())
    if ai is None:
        say("Game over" + (f": {figures}." if figures else "."))
    elif not game.info.perfect_information:
        returns = game.returns(history[-1])
        say(f"Game over: you {'win' if returns[human_side] > 0 else 'lose'} "
            f"{abs(returns[human_side]):g}." if returns[human_side] else "Game over: a split.")
    elif outcome.winner is None:
        say("Game over: a draw.")
    elif outcome.winner == human_side:
        say(f"Game over: you win ({names[human_side]}).")
    else:
        say(f"Game over: the AI wins ({names[1 - human_side]}).")
    if figures and ai is not None:
        say(f"({figures})")
    if finish is not None and (saved := finish(history)):
        say(saved)
    if won is not None:
        won.append(game.returns(history[-1])[human_side])
    return 0


def _previous_turn(game: Game, history: list, side: int) -> int | None:
    """The index of the last position before the current one where ``side`` was to move."""
    for index in range(len(history) - 2, -1, -1):
        if game.to_move(history[index]) == side:
            return index
    return None
