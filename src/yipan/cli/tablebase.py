"""``yipan tablebase build chess KQK KRK KPK ... [--output DIR]``: endgame tables by
retrograde analysis (``yipan.games.chess.tablebase``); ``yipan tablebase info chess
[--folder DIR]`` lists the tables a folder holds, each checked whole.

Names: material as white's pieces then black's, kings included (``KQK``, ``KRKP``), or
``3-piece`` / ``4-piece`` for every table of that size (at most one pawn). The tables a
capture or promotion leads into are built first; tables already in the folder and sound are
kept. Files are written atomically, each with a checksum; a damaged one is refused (and
rebuilt by ``build``).

The tables of one level (those whose sub-tables are all built) are independent units of
work: built on ``--workers`` local processes, or on a Ray cluster with ``--ray [ADDRESS]``;
the files are the same, byte for byte, wherever they were built.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..cluster import make_runner, run_units, stderr_line
from ..core import CapabilityError
from ..core.files import FileRefusedError, check_output_folder
from .common import argument_type, count, print_json

GAMES = ("chess",)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tablebase", help="build and inspect endgame tables (chess)",
        description="Endgame tables by retrograde analysis: distance to mate for every "
                    "position of a few pieces.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser("build", help="build tables (and the smaller ones they need)")
    build.add_argument("game", help="the game (chess)")
    build.add_argument("tables", nargs="+", metavar="TABLE",
                       help="material, e.g. KQK KRK KPK KRKP, or 3-piece / 4-piece")
    build.add_argument("--output", type=argument_type(output_folder), default=None,
                       metavar="DIR",
                       help="where to write (default: $YIPAN_TABLEBASES or "
                            "~/.cache/yipan/tablebases)")
    build.add_argument("--workers", type=count(1, 64), default=2,
                       help="tables built at once on local processes (default 2)")
    build.add_argument("--ray", nargs="?", const="auto", default=None, metavar="ADDRESS",
                       help="build on a Ray cluster: auto (the cluster this machine belongs "
                            "to), local (start one here), or host:port (needs pip install "
                            "-e '.[cluster]')")
    build.add_argument("--on-error", choices=("stop", "skip"), default="stop",
                       help="a table that fails: stop (default), or go on without it (and "
                            "the tables that need it)")
    build.set_defaults(func=run_build)
    info = actions.add_parser("info", help="list and check the tables of a folder")
    info.add_argument("game", nargs="?", default="chess",
                      help="the game (chess, the default)")
    info.add_argument("--folder", type=argument_type(existing_folder), default=None,
                      metavar="DIR", help="the folder of tables (default: where build writes "
                      "them)")
    info.add_argument("--json", action="store_true", help="print one JSON object")
    info.set_defaults(func=run_info)


def output_folder(text: str) -> Path:
    """A folder to build tables into: one that exists, or a new one in a folder that does."""
    return check_output_folder(text)


def existing_folder(text: str) -> Path:
    """A folder that exists, to list the tables of."""
    path = check_output_folder(text)
    if not path.is_dir():
        raise FileRefusedError(f"{text}: no such folder")
    return path


def _check_game(name: str) -> None:
    if name not in GAMES:
        raise CapabilityError(f"endgame tables are built for {', '.join(GAMES)}, "
                              f"not {name[:40]!r}")


def run_build(args: argparse.Namespace) -> int:
    _check_game(args.game)
    from ..games.chess import tablebase

    names: list[str] = []
    for word in args.tables:
        if word.lower() == "3-piece":
            names += tablebase.ALL_THREE
        elif word.lower() == "4-piece":
            names += tablebase.FOUR_PIECE
        else:
            tablebase.parse_signature(word)  # a bad name fails before any work
            names.append(word)
    output = args.output if args.output is not None else tablebase.default_folder()
    start = time.perf_counter()
    runner = make_runner(args.ray, args.workers, args.on_error)
    if args.ray is not None:
        stderr_line(f"tables built on {runner.describe()}")

    def map_units(function: Callable[..., Any], jobs: list[tuple[Any, ...]]) -> Iterable[Any]:
        return run_units(runner, function, jobs, label="tables")

    paths = tablebase.build(names, output, progress=lambda line: print(line, flush=True),
                            map_units=map_units)
    print(f"{len(paths)} table(s) in {output} ({time.perf_counter() - start:.1f} s)")
    return 0


def run_info(args: argparse.Namespace) -> int:
    _check_game(args.game)
    from ..games.chess import tablebase

    folder = args.folder if args.folder is not None else tablebase.default_folder()
    rows: list[dict[str, object]] = []
    damaged = 0
    for path in sorted(Path(folder).glob(f"*{tablebase.SUFFIX}")):
        try:
            table = tablebase.load_table(path)
        except tablebase.DamagedTableError as error:
            damaged += 1
            rows.append({"file": path.name, "error": str(error)})
            continue
        rows.append({"file": path.name, "table": table.material.name,
                     "positions": int(table.values.shape[0]),
                     "longest_mate_moves": (table.longest_mate_plies + 1) // 2,
                     "bytes": path.stat().st_size})
    if args.json:
        print_json({"folder": str(folder), "tables": rows})
    else:
        for row in rows:
            if "error" in row:
                print(f"{row['file']}: DAMAGED: {row['error']}")
            else:
                print(f"{row['table']}: {row['positions']:,} positions, longest mate "
                      f"{row['longest_mate_moves']} moves, {row['bytes']:,} bytes")
        if not rows:
            print(f"no tables in {folder}", file=sys.stderr)
    return 2 if damaged else 0
