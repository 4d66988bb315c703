"""The 2048 AI: expectimax over 2048 boards in numba (``make_ai``, ``level`` picks the depth).

Depth follows the board at the strongest level: 4 moves (the root move included), 5 once the
board holds 10 distinct tiles or more (a crowded board needs the deeper look, and has fewer
empty squares to branch on), with a probability cut-off of 1/10000 and a cache of chance nodes
shared by the four root moves. The search is the same as ``yipan.search.expectimax`` on the same
heuristic, written over the integer board.
"""

from __future__ import annotations

import random
import time as clock
from collections.abc import Iterator
from types import MappingProxyType
from typing import Any

import numpy as np

from ...core import Choice, GameOptionError, Limit, SearchResult, SearchStats
from . import kernel
from .rules import G2048, State2048, row_tables

PROBABILITY_CUTOFF = 1e-4
LEVEL_DEPTHS = {"perfect": None, "medium": 3, "easy": 1}  # None: adaptive


class Expectimax2048:
    """A reusable search: its tables and cache live as long as the object."""

    def __init__(self, depth: int | None = None, cutoff: float = PROBABILITY_CUTOFF) -> None:
        tables = row_tables()
        self.tables = (tables.left, tables.right, tables.score_left, tables.score_right,
                       tables.heuristic)
        self.depth = depth
        self.cutoff = cutoff
        size = 1 << kernel.CACHE_BITS
        self.cache_keys = np.zeros(size, np.uint64)
        self.cache_depths = np.zeros(size, np.int64)
        self.cache_values = np.zeros(size, np.float64)
        self.cache_generation = np.zeros(size, np.int64)
        self.generation = 0

    def depth_for(self, board: int) -> int:
        """Player moves searched, the root move included."""
        if self.depth is not None:
            return self.depth
        return 5 if kernel.distinct_tiles(np.uint64(board)) >= 10 else 4

    def move_values(self, board: int) -> tuple[np.ndarray, int, int, int]:
        """(value of each move, -1 where it changes nothing; depth; nodes; cache hits)."""
        self.generation += 1  # a new search: older cache entries are ignored
        depth = self.depth_for(board)
        values = np.empty(4, np.float64)
        counters = np.zeros(2, np.int64)
        kernel.expectimax_moves(np.uint64(board), depth, self.cutoff, self.tables,
                                self.cache_keys, self.cache_depths, self.cache_values,
                                self.cache_generation, self.generation, values, counters)
        return values, depth, int(counters[0]), int(counters[1])


class ExpectimaxPlayer:
    """Plays 2048 by expectimax; ties between equal moves are broken by ``rng``."""

    def __init__(self, depth: int | None = None, rng: random.Random | None = None,
                 name: str = "expectimax") -> None:
        self.search = Expectimax2048(depth)
        self.rng = rng or random.Random()
        self.name = name

    @classmethod
    def for_level(cls, level: str, rng: random.Random, time: float | None = None
                  ) -> ExpectimaxPlayer:
        if level not in LEVEL_DEPTHS:
            raise GameOptionError(f"unknown level {level!r}; levels: {', '.join(LEVEL_DEPTHS)}")
        return cls(LEVEL_DEPTHS[level], rng, name=f"expectimax ({level})")

    def analyse(self, state: State2048) -> SearchResult:
        start = clock.perf_counter()
        values, depth, nodes, hits = self.search.move_values(state.board)
        legal = [m for m in range(4) if values[m] >= 0]
        move_values = {m: float(values[m]) / 10 for m in legal}  # the Game.evaluate scale
        best = max(move_values.values(), default=0.0)
        ties = [m for m in legal if move_values[m] == best]
        move = self.rng.choice(ties) if ties else None
        return SearchResult(
            move=move, value=best, pv=(move,) if move is not None else (),
            move_values=MappingProxyType(move_values), depth=depth, exact=False, scale="expected",
            stats=SearchStats(nodes=nodes, tt_hits=hits,
                              elapsed=clock.perf_counter() - start))

    def choose(self, game: G2048, state: Any) -> Choice:
        result = self.analyse(state)
        return Choice(result.move, result)

    def think(self, game: G2048, state: Any, limit: Limit) -> Iterator[Choice]:
        """One search of a few milliseconds: one Choice."""
        yield self.choose(game, state)


def make_ai(game: G2048, level: str, rng: random.Random, time: float | None) -> ExpectimaxPlayer:
    """The game's own AI: expectimax over 2048 boards in numba (``level`` picks the depth)."""
    return ExpectimaxPlayer.for_level(level, rng=rng, time=time)
