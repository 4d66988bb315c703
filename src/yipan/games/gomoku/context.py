"""The working memory of the fast searches: transposition table, move buffers, counters.

One ``Context`` is allocated per engine (its table sized by the memory it may use) and reused
by every search, so no kernel allocates while it runs.
"""

from __future__ import annotations

import time
from collections import namedtuple

import numpy as np
from numba import njit, objmode

from ...native_struct import ArrayStruct, array_struct

MAX_PLY = 128
MAX_MOVES = 512  # more than the 484 points of the largest board
TT_ENTRY_BYTES = 8 + 4 + 1 + 1 + 2
FAIL_SLOTS = 1 << 18  # failed threat positions remembered (cleared before each threat search)

ContextArrays = namedtuple("ContextArrays", [
    "tt",
    "fail_key", "fail_depth",
    "killers", "history", "moves", "move_scores", "arrivals", "line", "stats", "deadline",
])


class Context(ArrayStruct):
    """The searches' working memory as the kernels take it: its arrays in one struct."""


@array_struct(Context, ContextArrays._fields)
@njit(cache=True)
def _context_struct(arrays: ContextArrays) -> Context:
    return Context(*arrays)


# stats: counters and switches shared by the kernels and the Python driver
(NODES, MAX_NODES, TT_HITS, CUTOFFS, ABORTED, BEST_MOVE, NEXT_CHECK, THREAT_NODES,
 THREAT_MAX_NODES, LINE_LENGTH, BRANCH, ROOT_BRANCH, BEST_VALUE, LMR, FOUR_PLIES,
 FOUR_RANGE, FUTILITY) = range(17)
STATS = 17
CLOCK_EVERY = 256  # nodes between two readings of the clock (a threat node may cost 50 us)


def new_context(memory_bytes: int, board_cells: int) -> Context:
    """A context whose tables fit in ``memory_bytes`` (a power-of-two number of slots)."""
    context = Context.of(context_arrays(memory_bytes, board_cells))
    context.stats[BRANCH] = 16
    context.stats[ROOT_BRANCH] = 40
    context.stats[LMR] = 1  # late move reductions on (0: a plain full-width PVS)
    # past the horizon, at most this many fours are played (a VCF read in the search; 0: off,
    # the default: 8 scored 128-4-128 against 0 in self-play, ``search``'s module doc)
    context.stats[FOUR_PLIES] = 0
    # 1: those fours only near my last stone (its 5x5 square and its lines to four cells away)
    context.stats[FOUR_RANGE] = 1
    # reverse futility pruning: within three plies of the horizon, a static value this much
    # a ply above beta stands (0: off); 40 measured best in self-play at a fixed node budget
    # (docs/performance.md, Gomoku)
    context.stats[FUTILITY] = 40
    return context


def context_arrays(memory_bytes: int, board_cells: int) -> ContextArrays:
    """The arrays of a new context, its tables as large as ``memory_bytes`` allows."""
    slots = 1 << 10
    while slots * 2 * (TT_ENTRY_BYTES + 9) <= memory_bytes and slots < 1 << 24:
        slots *= 2
    return ContextArrays(
        # a slot: the key (the position's hash, its bits as an int64), then value, depth, flag
        # and move in one int64 (``search.tt_entry``): one cache line a probe
        tt=np.zeros((slots, 2), dtype=np.int64),
        fail_key=np.zeros(min(slots, FAIL_SLOTS), dtype=np.uint64),
        fail_depth=np.zeros(min(slots, FAIL_SLOTS), dtype=np.int8),
        killers=np.full((MAX_PLY, 2), -1, dtype=np.int32),
        history=np.zeros((2, board_cells), dtype=np.int64),
        moves=np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64),  # int64 like every other point
        # passed to ``place``: numba compiles a kernel once per argument type
        move_scores=np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64),
        arrivals=np.zeros(MAX_MOVES, dtype=np.int64),  # generate's scratch: cells as they come
        line=np.full(MAX_PLY, -1, dtype=np.int32),
        stats=np.zeros(STATS, dtype=np.int64),
        deadline=np.zeros(1, dtype=np.float64),
    )


def table_bytes(context: Context) -> int:
    return sum(getattr(context, name).nbytes for name in (
        "tt", "fail_key", "fail_depth"))


@njit(cache=True)
def now() -> float:
    with objmode(seconds="float64"):
        seconds = time.perf_counter()
    return seconds


@njit(cache=True)
def out_of_budget(context: Context, counter: int, limit: int) -> bool:
    """Whether a node or time budget ran out (the clock is read every CLOCK_EVERY nodes)."""
    stats = context.stats
    if stats[ABORTED]:
        return True
    if stats[counter] >= stats[limit]:
        stats[ABORTED] = 1
        return True
    if stats[counter] >= stats[NEXT_CHECK]:
        stats[NEXT_CHECK] = stats[counter] + CLOCK_EVERY
        if now() >= context.deadline[0]:
            stats[ABORTED] = 1
            return True
    return False


def start_budget(context: Context, counter: int, limit: int, nodes: int | None,
                 seconds: float | None) -> None:
    """Reset a counter and set its node limit and the deadline before a kernel runs."""
    stats = context.stats
    stats[counter] = 0
    stats[limit] = nodes if nodes is not None else 1 << 62
    stats[ABORTED] = 0
    stats[NEXT_CHECK] = CLOCK_EVERY
    context.deadline[0] = time.perf_counter() + (seconds if seconds is not None else 1e9)
