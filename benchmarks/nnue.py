"""A game's network (``EvalFile``, ``yipan train GAME --nnue``) against its hand-set
evaluation: its speed in nodes a CPU-second, and a match. Chess by default, ``--game
xiangqi`` for xiangqi.

    PYTHONPATH=src python benchmarks/nnue.py speed --network FILE [--nodes 200000] [--rounds 3]
    PYTHONPATH=src python benchmarks/nnue.py kernel [--network FILE] [--calls 1000000]
    PYTHONPATH=src python benchmarks/nnue.py match --network FILE [--pairs 20]
        [--nodes 20000 | --movetime 0.1] [--workers 2] [--baseline OTHER_FILE]
    PYTHONPATH=src python benchmarks/nnue.py both --game xiangqi --network FILE
        [--nodes 3000] [--pairs 50]      (speed, then the match at --nodes a move)

``speed``: each round searches every position with both evaluations, in this process,
alternating which goes first, to the same node budget (the engine cleared before each), on
CPU time; prints each round's nodes a CPU-second for both and their ratio (network / hand),
and the median ratio. Without ``--network``, a network of random weights of the size given
(its cost does not depend on its weights).

``kernel``: the cost of one evaluation, in CPU nanoseconds a call: the network's (a
child's accumulator made from its parent's by the move's changes, then the layers after it,
as at a node of the search) and the hand-set evaluation's of the same children, for up to
20 moves of each position, ``--calls`` calls in all for each. The difference, times the
evaluations a search makes, is what the network costs a second.

``match``: pairs of games from balanced openings (a few plies of main lines, then
``random_plies`` random moves drawn from the pair's seed), each pair played twice with the
colours swapped; both engines search to ``--nodes`` a move (equal nodes: the network is
slower a node, so this favours it) or ``--movetime`` wall seconds (equal time). yipan's own
rules referee (chess: mate, stalemate, repetition, fifty moves, insufficient material;
xiangqi: no legal move, repetition with perpetual check and chase, sixty moves; a draw after
``MAX_PLIES``). Prints each game, then W-D-L for the network, its score with the standard
error of the games' own spread, and the Elo difference with that error carried over.
``--baseline OTHER_FILE`` plays the network against another network instead of the hand-set
evaluation (a candidate against the shipped one, head to head: the difference between two
networks is smaller than either's against the hand-set evaluation, and a direct match
measures it without the two matches' errors adding up).
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
from yipan.games.nnue_games import nnue_game  # noqa: E402

CHESS_POSITIONS = (
    None,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
)
CHESS_OPENINGS = ("e2e4 e7e5 g1f3 b8c6", "d2d4 d7d5 c2c4 e7e6", "e2e4 c7c5 g1f3 d7d6",
                  "d2d4 g8f6 c2c4 g7g6", "e2e4 e7e6 d2d4 d7d5", "e2e4 c7c6 d2d4 d7d5",
                  "c2c4 e7e5 b1c3 g8f6", "g1f3 d7d5 g2g3 g8f6")
XIANGQI_POSITIONS = (
    None,
    # the screen horses against the central cannon, a few moves in
    "r1bakabr1/9/1cn2cn2/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
    # a middlegame with rooks out
    "2bakab2/9/1cn1c1n2/p1p1p1p1p/9/6P2/P1P1P3P/1CN1C1N2/r8/2BAKAB1R w - - 0 1",
    # an ending: rook and horse against rook and advisors
    "3ak4/4a4/9/9/9/9/6r2/4N4/4R4/4K4 w - - 0 1",
)
# main lines in ICCS: central cannon against screen horses, the same-direction cannons,
# the pawn, elephant and horse openings
XIANGQI_OPENINGS = ("h2e2 h9g7 h0g2 i9h9", "h2e2 b9c7 h0g2 h9g7", "c3c4 g6g5 b0c2 h9g7",
                    "c0e2 h7e7 b0c2 h9g7", "h0g2 h9g7 g3g4 c6c5", "h2e2 h7e7 h0g2 h9g7",
                    "b2e2 h9g7 b0c2 i9h9", "g3g4 b9c7 h0g2 b7b5")


def positions_of(game: str) -> tuple[str | None, ...]:
    return CHESS_POSITIONS if game == "chess" else XIANGQI_POSITIONS


def openings_of(game: str) -> tuple[str, ...]:
    return CHESS_OPENINGS if game == "chess" else XIANGQI_OPENINGS


def state_of(game: str, fen: str | None) -> object:
    """The usual start (None) or a FEN's position."""
    engine = nnue_game(game).engine()
    if fen is None:
        return engine.game.initial_state()
    if game == "chess":
        from yipan.games.chess.rules import position_from_fen
    else:
        from yipan.games.xiangqi.rules import position_from_fen
    return position_from_fen(fen)


