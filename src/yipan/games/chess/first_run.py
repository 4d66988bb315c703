"""A machine's first run: part of the search's kernels compiled by a second process.

The search kernel calls some twenty kernels, each compiled the first time numba types a call
to it. Those it meets last (move ordering with the static exchange evaluation, making moves,
the table and endgame probes: about 4 s of compiling) depend on nothing the search compiles
first, so a second process compiles them from their signatures while this one compiles the
position set-up, the evaluation and the move generator, and this one then loads them from
numba's cache when the search's typing reaches them::

    this process:    import | set-up, evaluation, generator ..... | search (the rest loaded)
    second process:  import | ordering, exchange, moves, probes |

When to start it and what happens if it fails or is late: ``yipan.native_helper`` (this
process never waits for it: what it has not compiled by then is compiled here).

    python -m yipan.games.chess.first_run   (what the second process runs)
"""

from __future__ import annotations

import subprocess
import sys

from numba import typeof, types

from ...native_helper import start_helper
from .board import insufficient_material, make_move, make_null_move
from .retrograde import probe
from .search import _check_squares, _is_repetition, _order, new_context, store


def compile_elsewhere() -> subprocess.Popen | None:
    """Start the second process when move ordering is not compiled yet (else None)."""
    return start_helper(__name__, [], _order)


def main() -> int:
    """Compile the kernels from the signatures the search calls them with (nothing runs)."""
    context = typeof(new_context(1))
    row, count = types.Array(types.int64, 1, "C"), types.int64
    _order.compile((context, count, count, count, types.boolean))
    make_move.compile((row, row, count))
    probe.compile((row, types.Array(types.int16, 1, "C"), row, types.Array(types.int64, 2, "C")))
    _check_squares.compile((row, row))
    store.compile((context, count, count, count, count, count, count))
    make_null_move.compile((row, row))
    _is_repetition.compile((context, count))
    insufficient_material.compile((row,))
    return 0


if __name__ == "__main__":
    sys.exit(main())
