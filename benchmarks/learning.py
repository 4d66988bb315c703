"""Connect Four's network measured against the solver, and PUCT+network against other engines.

    PYTHONPATH=src python benchmarks/learning.py [--network FILE] [--positions N]
        [--simulations 100,400,1600] [--games N] [--move-time S] [--seed S]

Held-out positions: ``N`` positions (default 300) drawn as the training positions are
(``games.connect4.labels``: a random opening of 0..10 plies, then from ply 10 on an optimal
move 60% of the time, a random one otherwise), but from another seed (``held-out:S``), each
solved exactly (every column's score). Reported, for the network alone (no search) and for
PUCT with it at each number of simulations:

- top move optimal: the network's most likely move (PUCT: the most visited) is one of the
  moves of the best score (positions where every move scores the same are left out);
- value sign right: the value (PUCT: the root's mean) has the sign of the exact result
  (a draw: within 1/3 of 0);

by ply range (10-19 "mid-game", 20 on "late"), with PUCT on uniform priors and random
playouts (no network) at the same simulations as the baseline; then the network's
evaluations per second (one position, and batches of 8), its training time (its file's
notes), and matches at equal CPU time a move: PUCT+network against the numba UCT, and
against the generic alpha-beta (with the game's heuristic), sides alternating, each game
from a seeded random 2-ply opening.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: see yipan/cli/main.py
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from yipan.core import Limit
from yipan.engines import load_network
from yipan.games.connect4 import ConnectFour
from yipan.games.connect4.labels import Labelled, labelled_positions
from yipan.games.connect4.uct import mcts_connect4
from yipan.learning.evaluate import NetworkEvaluator
from yipan.search import alphabeta
from yipan.search.puct import PUCT, rollout_evaluator

MID = range(10, 20)


def sign_right(value: float, truth: int) -> bool:
    if truth > 0:
        return value > 1 / 3
    if truth < 0:
        return value < -1 / 3
    return abs(value) <= 1 / 3


def score(items: list[Labelled], choose: Callable[[Any], tuple[int, float]]
          ) -> dict[str, float]:
    hits, signs, mid_hits, mid = 0, 0, 0, 0
    for item in items:
        move, value = choose(item.position)
        hit = move in item.optimal
        hits += hit
        signs += sign_right(value, item.value)
        if item.position.moves in MID:
            mid += 1
            mid_hits += hit
    n = len(items)
    return {"top1": hits / n, "sign": signs / n, "mid_top1": mid_hits / max(mid, 1)}


def line(name: str, figures: dict[str, float], seconds: float) -> None:
    print(f"  {name:<28} top move optimal {figures['top1']:6.1%} (mid-game "
          f"{figures['mid_top1']:6.1%})   value sign right {figures['sign']:6.1%}   "
          f"{seconds:7.1f} CPU-s")


def play_match(game: ConnectFour, puct_player: Callable[[Any], int],
               other: Callable[[Any], int], games: int, rng: random.Random) -> list[float]:
    """Points of the PUCT side in each game (1 win, 1/2 draw), sides alternating."""
    points = []
    for number in range(games):
        state = game.initial_state()
        for _ in range(2):
            state = game.play(state, rng.choice(game.legal_moves(state)))
        puct_side = number % 2  # the side to move after the opening is player 0
        while game.outcome(state) is None:
            mover = puct_player if game.to_move(state) == puct_side else other
            state = game.play(state, mover(state))
        outcome = game.outcome(state)
        assert outcome is not None
        points.append((outcome.result_for(puct_side) + 1) / 2)
    return points


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--network", default=None, help="default: the shipped network")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--simulations", default="100,400,1600")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--move-time", type=float, default=0.1, help="CPU-s a move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = ConnectFour()
    net = load_network(game, args.network)
    if net is None:
        print("no network: give --network FILE", file=sys.stderr)
        return 2
    evaluator = NetworkEvaluator(game, net)
    notes = dict(net.notes)
    print(f"network: hidden layers {net.hidden}, {net.parameters():,} weights; trained "
          f"{notes.get('cpu_seconds', '?')} CPU-s; {notes.get('solver', {})}"
          f"{'; self-play ' + str(notes['selfplay']) if 'selfplay' in notes else ''}")

    start = time.process_time()
    drawn = labelled_positions(game, args.positions, random.Random(f"held-out:{args.seed}"))
    held = [item for item in drawn if len(item.optimal) < len(item.scores)]
    plies = [item.position.moves for item in held]
    outcomes = [item.value for item in held]
    print(f"held-out positions: {len(held)} of {len(drawn)} drawn (those where some move "
          f"is not optimal; solved in {time.process_time() - start:.0f} "
          f"CPU-s), plies {min(plies)}-{max(plies)} (median {statistics.median(plies):g}; "
          f"{sum(p in MID for p in plies)} of plies 10-19), to move: "
          f"{outcomes.count(1)} win, {outcomes.count(0)} draw, {outcomes.count(-1)} loss")

    def network_alone(position: Any) -> tuple[int, float]:
        priors, value = evaluator.policy_value(position)
        return max(priors, key=priors.__getitem__), value

    t = time.process_time()
    line("network alone", score(held, network_alone), time.process_time() - t)
    for sims in (int(s) for s in args.simulations.split(",")):
        for name, make in (("PUCT+network", lambda: evaluator),
                           ("PUCT, uniform+playouts", lambda: rollout_evaluator(
                               game, random.Random(args.seed)))):
            if name.startswith("PUCT, uniform") and sims > 400:
                continue  # the baseline at the smaller budgets only (time)

            def search(position: Any, make=make, sims=sims) -> tuple[int, float]:
                result = PUCT(game, make()).run(position, Limit(nodes=sims))
                return int(result.move), result.value  # type: ignore[arg-type]

            t = time.process_time()
            line(f"{name} {sims}", score(held, search), time.process_time() - t)

    planes = np.stack([game.encode(item.position) for item in held[:64]])
    for batch in (1, 8):
        t, n = time.process_time(), 0
        while time.process_time() - t < 1.0:
            net.forward(planes[:batch])
            n += batch
        rate = n / (time.process_time() - t)
        print(f"network forward pass: {rate:,.0f} positions/s in batches of {batch}")
    t, n = time.process_time(), 0
    while time.process_time() - t < 1.0:
        evaluator([item.position for item in held[:8]])
        n += 8
    print(f"evaluator (encode, forward, softmax over legal moves): "
          f"{n / (time.process_time() - t):,.0f} positions/s in batches of 8")

    if args.games:
        rng = random.Random(f"match:{args.seed}")
        per_move = Limit(time=args.move_time)
        sims_seen: list[int] = []

        def puct_move(state: Any) -> int:
            search = PUCT(game, evaluator, clock=time.process_time)
            result = search.run(state, per_move)
            sims_seen.append(result.stats.nodes)
            return int(result.move)  # type: ignore[arg-type]

        uct_seen: list[int] = []

        def uct_move(state: Any) -> int:
            result = mcts_connect4(*state, limit=per_move, rng=rng, clock=time.process_time)
            uct_seen.append(result.stats.nodes)
            return int(result.move)  # type: ignore[arg-type]

        def alphabeta_move(state: Any) -> int:
            return int(alphabeta(game, state, limit=per_move).move)  # type: ignore[arg-type]

        playouts = rollout_evaluator(game, random.Random(args.seed))

        def uniform_move(state: Any) -> int:
            search = PUCT(game, playouts, clock=time.process_time)
            return int(search.run(state, per_move).move)  # type: ignore[arg-type]

        for name, other in (("numba UCT", uct_move), ("alpha-beta (heuristic)",
                                                       alphabeta_move),
                            ("PUCT, uniform+playouts", uniform_move)):
            sims_seen.clear()
            points = play_match(game, puct_move, other, args.games, rng)
            wins = sum(p == 1 for p in points)
            draws = sum(p == 0.5 for p in points)
            extra = f"; UCT {statistics.median(uct_seen):,.0f} iterations a move" \
                if name == "numba UCT" and uct_seen else ""
            print(f"PUCT+network vs {name} at {args.move_time:g} s a move: {wins} wins, "
                  f"{draws} draws, {len(points) - wins - draws} losses of {len(points)} "
                  f"({sum(points) / len(points):.0%} of the points; PUCT "
                  f"{statistics.median(sims_seen):,.0f} simulations a move{extra})")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    raise SystemExit(main())
