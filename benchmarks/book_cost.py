"""What a Connect Four opening book of depth D costs: sampled unit costs per ply, projected.

    PYTHONPATH=src python benchmarks/book_cost.py [--plies 4,6,8] [--samples 6]
        [--node-limit 40000000] [--unit-plies 8] [--units 2] [--seed 2026]
        [--tables 23,26,26+etc]

The book builder (``yipan book build connect4 --depth D``) solves every position at ply D
exactly (the shallower plies follow from them in moments), so a book of depth D costs
``N(D) x c(D)``: N(D) the positions at ply D (one a mirror pair, ``positions_at``), c(D) the
mean CPU time of an exact solve at ply D. For each ply, ``--samples`` positions drawn with a
seeded ``random.Random`` are solved as the builder's units solve them (the builder's solver,
each position from an empty table: a unit's siblings sharing a table only make it cheaper),
under ``--node-limit`` nodes. Printed per ply: N(D), the samples solved within the limit, their
CPU seconds (mean, max), the nodes per CPU-second, and the projection in CPU-hours. A sample
not solved within the limit is counted at what it spent, so the projection of a ply with
unsolved samples is a lower bound (printed with ">=").

For ``--unit-plies``, whole units of the builder (``solve_unit`` on ``--units`` units drawn
from ``units_of``: siblings solved exactly with one shared table, no limit) are timed too:
the cost a cluster pays per unit, and the projection from it. With ``--tables``, each chosen
unit is solved once per solver setting (``BITS`` for a table of 2^BITS slots, ``+etc`` for
enhanced transposition cut-offs; one table shared by the unit's positions, the settings
taken in turn unit by unit) and the CPU seconds of each are printed with their ratio to the
first: what the builder's ``UNIT_TABLE_BITS`` and ``UNIT_FLAGS`` buy.

The sample is small and the cost of a position varies by orders of magnitude (a few hard
positions dominate the mean): the projection is an order of magnitude, not a quote.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from yipan.games.connect4 import ConnectFour, kernel  # noqa: E402
from yipan.games.connect4.book import (  # noqa: E402
    UNIT_SIZE,
    positions_at,
    solve_unit,
    units_of,
)
from yipan.games.connect4.rules import Position  # noqa: E402
from yipan.games.connect4.solver import Solver  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", default="4,6,8")
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument("--node-limit", type=int, default=40_000_000)
    parser.add_argument("--unit-plies", default="")
    parser.add_argument("--units", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tables", default="",
                        help="compare whole units solved with these settings (e.g. 23,26+etc)")
    args = parser.parse_args()
    game = ConnectFour()
    solver = Solver(game)
    solver.warm_up()
    rng = random.Random(args.seed)
    print(f"7x6, {args.samples} positions a ply, at most {args.node_limit:,} nodes each "
          f"(CPU time)")
    print(f"{'ply':>3} {'positions':>10} {'solved':>7} {'mean s':>8} {'max s':>8} "
          f"{'nodes/s':>11} {'CPU-hours':>10}")
    for ply in [int(p) for p in args.plies.split(",") if p]:
        layer = positions_at(game, ply)
        sample = rng.sample(layer, min(args.samples, len(layer)))
        seconds: list[float] = []
        nodes = solved = 0
        for position in sample:
            start = time.process_time()
            result = solver.solve(position, fresh=True, node_limit=args.node_limit)
            seconds.append(time.process_time() - start)
            nodes += result.nodes
            solved += result.score is not None
        mean = statistics.fmean(seconds)
        hours = len(layer) * mean / 3600
        bound = "" if solved == len(sample) else ">="
        print(f"{ply:>3} {len(layer):>10,} {solved:>3}/{len(sample):<3} {mean:8.2f} "
              f"{max(seconds):8.2f} {nodes / max(1e-9, sum(seconds)):11,.0f} "
              f"{bound:>2}{hours:8.2f}", flush=True)
    for ply in [int(p) for p in args.unit_plies.split(",") if p]:
        layer = positions_at(game, ply)
        units = units_of(layer, UNIT_SIZE)
        chosen = rng.sample(units, min(args.units, len(units)))
        if args.tables:
            compare_tables(game, ply, chosen, args.tables.split(","))
            continue
        start = time.process_time()
        for unit in chosen:
            solve_unit(game.width, game.height, unit)
        seconds = time.process_time() - start
        count = sum(len(unit) for unit in chosen)
        print(f"ply {ply}: {len(chosen)} whole units of the builder ({count} positions, "
              f"{len(units):,} units in all): {seconds / len(chosen):.1f} CPU-s a unit, "
              f"{seconds / count:.3f} a position; the ply: "
              f"{len(layer) * seconds / count / 3600:.1f} CPU-hours", flush=True)
    return 0


def compare_tables(game: ConnectFour, ply: int, units: list[list[tuple]], settings: list[str]
                   ) -> None:
    """Each unit solved as the builder does (one table for its positions) once per setting."""
    solvers = {}
    for setting in settings:
        bits, _, option = setting.partition("+")
        solvers[setting] = Solver(game, table_bits=int(bits),
                                  flags=kernel.ETC if option == "etc" else 0)
    seconds = dict.fromkeys(settings, 0.0)
    nodes = dict.fromkeys(settings, 0)
    for unit in units:
        for setting, solver in solvers.items():
            solver.warm_up()  # also empties the table: each unit starts from an empty one
            start = time.process_time()
            for fields in unit:
                nodes[setting] += solver.solve(Position(*fields)).nodes
            seconds[setting] += time.process_time() - start
    count = sum(len(unit) for unit in units)
    first = settings[0]
    for setting in settings:
        print(f"ply {ply}, {len(units)} units ({count} positions), table {setting}: "
              f"{seconds[setting]:.1f} CPU-s, {nodes[setting]:,} nodes; "
              f"{seconds[setting] / max(1e-9, seconds[first]):.2f}x the CPU time of {first}",
              flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
