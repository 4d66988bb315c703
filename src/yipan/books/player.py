"""A player that answers from an opening book and falls back to another player outside it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ..core import (
    Choice,
    Game,
    Limit,
    SearchResult,
    SearchStats,
    Thinker,
    add_plies,
)
from .book import Book


class BookPlayer:
    """Plays the best book move (ties broken by ``rng``) when every child of the position is
    in the book; otherwise asks ``fallback``."""

    def __init__(self, book: Book, fallback: Thinker, rng: random.Random | None = None) -> None:
        self.book = book
        self.fallback = fallback
        self.rng = rng or random.Random()
        self.name = f"book, then {fallback.name}"

    def book_values(self, game: Game, state: Any) -> dict[Any, float] | None:
        """Each legal move's value for the side to move (from the children's book values)."""
        values = {}
        for move in game.legal_moves(state):
            child_value = self.book.probe(game, game.play(state, move))
            if child_value is None:
                return None
            # the child's value is for the opponent, counted from the child: one ply further
            values[move] = -add_plies(child_value, 1)
        return values

    def choose(self, game: Game, state: Any) -> Choice:
        values = self.book_values(game, state)
        if not values:
            return self.fallback.choose(game, state)
        return self._from_book(values)

    def think(self, game: Game, state: Any, limit: Limit) -> Iterator[Choice]:
        """The book's choice at once, or the fallback thinking aloud."""
        values = self.book_values(game, state)
        if not values:
            yield from self.fallback.think(game, state, limit)
            return
        yield self._from_book(values)

    def _from_book(self, values: dict[Any, float]) -> Choice:
        best = max(values.values())
        move = self.rng.choice([m for m, v in values.items() if v == best])
        result = SearchResult(move=move, value=best, pv=(move,), move_values=values,
                              depth=1, exact=True, stats=SearchStats())
        return Choice(move, result)

