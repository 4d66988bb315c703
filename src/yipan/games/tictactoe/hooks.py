"""Tic-tac-toe's hooks: its AI (the book on 3x3); analysis is the generic alpha-beta's."""

import random
from collections.abc import Callable

from ...core import GameHooks
from ...learning.data import Dataset, exhaustive
from .player import make_ai
from .rules import TicTacToe

MAX_LABELLED = 200_000  # positions: boards beyond it are too large to label exhaustively


def label(game: TicTacToe, count: int, rng: random.Random,
          progress: Callable[[int], None] | None = None) -> Dataset:
    """``count`` positions drawn from every position of the game, each labelled exactly
    (memoised negamax over the whole game: small boards only). Each call draws afresh, so
    ``yipan train``'s chunks may repeat positions (3x3 has only 4,520)."""
    every = exhaustive(game, MAX_LABELLED)
    chosen = sorted(rng.sample(range(len(every)), min(count, len(every))))
    if progress is not None:
        progress(len(chosen))
    return every.take(chosen)  # type: ignore[arg-type]


HOOKS = GameHooks(make_ai=make_ai, make_thinker=make_ai, label=label,
                  ai_summary="on 3x3 a book of every position, solved; on larger boards "
                             "alpha-beta search")
