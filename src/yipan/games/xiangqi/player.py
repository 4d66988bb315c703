"""Xiangqi's AI player for ``make_ai`` and ``make_thinker``: the family's engine player
(``yipan.chess_family.player``: levels, a time a move, thinking aloud) over xiangqi's
engine."""

from __future__ import annotations

import random

from ...chess_family.player import EnginePlayer, search_result
from .engine import Engine
from .rules import Xiangqi

__all__ = ["XiangqiPlayer", "make_ai", "search_result"]


class XiangqiPlayer(EnginePlayer):
    """The xiangqi engine as a ``Thinker`` (one table kept from move to move)."""

    title = "xiangqi"
    new_engine = Engine
    engine: Engine


def make_ai(game: Xiangqi, level: str, rng: random.Random,
            time: float | None) -> XiangqiPlayer:
    """Xiangqi's AI (its hooks' ``make_ai`` and ``make_thinker``)."""
    return XiangqiPlayer(level, rng, time)
