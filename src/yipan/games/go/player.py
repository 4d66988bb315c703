"""Go's AI for ``make_ai``: the Monte Carlo engine under a time or a number of playouts, its
tree kept from one move to the next; and the engine's decision in the shared result shapes.

Levels: ``perfect`` thinks ``DEFAULT_SECONDS`` a move (or the time given), ``medium`` and
``easy`` a fixed number of playouts (weaker on purpose, and the same on every machine).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from ...core import Choice, GameOptionError, SearchResult
from ...search.mcts import MCTSStats
from .engine import Decision, Engine
from .rules import Go, Position

DEFAULT_SECONDS = 3.0
LEVEL_PLAYOUTS = {"perfect": None, "medium": 3000, "easy": 300}
MIN_VISIT_SHARE = 0.01  # root moves with fewer playouts than this share get no value


def search_result(decision: Decision) -> SearchResult:
    """A decision as a SearchResult: values are mean results in [-1, 1] for the side to move
    (2 * win rate - 1) of the root moves searched enough (``MIN_VISIT_SHARE``),
    ``stats.visits`` the root moves' playouts."""
    enough = max(1, decision.playouts * MIN_VISIT_SHARE)  # fewer: too few to be a value
    values = {move: 2 * rate - 1 for move, rate in decision.win_rates.items()
              if decision.visits.get(move, 0) >= enough}
    return SearchResult(
        move=decision.move, value=2 * decision.win_rate - 1, pv=decision.pv or (decision.move,),
        move_values=MappingProxyType(values), depth=len(decision.pv), exact=False,
        stats=MCTSStats(nodes=decision.playouts, elapsed=decision.seconds,
                        visits=MappingProxyType(dict[Any, int](decision.visits)),
                        tree_size=decision.tree_size),
        scale="mean")


class EnginePlayer:
    """The engine as a ``Player``; ``last_decision`` keeps the last search's findings (the
    GTP front end reads resignation and ownership there)."""

    def __init__(self, game: Go, level: str = "perfect", rng: random.Random | None = None,
                 time: float | None = None, playouts: int | None = None) -> None:
        if level not in LEVEL_PLAYOUTS:
            raise GameOptionError(f"unknown level {level!r}; levels: {', '.join(LEVEL_PLAYOUTS)}")
        self.playouts = playouts if playouts is not None else LEVEL_PLAYOUTS[level]
        self.seconds = time if time is not None else (
            DEFAULT_SECONDS if self.playouts is None else None)
        self.engine = Engine(game, rng=rng or random.Random())
        self.name = f"yipan go ({level})"
        self.last_decision: Decision | None = None

    def decide(self, state: Position, *, seconds: float | None = None,
               stop: Callable[[], bool] | None = None,
               moves: tuple[int, ...] | None = None) -> Decision:
        """The engine's decision for ``state`` (``seconds`` overrides the player's own;
        ``moves``, the last moves played, when the caller knows them)."""
        playouts = self.playouts if seconds is None else None
        decision = self.engine.think(state, playouts=playouts,
                                     seconds=seconds if seconds is not None else self.seconds,
                                     stop=stop, moves=moves)
        self.last_decision = decision
        return decision

    def choose(self, game: Go, state: Position) -> Choice:
        decision = self.decide(state)
        return Choice(decision.move, search_result(decision))


def make_ai(game: Go, level: str, rng: random.Random, time: float | None) -> EnginePlayer:
    """Go's AI (its hooks' ``make_ai``)."""
    return EnginePlayer(game, level, rng, time)
