"""Minimax, as the textbook writes it: MAX and MIN take turns over the whole game tree.

The score prefers faster wins: a win ``ply`` half-moves from the root is ``WIN - ply``, a loss
``-(WIN - ply)``, a draw 0 (``WIN`` on a scale that leaves room for heuristics below it). With
``depth`` set, positions at that depth are scored by the game's heuristic, rounded and clamped
strictly inside ``HEURISTIC_LIMIT`` (``clamp_heuristic``) so that no heuristic is ever read as a
win or a loss. Nothing is pruned: this is the baseline that every faster search must agree with.
A ``limit`` (nodes, seconds, a stop flag) ends it with ``SearchAborted`` rather than a partial
answer: minimax has no "best so far".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from ..core import (
    HEURISTIC_LIMIT,
    INFINITY,
    WIN,
    Budget,
    Game,
    Limit,
    SearchAborted,
    SearchResult,
    SearchStats,
    require,
)
from .trace import Trace, TraceEvent

HEURISTIC_MAX = HEURISTIC_LIMIT - 1  # the largest heuristic value: beyond the limit lie wins


def clamp_heuristic(value: float) -> int:
    """A heuristic value as the searches use it: an integer (so a null window is one point
    wide) strictly inside the heuristic range, whatever the evaluation returned, so that an
    overshooting ``evaluate`` is never reported as a win or a loss."""
    return round(min(max(value, -HEURISTIC_MAX), HEURISTIC_MAX))


def minimax(game: Game, state: Any, *, depth: int | None = None,
            evaluate: Callable[[Any], float] | None = None,
            trace: Trace | None = None, limit: Limit | None = None) -> SearchResult:
    """Plain minimax. ``value`` and ``move_values`` are from the root side to move."""
    require(game, two_player_zero_sum=True, no_chance=True, algorithm="minimax")
    root_player = game.to_move(state)
    heuristic_of = evaluate or (game.evaluate if game.info.heuristic else None)
    nodes = 0
    used_heuristic = False
    budget = Budget(limit)

    def value(s: Any, ply: int, path: tuple) -> tuple[float, tuple]:
        """The minimax value of ``s`` for the root player, and the line that achieves it."""
        nonlocal nodes, used_heuristic
        nodes += 1
        if budget.limited:
            budget.nodes = nodes
            if budget.exhausted():
                raise SearchAborted("the limit ran out before minimax finished")
        maximizing = game.to_move(s) == root_player
        if trace:
            trace(TraceEvent("node", ply, path, maximizing))
        outcome = game.outcome(s)
        if outcome is not None:
            score = 0 if outcome.winner is None else (
                WIN - ply if outcome.winner == root_player else -(WIN - ply))
            if trace:
                trace(TraceEvent("value", ply, path, maximizing,
                                 score if maximizing else -score, terminal=True))
            return score, ()
        if depth is not None and ply >= depth:
            used_heuristic = True
            heuristic = clamp_heuristic(heuristic_of(s)) if heuristic_of else 0
            score = heuristic if maximizing else -heuristic
            if trace:
                trace(TraceEvent("value", ply, path, maximizing, heuristic, horizon=True))
            return score, ()
        best: float = -INFINITY if maximizing else INFINITY
        best_line: tuple = ()
        for move in game.legal_moves(s):
            child_value, line = value(game.play(s, move), ply + 1, (*path, move))
            if not best_line or (child_value > best if maximizing else child_value < best):
                best, best_line = child_value, (move, *line)
        if trace:
            trace(TraceEvent("value", ply, path, maximizing, best if maximizing else -best))
        return best, best_line

    start = time.perf_counter()
    move_values: dict[Any, float] = {}
    if game.outcome(state) is not None or depth == 0:
        root_value, pv = value(state, 0, ())
    else:
        # the root is a MAX node searched move by move, so each move's value is kept
        nodes += 1
        if trace:
            trace(TraceEvent("node", 0, (), True))
        root_value, pv = -INFINITY, ()
        for move in game.legal_moves(state):
            child_value, line = value(game.play(state, move), 1, (move,))
            move_values[move] = child_value
            if not pv or child_value > root_value:
                root_value, pv = child_value, (move, *line)
        if trace:
            trace(TraceEvent("value", 0, (), True, root_value))
    elapsed = time.perf_counter() - start
    return SearchResult(
        move=pv[0] if pv else None,
        value=root_value,
        pv=pv,
        move_values=MappingProxyType(move_values),
        depth=len(pv) if depth is None else depth,
        exact=not used_heuristic,
        stats=SearchStats(nodes=nodes, elapsed=elapsed),
    )
