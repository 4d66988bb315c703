"""``yipan book build GAME --depth D [--output PATH] [--workers N]``: build an opening book.

A game with a builder of its own (its hooks' ``build_book``: Connect Four's numba solver on
worker processes, resumable, in its binary format) uses it; any other game the generic
``yipan.books.build_book`` (every position solved by alpha-beta, in the checked text format).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..books import build_book
from ..cluster import make_runner, run_units
from ..core import BookRequest, game_spec
from ..core.files import check_output
from .common import UsageError, count, game_from_args, output_file, parse_game_command, seconds


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("book", help="build opening books",
                                   description="yipan book build GAME --depth D")
    actions = parser.add_subparsers(dest="book_command", metavar="ACTION")
    build = actions.add_parser(
        "build", help="solve every position up to a depth", add_help=False,
        description="Solve every position up to --depth plies and write the book "
                    "atomically, with a checksum.")
    build.add_argument("argv", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--depth", type=count(0), required=True, help="plies from the start")
    parser.add_argument("--output", type=output_file, default=None,
                        help="where to write the book (default: GAME-depthD.book here)")
    parser.add_argument("--workers", type=count(1, 64), default=2,
                        help="worker processes (default 2)")
    parser.add_argument("--ray", nargs="?", const="auto", default=None, metavar="ADDRESS",
                        help="run the units of work on a Ray cluster: auto (the cluster this "
                             "machine belongs to), local (start one here), or host:port "
                             "(needs pip install -e '.[cluster]')")
    parser.add_argument("--on-error", choices=("stop", "skip"), default="stop",
                        help="a unit that fails: stop the build (default), or skip it")
    parser.add_argument("--time", type=seconds, default=60.0,
                        help="seconds a position may take to solve (generic builder; default "
                             "60): a book holds exact values, so a position not solved in "
                             "time ends the build")


def run(args: argparse.Namespace) -> int:
    if args.book_command != "build":
        raise UsageError("yipan book: say what to do (build)")
    spec, args, hooks = parse_game_command("book build", args.argv, "Build an opening book.",
                                           add_build_arguments)
    game = game_from_args(spec, args, args.game_name)
    longest = game.info.max_moves
    if longest is not None and args.depth > longest:
        raise UsageError(f"--depth {args.depth}: no game of {game.info.title} is longer than "
                         f"{longest} plies")
    output = Path(args.output or f"{game_spec(args.game_name).name}-depth{args.depth}.book")
    check_output(output, "--output")  # the default name too, before any work
    start = time.perf_counter()
    say = (lambda text: print(text, file=sys.stderr, flush=True))  # noqa: E731
    map_units = None
    if args.ray is not None and hooks.build_book is None:
        raise UsageError(f"--ray: {game.info.title}'s book is built in one process (the "
                         "generic builder shares one table across positions)")
    if hooks.build_book is not None:
        runner = make_runner(args.ray, args.workers, args.on_error)
        say(f"units of work on {runner.describe()}")

        def map_units(function: Callable[..., Any], jobs: Iterable[Sequence[Any]]
                      ) -> Iterator[Any]:
            return run_units(runner, function, jobs, say=say)
    request = BookRequest(output, args.depth, args.workers, progress=say, map_units=map_units)
    if hooks.build_book is not None:
        count_written = hooks.build_book(game, request).positions
    else:
        count_written = len(build_book(game, output, max_ply=args.depth,
                                       seconds_per_position=args.time))
    print(f"wrote {output}: {count_written} positions up to ply {args.depth} "
          f"in {time.perf_counter() - start:.1f} s")
    return 0
