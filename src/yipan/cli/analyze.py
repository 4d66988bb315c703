"""``yipan analyze GAME MOVES``: every legal move's value, the best move, the main line.

``--ai`` names the engine (``yipan.engines``): by default the game's own analysis when it
has one (Connect Four's solver, Gomoku's threat search, the heap games' theory), else the
generic search that fits the game.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any

from .. import engines
from ..core import CHANCE, Analysis, AnalysisRequest, Game, Limit, describe_value, replay
from ..search import TracePrinter
from .common import (
    UsageError,
    count,
    input_file,
    moves_from_args,
    prepare_game,
    print_json,
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
    deals = deals_to_come(game, state)
    engines.check_analysis(game, deals[0][1] if deals else state, args.ai, options)
    prepare_game(game)  # after the input is checked: bad input is refused before compiling
    trace = None
    if args.trace is not None:
        trace = TracePrinter(game, args.trace, out=sys.stderr if args.json else sys.stdout)
    given = (args.time, args.depth, args.nodes)
    limit = Limit(depth=args.depth, nodes=args.nodes, time=args.time) \
        if any(value is not None for value in given) else None
    request = AnalysisRequest(limit=limit, options=options, trace=trace,
                              trace_depth=args.trace, progress=say_progress)
    rng = random.Random(args.seed)
    if deals:
        show_information_sets(game, moves, deals, lambda dealt: engines.analyze(
            game, dealt, args.ai, request=request, rng=rng), as_json=args.json)
        return 0
    analysis = engines.analyze(game, state, args.ai, request=request, rng=rng)
    show(game, state, moves, analysis, as_json=args.json)
    return 0


MAX_DEALS = 2_000  # deals to come that are analysed one by one (Kuhn: 6, Leduc: 30)
Deal = tuple[float, Any, list[Any]]  # probability, the position dealt, the draws


def deals_to_come(game: Game, state: Any) -> list[Deal]:
    """In a game of hidden cards whose deal is not (wholly) given, every way the deal may
    end before the first choice, with its probability; [] when there is nothing to deal (or
    too much: a deal has to be given then, as the refusal says)."""
    if game.info.perfect_information or game.outcome(state) is not None \
            or game.to_move(state) != CHANCE:
        return []
    deals: list[Deal] = [(1.0, state, [])]
    while any(game.outcome(s) is None and game.to_move(s) == CHANCE for _, s, _ in deals):
        grown: list[Deal] = []
        for chance, position, draws in deals:
            if game.outcome(position) is not None or game.to_move(position) != CHANCE:
                grown.append((chance, position, draws))
                continue
            for draw, probability in game.chance_outcomes(position):
                grown.append((chance * probability, game.play(position, draw), [*draws, draw]))
            if len(grown) > MAX_DEALS:
                return []
        deals = grown
    return deals


def show_information_sets(game: Game, moves: list[str], deals: list[Deal],
                          analyse: Callable[[Any], Analysis], *, as_json: bool) -> None:
    """With no deal given, the player to move's information set: each hand it may hold (the
    deals it cannot tell apart analysed and averaged by their chances), and the average."""
    mover = game.to_move(deals[0][1])
    groups: dict[str, list[Deal]] = {}
    for deal in deals:
        seen = game.as_seen_by(deal[1], mover)
        groups.setdefault(game.render(seen), []).append(deal)
    hands: list[dict[str, Any]] = []
    for group in groups.values():
        chance = sum(probability for probability, _, _ in group)
        known = [draw for index, draw in enumerate(group[0][2])  # what every deal shares
                 if all(other[2][index] == draw for other in group)]
        analyses = [(probability / chance, analyse(position)) for probability, position, _
                    in group]
        first = analyses[0][1]
        values = {game.format_move(move): sum(share * (a.move_values.get(move) or 0.0)
                                              for share, a in analyses)
                  for move in first.move_values}
        value = sum(share * (a.value or 0.0) for share, a in analyses)
        strategy = first.extra.get("strategy") or {}
        hands.append({"hand": " ".join(game.format_move(d) for d in known) or "as given",
                      "probability": chance, "move": game.format_move(first.move),
                      "value": value, "description": describe_value(value, False, first.scale),
                      "move_values": values,
                      "strategy": {game.format_move(m): p for m, p in strategy.items()}})
    average = sum(hand["probability"] * hand["value"] for hand in hands)
    names = game.player_names
    if as_json:
        print_json({"game": game.info.name, "moves": moves, "to_move": mover,
                    "deal_given": False, "information_sets": hands, "value": average,
                    "description": describe_value(average, False, "payoff")})
        return
    print(f"No deal given: {names[mover]} moves first with a hand the moves do not show, so "
          "each hand it may hold is analysed (the other cards averaged by their chances):")
    width = max(len(hand["hand"]) for hand in hands)
    for hand in hands:
        mix = ", ".join(f"{move} {share:.1%}" for move, share in hand["strategy"].items())
        print(f"  {hand['hand']:>{width}}  ({hand['probability']:.3g})  best {hand['move']} "
              f"({hand['description']})" + (f"; strategy {mix}" if mix else ""))
    print(f"over every deal: {describe_value(average, False, 'payoff')} for {names[mover]}")
