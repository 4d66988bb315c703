"""MCTS on Connect Four: simulations/s of the generic MCTS with Python vs numba playouts, of UCT
entirely in numba, of the playout kernel alone, and the root-parallel speed-up with 2 workers.

    PYTHONPATH=src python benchmarks/mcts.py [--iterations N] [--seconds S]

The game is ``yipan.games.connect4.ConnectFour``, whose declared playout (``info.playout``) is
the numba kernel; the Python figure passes the generic MCTS a plain random playout instead.
For reference (this kind of machine): OpenSpiel's Python MCTS about 2.7 thousand
simulations/s on Connect Four, its C++ MCTS about 54 thousand.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from yipan.core import Limit
from yipan.games.connect4 import ConnectFour, Position
from yipan.games.connect4.playouts import many_playouts
from yipan.games.connect4.uct import mcts_connect4
from yipan.search.mcts import Playout, mcts


def python_playout(game: ConnectFour) -> Playout:
    """Uniformly random moves through the rules in Python (the generic MCTS's own policy)."""
    def playout(state: Position, rng: random.Random) -> float:
        while (outcome := game.outcome(state)) is None:
            state = game.play(state, rng.choice(game.legal_moves(state)))
        return float(outcome.result_for(0))
    return playout


def rate(game: ConnectFour, limit: Limit, workers: int = 1,
         playout: Playout | None = None) -> tuple[float, int]:
    result = mcts(game, game.initial_state(), limit=limit, rng=random.Random(1),
                  workers=workers, playout=playout)
    return result.stats.nodes / result.stats.elapsed, result.stats.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20_000, help="per measurement")
    parser.add_argument("--seconds", type=float, default=5.0, help="for the parallel run")
    args = parser.parse_args()
    game = ConnectFour()

    many_playouts(0, 0, 0, 7, 6, 10, np.uint64(1))  # compile (or load from cache)
    count = 200_000
    start = time.perf_counter()
    many_playouts(0, 0, 0, 7, 6, count, np.uint64(12345))
    kernel_rate = count / (time.perf_counter() - start)
    print(f"numba playout kernel alone:       {kernel_rate:12,.0f} playouts/s")

    python_rate, n = rate(game, Limit(nodes=args.iterations // 4),
                          playout=python_playout(game))
    print(f"MCTS, Python random playouts:     {python_rate:12,.0f} simulations/s ({n} it.)")
    numba_rate, n = rate(game, Limit(nodes=args.iterations))
    print(f"MCTS, numba playouts:             {numba_rate:12,.0f} simulations/s ({n} it.)")
    print(f"  numba / Python playouts:        {numba_rate / python_rate:12.2f}x")
    mcts_connect4(0, 0, 0, limit=Limit(nodes=100), rng=random.Random(0))  # compile
    tree = mcts_connect4(0, 0, 0, limit=Limit(nodes=args.iterations * 10), rng=random.Random(1))
    tree_rate = tree.stats.nodes / tree.stats.elapsed
    print(f"UCT entirely in numba:            {tree_rate:12,.0f} simulations/s "
          f"({tree.stats.nodes} it.)")
    print(f"  numba UCT / generic with numba: {tree_rate / numba_rate:12.2f}x; "
          f"/ OpenSpiel C++ (54k): {tree_rate / 54_000:.1f}x")

    one, n1 = rate(game, Limit(time=args.seconds))
    two, n2 = rate(game, Limit(time=args.seconds), workers=2)
    print(f"MCTS, 1 worker,  {args.seconds:g} s:            {one:12,.0f} simulations/s ({n1})")
    print(f"MCTS, 2 workers, {args.seconds:g} s:            {two:12,.0f} simulations/s ({n2})")
    print(f"  root-parallel speed-up:         {two / one:12.2f}x (2 cores, shared: noisy)")


if __name__ == "__main__":
    main()
