"""The Player protocol: anything that chooses a move in a position.

It lives in core so that a game's own AI (``games/<name>/player.py``) needs nothing above
core and search. The generic players are in ``yipan.search.players`` (random, alpha-beta) and
``yipan.players`` (a person at a terminal, the AI for any game, the match loop).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from .results import Limit, SearchResult

LEVELS = ("perfect", "medium", "easy")
"""The strengths every AI accepts: perfect (its best), medium and easy (weaker on purpose)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """A player's move and, for an engine, the search behind it."""

    move: Hashable
    result: SearchResult | None = None


class Player(Protocol):
    """Chooses a move: ``choose(game, state)`` for the side to move at ``state``.

    ``game`` is typed Any: a game's own player takes its own game class (``ConnectFour``)."""

    name: str

    def choose(self, game: Any, state: Any) -> Choice: ...


class Thinker(Player, Protocol):
    """A player that can choose aloud: ``think`` yields a ``Choice`` each time its choice or
    its reasons change, the last one the move it plays (``choose`` is that last one). It
    keeps within ``limit`` (its time for the move; ``limit.stop()`` true: end soon, with the
    best so far). A game's hooks offer it as ``think`` (``yipan.core.hooks``)."""

    def think(self, game: Any, state: Any, limit: Limit) -> Iterator[Choice]: ...


def last_choice(thoughts: Iterator[Choice]) -> Choice:
    """The move a player thinking aloud ends on (its last ``Choice``)."""
    last = None
    for last in thoughts:  # noqa: B007 - the last is the answer
        pass
    if last is None:
        raise RuntimeError("a player thought of no move")
    return last


def check_level(level: str) -> str:
    """The level, or a GameOptionError naming the levels there are."""
    from .errors import GameOptionError

    if level not in LEVELS:
        raise GameOptionError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return level
