"""``yipan solve GAME [MOVES]``: the game-theoretic value of a position, with statistics.

``--algorithm`` picks the search so the algorithms can be compared on the same position:
minimax (the seed's, nothing pruned), alphabeta (plain), alphabeta-tt (table, symmetry,
ordering, PVS), iterative (iterative deepening), and mcts / mcts-solver when available.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys

from ..core import Limit, describe_value, replay
from ..search import PLAIN, Options, TracePrinter, alphabeta, iterate, minimax
from .common import UsageError, count, moves_from_args, print_json, seconds, start_game_command

ALGORITHMS = ("minimax", "alphabeta", "alphabeta-tt", "iterative", "mcts", "mcts-solver")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve", help="solve a position exactly", add_help=False,
        description="yipan solve GAME [MOVES ...] [--algorithm A] [--trace DEPTH] [--json]")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def add_solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("moves", nargs="*", default=[],
                        help="the moves played from the start, in the game's notation")
    parser.add_argument("--algorithm", choices=ALGORITHMS, default="alphabeta-tt")
    parser.add_argument("--trace", type=count(0), default=None, metavar="DEPTH",
                        help="print the search tree down to DEPTH plies")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--iterations", type=count(1), default=None, help="MCTS iterations")
    parser.add_argument("--time", type=seconds, default=None,
                        help="seconds: for MCTS, or iterative deepening under a clock")
    parser.add_argument("--seed", type=int, default=None, help="seed for MCTS")


def run(args: argparse.Namespace) -> int:
    args, game, status = start_game_command("solve", args.argv, "Solve a position.",
                                            add_solve_arguments)
    if status is not None:
        return status
    moves = moves_from_args(game, args.moves)
    state = replay(game, moves)[-1]
    trace = None
    if args.trace is not None:
        if args.trace < 0:
            raise UsageError("--trace needs a depth of 0 or more")
        trace = TracePrinter(game, args.trace, out=sys.stderr if args.json else sys.stdout)
    algorithm = args.algorithm
    if trace is not None and algorithm.startswith("mcts"):
        raise UsageError("--trace follows minimax and alpha-beta searches, not MCTS")
    clock = Limit(time=args.time) if args.time is not None else None
    if clock is not None and algorithm in ("minimax", "alphabeta"):
        raise UsageError(f"--time needs an anytime search (iterative, alphabeta-tt, mcts), "
                         f"not {algorithm}")
    if algorithm == "minimax":
        result = minimax(game, state, trace=trace)
    elif algorithm == "alphabeta":
        result = alphabeta(game, state, trace=trace, options=PLAIN)
    elif algorithm == "alphabeta-tt":
        result = alphabeta(game, state, trace=trace, options=Options(), limit=clock)
    elif algorithm == "iterative":
        result = None
        for result in iterate(game, state, trace=trace,  # noqa: B007 - the last one is kept
                              limit=clock or Limit()):
            pass
        if result is None:
            raise UsageError("no search depth finished within --time")
    else:
        result = _mcts(game, state, args, solver=algorithm == "mcts-solver")
    if args.json:
        print_json({"game": game.info.name, "moves": moves, "algorithm": algorithm,
                    **result.to_dict(game)})
        return 0
    print(f"value: {result.value:g} ({describe_value(result.value, result.exact)} "
          f"for the side to move)")
    if result.move is not None:
        print(f"best move: {game.format_move(result.move)}")
        print("principal variation: " + " ".join(game.format_move(m) for m in result.pv))
    print(f"nodes: {result.stats.nodes}")
    print(f"time: {result.stats.elapsed * 1000:.2f} ms")
    return 0


def _mcts(game, state, args, *, solver: bool):
    try:
        mcts = importlib.import_module("yipan.search.mcts").mcts
    except ImportError:
        raise UsageError("MCTS is not available in this build of yipan") from None
    if args.iterations is None and args.time is None:
        args.iterations = 200_000 if solver else 20_000  # the solver stops once proven
    limit = Limit(nodes=args.iterations, time=args.time)
    return mcts(game, state, limit=limit, rng=random.Random(args.seed), solver=solver)
