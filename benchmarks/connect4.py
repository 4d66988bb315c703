"""Connect Four solver benchmark: the six shared sets, and the solver's variants as ratios.

    PYTHONPATH=src python benchmarks/connect4.py [--data DIR] [--sample N] [--hard K]

For each set: mean time per position, mean nodes, nodes/s, mismatches, against the reference
C++ solver's figures (one core, fresh table per position). A fresh table per position here too;
only the solver call is timed. Then each variant (mirror-folded keys, enhanced transposition
cut-offs, depth-preferred replacement) on the same positions, as ratios of time and nodes to
the default. The machine may be shared: figures are noisy, ratios less so.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from yipan.core import replay
from yipan.games.connect4 import ConnectFour, kernel
from yipan.games.connect4.solver import Solver

# mean ms per position and mean nodes of the reference C++ solver (the figures)
REFERENCE = {
    "Test_L3_R1": (0.0067, 51), "Test_L2_R1": (0.055, 449), "Test_L2_R2": (5.7, 39_807),
    "Test_L1_R1": (0.44, 3_296), "Test_L1_R2": (153.0, 1_187_923), "Test_L1_R3": (7000.0, None),
}
VARIANTS = {"mirror key": kernel.MIRROR_KEY, "ETC": kernel.ETC,
            "depth-preferred": kernel.DEPTH_PREFERRED, "best move": kernel.BEST_MOVE,
            "multiply hash": kernel.MULTIPLY_HASH,
            "mirror + ETC": kernel.MIRROR_KEY | kernel.ETC}


def load(folder: Path, name: str, game: ConnectFour, sample: int | None, rng: random.Random):
    lines = [line.split() for line in (folder / name).read_text().splitlines() if line.strip()]
    if sample is not None and sample < len(lines):
        lines = rng.sample(lines, sample)
    return [(replay(game, game.split_moves(moves))[-1], int(score)) for moves, score in lines]


def run(solver: Solver, positions) -> tuple[float, float, int]:
    """Total seconds, total nodes, mismatches."""
    solve = solver.solve_fresh
    perf = time.perf_counter
    seconds = 0.0
    nodes = wrong = 0
    for position, expected in positions:
        start = perf()
        score = solve(position)
        seconds += perf() - start
        nodes += solver.nodes
        wrong += score != expected
    return seconds, nodes, wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.environ.get("YIPAN_DATA", "../shared/data"))
    parser.add_argument("--sample", type=int, default=None,
                        help="positions of each easy set (default: all 1000)")
    parser.add_argument("--medium", type=int, default=50,
                        help="positions of Test_L1_R2 (default 50)")
    parser.add_argument("--hard", type=int, default=2, help="positions of L1_R3 (default 2)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating rounds of each variant; the fastest counts")
    args = parser.parse_args()
    folder = Path(args.data) / "connect4"
    if not folder.is_dir():
        print(f"benchmark sets not found in {folder} (use --data)", file=sys.stderr)
        return 2
    game = ConnectFour()
    rng = random.Random(2024)
    sizes = {"Test_L3_R1": args.sample, "Test_L2_R1": args.sample, "Test_L2_R2": args.sample,
             "Test_L1_R1": args.sample, "Test_L1_R2": args.medium, "Test_L1_R3": args.hard}
    sets = {name: load(folder, name, game, size, rng) for name, size in sizes.items()
            if size is None or size > 0}
    solver = Solver(game)
    solver.warm_up()
    print(f"default flags: {kernel.DEFAULT_FLAGS}; fresh table per position; one process")
    print("set           n   mean ms   ref ms  ratio   mean nodes  ref nodes   Mnodes/s  wrong")
    for name, positions in sets.items():
        seconds, nodes, wrong = run(solver, positions)
        n = len(positions)
        ref_ms, ref_nodes = REFERENCE[name]
        ms = seconds / n * 1000
        print(f"{name:<11}{n:>5} {ms:>9.4f} {ref_ms:>8.4g} {ms / ref_ms:>6.2f}x "
              f"{nodes / n:>11.1f} {ref_nodes if ref_nodes else '-':>10} "
              f"{nodes / seconds / 1e6:>9.2f} {wrong:>6}", flush=True)

    print("\nvariants against the default (time ratio, node ratio; < 1 is better; "
          f"best of {args.rounds} alternating rounds):")
    variant_sets = {name: sets[name][:size] for name, size in
                    (("Test_L2_R1", 300), ("Test_L2_R2", 100), ("Test_L1_R1", 300),
                     ("Test_L1_R2", 8)) if name in sets}
    configs = {"default": kernel.DEFAULT_FLAGS, **VARIANTS}
    solvers = {label: Solver(game, flags=flags) for label, flags in configs.items()}
    for variant in solvers.values():
        variant.warm_up()
    best: dict[tuple[str, str], tuple[float, int]] = {}
    for _ in range(args.rounds):
        for name, positions in variant_sets.items():
            for label, variant in solvers.items():
                seconds, nodes, wrong = run(variant, positions)
                assert wrong == 0, f"{label} got {wrong} wrong on {name}"
                old = best.get((label, name))
                best[(label, name)] = (min(seconds, old[0]) if old else seconds, nodes)
    print(" " * 17 + "".join(f"{name:>22}" for name in variant_sets))
    for label in VARIANTS:
        cells = []
        for name in variant_sets:
            seconds, nodes = best[(label, name)]
            base_seconds, base_nodes = best[("default", name)]
            cells.append(f"{seconds / base_seconds:>10.2f}t {nodes / base_nodes:>9.3f}n")
        print(f"{label:<17}" + "".join(f"{cell:>22}" for cell in cells), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
