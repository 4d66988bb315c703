"""What a family game's hooks share: the limit of an analysis, the engine's answer for one
(a fresh engine for each call: two analyses, whatever their tables, never share a search
memory), the fields every family analysis reports."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core import Analysis, AnalysisRequest, Limit
from .engine import FamilyEngine, Iteration
from .player import search_result
from .scores import mate_in_plies

DEFAULT_ANALYZE_SECONDS = 2.0
ANALYSIS_HASH_MB = 64


def analysis_limit(request: AnalysisRequest, default_seconds: float) -> Limit:
    """The request's limit; ``default_seconds`` (with the request's stop) when it sets no
    depth, nodes or time."""
    limit = request.limit
    if limit is None or (limit.time is None and limit.nodes is None and limit.depth is None):
        return Limit(time=default_seconds, stop=None if limit is None else limit.stop)
    return limit


def think_once(new_engine: Callable[[], FamilyEngine], state: Any, limit: Limit) -> Iteration:
    """The last Iteration of a fresh engine's search of ``state`` (which has a move)."""
    iteration = new_engine().think(state, limit)
    assert iteration is not None
    return iteration


def report(iteration: Iteration, engine: str, extra: dict[str, Any],
           exact: bool = False) -> Analysis:
    """The analysis in the shared schema; ``extra`` after ``score_cp`` (centipawns for the
    side to move, null for a mate) and ``seldepth``."""
    mate = mate_in_plies(iteration.score)
    fields = {"score_cp": None if mate is not None else iteration.score,
              "seldepth": iteration.seldepth, **extra}
    return Analysis.from_search(search_result(iteration, exact), engine, extra=fields)
