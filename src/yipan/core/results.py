"""Search limits and results, and the scale of values.

Values are always from the point of view of the side to move at the root. A win found
``ply`` half-moves from the root is worth ``WIN - ply`` and a loss ``-(WIN - ply)``, so a faster
win scores higher and a slower loss is preferred (``WIN`` is large so that heuristic values
fit below it). A draw is 0. Heuristic values stay strictly inside
``(-HEURISTIC_LIMIT, HEURISTIC_LIMIT)``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .game import WIN, Game

MAX_PLY = 10_000
HEURISTIC_LIMIT = WIN - MAX_PLY
INFINITY = math.inf


def is_win(value: float) -> bool:
    return value > HEURISTIC_LIMIT


def is_loss(value: float) -> bool:
    return value < -HEURISTIC_LIMIT


def plies_to_end(value: float) -> int | None:
    """For a proven win or loss, the number of plies until the game ends; else None."""
    if is_win(value) or is_loss(value):
        return int(WIN - abs(value))
    return None


def add_plies(value: float, plies: int) -> float:
    """A win or loss ``plies`` half-moves further away (``plies`` < 0: nearer); other values
    unchanged. A child's value seen from its parent is ``-add_plies(child_value, 1)``."""
    if value > HEURISTIC_LIMIT:
        return value - plies
    if value < -HEURISTIC_LIMIT:
        return value + plies
    return value


SCALES = ("minimax", "mean", "expected", "payoff")
"""How to read a value that is not a proven win, loss or draw: ``minimax`` a heuristic
evaluation (the game's units), ``mean`` an MCTS mean result in [-1, 1] for the side to move,
``expected`` a one-player game's expected score, ``payoff`` what the side to move wins on
average under a strategy profile (poker: chips; CFR)."""


def describe_value(value: float, exact: bool = True, scale: str = "minimax",
                   bounded: bool = False) -> str:
    """Words for a value: ``win in 3``, ``loss in 4``, ``draw``, ``heuristic +12``,
    ``62% expected score`` (MCTS), ``expected score 1,234`` (a one-player game)."""
    plies = plies_to_end(value)
    if plies is not None:
        if bounded:  # a proved result whose length is only bounded (a win kept, not timed)
            return f"win within {plies}" if value > 0 else f"loss, not before {plies}"
        return f"{'win' if value > 0 else 'loss'} in {plies}"
    if scale == "payoff":
        return f"expected payoff {value:+.4f}"
    if exact and value == 0:
        return "draw"
    if exact:
        return f"{value:+g}"
    if scale == "mean":
        return f"{(value + 1) / 2:.0%} expected score"
    if scale == "expected":
        return f"expected score {value:,.0f}"
    return f"heuristic {value:+g}"


def describe_centipawns(value: float, exact: bool = False) -> str:
    """Words for a chess-family engine's value, as players read it: pawns for the side it is
    for (``+0.35``), a proved result as ``mate in 4`` / ``mated in 3`` (moves, not plies)."""
    plies = plies_to_end(value)
    if plies is not None:
        return f"{'mate' if value > 0 else 'mated'} in {(plies + 1) // 2}"
    if exact and value == 0:
        return "draw"
    return f"{value / 100:+.2f}"


def terminal_value(game: Game, state: Any, ply: int) -> int:
    """The value of a finished game for the side to move at ``state``, ``ply`` from the root."""
    outcome = game.outcome(state)
    assert outcome is not None
    if outcome.winner is None:
        return 0
    return WIN - ply if outcome.winner == game.to_move(state) else -(WIN - ply)


@dataclass(frozen=True, slots=True)
class Limit:
    """Bounds on a search (any that is None is unbounded): plies, nodes, seconds, and a
    ``stop`` callable polled as often as the clock (a front end's "stop now": UCI's ``stop``,
    a web client gone away); when it returns True the search ends as if out of time."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    stop: Callable[[], bool] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("depth", "nodes", "time"):
            value = getattr(self, name)
            if value is not None and not value >= 0:  # NaN is refused too
                raise ValueError(f"Limit.{name} must be a number of at least 0, got {value}")

    def stopped(self) -> bool:
        return self.stop is not None and self.stop()


@dataclass(frozen=True, slots=True)
class SearchStats:
    nodes: int = 0
    tt_hits: int = 0
    cutoffs: int = 0
    elapsed: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found. ``value`` is from the root side to move.

    ``move_values`` maps root moves to values where the search knows them exactly (analysis
    mode) or as bounds; ``exact`` says whether ``value`` is proven (no heuristic leaf used).
    """

    move: Hashable | None
    value: float
    pv: tuple = ()
    move_values: Mapping[Any, float] = field(default_factory=lambda: MappingProxyType({}))
    depth: int = 0
    exact: bool = False
    stats: SearchStats = SearchStats()
    scale: str = "minimax"  # how to read an unproven value (SCALES)
    bounded: bool = False  # a win or loss proved, its length only bounded by the value


class Budget:
    """A running Limit: counts nodes and checks the clock and the stop callable every so
    often (cheaply)."""

    __slots__ = ("max_nodes", "deadline", "stop", "nodes", "limited", "_next_check")

    CHECK_EVERY = 256  # nodes between looks at the clock and the stop flag

    def __init__(self, limit: Limit | None, start: float | None = None) -> None:
        start = time.perf_counter() if start is None else start
        self.max_nodes = limit.nodes if limit and limit.nodes is not None else None
        self.deadline = start + limit.time if limit and limit.time is not None else None
        self.stop = limit.stop if limit else None
        self.nodes = 0
        self.limited = (self.max_nodes is not None or self.deadline is not None
                        or self.stop is not None)
        self._next_check = self.CHECK_EVERY

    def exhausted(self) -> bool:
        """True once the node budget or the time is used up, or the caller said stop (call
        once per node)."""
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return True
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + self.CHECK_EVERY
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                return True
            return self.stop is not None and self.stop()
        return False
