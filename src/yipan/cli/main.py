"""``yipan``: the entry point. Each top-level command is a module in COMMAND_MODULES with
``register(subparsers)``; errors the library raises on purpose become one line and exit 2."""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any

# numpy's BLAS on one thread: the network's small products (a batch of 8 positions) are
# far slower on several threads that wait for each other on a busy machine; set before numpy
# loads, and a value the user set is kept
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from ..core import YipanError
from ..core.version import VERSION
from ..plugins import ENVIRONMENT, load_game_modules
from .common import Parser

COMMAND_MODULES = (
    "yipan.cli.games",
    "yipan.cli.play",
    "yipan.cli.analyze",
    "yipan.cli.solve",
    "yipan.cli.sg",
    "yipan.cli.serve",
    "yipan.cli.watch",
    "yipan.cli.gomocup",
    "yipan.cli.book",
    "yipan.cli.prepare",
    "yipan.cli.perft",
    "yipan.cli.poker",
    "yipan.cli.uci",
    "yipan.cli.ucci",
    "yipan.cli.tablebase",
    "yipan.cli.gtp",
    "yipan.cli.train",
    "yipan.cli.explain",
    "yipan.cli.check",
)


def _modules_named(argv: Sequence[str]) -> list[str]:
    """The ``--games-from MODULE`` options, read before the parser is built (the games they
    register must be known to it)."""
    names = []
    for index, word in enumerate(argv):
        if word == "--games-from" and index + 1 < len(argv):
            names.append(argv[index + 1])
        elif word.startswith("--games-from="):
            names.append(word.split("=", 1)[1])
        elif not word.startswith("-"):
            break  # the command: options after it belong to it
    return names


MAX_MESSAGE = 300  # characters of an error shown: an argument of 100,000 is not echoed back


def one_line(message: str) -> str:
    """An error message as one short line."""
    text = " ".join(message.split())
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "…"


USAGE = """usage: yipan COMMAND GAME [MOVES ...] [options]

  yipan play tictactoe          play against the AI (also connect4, gomoku, nim 3 4 5, 2048)
  yipan analyze connect4 4453   every move's value, the best move, the main line
  yipan solve tictactoe         the exact value, with nodes and time
  yipan play connect4 --ai puct  play against a search guided by a trained network
  yipan games                   the games and their options
  yipan serve --open            the web page

yipan --help lists every command; yipan COMMAND --help, yipan COMMAND GAME --help say more."""


def build_parser() -> Parser:
    parser = Parser(prog="yipan", description="Play, solve and explain strategy games.")
    parser.add_argument("--version", action="version", version=f"yipan {VERSION}")
    parser.add_argument("--games-from", metavar="MODULE", action="append", default=[],
                        help="import MODULE first (a module that registers games of its own; "
                             "games in installed packages are found without it)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    previous = exit_on_terminate()
    try:
        return _run(argv)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def exit_on_terminate() -> Any:
    """A SIGTERM (``kill``, ``pkill``, a service manager) ends yipan as Ctrl-C does, through
    its clean-ups: a long job's worker processes are stopped, not left behind waiting for
    work. Returns the handler it replaced (None off the main thread, where none can be set)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def terminated(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    return signal.signal(signal.SIGTERM, terminated)


def _run(argv: list[str]) -> int:
    try:
        modules = _modules_named(argv)
        load_game_modules(modules)
        if modules:  # the web app's worker processes import them too
            os.environ[ENVIRONMENT] = ",".join(
                filter(None, [*os.environ.get(ENVIRONMENT, "").split(","), *modules]))
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)
        if extra:
            if not hasattr(args, "argv"):  # only the game commands take words of their own
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
            args.argv = extra + args.argv  # e.g. "play --help": the game command answers
        if not getattr(args, "func", None):
            print(USAGE)
            return 0 if not argv else 2
        return int(args.func(args) or 0)
    except YipanError as error:
        print(f"yipan: error: {one_line(str(error))}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as error:  # a file given as text that is not
        print(f"yipan: error: cannot read the input as UTF-8 text ({error.reason} at byte "
              f"{error.start})", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into a pager or head that closed early
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        return 0
    except OSError as error:  # a file that cannot be read or written
        print(f"yipan: error: {error.strerror or error}: {error.filename or ''}".rstrip(": "),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
