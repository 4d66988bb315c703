"""Connect Four solver benchmark: CPU time per position and nodes per CPU-second, side by side
with the reference solver measured in the same run.

    PYTHONPATH=src python benchmarks/connect4.py [--data DIR] [--sample N] [--medium N]
        [--hard N] [--sets NAMES] [--block N] [--reference PROGRAM] [--variants] [--tables]

Positions: the six shared sets ``Test_L*_R*`` (``DIR/connect4/`` or ``DIR`` itself; default
``$YIPAN_DATA``). A fresh table per position; only the solver call is timed, in CPU time
(``time.process_time``).

The reference (``--reference`` or ``$YIPAN_C4_REFERENCE``): a program that reads one position
a line on its standard input and answers ``moves score nodes microseconds`` a line (the
reference solver's benchmark output; build its solver with a main that resets the table for
each line and times the solve in CPU time). Each position is solved by both, one after the
other, alternating which goes first, so that the load of a shared machine falls on both
alike: positions go by blocks (``--block``; six a set), each block solved by us in one
kernel call, by the reference, and by us with a Python call per position, in a rotating
order. Without a reference the script says so and prints our figures alone.

``--variants``: the solver's options (mirror keys, ETC, ...) against the default, as ratios.
``--tables``: table sizes against nodes and time on early positions (is a larger table worth
it there?).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from yipan.core import replay
from yipan.games.connect4 import ConnectFour, Position, kernel
from yipan.games.connect4.solver import DEFAULT_TABLE_BITS, Solver

SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
VARIANTS = {"mirror key": kernel.MIRROR_KEY, "ETC": kernel.ETC,
            "depth-preferred": kernel.DEPTH_PREFERRED, "best move": kernel.BEST_MOVE,
            "multiply hash": kernel.MULTIPLY_HASH,
            "mirror + ETC": kernel.MIRROR_KEY | kernel.ETC}

Entry = tuple[str, Position, int]  # moves, position, expected score


class Reference:
    """The reference program, kept running: one position in, one answer out."""

    def __init__(self, program: str) -> None:
        self.process = subprocess.Popen([program], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)

    def solve(self, moves: str) -> tuple[int, int, float]:
        """(score, nodes, CPU seconds) as the program reports them."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(moves + "\n")
        self.process.stdin.flush()
        words = self.process.stdout.readline().split()
        if len(words) != 4 or words[0] != moves:
            raise RuntimeError(f"the reference answered {' '.join(words)[:80]!r} for {moves}")
        return int(words[1]), int(words[2]), float(words[3]) / 1e6

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=10)


def find_folder(data: str) -> Path | None:
    for folder in (Path(data) / "connect4", Path(data)):
        if (folder / "Test_L3_R1").is_file():
            return folder
    return None


def load(folder: Path, name: str, game: ConnectFour, count: int | None,
         rng: random.Random) -> list[Entry]:
    lines = [line.split() for line in (folder / name).read_text().splitlines() if line.strip()]
    if count is not None and count < len(lines):
        lines = lines[:count] if name in ("Test_L1_R2", "Test_L1_R3") else \
            rng.sample(lines, count)
    return [(moves, replay(game, game.split_moves(moves))[-1], int(score))
            for moves, score in lines]


def side_by_side(solver: Solver, reference: Reference | None, entries: list[Entry],
                 block: int) -> dict[str, float]:
    """Our and the reference's CPU seconds and nodes over ``entries``, interleaved by blocks.

    Each block of ``block`` positions is solved three ways, in a rotating order: by us in one
    kernel call (``solve_many``, as a batch file is), by the reference, and by us again with a
    Python call per position (``solve_fresh``; the "per call" figure shows what the call
    itself costs on the easy sets, where a solve is a few dozen nodes)."""
    totals = dict.fromkeys(("seconds", "call_seconds", "nodes", "wrong", "ref_seconds",
                            "ref_nodes", "ref_wrong", "same_nodes"), 0.0)
    cpu = time.process_time

    def ours(chunk: list[Entry]) -> None:
        packed = solver.pack([position for _, position, _ in chunk])  # (the reference
        start = cpu()  # reads its lines outside its clock too)
        scores, nodes = solver.solve_many(packed)
        totals["seconds"] += cpu() - start
        totals["nodes"] += int(nodes.sum())
        totals["wrong"] += sum(int(s) != e for s, (_, _, e) in zip(scores, chunk, strict=True))
        ours_nodes.extend(int(n) for n in nodes)

    def per_call(chunk: list[Entry]) -> None:
        for _, position, _ in chunk:
            start = cpu()
            solver.solve_fresh(position)
            totals["call_seconds"] += cpu() - start

    def theirs(chunk: list[Entry]) -> None:
        assert reference is not None
        for moves, _, expected in chunk:
            ref_score, ref_nodes, ref_seconds = reference.solve(moves)
            totals["ref_seconds"] += ref_seconds
            totals["ref_nodes"] += ref_nodes
            totals["ref_wrong"] += ref_score != expected
            ref_nodes_seen.append(ref_nodes)

    runs = [ours, per_call] + ([theirs] if reference is not None else [])
    ours_nodes: list[int] = []
    ref_nodes_seen: list[int] = []
    for index, first in enumerate(range(0, len(entries), block)):
        chunk = entries[first:first + block]
        shift = index % len(runs)
        for run in runs[shift:] + runs[:shift]:
            run(chunk)
    pairs = zip(ours_nodes, ref_nodes_seen, strict=False)  # (no pairs without a reference)
    totals["same_nodes"] = sum(a == b for a, b in pairs)
    return totals


