"""``yipan explain GAME [MOVES] --algorithm A (--depth D | --iterations N)``: the tree a search
explored, as an indented text tree, one JSON object (``--json``) or Graphviz (``--dot``).

The search is the real one, observed through its trace hook (``yipan.explain``): ``nodes`` is
what ``yipan solve`` reports for the same algorithm and position. The tree is capped at
``--max-nodes`` (20,000 by default) and says so when cut (``truncated``)::

    {"game": "tictactoe", "moves": ["a1", "b2"], "algorithm": "alphabeta", "depth": 9,
     "value": 0, "move": "c3", "nodes": 1234, "recorded": 1234, "truncated": false,
     "root": {"move": null, "value": 0, "side": "MAX", "alpha": null, "beta": null,
              "cutoff": false, "children": [...]}}

``alpha``/``beta`` null stand for an unbounded window; every value is from MAX's side (the
side to move at the root). MCTS adds ``iteration_paths``: each iteration's nodes (their places
in the tree's depth-first order, root first) and the result it backed up. ``--without table``
(or ``symmetry``, ``ordering``, ``pvs``, ``bounds``; repeated for more) turns a refinement
of ``alphabeta-tt`` off, to see what it saves.
"""

from __future__ import annotations

import argparse
import random

from ..core import replay
from ..explain import ALGORITHMS, REFINEMENTS, check, explain, to_dot, to_json, to_text
from ..search.tree import DEFAULT_MAX_NODES
from .common import count, moves_from_args, print_json, start_game_command

MAX_DEPTH = 64


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "explain", help="show the tree a search explored (text, JSON or Graphviz)",
        add_help=False,
        description="yipan explain GAME [MOVES ...] --algorithm A (--depth D | --iterations N) "
                    "[--json | --dot]")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def add_explain_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("moves", nargs="*", default=[],
                        help="the moves played from the start, in the game's notation")
    parser.add_argument("--algorithm", choices=ALGORITHMS, required=True)
    parser.add_argument("--depth", type=count(1, MAX_DEPTH), default=None,
                        help="plies to search (minimax, alphabeta, alphabeta-tt, expectimax)")
    parser.add_argument("--iterations", type=count(1, 10_000_000), default=None,
                        help="MCTS iterations")
    parser.add_argument("--max-nodes", type=count(1, 10_000_000), default=DEFAULT_MAX_NODES,
                        help=f"nodes of the tree kept (default {DEFAULT_MAX_NODES:,})")
    parser.add_argument("--seed", type=int, default=None, help="seed for MCTS")
    parser.add_argument("--without", action="append", default=[], choices=REFINEMENTS,
                        help="alphabeta-tt without this refinement (repeat for more)")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print one JSON object")
    shown.add_argument("--dot", action="store_true", help="print the tree for Graphviz")


def run(args: argparse.Namespace) -> int:
    args, game, _hooks = start_game_command("explain", args.argv, "Show the tree a search "
                                            "explored.", add_explain_arguments, prepare=False)
    moves = moves_from_args(game, args.moves)
    state = replay(game, moves)[-1]
    check(game, state, args.algorithm, args.depth, args.iterations)
    explanation = explain(game, state, args.algorithm, depth=args.depth,
                          iterations=args.iterations, rng=random.Random(args.seed),
                          max_nodes=args.max_nodes, without=tuple(args.without))
    if args.json:
        print_json(to_json(game, explanation, moves, args.depth, args.iterations))
    elif args.dot:
        print(to_dot(game, explanation))
    else:
        print(to_text(game, explanation))
    return 0
