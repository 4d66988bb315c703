"""``yipan uci``: the chess engine speaking UCI on stdin/stdout (as ``uci-yipan``);
``--variant xiangqi``: the xiangqi engine in the UCI dialect of Fairy-Stockfish."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "uci", help="speak the UCI engine protocol on stdin/stdout (chess; --variant xiangqi)",
        description="Run yipan's chess engine as a UCI engine: a GUI (Arena, cutechess, "
                    "lichess-bot, python-chess) sends uci, position, go ... and reads "
                    "info and bestmove lines. With --variant xiangqi (or setoption name "
                    "UCI_Variant value xiangqi) it plays Chinese chess as Fairy-Stockfish "
                    "and Pikafish speak it.")
    from ..protocols.uci import add_arguments  # light: no engine is loaded here

    add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..protocols.uci import run_engine

    return run_engine(args)