def block_size(count: int, block: int | None) -> int:
    """Positions per block: as asked, else six blocks a set (each of the three rotations
    twice), 250 positions at most."""
    return block if block is not None else max(1, min(250, -(-count // 6)))


def print_sets(solver: Solver, reference: Reference | None,
               sets: dict[str, list[Entry]], block: int | None) -> None:
    print("set            n block  ours ms  per call    ref ms  ratio  ours Mn/s  ref Mn/s  "
          "nodes/ref  same nodes  wrong")
    for name, entries in sets.items():
        n = len(entries)
        size = block_size(n, block)
        t = side_by_side(solver, reference, entries, size)
        ours_ms = t["seconds"] / n * 1e3
        line = f"{name:<11}{n:>5} {size:>5} {ours_ms:>8.4f} {t['call_seconds'] / n * 1e3:>9.4f} "
        if reference is not None:
            ref_ms = t["ref_seconds"] / n * 1e3
            line += (f"{ref_ms:>9.4f} {ours_ms / ref_ms:>5.2f}x "
                     f"{t['nodes'] / t['seconds'] / 1e6:>10.2f} "
                     f"{t['ref_nodes'] / t['ref_seconds'] / 1e6:>9.2f} "
                     f"{t['nodes'] / t['ref_nodes']:>10.4f} {int(t['same_nodes']):>6}/{n:<5} "
                     f"{int(t['wrong'])}/{int(t['ref_wrong'])}")
        else:
            line += (f"{'-':>9} {'-':>6} {t['nodes'] / t['seconds'] / 1e6:>10.2f} {'-':>9} "
                     f"{'-':>10} {'-':>11}{int(t['wrong'])}")
        print(line, flush=True)
    print("ours ms: CPU time per position, a block in one kernel call; per call: the same "
          "with a Python call per position; ref ms: the reference, a line per position; "
          "ratio: ours / the reference's (< 1: faster); Mn/s: million nodes per CPU-second; "
          "same nodes: positions where both counted the same nodes; wrong: ours/reference")


def print_variants(game: ConnectFour, sets: dict[str, list[Entry]], rounds: int) -> None:
    print(f"\nvariants against the default (time ratio, node ratio; < 1 is better; best of "
          f"{rounds} alternating rounds):")
    variant_sets = {name: sets[name][:size] for name, size in
                    (("Test_L2_R1", 300), ("Test_L2_R2", 100), ("Test_L1_R1", 300),
                     ("Test_L1_R2", 8)) if name in sets}
    solvers = {label: Solver(game, flags=flags)
               for label, flags in {"default": kernel.DEFAULT_FLAGS, **VARIANTS}.items()}
    for variant in solvers.values():
        variant.warm_up()
    best: dict[tuple[str, str], tuple[float, float]] = {}
    for _ in range(rounds):
        for name, entries in variant_sets.items():
            for label, variant in solvers.items():
                t = side_by_side(variant, None, entries)
                assert t["wrong"] == 0, f"{label} got {t['wrong']} wrong on {name}"
                old = best.get((label, name))
                seconds = min(t["seconds"], old[0]) if old else t["seconds"]
                best[(label, name)] = (seconds, t["nodes"])
    print(" " * 17 + "".join(f"{name:>22}" for name in variant_sets))
    for label in VARIANTS:
        cells = []
        for name in variant_sets:
            seconds, nodes = best[(label, name)]
            base_seconds, base_nodes = best[("default", name)]
            cells.append(f"{seconds / base_seconds:>10.2f}t {nodes / base_nodes:>9.3f}n")
        print(f"{label:<17}" + "".join(f"{cell:>22}" for cell in cells), flush=True)


def early_positions(game: ConnectFour, rng: random.Random, count: int) -> list[Entry]:
    """Seeded random positions of 6-8 plies (what a player meets early), scored by solving."""
    entries = []
    scorer = Solver(game, table_bits=24)
    while len(entries) < count:
        moves = ""
        position = game.initial_state()
        for _ in range(rng.randrange(6, 9)):
            col = rng.choice([c for c in game.legal_moves(position)
                              if not game.is_winning_move(position, c)])
            moves += str(col + 1)
            position = game.play(position, col)
        score = scorer.solve(position, fresh=True).score
        assert score is not None
        entries.append((moves, position, score))
    return entries


def print_tables(game: ConnectFour, sets: dict[str, list[Entry]], rng: random.Random,
                 early: int) -> None:
    print("\ntable size against nodes and CPU time (fresh table per position):")
    groups = {name: sets[name] for name in ("Test_L1_R2", "Test_L1_R3") if name in sets}
    if early:
        groups["6-8 plies"] = early_positions(game, rng, early)
    sizes = (22, 23, 24, 25)
    solvers = {bits: Solver(game, table_bits=bits) for bits in sizes}
    print(f"{'positions':<12}{'n':>4}" + "".join(f"{f'2^{bits} s':>12}{'nodes':>14}"
                                                 for bits in sizes))
    for name, entries in groups.items():
        cells = []
        for bits in sizes:
            t = side_by_side(solvers[bits], None, entries)
            assert t["wrong"] == 0
            cells.append(f"{t['seconds'] / len(entries):>12.3f}"
                         f"{t['nodes'] / len(entries):>14,.0f}")
        print(f"{name:<12}{len(entries):>4}" + "".join(cells), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.environ.get("YIPAN_DATA", "../shared/data"))
    parser.add_argument("--sample", type=int, default=1000,
                        help="positions of each easy set (default: all 1000)")
    parser.add_argument("--medium", type=int, default=40,
                        help="the first positions of Test_L1_R2 (default 40)")
    parser.add_argument("--hard", type=int, default=3,
                        help="the first positions of Test_L1_R3 (default 3)")
    parser.add_argument("--reference", default=os.environ.get("YIPAN_C4_REFERENCE"),
                        help="the reference program (default $YIPAN_C4_REFERENCE)")
    parser.add_argument("--sets", default=",".join(SETS),
                        help="which sets, comma-separated (default: all six)")
    parser.add_argument("--block", type=int, default=None,
                        help="positions per interleaved block (default: n/6, at most 250)")
    parser.add_argument("--variants", action="store_true", help="compare the solver options")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --variants")
    parser.add_argument("--tables", action="store_true", help="compare table sizes")
    parser.add_argument("--table-bits", type=int, default=DEFAULT_TABLE_BITS,
                        help="our table's slots, 2**bits (default the solver's; the "
                             "reference's has 2**24 entries)")
    parser.add_argument("--early", type=int, default=6,
                        help="random 6-8 ply positions for --tables (default 6)")
    args = parser.parse_args()
    folder = find_folder(args.data)
    if folder is None:
        print(f"benchmark sets not found in {args.data} (use --data or YIPAN_DATA)",
              file=sys.stderr)
        return 2
    game = ConnectFour()
    rng = random.Random(2024)
    sizes = {"Test_L3_R1": args.sample, "Test_L2_R1": args.sample, "Test_L2_R2": args.sample,
             "Test_L1_R1": args.sample, "Test_L1_R2": args.medium, "Test_L1_R3": args.hard}
    chosen = args.sets.split(",")
    unknown = sorted(set(chosen) - set(SETS))
    if unknown:
        print(f"unknown set {unknown[0]} (the sets: {', '.join(SETS)})", file=sys.stderr)
        return 2
    if args.block is not None and args.block < 1:
        print("--block takes a number of positions, 1 or more", file=sys.stderr)
        return 2
    sets = {name: load(folder, name, game, size, rng) for name, size in sizes.items()
            if size > 0 and name in chosen}
    if not sets:
        print("no positions chosen (see --sets, --sample, --medium, --hard)", file=sys.stderr)
        return 2
    reference = None
    program = args.reference and (shutil.which(args.reference) or args.reference)
    if program and Path(program).is_file():
        reference = Reference(program)
        print(f"reference: {program}, solving the same positions, interleaved")
    else:
        print("no reference program (set YIPAN_C4_REFERENCE or --reference): our figures "
              "alone")
    solver = Solver(game, table_bits=args.table_bits)
    solver.warm_up()
    solver.solve_many([next(iter(sets.values()))[0][1]])  # load the batch kernel now
    print(f"table: {len(solver.table):,} slots; default flags "
          f"{kernel.DEFAULT_FLAGS}; fresh table per position; CPU time")
    try:
        print_sets(solver, reference, sets, args.block)
    finally:
        if reference is not None:
            reference.close()
    if args.variants:
        print_variants(game, sets, args.rounds)
    if args.tables:
        print_tables(game, sets, rng, args.early)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
