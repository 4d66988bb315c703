"""``yipan analyze`` and ``yipan solve`` for the heap games, by Sprague-Grundy theory.

The generic search would explore the game tree (hopeless for ``kayles 40`` or Nim with large
heaps); theory answers at once: the position's Grundy value, who wins, and every winning move.
``--search`` (or a search option such as ``--algorithm``, ``--trace``, ``--depth``,
``--time``) falls back to the generic search, which the tests use as a cross-check.
"""

from __future__ import annotations

import argparse

from ..cli.common import moves_from_args, print_json
from ..core import Game, GameOptionError, replay


def extend_parser(command: str, parser: argparse.ArgumentParser) -> None:
    if command in ("analyze", "solve"):
        parser.add_argument("--search", action="store_true",
                            help="use the generic game-tree search instead of Grundy values")


def wants_search(command: str, args: argparse.Namespace) -> bool:
    if getattr(args, "search", False):
        return True
    if command == "solve":
        return args.algorithm != "alphabeta-tt" or args.trace is not None
    return args.time is not None or args.depth is not None


def run(command: str, args: argparse.Namespace, game: Game) -> int | None:
    if command not in ("analyze", "solve") or wants_search(command, args):
        return None
    moves = moves_from_args(game, args.moves)
    state = replay(game, moves)[-1]
    to_move = game.to_move(state)
    lost = game.is_lost(state)  # type: ignore[attr-defined]
    winning = game.winning_moves(state)  # type: ignore[attr-defined]
    misere = getattr(game, "misere", False)
    try:
        value = None if misere else game.grundy_value(state)  # type: ignore[attr-defined]
    except GameOptionError:  # beyond the Wythoff table
        value = None
    winner = 1 - to_move if lost else to_move
    if args.json:
        print_json({"game": game.info.name, "moves": moves, "to_move": to_move, "grundy": value,
                    "winner": winner, "winning_moves": [game.format_move(m) for m in winning]})
        return 0
    names = game.player_names
    print(game.render(state))
    print(f"{names[to_move]} to move.")
    reason = "misère rule" if misere else ("no Grundy value in reach" if value is None
                                           else f"Grundy value {value}")
    if game.outcome(state) is not None:
        print(f"The game is over: {names[winner]} has won.")
    elif lost:
        print(f"{reason}: {names[winner]} wins; every move of {names[to_move]} loses "
              "against best play.")
    else:
        print(f"{reason}: {names[winner]} wins with "
              + ("this move:" if len(winning) == 1 else f"any of these {len(winning)} moves:"))
        print("  " + " ".join(game.format_move(m) for m in winning))
    return 0
