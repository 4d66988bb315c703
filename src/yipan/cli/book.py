"""``yipan book build GAME --depth D [--output PATH] [--workers N]``: build an opening book.

Connect Four has its own builder (numba solver, worker processes, resumable units of work,
binary format); any other game goes to the generic ``yipan.books.build_book``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ..core import game_spec, get_game
from .common import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("book", help="build opening books",
                                   description="yipan book build GAME --depth D")
    actions = parser.add_subparsers(dest="book_command", metavar="ACTION")
    build = actions.add_parser("build", help="solve every position up to a depth",
                               description="Solve every position up to --depth plies and "
                                           "write the book atomically, with a checksum.")
    build.add_argument("game", help="the game (e.g. connect4)")
    build.add_argument("--depth", type=int, required=True, help="plies from the start")
    build.add_argument("--output", default=None,
                       help="where to write the book (default: GAME-depthD.book here)")
    build.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    build.add_argument("--size", default=None, help="board size, when the game has one")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.book_command != "build":
        raise UsageError("yipan book: say what to do (build)")
    if args.depth < 0:
        raise UsageError("--depth must be 0 or more")
    if args.workers < 1:
        raise UsageError("--workers must be 1 or more")
    spec = game_spec(args.game)
    options = {"size": args.size} if args.size else {}
    game = get_game(args.game, **options)
    output = Path(args.output or f"{spec.name}-depth{args.depth}.book")
    start = time.perf_counter()
    if spec.name == "connect4":
        from ..games.connect4.book import build

        report = build(game, output, args.depth, workers=args.workers,
                       progress=lambda text: print(text, file=sys.stderr, flush=True))
        count = report.positions
    else:
        try:
            from ..books import build_book
        except ImportError:
            raise UsageError("yipan book build supports only connect4 in this build") from None
        book = build_book(game, output, max_ply=args.depth)
        count = len(book)
    print(f"wrote {output}: {count} positions up to ply {args.depth} "
          f"in {time.perf_counter() - start:.1f} s")
    return 0
