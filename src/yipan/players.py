"""Players: a person at a terminal, the AI for any game (``make_ai``), and a match loop.

A player is anything with a ``name`` and ``choose(game, state) -> Choice`` (the ``Player``
protocol of ``yipan.core``). The generic search players are in ``yipan.search.players``
(random, alpha-beta at a level) and ``yipan.search.mcts`` (MCTS), the book player in
``yipan.books``, and each game's own AI in ``yipan.games.<name>.player``; they are gathered
here for convenience. Randomness is always an injected ``random.Random``; ties between equally
good moves are broken by it, so a player asked for variety gets it, and a seeded one repeats
itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .core import (
    CHANCE,
    LEVELS,
    CapabilityError,
    Choice,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
    Player,
    game_spec,
)
from .search.players import RandomPlayer, SearchPlayer

__all__ = [
    "LEVELS", "Choice", "HumanPlayer", "MatchResult", "Player", "QuitRequested",
    "RandomPlayer", "ResignRequested", "ScriptedPlayer", "SearchPlayer", "UndoRequested",
    "check_ai", "make_ai", "play_match",
]


class UndoRequested(Exception):  # noqa: N818 - a request, not a failure
    """The human asked to take back their last move (the game loop handles it)."""


class QuitRequested(Exception):  # noqa: N818
    """The human asked to leave, or their input ended."""


class ResignRequested(Exception):  # noqa: N818
    """The human resigned: the game ends, lost."""


HUMAN_HELP = """Type a move ({example}), or:
  help   this text
  undo   take back your last move (and the AI's answer)
  moves  list the legal moves
  resign give up the game
  quit   leave the game{extra}"""


class HumanPlayer:
    """A person at a terminal: reads moves in the game's notation until one is legal.

    Nonsense and illegal moves re-prompt with the reason; ``help`` and ``moves`` answer and
    re-prompt; ``undo``, ``resign`` and ``quit`` (and the end of input, or Ctrl-C) raise
    UndoRequested, ResignRequested and QuitRequested for the game loop. ``extra`` answers
    the game loop's own words (``fen``, ``pgn``): it returns the text to show, or None for
    a word it does not know; ``extra_help`` lists them.
    """

    def __init__(self, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print, name: str = "you",
                 extra: Callable[[str], str | None] | None = None,
                 extra_help: str = "") -> None:
        self.read = read
        self.write = write
        self.name = name
        self.extra = extra
        self.extra_help = extra_help

    def choose(self, game: Game, state: Any) -> Choice:
        mark = game.player_names[game.to_move(state)]
        while True:
            try:
                text = self.read(f"your move ({mark}): ").strip()
            except (EOFError, KeyboardInterrupt):
                raise QuitRequested from None
            command = text.lower()
            if not command:
                continue
            if command in ("quit", "exit", "q"):
                raise QuitRequested
            if command == "undo":
                raise UndoRequested
            if command == "resign":
                raise ResignRequested
            if command in ("help", "h", "?"):
                examples = [game.format_move(m) for m in list(game.legal_moves(state))[:2]]
                notation = f"\nwriting moves: {game.notation_help}" if game.notation_help else ""
                self.write(HUMAN_HELP.format(example=", ".join(examples) or "a move",
                                             extra=self.extra_help) + notation)
                continue
            answer = self.extra(command) if self.extra is not None else None
            if answer is not None:
                self.write(answer)
                continue
            if command == "moves":
                self.write("legal moves: "
                           + " ".join(game.format_move(m) for m in game.legal_moves(state)))
                continue
            try:
                move = game.parse_move(state, text)
                game.play_checked(state, move)
            except (InvalidMoveError, IllegalMoveError) as error:
                self.write(f"{error}; try again ('help' for help)")
                continue
            return Choice(move)


class ScriptedPlayer:
    """Plays a fixed list of moves (for tests and replays)."""

    def __init__(self, moves: Sequence[Hashable], name: str = "scripted") -> None:
        self.moves = list(moves)
        self.name = name

    def choose(self, game: Game, state: Any) -> Choice:
        return Choice(self.moves.pop(0))


def make_ai(game: Game, level: str = "perfect", rng: random.Random | None = None,
            time: float | None = None) -> Player:
    """The best AI player for ``game`` at ``level``: the game's own (its hooks' ``make_ai``)
    if it has one, else the generic search player."""
    rng = rng or random.Random()
    hooks = game_spec(game.info.name).load_hooks()
    if hooks.make_ai is not None:
        return hooks.make_ai(game, level, rng, time)
    check_ai(game)
    return SearchPlayer(level, rng, time)


def check_ai(game: Game) -> None:
    """Raise if ``make_ai`` has no player for ``game`` (checked before its engine is prepared)."""
    if game_spec(game.info.name).load_hooks().make_ai is None and (
            game.info.players != 2 or game.info.chance):
        raise CapabilityError(f"{game.info.name} has no AI player registered")


@dataclass
class MatchResult:
    outcome: Outcome
    moves: list[Hashable] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)


def play_match(game: Game, players: Sequence[Player], rng: random.Random | None = None,
               state: Any = None, max_moves: int | None = None) -> MatchResult:
    """Play a game to its end: ``players[i]`` moves for player i; chance nodes draw from ``rng``.

    Every move is checked (``play_checked``): a player that answers an illegal move raises.
    """
    rng = rng or random.Random()
    state = game.initial_state() if state is None else state
    moves: list[Hashable] = []
    states = [state]
    while (outcome := game.outcome(state)) is None:
        if max_moves is not None and len(moves) >= max_moves:
            break
        mover = game.to_move(state)
        if mover == CHANCE:
            outcomes = game.chance_outcomes(state)
            draw = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            state = game.play(state, draw)
        else:
            move = players[mover % len(players)].choose(game, state).move
            state = game.play_checked(state, move)
            moves.append(move)
        states.append(state)
    return MatchResult(outcome if outcome is not None else Outcome(None), moves, states)
