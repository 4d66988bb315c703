"""``yipan uci``: the chess engine speaking UCI on stdin/stdout (as ``uci-yipan``)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "uci", help="speak the UCI chess engine protocol on stdin/stdout",
        description="Run yipan's chess engine as a UCI engine: a GUI (Arena, cutechess, "
                    "lichess-bot, python-chess) sends uci, position, go ... and reads "
                    "info and bestmove lines.")
    from ..protocols.uci import add_arguments  # light: no engine is loaded here

    add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..protocols.uci import run_engine

    return run_engine(args)
