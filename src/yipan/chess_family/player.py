"""A family engine as a player at a level, under a time a move; it thinks aloud (each finished
depth is a ``Choice``) and heeds ``limit.stop``.

- ``perfect``: the full engine for ``time`` seconds a move (default 2);
- ``medium``: a 4-ply search;
- ``easy``: a 2-ply search, and one move in three a random legal move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from types import MappingProxyType
from typing import Any

from ..core import Choice, GameOptionError, Limit, SearchResult, SearchStats, last_choice
from .engine import FamilyEngine, Iteration
from .scores import to_value

DEFAULT_MOVE_SECONDS = 2.0
LEVEL_DEPTHS = {"perfect": None, "medium": 4, "easy": 2}
EASY_RANDOM_SHARE = 1 / 3


def search_result(iteration: Iteration, exact: bool = False) -> SearchResult:
    """An engine iteration as the generic SearchResult (value in ``WIN - ply`` terms)."""
    value = to_value(iteration.score)
    return SearchResult(
        move=iteration.move, value=value, pv=iteration.pv,
        move_values=MappingProxyType({iteration.move: value}), depth=iteration.depth,
        exact=exact, stats=SearchStats(nodes=iteration.nodes, tt_hits=iteration.table_hits,
                                       elapsed=iteration.seconds))


class EnginePlayer:
    """The engine as a ``Thinker`` (one table kept from move to move); a game names itself
    (``title``) and makes its engine (``new_engine``)."""

    title = "chess family"
    new_engine: Callable[[], FamilyEngine]

    def __init__(self, level: str = "perfect", rng: random.Random | None = None,
                 time: float | None = None, engine: FamilyEngine | None = None) -> None:
        if level not in LEVEL_DEPTHS:
            raise GameOptionError(f"unknown level {level!r}; levels: {', '.join(LEVEL_DEPTHS)}")
        self.level = level
        self.rng = rng or random.Random()
        self.time = DEFAULT_MOVE_SECONDS if time is None else time
        self.engine = engine or type(self).new_engine()
        self.name = f"yipan {self.title} ({level})"

    def choose(self, game: Any, state: Any) -> Choice:
        return last_choice(self.think(game, state, Limit(time=self.time)))

    def think(self, game: Any, state: Any, limit: Limit) -> Iterator[Choice]:
        moves = game.legal_moves(state)
        if self.level == "easy" and self.rng.random() < EASY_RANDOM_SHARE:
            yield Choice(self.rng.choice(moves))
            return
        seconds = self.time if limit.time is None else limit.time
        bounded = Limit(depth=LEVEL_DEPTHS[self.level] if limit.depth is None else limit.depth,
                        nodes=limit.nodes, time=seconds, stop=limit.stop)
        last = None
        for last in self.engine.iterate(state, bounded):
            yield Choice(last.move, search_result(last))
        if last is None:  # stopped before the first depth ended
            yield Choice(moves[0])
