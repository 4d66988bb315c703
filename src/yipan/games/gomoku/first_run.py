"""A machine's first run: the engine's kernels compiled on two processes at once.

numba compiles a kernel the first time it runs on a machine and keeps the machine code in its
cache on disk; later runs load it in about a second. The first time, compiling is the
Gomocup brain's whole answer to START (a tournament manager waits for it). So the work is
shared from the start, both processes compiling kernels from their signatures (nothing runs
until the engine is built): this one the kernels that place and remove stones and then the
alpha-beta search, the second one the search's smaller pieces (which this one's search then
loads from the cache), the board's set-up, and the threat search (which calls this one's
kernels that place and remove stones, loaded the same way). This process then builds the
engine, loading the set-up, and waits for the threat search::

    this process:    import | place, remove | alpha-beta search ........ | board | threats
    second process:  import | search pieces | board set-up | threat search .........|

The order is taken from a timeline of both processes' compiles (numba's compile events): on
two cores each kernel is in the cache before the other process needs it. One that is not is
compiled by the process needing it too, and a share that fails leaves its kernels to the
engine, so the helper only ever saves time (``benchmarks/first_move.py`` times the brain's
first START with and without it). How the helper is started, waited for and stopped:
``yipan.native_helper``.

    python -m yipan.games.gomoku.first_run SIZE RULE   (what the second process runs)
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass

from numba import typeof, types
from numba.core.types import Type

from ...native_helper import start_helper, stop, wait_for
from .board import (
    Board,
    BoardArrays,
    _board_struct,
    board_arrays,
    evaluate,
    find_level,
    initialise,
    place,
    remove,
)
from .context import (
    Context,
    ContextArrays,
    _context_struct,
    context_arrays,
    out_of_budget,
)
from .search import from_table, generate, negamax, to_table
from .threats import threat_node

__all__ = ["Share", "compile_elsewhere", "compile_search_here", "shared_compile"]

N = types.int64  # every point, colour, depth and limit the engine passes


def compile_elsewhere(size: int, rule: str) -> subprocess.Popen | None:
    """Start the second process when the threat search is not compiled yet (else None)."""
    return start_helper(__name__, [str(size), rule], threat_node)


@dataclass(frozen=True)
class Share:
    """A first run's sharing: the second process (None when there is nothing to share: all
    cached, one CPU, or helpers off) and when this process started its own share."""

    helper: subprocess.Popen | None
    started: float

    def wait(self) -> None:
        """Wait for the helper's share (``wait_for``: as long as this process's took, and
        some patience more); then its kernels are in the cache."""
        wait_for(self.helper, time.perf_counter() - self.started)


@contextmanager
def shared_compile(size: int, rule: str) -> Iterator[Share]:
    """On a machine's first run: the second process started and this one's share compiled,
    then the body (building the engine and loading the rest), then the helper stopped; where
    there is nothing to share, only the body."""
    share = Share(compile_elsewhere(size, rule), time.perf_counter())
    try:
        if share.helper is not None:
            # (if this share fails, the engine compiles what it needs as it meets it)
            with suppress(Exception):
                compile_search_here(size, rule)
        yield share
    finally:
        stop(share.helper)


def compile_search_here(size: int, rule: str) -> None:
    """This process's share: placing and removing stones, then the alpha-beta search."""
    board, context = _struct_types(*_arrays(size, rule))
    place.compile((board, N, N))
    remove.compile((board, N))
    negamax.compile((board, context, N, N, N, N, N))


def main(argv: Sequence[str]) -> int:
    """The second process's share, in the order the other process needs it."""
    arrays = _arrays(int(argv[0]), argv[1])
    board, context = _struct_types(*arrays)
    out_of_budget.compile((context, N, N))
    find_level.compile((board, N, N))
    evaluate.compile((board, N))
    from_table.compile((types.int32, N))  # (a value read from the table)
    generate.compile((board, context, N, N, N))
    to_table.compile((N, N))
    _board_struct.compile((typeof(arrays[0]),))
    _context_struct.compile((typeof(arrays[1]),))
    initialise.compile((board,))
    threat_node.compile((board, context, N, N, N, N, N))
    return 0


def _arrays(size: int, rule: str) -> tuple[BoardArrays, ContextArrays]:
    """Arrays of the engine's types (the context's small: only their types matter here)."""
    board = board_arrays(size, rule)
    return board, context_arrays(1 << 16, board.cells.size)


def _struct_types(board: BoardArrays, context: ContextArrays) -> tuple[Type, Type]:
    return Board.type_of(board), Context.type_of(context)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
