"""``yipan gomocup``: the Gomoku engine as a Gomocup brain on stdin/stdout (as ``pbrain-yipan``)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "gomocup", help="speak the Gomocup (Piskvork) brain protocol on stdin/stdout",
        description="Run yipan's Gomoku engine as a Gomocup brain: a tournament manager "
                    "(Piskvork and others) sends START, TURN, BOARD ... and reads x,y moves.")
    from ..protocols.gomocup import add_arguments  # light: no engine is loaded here

    add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..protocols.gomocup import run_brain

    return run_brain(args)
