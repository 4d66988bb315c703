"""Line shapes: what one more stone on an empty cell makes along one direction.

The fast engine classifies every empty cell, for each colour and each of the four
directions, by looking at the ten cells around it on that line (five each side)::

    offset  -5 -4 -3 -2 -1  [c]  +1 +2 +3 +4 +5
    index    0  1  2  3  4        5  6  7  8  9      key = sum(code[i] * 3 ** i)
    code     0 empty, 1 own stone, 2 the opponent's stone or the board's edge

(base 3, so the table has 3**10 = 59,049 one-byte entries and stays in the processor's cache
while the search reads it at random).

``SHAPE_TABLE[key]`` is the shape a stone on ``c`` makes, from the table built once per rule
(5 cells each side are enough: a five through ``c`` lies within 4 cells, and the rule of
exact five needs one more cell to see an overline). Shapes, weakest first:

- ``TWO`` / ``OPEN_TWO``: one more stone makes a ``THREE`` / an ``OPEN_THREE``;
- ``THREE``: one more stone makes a ``FOUR``; ``OPEN_THREE``: one more makes an ``OPEN_FOUR``;
- ``FOUR``: one empty cell completes a five; ``OPEN_FOUR``: two or more cells do;
- ``FIVE``: a five (exactly five under the standard rule) through ``c``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NONE, TWO, OPEN_TWO, THREE, OPEN_THREE, FOUR, OPEN_FOUR, FIVE = range(8)
SHAPE_NAMES = ("none", "two", "open two", "three", "open three", "four", "open four", "five")
WINDOW = 5  # cells looked at on each side of the centre
TABLE_SIZE = 3 ** (2 * WINDOW)
POWERS_OF_3 = np.array([3 ** i for i in range(2 * WINDOW)], dtype=np.int32)
CENTRE = WINDOW


@njit(cache=True)
def _makes_five(line: np.ndarray, p: int, exact: bool) -> bool:
    """Whether the own stone on ``p`` is in a run through the centre that wins."""
    left = p
    while left > 0 and line[left - 1] == 1:
        left -= 1
    right = p
    while right < 2 * WINDOW and line[right + 1] == 1:
        right += 1
    if not left <= CENTRE <= right:
        return False
    length = right - left + 1
    return length == 5 if exact else length >= 5


@njit(cache=True)
def _winning_cells(line: np.ndarray, exact: bool) -> int:
    """How many empty cells complete a five through the centre."""
    count = 0
    for p in range(1, 2 * WINDOW):
        if line[p] == 0:
            line[p] = 1
            if _makes_five(line, p, exact):
                count += 1
            line[p] = 0
    return count


@njit(cache=True)
def _three_level(line: np.ndarray, exact: bool) -> int:
    """OPEN_THREE if one more stone makes an open four through the centre, THREE if a four."""
    best = NONE
    for p in range(1, 2 * WINDOW):
        if line[p] == 0:
            line[p] = 1
            wins = _winning_cells(line, exact)
            line[p] = 0
            if wins >= 2:
                return OPEN_THREE
            if wins == 1:
                best = THREE
    return best


@njit(cache=True)
def classify(line: np.ndarray, exact: bool) -> int:
    """The shape of the centre stone of ``line`` (11 codes, centre = own stone)."""
    if _makes_five(line, CENTRE, exact):
        return FIVE
    wins = _winning_cells(line, exact)
    if wins >= 2:
        return OPEN_FOUR
    if wins == 1:
        return FOUR
    three = _three_level(line, exact)
    if three != NONE:
        return three
    best = NONE
    for p in range(1, 2 * WINDOW):
        if line[p] == 0:
            line[p] = 1
            level = _three_level(line, exact)
            line[p] = 0
            if level == OPEN_THREE:
                return OPEN_TWO
            if level == THREE:
                best = TWO
    return best


@njit(cache=True)
def build_table(exact: bool) -> np.ndarray:
    """SHAPE_TABLE for one rule: the shape for every key (ten base-3 codes)."""
    table = np.zeros(TABLE_SIZE, dtype=np.int8)
    line = np.zeros(2 * WINDOW + 1, dtype=np.int8)
    for key in range(TABLE_SIZE):
        rest = key
        for i in range(2 * WINDOW):
            line[i if i < WINDOW else i + 1] = rest % 3
            rest //= 3
        line[CENTRE] = 1
        table[key] = classify(line, exact)
    return table


_TABLES: dict[bool, np.ndarray] = {}


def shape_table(exact: bool) -> np.ndarray:
    """The (read-only) shape table of a rule, built on first use."""
    if exact not in _TABLES:
        table = build_table(exact)
        table.setflags(write=False)
        _TABLES[exact] = table
    return _TABLES[exact]


def shape_of(text: str, exact: bool = False) -> int:
    """The shape of a line written like ``"..xx[.]x.o.."`` (for tests and docs).

    ``[.]`` marks the centre (which gets the stone); ``x`` own, ``o`` opponent, ``#`` edge.
    Cells beyond the written ones count as empty.
    """
    left, _, right = text.partition("[.]")
    codes = {".": 0, "x": 1, "o": 2, "#": 2}
    before = [codes[ch] for ch in left][-WINDOW:]
    after = [codes[ch] for ch in right][:WINDOW]
    before = [0] * (WINDOW - len(before)) + before
    after = after + [0] * (WINDOW - len(after))
    key = sum(code * 3 ** i for i, code in enumerate(before + after))
    return int(shape_table(exact)[key])
