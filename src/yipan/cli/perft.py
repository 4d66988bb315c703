"""``yipan perft GAME [MOVES] --depth D``: count the leaves of the game tree (a test of the
rules and a benchmark of their speed, as chess programs use it).

The count is ``yipan.search.perft.perft`` from the position after MOVES: finished games stop
counting where they end, chance outcomes count as branches. ``--divide`` prints one line per
move (its text and its count) before the total, as Stockfish's ``go perft`` does; ``--json``
prints one object::

    {"game": "tictactoe", "moves": ["b2"], "depth": 2, "nodes": 56, "seconds": 0.0001,
     "nodes_per_second": 560000, "divide": {"a1": 7, ...}}

``nodes`` is the leaf count; ``divide`` is always there (empty at depth 0 or a finished game).
A game may count with its own kernel (its hooks' ``perft``: chess's numba counter); the
counts are the same, only faster. ``--fen`` (chess) is a game option: the start position.
"""

from __future__ import annotations

import argparse
import time

from ..core import replay
from ..prepare import prepare_counter
from ..search.perft import divide
from .common import count, moves_from_args, print_json, say_on_stderr, start_game_command

MAX_DEPTH = 30


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "perft", help="count the leaves of the game tree to a depth (test and benchmark)",
        add_help=False,
        description="yipan perft GAME [MOVES ...] --depth D [--divide] [--json]")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def add_perft_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("moves", nargs="*", default=[],
                        help="the moves played from the start, in the game's notation")
    parser.add_argument("--depth", type=count(0, MAX_DEPTH), required=True,
                        help=f"plies to count, 0 to {MAX_DEPTH} (a chance draw is a ply)")
    parser.add_argument("--divide", action="store_true",
                        help="print the count below each move first")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    args, game, hooks = start_game_command("perft", args.argv, "Count the game tree's leaves.",
                                            add_perft_arguments)
    moves = moves_from_args(game, args.moves)
    state = replay(game, moves)[-1]
    prepare_counter(game, say=say_on_stderr)  # (compiled before the clock starts)
    start = time.perf_counter()
    counter = hooks.perft or divide  # a game's own fast counter, where it has one
    by_move = counter(game, state, args.depth)
    nodes = sum(by_move.values()) if args.depth else 1
    seconds = time.perf_counter() - start
    speed = round(nodes / seconds) if seconds > 0 else None
    if args.json:
        print_json({
            "game": game.info.name, "moves": moves, "depth": args.depth, "nodes": nodes,
            "seconds": round(seconds, 6), "nodes_per_second": speed,
            "divide": {game.format_move(move): n for move, n in by_move.items()},
        })
        return 0
    if args.divide:
        for move, n in by_move.items():
            print(f"{game.format_move(move)}: {n}")
        print()
    print(f"nodes: {nodes}")
    print(f"time: {seconds:.6f} s")
    print(f"nodes/s: {'-' if speed is None else speed}")
    return 0