RANDOM_PLIES = 2
MAX_PLIES = 300


def random_network(game: str, width: int, hidden: int, rng: np.random.Generator
                   ) -> NetworkFile:
    return NetworkFile(game, {
        "ft_weights": rng.integers(-20, 20, (nnue_game(game).features, width)).astype(np.int16),
        "ft_bias": rng.integers(0, 60, width).astype(np.int16),
        "l1_weights": rng.integers(-100, 100, (hidden, 2 * width)).astype(np.int16),
        "l1_bias": rng.integers(-2000, 2000, hidden).astype(np.int32),
        "out_weights": rng.integers(-2000, 2000, hidden).astype(np.int32),
        "out_bias": np.zeros(1, np.int32)})


def speed(args: argparse.Namespace) -> None:
    game = args.game
    network = (load(args.network, game) if args.network
               else random_network(game, args.accumulator, args.hidden,
                                   np.random.default_rng(0)))
    positions = positions_of(game)
    print(f"{game}: network {network.shape}"
          f"{' (random weights)' if not args.network else ''}, {args.speed_nodes:,} nodes a "
          f"position, {len(positions)} positions")
    engines = {"hand": nnue_game(game).engine(), "network": nnue_game(game).engine()}
    engines["network"].use_network(network)
    for engine in engines.values():
        engine.warm_up()
    states = [state_of(game, fen) for fen in positions]
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
                found = engine.think(state, Limit(nodes=args.speed_nodes))
                seconds += time.process_time() - start
                nodes += found.nodes if found else 0
            rate[name] = nodes / seconds
        ratios.append(rate["network"] / rate["hand"])
        print(f"round {round_ + 1}: hand {rate['hand']:,.0f} nodes/s, network "
              f"{rate['network']:,.0f} nodes/s, ratio {ratios[-1]:.3f}", flush=True)
    print(f"median ratio network / hand: {statistics.median(ratios):.3f}")


