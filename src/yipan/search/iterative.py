"""Iterative deepening: search to depth 1, 2, 3, ... and yield each completed result.

A generator, as in sunfish: the caller stops consuming it whenever it likes (a clock, a user
pressing a key, a web client going away). The table is shared between iterations, so each
depth starts with the best moves of the last. It stops by itself when a result is exact (no
heuristic leaf was used), when ``limit.depth`` is reached, or when the node or time budget ends
in the middle of an iteration (that unfinished iteration is discarded).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from ..core import MAX_PLY, Budget, Game, Limit, SearchAborted, SearchResult, require
from .negamax import DEFAULT_TABLE_SIZE, FULL, Options, search_to_depth
from .trace import Trace
from .tt import TranspositionTable

NO_LIMIT = Limit()


def iterate(game: Game, state: Any, *, limit: Limit = NO_LIMIT,
            tt: TranspositionTable | None = None, trace: Trace | None = None,
            analysis: bool = False, options: Options = FULL,
            evaluate: Callable[[Any], float] | None = None) -> Iterator[SearchResult]:
    """Yield a SearchResult for each depth completed within ``limit``."""
    require(game, two_player_zero_sum=True, no_chance=True, algorithm="iterative deepening")
    start = time.perf_counter()
    budget = Budget(limit, start)
    if tt is None and options.table:
        tt = TranspositionTable(DEFAULT_TABLE_SIZE)
    max_depth = MAX_PLY if limit.depth is None else limit.depth
    nodes = tt_hits = cutoffs = 0
    for depth in range(1, max_depth + 1):
        try:
            result = search_to_depth(game, state, depth, tt=tt, trace=trace,
                                     analysis=analysis, options=options, budget=budget,
                                     evaluate=evaluate)
        except SearchAborted:
            return
        nodes += result.stats.nodes
        tt_hits += result.stats.tt_hits
        cutoffs += result.stats.cutoffs
        stats = replace(result.stats, nodes=nodes, tt_hits=tt_hits, cutoffs=cutoffs,
                        elapsed=time.perf_counter() - start)
        result = replace(result, stats=stats)
        yield result
        if result.exact or not result.pv:
            return


def iterate_or_one_ply(game: Game, state: Any, *, limit: Limit = NO_LIMIT,
                       tt: TranspositionTable | None = None, trace: Trace | None = None,
                       analysis: bool = False) -> Iterator[SearchResult]:
    """``iterate``, that always answers: when the limit (a time, a node budget, a stop) ends
    it before depth 1 finished, a one-ply search without the limit answers instead. One ply
    is the least a searched answer can be (every move looked at once), and it is quick;
    every front end that must move or report a value takes this one way out."""
    found = False
    for result in iterate(game, state, limit=limit, tt=tt, trace=trace, analysis=analysis):
        found = True
        yield result
    if not found:
        yield search_to_depth(game, state, 1, tt=tt, trace=None, analysis=analysis,
                              options=FULL, budget=Budget(NO_LIMIT))
