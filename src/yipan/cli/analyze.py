"""``yipan analyze GAME MOVES``: every legal move's value, the best move, the main line."""

from __future__ import annotations

import argparse

from ..core import Limit, SearchResult, describe_value, replay
from ..search import alphabeta
from .common import count, moves_from_args, print_json, seconds, start_game_command


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "analyze", help="value of every move in a position", add_help=False,
        description="yipan analyze GAME [MOVES ...] [--json] [--time S] [--depth D]")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def add_analyze_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("moves", nargs="*", default=[],
                        help="the moves played from the start, in the game's notation")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--time", type=seconds, default=None,
                        help="seconds to search (default: search to the end)")
    parser.add_argument("--depth", type=count(0), default=None, help="search this many plies")


def run(args: argparse.Namespace) -> int:
    args, game, status = start_game_command("analyze", args.argv, "Analyse a position.",
                                            add_analyze_arguments)
    if status is not None:
        return status
    moves = moves_from_args(game, args.moves)
    state = replay(game, moves)[-1]
    outcome = game.outcome(state)
    if outcome is not None:
        result_text = "draw" if outcome.winner is None else \
            f"{game.player_names[outcome.winner]} has won"
        if args.json:
            print_json({"moves": moves, "game_over": True, "winner": outcome.winner,
                        "result": result_text})
        else:
            print(game.render(state))
            print(f"The game is over: {result_text}.")
        return 0
    limit = Limit(depth=args.depth, time=args.time)
    result = alphabeta(game, state, analysis=True,
                       limit=limit if args.time is not None or args.depth is not None else None)
    report(game, state, moves, result, as_json=args.json)
    return 0


def report(game, state, moves, result: SearchResult, *, as_json: bool) -> None:
    to_move = game.to_move(state)
    if as_json:
        data = {"moves": moves, "to_move": to_move, **result.to_dict(game)}
        print_json(data)
        return
    print(game.render(state))
    print(f"{game.player_names[to_move]} to move.")
    ranked = sorted(result.move_values.items(), key=lambda item: -item[1])
    width = max((len(game.format_move(m)) for m, _ in ranked), default=4)
    for move, value in ranked:
        print(f"  {game.format_move(move):>{width}}  {describe_value(value, result.exact)}")
    print(f"best move: {game.format_move(result.move)} "
          f"({describe_value(result.value, result.exact)})")
    print("principal variation: " + " ".join(game.format_move(m) for m in result.pv))
    print(f"{result.stats.nodes} nodes in {result.stats.elapsed:.3f} s"
          + ("" if result.exact else f", depth {result.depth} (heuristic)"))
