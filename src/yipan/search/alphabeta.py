"""``alphabeta``, the entry point: one alpha-beta search to a depth (``negamax``), or, when
the limit counts nodes or time, iterative deepening over it (``iterative``) that returns the
deepest completed result.

The search itself lives in ``negamax`` so that ``iterative`` can deepen it without importing
this module back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core import Budget, Game, Limit, SearchAborted, SearchResult, require
from .iterative import iterate
from .negamax import DEFAULT_TABLE_SIZE, FULL, PLAIN, Options, search_to_depth
from .trace import Trace
from .tt import TranspositionTable


def alphabeta(game: Game, state: Any, *, depth: int | None = None,
              tt: TranspositionTable | None = None, limit: Limit | None = None,
              trace: Trace | None = None, analysis: bool = False,
              options: Options = FULL,
              evaluate: Callable[[Any], float] | None = None) -> SearchResult:
    """Alpha-beta search of ``state`` to ``depth`` plies (None: to the end of the game).

    ``evaluate`` replaces the game's heuristic at the depth limit (side-to-move view).
    ``analysis=True`` gives every root move its exact value (``move_values``), at some cost.
    A ``limit`` with nodes or time makes this iterative deepening that returns the deepest
    completed result; ``limit.depth`` caps the depth.
    """
    require(game, two_player_zero_sum=True, no_chance=True, algorithm="alpha-beta")
    if limit is not None and (limit.nodes is not None or limit.time is not None):
        capped = Limit(depth if depth is not None else limit.depth, limit.nodes, limit.time)
        results = iterate(game, state, limit=capped, tt=tt, trace=trace, analysis=analysis,
                          options=options, evaluate=evaluate)
        last = None
        for last in results:  # noqa: B007 - the deepest completed result is kept
            pass
        if last is None:
            raise SearchAborted("the limit ran out before a one-ply search finished")
        return last
    if limit is not None and limit.depth is not None:
        depth = limit.depth if depth is None else min(depth, limit.depth)
    return search_to_depth(game, state, depth, tt=tt, trace=trace, analysis=analysis,
                           options=options, budget=Budget(None), evaluate=evaluate)


__all__ = ["DEFAULT_TABLE_SIZE", "FULL", "PLAIN", "Options", "alphabeta", "search_to_depth"]
