"""Chess's AI player for ``make_ai`` and ``make_thinker``: the family's engine player
(``yipan.chess_family.player``: levels, a time a move, thinking aloud) over chess's engine."""

from __future__ import annotations

import random

from ...chess_family.player import EnginePlayer, search_result
from .engine import Engine
from .rules import Chess

__all__ = ["ChessPlayer", "make_ai", "search_result"]


class ChessPlayer(EnginePlayer):
    """The chess engine as a ``Thinker`` (one table kept from move to move)."""

    title = "chess"
    new_engine = Engine
    engine: Engine


def make_ai(game: Chess, level: str, rng: random.Random, time: float | None) -> ChessPlayer:
    """Chess's AI (its hooks' ``make_ai``)."""
    return ChessPlayer(level, rng, time)
