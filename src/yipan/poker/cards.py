"""Cards of a 52-card deck, and the 169 starting-hand classes of hold'em.

A card is a number ``4 * rank + suit``: ranks 0..12 are 2, 3, ..., T, J, Q, K, A and suits
0..3 are c, d, h, s; so ``"As"`` is 51 and ``"2c"`` is 0. A starting hand (two cards) belongs
to one of 169 classes: the 13 pairs (``"AA"``, 6 combinations each), the 78 suited hands
(``"AKs"``, 4 each) and the 78 offsuit ones (``"AKo"``, 12 each). Classes are numbered on the
usual 13 x 13 grid: row r and column c for the ranks A, K, ..., 2 from the top left; the
diagonal holds the pairs, suited hands lie above it (row = the high card) and offsuit hands
below it (column = the high card)::

          A    K    Q   ...
     A   AA   AKs  AQs
     K   AKo  KK   KQs
     Q   AQo  KQo  QQ
"""

from __future__ import annotations

import itertools

import numpy as np

from ..core import InvalidMoveError
from ..core.text import quote

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = 52
CLASSES = 169
GRID_RANKS = RANKS[::-1]  # A first: the grid's rows and columns


def card(text: str) -> int:
    """``"As"`` -> 51."""
    if len(text) != 2 or text[0].upper() not in RANKS or text[1].lower() not in SUITS:
        raise InvalidMoveError(f"cannot read card {quote(text)} (such as As, Td, 2c)")
    return 4 * RANKS.index(text[0].upper()) + SUITS.index(text[1].lower())


def card_text(number: int) -> str:
    return RANKS[number // 4] + SUITS[number % 4]


def class_at(row: int, column: int) -> int:
    """The class number of the grid's cell (row, column): ``13 * row + column``."""
    return 13 * row + column


def class_name(number: int) -> str:
    """``"AA"``, ``"AKs"``, ``"AKo"`` for a class number (its grid cell)."""
    row, column = divmod(number, 13)
    if row == column:
        return GRID_RANKS[row] * 2
    if row < column:
        return GRID_RANKS[row] + GRID_RANKS[column] + "s"
    return GRID_RANKS[column] + GRID_RANKS[row] + "o"


CLASS_NAMES = tuple(class_name(number) for number in range(CLASSES))


def class_of(first: int, second: int) -> int:
    """The class of two cards."""
    high, low = sorted((first // 4, second // 4), reverse=True)
    row, column = 12 - high, 12 - low
    if high == low:
        return class_at(row, row)
    if first % 4 == second % 4:
        return class_at(row, column)  # suited: above the diagonal
    return class_at(column, row)


def combos() -> np.ndarray:
    """The 1326 two-card hands, as rows (first card, second card)."""
    return np.array(list(itertools.combinations(range(DECK), 2)), np.int64)


def combo_classes(pairs: np.ndarray) -> np.ndarray:
    return np.array([class_of(int(a), int(b)) for a, b in pairs], np.int64)


def pair_weights() -> np.ndarray:
    """``W[i, j]``: how many deals give the first player a hand of class i and the second one
    of class j (two hands that share no card): the card removal, counted exactly."""
    pairs = combos()
    classes = combo_classes(pairs)
    masks = (np.uint64(1) << pairs[:, 0].astype(np.uint64)) | \
        (np.uint64(1) << pairs[:, 1].astype(np.uint64))
    disjoint = (masks[:, None] & masks[None, :]) == 0
    weights = np.zeros((CLASSES, CLASSES))
    np.add.at(weights, (classes[:, None].repeat(len(pairs), 1), classes[None, :].repeat(
        len(pairs), 0)), disjoint)
    return weights
