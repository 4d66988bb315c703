"""Tic-tac-toe and (4,4,4): nodes and time of each search variant, as ratios to minimax.

    python benchmarks/tictactoe.py [--repeat 5] [--skip-444]

Each figure is the best of ``--repeat`` runs, each on a fresh game object (no warm caches).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import yipan  # noqa: E402
from yipan.search import PLAIN, Options, alphabeta, iterate, minimax  # noqa: E402

VARIANTS = [
    ("minimax", None),
    ("alpha-beta", PLAIN),
    ("+ table", Options(symmetry=False, ordering=False, pvs=False, bounds=False)),
    ("+ symmetry", Options(ordering=False, pvs=False, bounds=False)),
    ("+ table move, PVS", Options(bounds=False)),
    ("+ proven bounds", Options()),
    ("+ killers, history", Options(killers=True, history=True)),
    ("iterative deepening", "iterate"),
]


def run(size: str, k: int, variant, repeat: int) -> tuple[int, float, float]:
    best = float("inf")
    for _ in range(repeat):
        game = yipan.get_game("tictactoe", size=size, k=k)
        state = game.initial_state()
        start = time.process_time()
        if variant is None:
            result = minimax(game, state)
        elif variant == "iterate":
            result = list(iterate(game, state))[-1]
        else:
            result = alphabeta(game, state, options=variant)
        best = min(best, time.process_time() - start)
    return result.stats.nodes, best, result.value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-444", action="store_true", help="only the 3x3 board")
    args = parser.parse_args()

    print("3x3 tic-tac-toe, from the empty board")
    print(f"{'variant':<22}{'value':>7}{'nodes':>10}{'ms':>10}{'nodes/s':>11}"
          f"{'node ratio':>12}{'time ratio':>12}")
    base_nodes = base_time = None
    for name, variant in VARIANTS:
        nodes, seconds, value = run("3x3", 3, variant, 1 if variant is None else args.repeat)
        if base_nodes is None:
            base_nodes, base_time = nodes, seconds
        print(f"{name:<22}{value:>7g}{nodes:>10}{seconds * 1000:>10.2f}{nodes / seconds:>11.0f}"
              f"{nodes / base_nodes:>12.5f}{seconds / base_time:>12.5f}")
    if args.skip_444:
        return
    print()
    print("(4,4,4)-game, from the empty board")
    first = None
    for name, variant in VARIANTS[2:7]:
        nodes, seconds, value = run("4x4", 4, variant, 1)
        first = first or seconds
        print(f"{name:<22}{value:>7g}{nodes:>10}{seconds * 1000:>10.0f}{nodes / seconds:>11.0f}"
              f"{'':>12}{seconds / first:>12.3f}")


if __name__ == "__main__":
    main()
