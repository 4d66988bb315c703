"""``yipan watch GAME [--ai ENGINE] [--seed S] [--json]``: watch the AI play.

The AI plays every side (2048: the one player; tic-tac-toe: both), chance is drawn from the
seeded generator, and the board is redrawn after each move on a terminal (a line of progress
every so often when the output is piped). At the end: the result, the moves, the moves per
second and the game's figures (2048: ``score``, ``max_tile``); ``--json`` gives one object.
``--ai`` names any registered engine that makes a player (``yipan.engines``): ``auto`` (the
game's AI), ``mcts``, ``random``, ...
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any, TextIO

from .. import engines
from ..core import CHANCE, Game, Player
from ..players import check_ai
from .common import count, level, prepare_game, print_json, seconds, start_game_command
from .play import check_player

CLEAR = "\x1b[H\x1b[2J"
PROGRESS_EVERY = 100  # moves between progress lines when the output is not a terminal


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "watch", help="watch the AI play a game (against itself, or 2048 alone)",
        add_help=False,
        description="yipan watch GAME [--ai ENGINE] [--seed S] [--json]")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def add_watch_arguments(parser: argparse.ArgumentParser) -> None:
    names = engines.player_engines()
    parser.add_argument("--ai", choices=names, default="auto", metavar="ENGINE",
                        help="the player (default auto, the game's AI): "
                             + engines.engine_help(names))
    parser.add_argument("--seed", type=int, default=None, help="seed chance and the AI")
    parser.add_argument("--json", action="store_true", help="one JSON object at the end")
    parser.add_argument("--level", default="perfect", type=level, metavar="LEVEL",
                        help="auto: perfect, medium, easy")
    parser.add_argument("--time", type=seconds, default=None,
                        help="seconds per move, for games the AI cannot solve")
    parser.add_argument("--iterations", type=count(1), default=None,
                        help="iterations per move of a tree search (mcts: default "
                             f"{engines.DEFAULT_PLAYER_ITERATIONS})")
    parser.add_argument("--max-moves", type=count(1), default=None,
                        help="stop after this many moves")


def run(args: argparse.Namespace) -> int:
    args, game, _hooks = start_game_command("watch", args.argv, "Watch the AI play.",
                                            add_watch_arguments, prepare=False)
    check_player(game, args.ai)  # refused before anything compiles
    if game.info.players == 1 and args.ai == "auto":
        check_ai(game)
    prepare_game(game)
    rng = random.Random(args.seed)
    player = engines.make_player(game, args.ai, args.level, random.Random(rng.getrandbits(64)),
                                 args.time, nodes=args.iterations)
    terminal = sys.stdout.isatty() and not args.json
    summary = watch(game, player, rng, max_moves=args.max_moves,
                    out=None if args.json else sys.stdout, redraw=terminal,
                    progress=None if terminal else sys.stderr)
    if args.json:
        print_json(summary)
    else:
        figures = "".join(f", {name.replace('_', ' ')} {value}"
                          for name, value in summary["figures"].items())
        print(f"{summary['result']}{figures}; {summary['moves']} moves "
              f"({summary['moves_per_second']:.1f} moves/s)")
    return 0


def watch(game: Game, player: Player, rng: random.Random, *, max_moves: int | None = None,
          out: TextIO | None = None, redraw: bool = False,
          progress: TextIO | None = None) -> dict[str, Any]:
    """Let ``player`` play every side of a game from the start (chance drawn with ``rng``)."""
    state = game.initial_state()
    moves = 0
    start = time.perf_counter()
    while game.outcome(state) is None and (max_moves is None or moves < max_moves):
        if game.to_move(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            state = game.play(state, rng.choices([o for o, _ in outcomes],
                                                 [p for _, p in outcomes])[0])
            continue
        state = game.play_checked(state, player.choose(game, state).move)
        moves += 1
        if out is not None and redraw:
            print(CLEAR + game.render(state), file=out, flush=True)
        if progress is not None and moves % PROGRESS_EVERY == 0:
            print(f"{moves} moves, {time.perf_counter() - start:.0f} s", file=progress,
                  flush=True)
    elapsed = time.perf_counter() - start
    if out is not None and not redraw:
        print(game.render(state), file=out)
    outcome = game.outcome(state)
    names = game.player_names
    if outcome is None:
        result = "stopped"
    elif game.info.players == 1:
        result = "game over"
    else:
        result = "a draw" if outcome.winner is None else f"{names[outcome.winner]} won"
    figures = game.figures(state)
    return {"game": game.info.name, "result": result,
            "winner": None if outcome is None else outcome.winner, "moves": moves,
            "moves_per_second": round(moves / elapsed, 2) if elapsed > 0 else 0.0,
            "figures": figures, **figures}
