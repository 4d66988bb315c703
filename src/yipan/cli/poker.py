"""``yipan poker pushfold``: the heads-up push-or-fold equilibrium of no-limit hold'em.

    yipan poker pushfold --stack 10 [--ante 0.1] [--json]   the two ranges at one stack
    yipan poker pushfold --chart [--ante A] [--json]        the thresholds over 1-20 bb

The ranges are drawn as the usual 13 x 13 grid (pairs on the diagonal, suited hands above it,
offsuit below), each cell the percentage of the time the hand is shoved (or calls). The
charts give, for each hand, the largest stack at which it is shoved (and calls a shove):
``20+`` means at 20 big blinds or more. ``--json`` prints one object: for a stack
``{"stack", "ante", "push": {"AA": 1.0, ...}, "call": {...}, "value", "exploitability",
"iterations", "seconds"}``; for the chart ``{"push": {"AA": 20.0, ...}, "call": {...},
"ante", "stacks": [1.0, 20.0, 0.1], "worst_exploitability", "seconds"}``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Mapping

from ..core.text import quote
from .common import UsageError, print_json

Cell = Callable[[float], str]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "poker", help="poker tools: the push-or-fold equilibrium",
        description="yipan poker pushfold [--stack BB | --chart] [--ante BB] [--json]")
    tools = parser.add_subparsers(dest="tool", metavar="TOOL")
    pushfold = tools.add_parser("pushfold", help="heads-up push-or-fold ranges and charts",
                                description=__doc__.split("\n\n")[1] if __doc__ else None)
    pushfold.add_argument("--stack", type=big_blinds, default=10.0,
                          help="effective stack in big blinds (default 10)")
    pushfold.add_argument("--ante", type=big_blinds, default=0.0,
                          help="each player's ante in big blinds (default 0)")
    pushfold.add_argument("--chart", action="store_true",
                          help="the thresholds: the largest stack (1-20 bb) each hand shoves "
                               "and calls at")
    pushfold.add_argument("--json", action="store_true", help="print one JSON object")
    pushfold.set_defaults(func=run_pushfold)
    parser.set_defaults(func=_name_a_tool)


def _name_a_tool(args: argparse.Namespace) -> int:
    raise UsageError("yipan poker: name a tool (pushfold)")


def big_blinds(text: str) -> float:
    """An argparse type: a finite number of big blinds, 0 to 1000."""
    try:
        if not text.isascii() or len(text) > 16:
            raise ValueError
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of big blinds: {quote(text)}") \
            from None
    if not (math.isfinite(value) and 0 <= value <= 1000):
        raise argparse.ArgumentTypeError(f"big blinds must be from 0 to 1000, got {text}")
    return value


def run_pushfold(args: argparse.Namespace) -> int:
    from ..poker import pushfold

    if args.stack <= 0:
        raise UsageError("yipan poker pushfold: the stack must be above 0 big blinds")
    if args.ante > args.stack:
        raise UsageError("yipan poker pushfold: the ante cannot exceed the stack")
    start = time.process_time()
    if args.chart:
        chart = pushfold.chart(args.ante)
        seconds = time.process_time() - start
        if args.json:
            stacks = chart.stacks
            print_json({"push": chart.push, "call": chart.call, "ante": args.ante,
                        "stacks": [float(stacks[0]), float(stacks[-1]), 0.1],
                        "worst_exploitability": chart.worst_exploitability,
                        "seconds": round(seconds, 3)})
            return 0
        top = float(chart.stacks[-1])

        def threshold(stack: float) -> str:
            return "." if stack == 0 else f"{top:g}+" if stack >= top else f"{stack:.1f}"

        print(f"Largest stack (bb) at which the small blind shoves, ante {args.ante:g}:")
        print_grid(chart.push, threshold)
        print()
        print("Largest stack (bb) at which the big blind calls a shove:")
        print_grid(chart.call, threshold)
        print(f"\n{len(chart.stacks)} stacks from {chart.stacks[0]:g} to {top:g} bb, each "
              f"solved to an exploitability below {chart.worst_exploitability:.1e} bb, in "
              f"{seconds:.1f} s")
        return 0
    solution = pushfold.solve(args.stack, args.ante)
    seconds = time.process_time() - start
    if args.json:
        print_json({"stack": args.stack, "ante": args.ante, "push": solution.push_range(),
                    "call": solution.call_range(), "value": solution.value,
                    "exploitability": solution.exploitability,
                    "iterations": solution.iterations, "seconds": round(seconds, 3)})
        return 0

    def percent(probability: float) -> str:
        return "." if probability < 0.005 else f"{round(probability * 100)}"

    game = pushfold.PushFoldGame(args.stack, args.ante)
    print(f"Small blind shoves {args.stack:g} bb ({share(solution.push, game.held):.1%} of "
          "hands), percent of the time:")
    print_grid(solution.push_range(), percent)
    print()
    print(f"Big blind calls the shove ({share(solution.call, game.held):.1%} of hands):")
    print_grid(solution.call_range(), percent)
    print(f"\nsmall blind's value {solution.value:+.4f} bb; exploitability "
          f"{solution.exploitability:.1e} bb after {solution.iterations} iterations of CFR+, "
          f"{seconds:.2f} s")
    return 0


def share(probabilities, held) -> float:
    """The share of all deals in which the range acts (each class by its combinations)."""
    return float((probabilities * held).sum() / held.sum())


def print_grid(values: Mapping[str, float], cell: Cell) -> None:
    """The 13 x 13 grid: rows and columns A..2, pairs on the diagonal, suited above it."""
    from ..poker.cards import CLASS_NAMES, GRID_RANKS

    print("     " + "".join(f"{rank:>5}" for rank in GRID_RANKS))
    for row, rank in enumerate(GRID_RANKS):
        cells = [cell(values[CLASS_NAMES[13 * row + column]]) for column in range(13)]
        print(f"  {rank}  " + "".join(f"{text:>5}" for text in cells))
