"""``yipan gtp``: the Go engine speaking GTP on stdin/stdout (as ``gtp-yipan``)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "gtp", help="speak the Go Text Protocol on stdin/stdout (GoGui, Sabaki, twogtp)",
        description="Run yipan's Go engine as a GTP engine: a controller (GoGui, Sabaki, "
                    "gogui-twogtp, a KGS or OGS bot) sends boardsize, play, genmove ...")
    from ..protocols.gtp import add_arguments  # light: no engine is loaded here

    add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..protocols.gtp import run_engine

    return run_engine(args)
