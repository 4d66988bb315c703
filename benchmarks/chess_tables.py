"""Chess endgame tables: how long each takes to build and how large it is.

    PYTHONPATH=src python benchmarks/chess_tables.py --output /tmp/tables KQK KRK KQKR ...

Builds the named tables one at a time, each after the smaller ones its captures and
promotions lead into (built first, in the same order, and reported on their own lines), and
prints a markdown table: signature, positions (entries, legal or not), CPU seconds of the
build (retrograde initialise and propagate; the first line also pays numba's compilation
unless the cache is warm), the file's size, and the longest mate (moves, side to move wins).
Tables already in the folder are loaded, not rebuilt, and reported as such.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# chess.py beside this file must not hide the python-chess package
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent / "src"))

from yipan.games.chess.tablebase import (  # noqa: E402
    SUFFIX,
    Table,
    build_table,
    dependencies,
    load_table,
    parse_signature,
    save_table,
)

DEFAULT = ("KQK", "KRK", "KBK", "KNK", "KPK", "KQKR", "KRKP", "KQKP", "KBNK", "KBBK", "KNNK",
           "KRKR", "KQKQ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(DEFAULT))
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    args.output.mkdir(parents=True, exist_ok=True)
    built: dict[str, Table] = {}
    print("| table | positions | CPU seconds | file size | longest mate |")
    print("|---|---:|---:|---:|---:|")

    def visit(name: str) -> None:
        material = parse_signature(name).canonical()[0]
        if material.name in built:
            return
        for sub in dependencies(material):
            visit(sub.name)
        path = args.output / f"{material.name}{SUFFIX}"
        if path.exists():
            built[material.name] = load_table(path)
            print(f"| {material.name} | (loaded from {path}) | | | |", flush=True)
            return
        start = time.process_time()
        table = build_table(material, built)
        seconds = time.process_time() - start
        save_table(table, path)
        built[material.name] = table
        moves = (table.longest_mate_plies + 1) // 2
        print(f"| {material.name} | {table.values.shape[0]:,} | {seconds:.1f} | "
              f"{path.stat().st_size / 1e6:.2f} MB | {moves} |", flush=True)

    for name in args.names:
        visit(name)


if __name__ == "__main__":
    main()