def kernel(args: argparse.Namespace) -> None:
    import importlib

    from numba import njit

    from yipan.chess_family.nnue import network_memory

    game = args.game
    network = (load(args.network, game) if args.network
               else random_network(game, args.accumulator, args.hidden,
                                   np.random.default_rng(0)))
    features = importlib.import_module(f"yipan.games.{game}.nnue")
    hand = importlib.import_module(f"yipan.games.{game}.evaluation")
    rules = importlib.import_module(f"yipan.games.{game}.rules")
    network_value, evaluate = features.network_value, hand.evaluate
    second = (np.zeros(64, np.int64) if game == "chess"
              else np.ascontiguousarray(hand.DEFAULT_WEIGHTS))

    @njit
    def by_network(calls, stack, memory):  # type: ignore[no-untyped-def]
        total = 0
        for _ in range(calls):
            memory[1][1] = 0  # the child's accumulator is stale: made again from the parent's
            total += network_value(stack, 1, *memory)
        return total

    @njit
    def by_hand(calls, stack, second):  # type: ignore[no-untyped-def]
        total = 0
        for _ in range(calls):
            total += evaluate(stack[1], second)
        return total

    memory_arrays = network_memory(dict(network.arrays))
    memory = tuple(memory_arrays[name] for name in features.VALUE_FIELDS)
    pairs = []
    engine = nnue_game(game).engine()
    for fen in positions_of(game):
        state = state_of(game, fen)
        for move in engine.game.legal_moves(state)[:20]:
            stack = np.stack([rules.to_row(state), rules.to_row(engine.game.play(state, move))])
            pairs.append(np.ascontiguousarray(stack.astype(np.int64)))
    each = max(1, args.calls // len(pairs))
    seconds = {"network": 0.0, "hand": 0.0}
    by_network(1, pairs[0], memory)
    by_hand(1, pairs[0], second)
    for stack in pairs:
        memory[1][0] = 0  # the parent's accumulator made anew for this pair
        by_network(1, stack, memory)
        start = time.process_time()
        by_network(each, stack, memory)
        seconds["network"] += time.process_time() - start
        start = time.process_time()
        by_hand(each, stack, second)
        seconds["hand"] += time.process_time() - start
    calls = each * len(pairs)
    print(f"{game}: network {network.shape}"
          f"{' (random weights)' if not args.network else ''}, {len(pairs)} children, "
          f"{calls:,} calls each")
    for name, spent in seconds.items():
        print(f"  {name:8}{spent / calls * 1e9:7.0f} ns a call")


def play_game(game_name: str, network_path: str, network_white: bool, opening: str, seed: int,
              nodes: int, movetime: float, baseline_path: str | None = None
              ) -> tuple[float, str]:
    """The network's points (1, 1/2, 0) in one game (white: the first player, red in
    xiangqi) against the hand-set evaluation, or against the network ``baseline_path``,
    and how it ended."""
    hand, net = nnue_game(game_name).engine(), nnue_game(game_name).engine()
    net.use_network(network_path)
    if baseline_path is not None:
        hand.use_network(baseline_path)
    game = hand.game
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
    openings = openings_of(args.game)
    for pair in range(args.pairs):
        opening = openings[pair % len(openings)]
        for network_white in (True, False):
            jobs.append((args.game, str(args.network), network_white, opening,
                         args.seed + pair, args.nodes, args.movetime,
                         str(args.baseline) if args.baseline else None))
    setting = f"{args.nodes:,} nodes a move" if args.nodes else f"{args.movetime} s a move"
    opponent = f"network {args.baseline}" if args.baseline else "the hand-set evaluation"
    print(f"{args.game}: network {args.network} against {opponent}, {setting}, "
          f"{len(jobs)} games")
    runner = make_runner(None, args.workers)
    scores = []
    for job, (points, ending) in zip(jobs, runner.map_units(play_game, jobs), strict=True):
        scores.append(points)
        print(f"  network {'first' if job[2] else 'second'} ({job[3]}, seed {job[4]}): "
              f"{points} ({ending})", flush=True)
    wins, draws = scores.count(1.0), scores.count(0.5)
    mean = statistics.fmean(scores)
    error = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else math.nan
    against = "baseline" if args.baseline else "hand-set"
    text = (f"network vs {against}: W-D-L {wins}-{draws}-{len(scores) - wins - draws}, "
            f"score {mean:.3f} ± {error:.3f}")
    if 0 < mean < 1:
        low, high = max(mean - error, 1e-3), min(mean + error, 1 - 1e-3)
        text += f", Elo {elo_of(mean):+.0f} ({elo_of(low):+.0f} to {elo_of(high):+.0f})"
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("speed", "kernel", "match", "both"))
    parser.add_argument("--game", choices=("chess", "xiangqi"), default="chess")
    parser.add_argument("--network", type=Path, default=None)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="match: the opponent's network (default: the hand-set "
                             "evaluation)")
    parser.add_argument("--nodes", type=int, default=None,
                        help="speed: nodes a position (default 200,000); match: a move "
                             "(default 20,000)")
    parser.add_argument("--speed-nodes", type=int, default=None,
                        help="both: the speed's nodes a position (default 200,000)")
    parser.add_argument("--movetime", type=float, default=0.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=1_000_000,
                        help="kernel: evaluations timed with each (default %(default)s)")
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--accumulator", type=int, default=128)
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if args.mode == "kernel":
        kernel(args)
        return
    if args.mode != "speed" and args.network is None:
        parser.error(f"{args.mode} needs --network")
    if args.mode == "speed":
        args.speed_nodes = args.speed_nodes or args.nodes or 200_000
    else:
        args.speed_nodes = args.speed_nodes or 200_000
        args.nodes = 0 if args.movetime and args.nodes is None else (args.nodes or 20_000)
    if args.mode in ("speed", "both"):
        speed(args)
    if args.mode in ("match", "both"):
        match(args)


if __name__ == "__main__":
    main()
