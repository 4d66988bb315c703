"""Units of work on local processes against Ray on the same machine: what the cluster path costs.

    python benchmarks/cluster.py [--depth 6] [--unit-size 8] [--rounds 2]

The units are the Connect Four book builder's (positions of a 6x5 board at ``--depth`` plies,
each unit solved exactly). For 1 and 2 workers, local processes and a local Ray cluster run the
same units, interleaved over ``--rounds``; printed: wall seconds (the best round), units per
second, the speed-up of 2 workers over 1, and Ray's time as a ratio to local processes'. Ray's
start-up is paid once, before the timed rounds, as a long build would pay it. Without Ray
installed (``pip install -e ".[cluster]"``) only the local rows are printed.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from yipan.cluster import LocalRunner, RayRunner, Runner  # noqa: E402
from yipan.games.connect4 import ConnectFour  # noqa: E402
from yipan.games.connect4.book import positions_at, solve_unit, units_of  # noqa: E402


def timed(runner: Runner, jobs: list) -> float:
    start = time.perf_counter()
    for _ in runner.map_units(solve_unit, jobs):
        pass
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--unit-size", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    game = ConnectFour(6, 5)
    units = units_of(positions_at(game, args.depth), args.unit_size)
    jobs = [(game.width, game.height, unit) for unit in units]
    print(f"{len(jobs)} units of {args.unit_size} positions (6x5, ply {args.depth})")
    runners: dict[str, list[Runner]] = {"local": [LocalRunner(1), LocalRunner(2)]}
    if importlib.util.find_spec("ray") is not None:
        started = time.perf_counter()
        one = RayRunner("local", 2)  # a local cluster of 2 CPUs, its workers on this yipan
        print(f"Ray started in {time.perf_counter() - started:.1f} s (paid once, not timed)")
        runners["ray"] = [one, one]
    else:
        print("Ray is not installed: local processes only (pip install -e '.[cluster]')")
    best: dict[tuple[str, int], float] = {}
    for _ in range(args.rounds):
        for kind, (single, double) in runners.items():
            for workers, runner in ((1, single), (2, double)):
                if kind == "ray" and workers == 1:
                    seconds = timed_one_at_a_time(runner, jobs)
                else:
                    seconds = timed(runner, jobs)
                key = (kind, workers)
                best[key] = min(best.get(key, float("inf")), seconds)
    print(f"{'runner':<10} {'workers':>7} {'seconds':>8} {'units/s':>8} {'speed-up':>9} "
          f"{'/ local':>8}")
    for (kind, workers), seconds in sorted(best.items()):
        speedup = best[(kind, 1)] / seconds
        ratio = seconds / best[("local", workers)]
        print(f"{kind:<10} {workers:>7} {seconds:8.2f} {len(jobs) / seconds:8.2f} "
              f"{speedup:9.2f} {ratio:8.2f}")
    return 0


def timed_one_at_a_time(runner: Runner, jobs: list) -> float:
    """Ray with one unit in flight at a time: its one-worker figure."""
    start = time.perf_counter()
    for job in jobs:
        for _ in runner.map_units(solve_unit, [job]):
            pass
    return time.perf_counter() - start


if __name__ == "__main__":
    raise SystemExit(main())
