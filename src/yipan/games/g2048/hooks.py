"""2048's hooks: the expectimax AI, and ``yipan analyze 2048`` answered by it.

``extra``: ``score`` (the points so far) and ``max_tile``.
"""

from __future__ import annotations

import random
from typing import Any

from ...core import Analysis, AnalysisRequest, GameHooks
from .player import ExpectimaxPlayer, make_ai
from .rules import G2048, max_tile


def analyze(game: G2048, state: Any, request: AnalysisRequest) -> Analysis:
    player = ExpectimaxPlayer.for_level("perfect", random.Random(0))
    result = player.analyse(state)
    return Analysis.from_search(result, player.name, extra={
        "score": state.score, "max_tile": max_tile(state.board)})


def prepare(game: G2048) -> None:
    """Expectimax and the playouts, each run once on a small board."""
    state = game.start(random.Random(0))
    ExpectimaxPlayer(depth=1).analyse(state)
    game.playout(state, random.Random(0))


HOOKS = GameHooks(make_ai=make_ai, make_thinker=make_ai, analyze=analyze, prepare=prepare,
                  ai_summary="expectimax: it weighs every tile that may appear, four or five "
                             "moves ahead")
