"""``yipan prepare [GAME ...]``: compile every engine's kernels now, once, after installing.

numba compiles a kernel the first time it runs on a machine and keeps it on disk; the game
commands do this themselves when they must (and say so), but a user who would rather wait once,
up front, runs this. Prints each game's time.
"""

from __future__ import annotations

import argparse
import time

from ..core import game_spec, list_games
from ..prepare import compile_workers, prepare_engines


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "prepare", help="compile the engines' kernels now (once per machine)",
        description="Compile (or load) every game's numba kernels, so that no later command "
                    "waits for them. Runs once per machine; later it only loads them.")
    parser.add_argument("games", nargs="*", help="only these games (default: all)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    names = [game_spec(name).name for name in args.games] or list_games()
    start = time.perf_counter()
    seconds = prepare_engines(names, say=lambda line: print(f"  {line}", flush=True),
                              counters=True, workers=compile_workers())
    for name, spent in seconds.items():
        print(f"{name:<16} {spent:6.1f} s")
    print(f"ready: {len(seconds)} engines in {time.perf_counter() - start:.1f} s")
    return 0
