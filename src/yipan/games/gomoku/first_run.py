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

Each kernel is there before the other process needs it (measured by ``benchmarks/
first_move.py``); one that is not is compiled by the process needing it too, so the helper
only ever saves time. How it is started, waited for and stopped: ``yipan.native_helper``.

    python -m yipan.games.gomoku.first_run SIZE RULE   (what the second process runs)
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from numba import typeof, types
from numba.core.types import Type

from ...native_helper import cpus, start_helper, stop, wait_for
from .board import (
    Board,
    _board_struct,
    board_arrays,
    evaluate,
    find_level,
    initialise,
    place,
    remove,
)
from .context import Context, _context_struct, context_arrays, out_of_budget
from .search import from_table, generate, negamax, to_table
from .threats import threat_node

__all__ = ["compile_elsewhere", "compile_search_here", "cpus", "shared_compile", "stop",
           "wait_for"]

N = types.int64  # every point, colour, depth and limit the engine passes


def compile_elsewhere(size: int, rule: str) -> subprocess.Popen | None:
    """Start the second process when the threat search is not compiled yet (else None)."""
    return start_helper(__name__, [str(size), rule], threat_node)


@contextmanager
def shared_compile(size: int, rule: str) -> Iterator[subprocess.Popen | None]:
    """On a machine's first run: the second process started and this one's share compiled,
    then the body (building the engine and loading the rest), then the helper stopped; where
    there is nothing to share (all cached, one CPU, helpers off), only the body."""
    helper = compile_elsewhere(size, rule)
    try:
        if helper is not None:
            compile_search_here(size, rule)
        yield helper
    finally:
        stop(helper)


def compile_search_here(size: int, rule: str) -> None:
    """This process's share: placing and removing stones, then the alpha-beta search."""
    board, context = _struct_types(size, rule)
    place.compile((board, N, N))
    remove.compile((board, N))
    negamax.compile((board, context, N, N, N, N, N))


def main(argv: Sequence[str]) -> int:
    """The second process's share, in the order the other process needs it."""
    size, rule = int(argv[0]), argv[1]
    board, context = _struct_types(size, rule)
    out_of_budget.compile((context, N, N))
    find_level.compile((board, N, N))
    evaluate.compile((board, N))
    from_table.compile((types.int32, N))  # (a value read from the table)
    generate.compile((board, context, N, N, N))
    to_table.compile((N, N))
    arrays = board_arrays(size, rule)
    _board_struct.compile((typeof(arrays),))
    _context_struct.compile((typeof(context_arrays(1 << 16, arrays.cells.size)),))
    initialise.compile((board,))
    threat_node.compile((board, context, N, N, N, N, N))
    return 0


def _struct_types(size: int, rule: str) -> tuple[Type, Type]:
    arrays = board_arrays(size, rule)
    return (Board.type_of(arrays),
            Context.type_of(context_arrays(1 << 16, arrays.cells.size)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
