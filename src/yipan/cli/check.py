"""``yipan check MODULE[:NAME]``: run the protocol's checks on a game of your own.

MODULE is a module name (``pile_games``, found beside you as ``python -m`` finds it) or a
file (``games/pile.py``); NAME the Game class, a function that makes the game, or a game
object (without it, the one Game class the module defines). A registered game's name works
too (``yipan check tictactoe``). Random games (``--playouts``, drawn from ``--seed``) look for
the faults ``yipan.check`` lists; each is said in words with the position that shows it and
what to look at. Exit status 0 when none is found, 1 with the list, 2 when the game cannot
be loaded (one line).
"""

from __future__ import annotations

import argparse
import random

from ..check import CHECKS, DEFAULT_MAX_MOVES, DEFAULT_PLAYOUTS, check_game, load_game
from .common import count


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check", help="check a game of your own against the Game protocol",
        description="yipan check MODULE[:NAME] [--playouts N] [--seed S]")
    parser.add_argument("target", metavar="MODULE[:NAME]",
                        help="a module or .py file, and the Game class or factory in it")
    parser.add_argument("--playouts", type=count(1, 1_000_000), default=DEFAULT_PLAYOUTS,
                        help=f"random games to play (default {DEFAULT_PLAYOUTS})")
    parser.add_argument("--max-moves", type=count(1, 10_000_000), default=DEFAULT_MAX_MOVES,
                        help="moves after which a random game that has not ended is a fault "
                             f"(default {DEFAULT_MAX_MOVES:,})")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random games")
    parser.add_argument("--skip", action="append", default=[], choices=CHECKS,
                        help="a check to leave out (last-mover for a misère game)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.target)
    faults = check_game(game, rng=random.Random(args.seed), playouts=args.playouts,
                        max_moves=args.max_moves, skip=tuple(args.skip))
    name = getattr(getattr(game, "info", None), "name", args.target)
    if not faults:
        print(f"{name}: no fault found in {args.playouts} random games")
        return 0
    print(f"{name}: {len(faults)} fault(s) found")
    for number, fault in enumerate(faults, 1):
        print(f"\n{number}. {fault.describe()}")
    return 1
