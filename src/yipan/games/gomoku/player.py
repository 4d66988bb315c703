"""Gomoku's AI players for ``make_ai``: the fast engine at a level, under a time per move."""

from __future__ import annotations

import random
from collections.abc import Iterator

from ...core import Choice, GameOptionError, Limit, last_choice
from .engine import Decision, Engine
from .rules import Gomoku, Stones

# level: (seconds per move unless given, deepest search, threat-space search, random share)
LEVEL_SETTINGS = {
    "perfect": (2.0, 64, True, 0.0),  # as strong as the engine is (Gomoku is not solved here)
    "medium": (0.5, 4, True, 0.0),
    "easy": (0.2, 1, False, 0.25),
}


class EnginePlayer:
    """The fast engine as a ``Player``: it loads each state it is given and thinks."""

    def __init__(self, game: Gomoku, level: str = "perfect", rng: random.Random | None = None,
                 time: float | None = None, memory_bytes: int = 32 << 20) -> None:
        if level not in LEVEL_SETTINGS:
            raise GameOptionError(
                f"unknown level {level!r}; levels: {', '.join(LEVEL_SETTINGS)}")
        seconds, self.max_depth, self.threats, self.random_share = LEVEL_SETTINGS[level]
        self.seconds = seconds if time is None else time
        self.rng = rng or random.Random()
        self.engine = Engine(game.size, game.rule, memory_bytes)
        self.name = f"yipan gomoku ({level})"
        self.last_decision: Decision | None = None

    def choose(self, game: Gomoku, state: Stones) -> Choice:
        return last_choice(self.think(game, state, Limit(time=self.seconds)))

    def think(self, game: Gomoku, state: Stones, limit: Limit) -> Iterator[Choice]:
        """The engine aloud (``Engine.thoughts``): each depth of its search, then its choice;
        ``limit.stop`` is asked between the steps and the depths."""
        engine = self.engine
        engine.set_state(state)
        seconds = self.seconds if limit.time is None else limit.time
        decision = None
        for decision in engine.thoughts(seconds=seconds, max_depth=self.max_depth,
                                        threats=self.threats, stop=limit.stop):
            yield Choice(decision.move, decision.result)
        assert decision is not None
        self.last_decision = decision
        if decision.reason == "search" and self.rng.random() < self.random_share:
            near = game.order_moves(state, game.legal_moves(state))[:6]
            yield Choice(self.rng.choice(near))


def make_ai(game: Gomoku, level: str, rng: random.Random, time: float | None) -> EnginePlayer:
    """Gomoku's AI (its hooks' ``make_ai``)."""
    return EnginePlayer(game, level, rng, time)
