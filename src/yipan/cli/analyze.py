"""``yipan analyze GAME MOVES``: every legal move's value, the best move, the main line.

``--ai`` names the engine (``yipan.engines``): by default the game's own analysis when it
has one (Connect Four's solver, Gomoku's threat search, the heap games' theory), else the
generic search that fits the game.
"""

from __future__ import annotations

import argparse
import random
import sys

from .. import engines
from ..core import AnalysisRequest, Limit, replay
from ..search import TracePrinter
from .common import (
    UsageError,
    count,
    input_file,
    moves_from_args,
    prepare_game,
    seconds,
    start_game_command,
)
from .report import show


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "analyze", help="value of every move in a position", add_help=False,
        description="yipan analyze GAME [MOVES ...] [--ai ENGINE] [--time S] [--depth D] "
                    "[--json]")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def add_analyze_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("moves", nargs="*", default=[],
                        help="the moves played from the start, in the game's notation")
    names = engines.analyze_engines()
    parser.add_argument("--ai", choices=names, default="auto", metavar="ENGINE",
                        help="the engine (default auto): " + engines.engine_help(names))
    parser.add_argument("--network", type=input_file, default=None, metavar="FILE",
                        help="the network for puct and net (default: the one shipped for "
                             "the game)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--time", type=seconds, default=None,
                        help="seconds to search (default: the engine's own; alpha-beta "
                             "searches to the end)")
    parser.add_argument("--depth", type=count(1), default=None, help="search this many plies")
    parser.add_argument("--nodes", type=count(1), default=None,
                        help="search at most this many nodes (MCTS: iterations); unlike "
                             "--time, the answer does not depend on the machine's speed")
    parser.add_argument("--trace", type=count(0), default=None, metavar="DEPTH",
                        help="print the search tree down to DEPTH plies (alpha-beta, and the "
                             "plain search of games that trace their own)")
    parser.add_argument("--seed", type=int, default=None, help="seed the engine's choices")


def say_progress(text: str) -> None:
    """A long search's progress, on stderr (stdout stays the report or the JSON)."""
    print(text, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    args, game, hooks = start_game_command("analyze", args.argv, "Analyse a position.",
                                           add_analyze_arguments, prepare=False)
    start = None
    if hooks.start is not None and (started := hooks.start(game, args.hook_options)):
        game, states = started  # a position from a record (Go's --sgf FILE); moves follow it
        start = states[-1]
    moves = moves_from_args(game, args.moves)
    state = replay(game, moves, start)[-1]
    options = dict(args.hook_options)
    if args.ai in ("puct", "net"):  # the network's view beside the game's own analysis
        options.update(network=args.network, truth=True)
    elif args.network is not None:
        raise UsageError("--network is for --ai puct or --ai net")
    engines.check_analysis(game, state, args.ai, options)
    prepare_game(game)  # after the input is checked: bad input is refused before compiling
    trace = None
    if args.trace is not None:
        trace = TracePrinter(game, args.trace, out=sys.stderr if args.json else sys.stdout)
    given = (args.time, args.depth, args.nodes)
    limit = Limit(depth=args.depth, nodes=args.nodes, time=args.time) \
        if any(value is not None for value in given) else None
    request = AnalysisRequest(limit=limit, options=options, trace=trace,
                              trace_depth=args.trace, progress=say_progress)
    analysis = engines.analyze(game, state, args.ai, request=request,
                               rng=random.Random(args.seed))
    show(game, state, moves, analysis, as_json=args.json)
    return 0
