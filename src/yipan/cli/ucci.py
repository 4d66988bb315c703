"""``yipan ucci``: the xiangqi engine speaking UCCI on stdin/stdout (as ``ucci-yipan``)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "ucci", help="speak the UCCI xiangqi engine protocol on stdin/stdout",
        description="Run yipan's xiangqi engine as a UCCI engine: a GUI (XiangQi Wizard, "
                    "BHGUI) sends ucci, position, banmoves, go ... and reads info and "
                    "bestmove lines.")
    from ..protocols.ucci import add_arguments  # light: no engine is loaded here

    add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..protocols.ucci import run_engine

    return run_engine(args)
