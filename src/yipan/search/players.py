"""The generic players: a random mover, and the alpha-beta engine at a level.

A game's own AI may build on these (tic-tac-toe's falls back to ``SearchPlayer`` beyond its
book); the terminal player, ``make_ai`` and the match loop are in ``yipan.players``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from ..core import WIN, Game, Limit, SearchResult, require
from ..core.player import Choice, check_level, last_choice
from .alphabeta import alphabeta
from .iterative import iterate_or_one_ply
from .tt import TranspositionTable

DEFAULT_MOVE_SECONDS = 10.0
"""The perfect level's time a move when none is given (3x3 and 4x4 boards finish in far less)."""


class RandomPlayer:
    """Uniformly random legal moves."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.name = "random"

    def choose(self, game: Game, state: Any) -> Choice:
        return Choice(self.rng.choice(list(game.legal_moves(state))))


class SearchPlayer:
    """The generic search's player. Levels:

    - ``perfect``: alpha-beta to the end of the game by iterative deepening under ``time``
      seconds a move (``DEFAULT_MOVE_SECONDS`` when not given): exact where the game is small
      enough to finish in time, else the deepest search that finished (strong, not perfect);
    - ``medium``: a 3-ply search with the heuristic, and one move in five a random sound-ish
      move (any move not losing at once);
    - ``easy``: a 1-ply search, and one move in two a random move.

    Among equally valued best moves it picks one at random (``rng``), for variety.
    """

    def __init__(self, level: str = "perfect", rng: random.Random | None = None,
                 time: float | None = None) -> None:
        self.level = check_level(level)
        self.rng = rng or random.Random()
        self.time = DEFAULT_MOVE_SECONDS if time is None else time
        self.name = f"search ({level})"
        self.tt = TranspositionTable(1 << 18)

    def think(self, game: Game, state: Any, limit: Limit) -> Iterator[Choice]:
        """The search aloud: at the perfect level a Choice after each completed depth of
        iterative deepening (within ``limit``; its time is the player's own when the limit
        gives none), then the move chosen from the deepest; at the weaker levels the one
        fixed-depth search's choice."""
        require(game, two_player_zero_sum=True, no_chance=True, algorithm="the search player")
        if self.level != "perfect":
            depth = 3 if self.level == "medium" else 1
            yield self._decide(alphabeta(game, state, depth=depth, tt=self.tt, analysis=True))
            return
        bounded = Limit(depth=limit.depth, nodes=limit.nodes, stop=limit.stop,
                        time=self.time if limit.time is None and limit.nodes is None
                        else limit.time)
        last = None
        for last in iterate_or_one_ply(game, state, limit=bounded, tt=self.tt, analysis=True):
            yield Choice(last.move, last)
        assert last is not None  # one ply always answers
        yield self._decide(last)

    def choose(self, game: Game, state: Any) -> Choice:
        return last_choice(self.think(game, state, Limit(time=self.time)))

    def _decide(self, result: SearchResult) -> Choice:
        """The move among the search's best (ties broken by ``rng``); at the weaker levels,
        sometimes another that does not lose at once."""
        blunder_rate = {"perfect": 0.0, "medium": 0.2, "easy": 0.5}[self.level]
        values = dict(result.move_values)
        if values and self.rng.random() < blunder_rate:
            # a weaker move, but not one that loses at once (still a sensible opponent)
            worst_allowed = -(WIN - 2)  # not a loss on the very next move
            candidates = [m for m, v in values.items() if v > worst_allowed] or list(values)
            return Choice(self.rng.choice(candidates), result)
        if values:
            best = max(values.values())
            ties = [m for m, v in values.items() if v == best]
            return Choice(self.rng.choice(ties), result)
        return Choice(result.move, result)
