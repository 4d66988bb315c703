"""The generic engines' cost per node: what a user's own game pays in pure Python.

    python benchmarks/generic.py [--repeat 3]

Alpha-beta (every refinement on) and MCTS on the games' plain rules, as a user's game would
run them: nodes (or simulations), CPU seconds, microseconds per node, nodes per CPU-second.
Best of ``--repeat`` runs, each on a fresh game object.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import yipan  # noqa: E402
from yipan.core import Limit  # noqa: E402
from yipan.search import alphabeta  # noqa: E402
from yipan.search.mcts import mcts  # noqa: E402

CASES = [
    ("alpha-beta", "tictactoe", {"size": "4x4", "k": "4"}, None),
    ("alpha-beta", "connect4", {"size": "5x4"}, None),
    ("alpha-beta, depth 4", "gomoku", {"size": "9"}, 4),
    ("mcts 20000", "tictactoe", {}, None),
    ("mcts 20000", "connect4", {}, None),
    ("mcts 5000", "gomoku", {"size": "9"}, None),
]


def measure(kind: str, name: str, options: dict, depth: int | None) -> tuple[int, float]:
    game = yipan.get_game(name, **options)
    state = game.initial_state()
    if name == "gomoku":  # two stones down: the tree is not trivially symmetric
        state = game.play(game.play(state, game.parse_move(state, "e5")),
                          game.parse_move(state, "f6"))
    start = time.process_time()
    if kind.startswith("alpha-beta"):
        nodes = alphabeta(game, state, depth=depth).stats.nodes
    else:
        iterations = int(kind.split()[1])
        result = mcts(game, state, limit=Limit(nodes=iterations), rng=random.Random(1))
        nodes = result.stats.nodes
    return nodes, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'engine':<20} {'game':<22} {'nodes':>9} {'CPU s':>8} {'us/node':>8} "
          f"{'nodes/s':>9}")
    for kind, name, options, depth in CASES:
        best = min((measure(kind, name, options, depth) for _ in range(args.repeat)),
                   key=lambda pair: pair[1])
        nodes, seconds = best
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        print(f"{kind:<20} {label:<22} {nodes:>9} {seconds:8.3f} {1e6 * seconds / nodes:8.1f} "
              f"{nodes / seconds:9.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
