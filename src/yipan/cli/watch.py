"""``yipan watch 2048 [--ai expectimax|mcts] [--seed S] [--json]``: watch the AI play.

The board is redrawn after each move on a terminal; at the end the score and the largest tile
(``--json``: one object with ``score``, ``max_tile``, ``moves`` and ``moves_per_second``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any, TextIO

from .common import UsageError, count, game_from_args, parse_game_command, print_json

CLEAR = "\x1b[H\x1b[2J"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "watch", help="watch the AI play a one-player game (2048)", add_help=False,
        description="yipan watch 2048 [--ai expectimax|mcts] [--seed S] [--json]")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def add_watch_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ai", choices=("expectimax", "mcts"), default="expectimax",
                        help="the player: expectimax (default) or mcts")
    parser.add_argument("--seed", type=int, default=None, help="seed the tiles and the AI")
    parser.add_argument("--json", action="store_true", help="one JSON object at the end")
    parser.add_argument("--level", default="perfect", help="expectimax: perfect, medium, easy")
    parser.add_argument("--iterations", type=count(1), default=300,
                        help="mcts: iterations per move (default 300)")
    parser.add_argument("--max-moves", type=count(1), default=None,
                        help="stop after this many moves")


def run(args: argparse.Namespace) -> int:
    spec, args, _ = parse_game_command("watch", args.argv, "Watch the AI play.",
                                       add_watch_arguments)
    game = game_from_args(spec, args, args.game_name)
    if game.info.players != 1 or not hasattr(game, "start"):
        raise UsageError(f"yipan watch plays one-player games (2048); {spec.name} is not one")
    if args.iterations < 1 or (args.max_moves is not None and args.max_moves < 0):
        raise UsageError("--iterations must be at least 1 and --max-moves not negative")
    rng = random.Random(args.seed)
    if args.ai == "mcts":
        from ..core import Limit
        from ..search.mcts import MCTSPlayer

        player: Any = MCTSPlayer(Limit(nodes=args.iterations), random.Random(rng.getrandbits(64)))
    else:
        from ..players import make_ai

        player = make_ai(game, args.level, random.Random(rng.getrandbits(64)), None)
    summary = watch(game, player, rng, max_moves=args.max_moves,
                    out=None if args.json else sys.stdout, redraw=sys.stdout.isatty())
    if args.json:
        print_json(summary)
    else:
        print(f"score {summary['score']}, largest tile {summary['max_tile']}, "
              f"{summary['moves']} moves ({summary['moves_per_second']:.1f} moves/s)")
    return 0


def watch(game: Any, player: Any, rng: random.Random, *, max_moves: int | None = None,
          out: TextIO | None = None, redraw: bool = False) -> dict[str, Any]:
    """Let ``player`` play a game from a fresh start (tiles drawn with ``rng``)."""
    from ..games.g2048 import max_tile

    state = game.start(rng)
    moves = 0
    start = time.perf_counter()
    while game.outcome(state) is None and (max_moves is None or moves < max_moves):
        state = game.play(state, player.choose(game, state).move)
        state = game.play(state, game.sample_spawn(state, rng))
        moves += 1
        if out is not None and redraw:
            print(CLEAR + game.render(state), file=out, flush=True)
    elapsed = time.perf_counter() - start
    if out is not None and not redraw:
        print(game.render(state), file=out)
    return {"score": state.score, "max_tile": max_tile(state.board), "moves": moves,
            "moves_per_second": round(moves / elapsed, 2) if elapsed > 0 else 0.0}
