"""CFR on Kuhn poker, Leduc hold'em and Liar's Dice: iterations/s and exploitability against
time for each algorithm, as ratios in one run; and the push-or-fold chart's time.

    PYTHONPATH=src python benchmarks/cfr.py [--quick] [--rounds R]

Every figure is CPU time (``time.process_time``) of the solver alone: the game's tree is built
and the kernels are loaded first. Iterations/s are measured in ``rounds`` interleaved rounds
(each algorithm in turn, a fixed batch each round) and the median round is reported, so that a
busy neighbour on this shared machine slows every algorithm alike. Exploitability is NashConv
/ 2 in the game's units (chips), measured exactly on the tree at geometrically spaced
iteration counts. One iteration updates both players (alternating), for every algorithm.

Figures recorded elsewhere (context only, not measured here): OpenSpiel's CFR+ reaches an
exploitability of 8.7e-5 on Kuhn after 1,000 iterations and 2.6e-4 on Leduc (its 936
information states, suits told apart) after 1,000 iterations in 40 s (its Python CFR); its
C++ CFR runs about 18 thousand Kuhn iterations a second.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from yipan.games.kuhn import KuhnPoker
from yipan.games.leduc import LeducHoldem
from yipan.games.liarsdice import LiarsDice
from yipan.search import cfr

BATCH = {"kuhn": 20_000, "leduc": 2_000, "liars-dice": 20}  # tabular iterations per round
SAMPLED_BATCH = {"kuhn": 2_000, "leduc": 200, "liars-dice": 20}


def iterations_per_second(tree: cfr.GameTree, game, algorithms: list[str], name: str,
                          rounds: int) -> dict[str, float]:
    """The median over interleaved rounds of each algorithm's iterations per CPU second."""
    solvers = {a: cfr.TabularCFR(tree, a) if a in cfr.TABULAR else
               cfr.MonteCarloCFR(game, a, random.Random(1)) for a in algorithms}
    rates: dict[str, list[float]] = {a: [] for a in algorithms}
    for _ in range(rounds):
        for algorithm, solver in solvers.items():
            batch = BATCH[name] if algorithm in cfr.TABULAR else SAMPLED_BATCH[name]
            start = time.process_time()
            solver.run(batch)
            rates[algorithm].append(batch / max(time.process_time() - start, 1e-9))
    return {a: statistics.median(r) for a, r in rates.items()}


def python_reference_rate(game, iterations: int) -> float:
    start = time.process_time()
    cfr.reference_cfr(game, iterations)
    return iterations / (time.process_time() - start)


def first_below(result: cfr.CFRResult, target: float) -> cfr.Checkpoint | None:
    return next((p for p in result.checkpoints if p.exploitability <= target), None)


def convergence(game, tree: cfr.GameTree, algorithms: list[str], iterations: dict[str, int],
                targets: tuple[float, ...]) -> None:
    """Exploitability against CPU time for each algorithm, and the time to each target as a
    ratio to CFR+'s."""
    results = {a: cfr.solve(game, a, iterations[a], tree=tree, checkpoints=10,
                            rng=random.Random(1)) for a in algorithms}
    print(f"  {'algorithm':<15}{'iterations':>11}{'seconds':>9}{'exploitability':>16}"
          + "".join(f"{'to ' + format(t, '.0e'):>16}" for t in targets))
    base = {t: first_below(results["cfr+"], t) for t in targets}
    for algorithm, result in results.items():
        cells = []
        for target in targets:
            point = first_below(result, target)
            if point is None:
                cells.append(f"{'not reached':>16}")
            else:
                ratio = "" if base[target] is None or base[target].seconds <= 0 else \
                    f" {point.seconds / max(base[target].seconds, 1e-9):.2g}x"
                cells.append(f"{point.seconds * 1000:>8.2f}ms{ratio:>6}")
        print(f"  {algorithm:<15}{result.iterations:>11,}{result.seconds:>9.2f}"
              f"{result.exploitability:>16.2e}" + "".join(cells))
    print("  exploitability against time (iterations: seconds, exploitability):")
    for algorithm, result in results.items():
        trail = "  ".join(f"{p.iterations}:{p.seconds:.3g}s,{p.exploitability:.1e}"
                          for p in result.checkpoints[::2] + result.checkpoints[-1:])
        print(f"    {algorithm:<14} {trail}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations (a smoke run)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of each rate")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    cfr.load_kernels()
    games = {"kuhn": KuhnPoker(), "leduc": LeducHoldem(), "liars-dice": LiarsDice(1, 6)}
    for name, game in games.items():
        start = time.process_time()
        tree = cfr.GameTree(game)
        built = time.process_time() - start
        print(f"{game.info.title}: {tree.nodes:,} nodes, {len(tree.infosets):,} information "
              f"states (tree built in {built:.2f} s)")
        algorithms = list(cfr.ALGORITHMS) if name != "liars-dice" else ["cfr", "cfr+", "dcfr"]
        rates = iterations_per_second(tree, game, algorithms, name, args.rounds)
        base = rates["cfr+"]
        print("  iterations/s: " + ", ".join(f"{a} {r:,.0f} ({r / base:.2g}x)"
                                             for a, r in rates.items()))
        if name == "kuhn":
            python = python_reference_rate(game, 2000 // scale)
            print(f"  the textbook recursion in Python (vanilla CFR): {python:,.0f} "
                  f"iterations/s; the kernel's vanilla CFR is {rates['cfr'] / python:,.0f}x")
        tabular = {"kuhn": 10_000, "leduc": 10_000, "liars-dice": 1_000}[name] // scale
        sampled = {"kuhn": 100_000, "leduc": 20_000}.get(name, 0) // scale
        iterations = {a: tabular if a in cfr.TABULAR else sampled for a in algorithms}
        targets = (1e-3, 1e-4) if name != "liars-dice" else (1e-2, 1e-3)
        convergence(game, tree, algorithms, iterations, targets)
        print()

    from yipan.poker import pushfold

    start = time.process_time()
    pushfold.equity_table()
    loaded = time.process_time() - start
    start = time.process_time()
    chart = pushfold.chart()
    seconds = time.process_time() - start
    print(f"Push or fold: the equity table loaded in {loaded:.2f} s; the chart over "
          f"{len(chart.stacks)} stacks (1 to 20 bb) in {seconds:.1f} s, each stack solved to an "
          f"exploitability below {chart.worst_exploitability:.1e} bb")


if __name__ == "__main__":
    main()
