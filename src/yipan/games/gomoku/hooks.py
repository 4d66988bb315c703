"""Gomoku's hooks: the engine as the AI and as ``yipan analyze gomoku``.

``analyze`` gives the engine's move, its value and why (``extra.reason``: centre, five, VCF,
block, VCT, stops VCF, search, allowed); ``extra.forced_line`` and ``extra.forced_kind`` give the
forced win (VCF or VCT) of the side to move when there is one, and ``extra.opponent_vcf``
the opponent's. With ``request.trace`` a plain depth-limited search in Python
(``reference_search``) also runs to ``request.trace_depth`` and reports each node to it;
its figures are ``extra.trace_search``. ``solve`` is refused unless the board is nearly
full (exact search to the end is hopeless before); then the generic alpha-beta proves it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core import Analysis, AnalysisRequest, CapabilityError, GameHooks, Limit
from ...search import alphabeta
from .engine import Engine, reference_search
from .player import make_ai
from .rules import Gomoku, Stones

if TYPE_CHECKING:
    from ...learning.data import Dataset

SOLVABLE_EMPTY_POINTS = 16
DEFAULT_SECONDS = 2.0
MAX_TRACE_DEPTH = 3  # the plain tree grows fast


def solve(game: Gomoku, state: Stones, request: AnalysisRequest) -> Analysis:
    empty = len(game.legal_moves(state))
    if empty > SOLVABLE_EMPTY_POINTS:
        raise CapabilityError(
            f"gomoku: {empty} empty points are too many to solve exactly; "
            "`yipan analyze gomoku MOVES` finds forced wins and the best move")
    result = alphabeta(game, state, analysis=True, trace=request.trace)
    return Analysis.from_search(result, "alpha-beta")


def analyze(game: Gomoku, state: Stones, request: AnalysisRequest) -> Analysis:
    engine = Engine(game.size, game.rule)
    engine.set_state(state)
    me = game.to_move(state)
    fmt = game.format_move
    extra: dict[str, Any] = {}
    if request.trace is not None:
        depth = request.trace_depth if request.trace_depth is not None else 1
        if not 0 <= depth <= MAX_TRACE_DEPTH:
            raise CapabilityError(f"gomoku: a trace goes 0 to {MAX_TRACE_DEPTH} plies deep "
                                  "(the plain tree grows fast)")
        traced = reference_search(engine, depth, trace=request.trace)
        extra["trace_search"] = {"depth": depth, "nodes": traced.stats.nodes,
                                 "value": traced.value}
    limit = request.limit or Limit(time=DEFAULT_SECONDS)
    seconds = limit.time if limit.time is not None or limit.nodes is not None \
        else DEFAULT_SECONDS  # a node limit alone: the answer is the machine's speed's
    max_depth = limit.depth if limit.depth is not None else 64
    decision = engine.think(seconds=seconds, nodes=limit.nodes, max_depth=max_depth)
    engine.side = 1 - me  # the opponent's threats, as if it were to move
    danger = engine.threat_win(1 - me, threes=False, max_depth=engine.vcf_depth,
                               nodes=100_000, seconds=None if seconds is None else seconds / 4)
    engine.side = None
    threat = decision.threat
    extra.update({
        "reason": decision.reason,
        "forced_kind": None if threat is None else threat.kind,
        "forced_line": None if threat is None else [fmt(m) for m in threat.line],
        "opponent_vcf": None if danger is None else [fmt(m) for m in danger.line],
    })
    return Analysis.from_search(decision.result, "yipan gomoku engine", extra=extra)


def prepare(game: Gomoku) -> None:
    Engine.prepared(game.size, game.rule, memory_bytes=1 << 20)


def label(game: Gomoku, count: int, rng: random.Random,
          progress: Callable[[int], None] | None = None) -> Dataset:
    """``count`` positions labelled by the engine, in their eight symmetries (``labels``)."""
    from .labels import engine_dataset

    return engine_dataset(game, count, rng, progress=progress)


HOOKS = GameHooks(make_ai=make_ai, make_thinker=make_ai, analyze=analyze, solve=solve,
                  prepare=prepare, label=label,
                  ai_summary="threat-space search for forced fives, then alpha-beta search "
                             "on a compiled board")
