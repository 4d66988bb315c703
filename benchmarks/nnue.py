"""The chess network (``EvalFile``, ``yipan train chess --nnue``) against the hand-set
evaluation: its speed in nodes a CPU-second, and a match.

    PYTHONPATH=src python benchmarks/nnue.py speed --network FILE [--nodes 200000] [--rounds 3]
    PYTHONPATH=src python benchmarks/nnue.py match --network FILE [--pairs 20]
        [--nodes 20000 | --movetime 0.1] [--workers 2]

``speed``: each round searches every position with both evaluations, in this process,
alternating which goes first, to the same node budget (the engine cleared before each), on
CPU time; prints each round's nodes a CPU-second for both and their ratio (network / hand),
and the median ratio. Without ``--network``, a network of random weights of the size given
(its cost does not depend on its weights).

``match``: pairs of games from balanced openings (a few plies of main lines, then
``random_plies`` random moves drawn from the pair's seed), each pair played twice with the
colours swapped; both engines search to ``--nodes`` a move (equal nodes: the network is
slower a node, so this favours it) or ``--movetime`` wall seconds (equal time). yipan's own
rules referee (mate, stalemate, repetition, fifty moves, insufficient material; a draw after
``MAX_PLIES``). Prints each game, then W-D-L for the network, its score with the standard
error of the games' own spread, and the Elo difference with that error carried over.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]

from yipan.chess_family.nnue_file import NetworkFile, load  # noqa: E402
from yipan.cluster import make_runner  # noqa: E402
from yipan.core import Limit  # noqa: E402
from yipan.games.chess.engine import Engine  # noqa: E402
from yipan.games.chess.rules import Chess, position_from_fen  # noqa: E402

POSITIONS = (
    None,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
)
OPENINGS = ("e2e4 e7e5 g1f3 b8c6", "d2d4 d7d5 c2c4 e7e6", "e2e4 c7c5 g1f3 d7d6",
            "d2d4 g8f6 c2c4 g7g6", "e2e4 e7e6 d2d4 d7d5", "e2e4 c7c6 d2d4 d7d5",
            "c2c4 e7e5 b1c3 g8f6", "g1f3 d7d5 g2g3 g8f6")
RANDOM_PLIES = 2
MAX_PLIES = 300


def random_network(width: int, hidden: int, rng: np.random.Generator) -> NetworkFile:
    return NetworkFile("chess", {
        "ft_weights": rng.integers(-20, 20, (768, width)).astype(np.int16),
        "ft_bias": rng.integers(0, 60, width).astype(np.int16),
        "l1_weights": rng.integers(-100, 100, (hidden, 2 * width)).astype(np.int16),
        "l1_bias": rng.integers(-2000, 2000, hidden).astype(np.int32),
        "out_weights": rng.integers(-2000, 2000, hidden).astype(np.int32),
        "out_bias": np.zeros(1, np.int32)})


def speed(args: argparse.Namespace) -> None:
    network = (load(args.network, "chess") if args.network
               else random_network(args.accumulator, args.hidden, np.random.default_rng(0)))
    print(f"network {network.accumulator}x2-{network.hidden}-1"
          f"{' (random weights)' if not args.network else ''}, {args.nodes:,} nodes a "
          f"position, {len(POSITIONS)} positions")
    engines = {"hand": Engine(hash_mb=16, tables=None), "network": Engine(hash_mb=16,
                                                                           tables=None)}
    engines["network"].use_network(network)
    for engine in engines.values():
        engine.warm_up()
    states = [Chess().initial_state() if fen is None else position_from_fen(fen)
              for fen in POSITIONS]
    ratios = []
    for round_ in range(args.rounds):
        order = ["hand", "network"] if round_ % 2 == 0 else ["network", "hand"]
        rate = {}
        for name in order:
            engine = engines[name]
            nodes, seconds = 0, 0.0
            for state in states:
                engine.clear()
                start = time.process_time()
                found = engine.think(state, Limit(nodes=args.nodes))
                seconds += time.process_time() - start
                nodes += found.nodes if found else 0
            rate[name] = nodes / seconds
        ratios.append(rate["network"] / rate["hand"])
        print(f"round {round_ + 1}: hand {rate['hand']:,.0f} nodes/s, network "
              f"{rate['network']:,.0f} nodes/s, ratio {ratios[-1]:.3f}", flush=True)
    print(f"median ratio network / hand: {statistics.median(ratios):.3f}")


def play_game(network_path: str, network_white: bool, opening: str, seed: int, nodes: int,
              movetime: float) -> tuple[float, str]:
    """The network's points (1, 1/2, 0) in one game, and how it ended."""
    game = Chess()
    hand, net = Engine(hash_mb=16, tables=None), Engine(hash_mb=16, tables=None)
    net.use_network(network_path)
    state = game.initial_state()
    for text in opening.split():
        state = game.play(state, game.parse_move(state, text))
    rng = random.Random(seed)
    for _ in range(RANDOM_PLIES):
        state = game.play(state, rng.choice(game.legal_moves(state)))
    limit = Limit(nodes=nodes) if nodes else Limit(time=movetime)
    plies = 0
    while game.outcome(state) is None and plies < MAX_PLIES:
        engine = net if (game.to_move(state) == 0) == network_white else hand
        found = engine.think(state, limit)
        assert found is not None
        state = game.play(state, found.move)
        plies += 1
    outcome = game.outcome(state)
    if outcome is None:
        return 0.5, f"adjudicated draw, ply {plies}"
    points = (outcome.result_for(0) + 1) / 2
    return (points if network_white else 1 - points), \
        f"{game.termination(state)}, ply {plies}"


def elo_of(score: float) -> float:
    return -400 * math.log10(1 / score - 1)


def match(args: argparse.Namespace) -> None:
    jobs = []
    for pair in range(args.pairs):
        opening = OPENINGS[pair % len(OPENINGS)]
        for network_white in (True, False):
            jobs.append((str(args.network), network_white, opening, args.seed + pair,
                         args.nodes, args.movetime))
    setting = f"{args.nodes:,} nodes a move" if args.nodes else f"{args.movetime} s a move"
    print(f"network {args.network} against the hand-set evaluation, {setting}, "
          f"{len(jobs)} games")
    runner = make_runner(None, args.workers)
    scores = []
    for job, (points, ending) in zip(jobs, runner.map_units(play_game, jobs), strict=True):
        scores.append(points)
        print(f"  network {'white' if job[1] else 'black'} ({job[2]}, seed {job[3]}): "
              f"{points} ({ending})", flush=True)
    wins, draws = scores.count(1.0), scores.count(0.5)
    mean = statistics.fmean(scores)
    error = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else math.nan
    text = (f"network vs hand-set: W-D-L {wins}-{draws}-{len(scores) - wins - draws}, "
            f"score {mean:.3f} ± {error:.3f}")
    if 0 < mean < 1:
        low, high = max(mean - error, 1e-3), min(mean + error, 1 - 1e-3)
        text += f", Elo {elo_of(mean):+.0f} ({elo_of(low):+.0f} to {elo_of(high):+.0f})"
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("speed", "match"))
    parser.add_argument("--network", type=Path, default=None)
    parser.add_argument("--nodes", type=int, default=None)
    parser.add_argument("--movetime", type=float, default=0.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--accumulator", type=int, default=128)
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if args.mode == "speed":
        args.nodes = args.nodes or 200_000
        speed(args)
    else:
        if args.network is None:
            parser.error("match needs --network")
        args.nodes = 0 if args.movetime and args.nodes is None else (args.nodes or 20_000)
        match(args)


if __name__ == "__main__":
    main()
