"""Gomoku's command-line hook: ``yipan analyze gomoku MOVES`` with the fast engine.

It prints the best move, the evaluation and, when there is one, the forced win (the VCF or
VCT line) of the side to move, and warns of the opponent's. ``--trace DEPTH`` also prints the
tree of the depth-limited reference search (the seed's ``minimax_with_heuristic``).
``play`` uses the generic loop with this game's AI (``players.make_ai``); ``solve`` is
refused (exit status 2) unless the board is nearly full.
"""

from __future__ import annotations

import argparse
import sys

from ...core import describe_value, replay
from ...search import TracePrinter


def extend_parser(command: str, parser: argparse.ArgumentParser) -> None:
    if command == "analyze":
        parser.add_argument("--trace", type=int, default=None, metavar="DEPTH",
                            help="print the tree of a plain depth-limited search to DEPTH")


SOLVABLE_EMPTY_POINTS = 16  # exact search to the end is hopeless beyond a nearly full board


def run(command: str, args: argparse.Namespace, game) -> int | None:
    from ...cli.common import UsageError, moves_from_args, print_json

    if command == "solve":
        state = replay(game, moves_from_args(game, args.moves))[-1]
        empty = len(game.legal_moves(state))
        if empty > SOLVABLE_EMPTY_POINTS:
            raise UsageError(
                f"gomoku: {empty} empty points are too many to solve exactly; "
                f"`yipan analyze gomoku MOVES` finds forced wins and the best move")
        return None
    if command != "analyze":
        return None
    from .engine import Engine, reference_search

    moves = moves_from_args(game, args.moves)
    state = replay(game, moves)[-1]
    outcome = game.outcome(state)
    engine = Engine(game.size, game.rule)
    engine.set_state(state)
    me = game.to_move(state)
    names = game.player_names
    fmt = game.format_move
    if outcome is not None:
        text = "draw" if outcome.winner is None else f"{names[outcome.winner]} has won"
        if args.json:
            print_json({"moves": moves, "game_over": True, "winner": outcome.winner,
                        "result": text})
        else:
            print(game.render(state))
            print(f"The game is over: {text}.")
        return 0
    if args.trace is not None:
        if not 0 <= args.trace <= 3:
            raise UsageError("--trace needs a depth from 0 to 3 (the tree grows fast)")
        printer = TracePrinter(game, max_depth=args.trace,
                               out=sys.stderr if args.json else sys.stdout)
        traced = reference_search(engine, args.trace, trace=printer)
        print(f"plain search to depth {args.trace}: {traced.stats.nodes} nodes, "
              f"value {traced.value:+g}", file=sys.stderr if args.json else sys.stdout)
    seconds = 2.0 if args.time is None else args.time
    decision = engine.think(seconds=seconds,
                            max_depth=args.depth if args.depth is not None else 64)
    threat = decision.threat
    engine.side = 1 - me  # the opponent's threats, as if it were to move
    danger = engine.threat_win(1 - me, threes=False, max_depth=engine.vcf_depth,
                               nodes=100_000, seconds=seconds / 4)
    engine.side = None
    result = decision.result
    if args.json:
        print_json({
            "moves": moves, "to_move": me, "move": fmt(decision.move),
            "reason": decision.reason, "value": result.value,
            "description": describe_value(result.value, result.exact),
            "pv": [fmt(m) for m in result.pv], "depth": result.depth,
            "forced_win": None if threat is None else {
                "kind": threat.kind, "line": [fmt(m) for m in threat.line]},
            "opponent_vcf": None if danger is None else [fmt(m) for m in danger.line],
            "nodes": result.stats.nodes, "seconds": round(result.stats.elapsed, 6),
        })
        return 0
    print(game.render(state))
    print(f"{names[me]} to move.")
    print(f"best move: {fmt(decision.move)} "
          f"({describe_value(result.value, result.exact)}, by {decision.reason})")
    if threat is not None:
        print(f"forced win ({threat.kind}): " + " ".join(fmt(m) for m in threat.line))
    elif result.pv:
        print("principal variation: " + " ".join(fmt(m) for m in result.pv))
    if danger is not None:
        print(f"{names[1 - me]} threatens a VCF: " + " ".join(fmt(m) for m in danger.line))
    print(f"{result.stats.nodes} nodes in {result.stats.elapsed:.3f} s"
          + (f", depth {result.depth}" if decision.reason == "search" else ""))
    return 0
