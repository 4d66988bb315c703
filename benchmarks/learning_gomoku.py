"""Does a network help Gomoku? A network trained on the engine's moves, against the engine.

    PYTHONPATH=src python benchmarks/learning_gomoku.py --network FILE [--positions N]
        [--games N] [--move-time S] [--seed S]

The network comes from ``yipan train gomoku --from-solver N`` (positions labelled by the
engine: ``games.gomoku.labels``); none is shipped, and this is how that was decided.
Reported:
- held-out positions: ``N`` positions (default 200) drawn as the training ones but from
  another seed, one symmetry each: how often the network's most likely move is the
  engine's move, and how often its value has the sign of the game's result;
- the network's evaluations per second (batches of 8) and PUCT's simulations per second;
- matches at equal time a move (default 0.2 s; PUCT's CPU time, the engine's own clock,
  which is wall time: on a busy machine the engine gets less): PUCT+network against the
  engine, and
  the network alone (its most likely move) against the engine, sides alternating, each game
  from a seeded opening of four random stones near the centre.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: see yipan/cli/main.py

from collections.abc import Callable
from typing import Any

from yipan.core import Limit
from yipan.engines import load_network
from yipan.games.gomoku.engine import Engine
from yipan.games.gomoku.labels import engine_dataset, random_opening
from yipan.games.gomoku.rules import Gomoku
from yipan.learning.evaluate import NetworkEvaluator
from yipan.learning.train import measure
from yipan.search.puct import PUCT


def after(game: Gomoku, points: list[int]) -> Any:
    state = game.initial_state()
    for point in points:
        state = game.play(state, point)
    return state


def play_match(game: Gomoku, ours: Callable[[Any, list[int]], int],
               engine: Engine, seconds: float, games: int, rng: random.Random
               ) -> tuple[int, int, int]:
    """(wins, draws, losses) of ``ours`` against the engine, sides alternating."""
    wins = draws = losses = 0
    for number in range(games):
        history = random_opening(game, rng)
        state = after(game, history)
        our_side = number % 2
        while game.outcome(state) is None:
            if game.to_move(state) == our_side:
                move = ours(state, history)
            else:
                engine.reset(history)
                move = engine.think(seconds=seconds).move
            state = game.play(state, move)
            history.append(move)
        outcome = game.outcome(state)
        assert outcome is not None
        result = outcome.result_for(our_side)
        wins, draws, losses = wins + (result > 0), draws + (result == 0), losses + (result < 0)
    return wins, draws, losses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", required=True, help="a network from yipan train gomoku")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--move-time", type=float, default=0.2, help="CPU-s a move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = Gomoku(15)
    net = load_network(game, args.network)
    assert net is not None
    print(f"network: conv {net.conv}, hidden {net.hidden}, {net.parameters():,} weights; "
          f"{net.notes}")
    engine = Engine(15, "freestyle")
    engine.warm_up()
    t = time.process_time()
    held = engine_dataset(game, args.positions, random.Random(f"held-out:{args.seed}"))
    held = held.take(slice(0, len(held), 8))  # one symmetry of each position
    print(f"held-out positions: {len(held)} labelled by the engine in "
          f"{time.process_time() - t:.0f} CPU-s")
    figures = measure(net, held)
    print(f"  network alone: top move = the engine's {figures['policy_top1']:.1%}, "
          f"value sign right {figures['value_sign']:.1%}")

    evaluator = NetworkEvaluator(game, net)
    state = after(game, random_opening(game, random.Random(1)))
    t, n = time.process_time(), 0
    while time.process_time() - t < 1.0:
        evaluator([state] * 8)
        n += 8
    print(f"evaluator: {n / (time.process_time() - t):,.0f} positions/s in batches of 8")
    simulations: list[int] = []

    def puct_move(state: Any, history: list[int]) -> int:
        result = PUCT(game, evaluator, clock=time.process_time).run(
            state, Limit(time=args.move_time))
        simulations.append(result.stats.nodes)
        return int(result.move)  # type: ignore[arg-type]

    def network_move(state: Any, history: list[int]) -> int:
        priors, _ = evaluator.policy_value(state)
        return max(priors, key=priors.__getitem__)

    for name, ours in (("PUCT+network", puct_move), ("network alone", network_move)):
        rng = random.Random(f"match:{args.seed}")
        wins, draws, losses = play_match(game, ours, engine, args.move_time, args.games, rng)
        extra = (f"; PUCT {sum(simulations) / max(len(simulations), 1):,.0f} simulations a "
                 "move") if name.startswith("PUCT") else ""
        print(f"{name} vs the engine at {args.move_time} s a move: {wins} wins, {draws} "
              f"draws, {losses} losses of {args.games}{extra}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
