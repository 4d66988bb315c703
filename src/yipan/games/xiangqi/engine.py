"""The xiangqi engine: the family's driver (``yipan.chess_family.engine``: iterative
deepening with aspiration windows, the stop watcher) over xiangqi's numba search, with UCCI's
banned root moves and the perpetual-check rule's scores.

Scores are centipawns for the side to move inside the engine; mates are ``MATE - plies``
(``yipan.chess_family.scores``: ``to_value``, ``mate_in_plies``, ``uci_score``), a perpetual
checker's loss ``-PERPETUAL``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numpy as np

from ...chess_family.clock import Clock, budget
from ...chess_family.engine import DEFAULT_HASH_MB, FamilyEngine, Iteration
from ...chess_family.scores import mate_in_plies, to_value, uci_score
from ...chess_family.search import MAX_HISTORY
from ...core import Limit
from .nnue import FEATURES
from .rules import Position, Xiangqi, legal_moves_of, to_row
from .search import PERPETUAL, Context, new_context, search, with_network

__all__ = ["Clock", "Engine", "Iteration", "budget", "is_perpetual", "mate_in_plies",
           "to_value", "uci_score"]


def is_perpetual(score: int) -> bool:
    """Whether a score is a perpetual check's verdict (won or lost by the rule)."""
    return abs(score) == PERPETUAL


class Engine(FamilyEngine):
    """One search memory (table, killers, history) reused from move to move; ``weights``
    the evaluation's (default: its own); a network (``use_network``: ``yipan train xiangqi
    --nnue``) evaluates instead when given one."""

    search_kernel = search
    network_game = "xiangqi"
    network_features = (FEATURES,)

    def __init__(self, hash_mb: int = DEFAULT_HASH_MB, weights: np.ndarray | None = None) -> None:
        self.weights = weights
        super().__init__(hash_mb)
        self.game = Xiangqi()

    def new_context(self, hash_mb: int) -> Context:
        return new_context(hash_mb, self.weights)

    def with_network(self, ctx: Context, arrays: dict[str, np.ndarray] | None) -> Context:
        return with_network(ctx, arrays)

    def legal_moves(self, state: Position) -> tuple[int, ...]:
        return legal_moves_of(state)

    def to_row(self, state: Position) -> np.ndarray:
        return to_row(state)

    def load_position(self, state: Position) -> None:
        """Which earlier positions were in check (perpetual check)."""
        ctx = self.ctx
        history = state.history[-MAX_HISTORY:]
        ctx.path_checks[:len(history)] = state.checks[-MAX_HISTORY:]

    def iterate(self, state: Position, limit: Limit | None = None, *,
                soft_time: float | None = None,
                banned: tuple[int, ...] = ()) -> Iterator[Iteration]:
        """One Iteration per finished depth, until the limit or a stop
        (``FamilyEngine.deepen``), never playing a ``banned`` move at the root (unless every
        move is banned: the ban is then ignored)."""
        limit = limit or Limit()
        if not legal_moves_of(state):
            return
        yield from self.deepen(state, limit, time.perf_counter(), soft_time, banned)

    def think(self, state: Position, limit: Limit | None = None, *,
              soft_time: float | None = None,
              on_iteration: Callable[[Iteration], None] | None = None,
              banned: tuple[int, ...] = ()) -> Iteration | None:
        """The last Iteration within the limit (None when the position has no move)."""
        allowed = [move for move in legal_moves_of(state) if move not in banned]
        return self.last_of(self.iterate(state, limit, soft_time=soft_time, banned=banned),
                            allowed or legal_moves_of(state), on_iteration)
