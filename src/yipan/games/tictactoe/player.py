"""The tic-tac-toe AI: on 3x3 at the perfect level, the shipped book (every position,
solved) with search behind it; elsewhere the generic alpha-beta player."""

from __future__ import annotations

import random
from importlib import resources

from ...books import BookPlayer, load_book
from ...core import Thinker
from ...search.players import SearchPlayer
from .rules import TicTacToe

BOOK_3X3 = "tictactoe-3x3.book"


def make_ai(game: TicTacToe, level: str, rng: random.Random, time: float | None) -> Thinker:
    search = SearchPlayer(level, rng, time)
    if level != "perfect" or (game.rows, game.cols, game.k) != (3, 3, 3):
        return search
    with resources.as_file(resources.files("yipan.data") / BOOK_3X3) as path:
        book = load_book(path, game)
    return BookPlayer(book, search, rng)
