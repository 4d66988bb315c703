"""The AI of the impartial games: theory, not search.

It moves to a position of Grundy value 0 whenever one exists (then it cannot lose), choosing
among such moves at random. From a lost position no move helps against perfect play, so it
makes the move that gives the opponent the longest game to go wrong in: the smallest take
from the largest heap (at random among those). Levels ``medium`` and ``easy`` play a random
move one time in five or two, as the generic search player does.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Sequence
from typing import Any, Protocol

from ...core import Analysis, Choice, Game, Limit, check_level

BLUNDER_RATE = {"perfect": 0.0, "medium": 0.2, "easy": 0.5}


class ImpartialGame(Protocol):
    """What the heap games add to the Game protocol: their theory (``rules``, ``wythoff``)."""

    misere: bool

    def is_lost(self, state: Any) -> bool: ...

    def grundy_value(self, state: Any) -> int: ...

    def winning_moves(self, state: Any) -> Sequence[Hashable]: ...


class ImpartialPlayer:
    """Plays the winning moves of Sprague-Grundy theory (the game's ``winning_moves``)."""

    def __init__(self, level: str, rng: random.Random) -> None:
        self.level = check_level(level)
        self.rng = rng
        self.name = f"Sprague-Grundy ({level})"

    def think(self, game: Any, state: Any, limit: Limit) -> Iterator[Choice]:
        """Theory answers at once: one Choice."""
        yield self.choose(game, state)

    def choose(self, game: Any, state: Any) -> Choice:
        if self.rng.random() < BLUNDER_RATE[self.level]:
            return Choice(self.rng.choice(list(game.legal_moves(state))))
        winning = game.winning_moves(state)
        if winning:
            return Choice(self.rng.choice(winning))
        return Choice(self.rng.choice(self.stalling_moves(game, state)))

    def appraise(self, game: Any, state: Any, move: Hashable) -> Analysis:
        """The move chosen, with theory's verdict on the position for the side to move (a win
        or a loss, though not in how many moves): what a front end shows as the AI's value."""
        return Analysis(move=move, value=None, outcome=-1 if game.is_lost(state) else 1,
                        pv=(move,), exact=True, engine=self.name)

    @staticmethod
    def stalling_moves(game: Game, state: Any) -> list:
        """The smallest takes from the largest heap that has a move (moves on several heaps at
        once, Wythoff's ``both``, do not count as moves on the largest heap)."""
        moves = list(game.legal_moves(state))
        largest = max(state.heaps[m.heap] if m.heap < len(state.heaps) else 0 for m in moves)
        on_largest = [m for m in moves
                      if m.heap < len(state.heaps) and state.heaps[m.heap] == largest] or moves
        least = min(m.take for m in on_largest)
        return [m for m in on_largest if m.take == least]


def make_ai(game: Game, level: str = "perfect", rng: random.Random | None = None,
            time: float | None = None) -> ImpartialPlayer:
    """The AI of every heap game (``time`` is not needed: no search)."""
    return ImpartialPlayer(level, rng or random.Random())
