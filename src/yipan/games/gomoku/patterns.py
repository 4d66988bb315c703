"""Line shapes: what one more stone on an empty cell makes along one direction.

The fast engine classifies every empty cell, for each colour and each of the four
directions, by looking at the ten cells around it on that line (five each side)::

    offset  -5 -4 -3 -2 -1  [c]  +1 +2 +3 +4 +5
    index    0  1  2  3  4        5  6  7  8  9      key = sum(code[i] * 3 ** i)
    code     0 empty, 1 own stone, 2 the opponent's stone or the board's edge

(base 3, so the table has 3**10 = 59,049 one-byte entries and stays in the processor's cache
while the search reads it at random).

``SHAPE_TABLE[key]`` is the shape a stone on ``c`` makes, from the table of the rule (built
by ``build_table``; the package ships them built, ``SHIPPED``)
(5 cells each side are enough: a five through ``c`` lies within 4 cells, and the rule of
exact five needs one more cell to see an overline). Shapes, weakest first:

- ``TWO`` / ``OPEN_TWO``: one more stone makes a ``THREE`` / an ``OPEN_THREE``;
- ``THREE``: one more stone makes a ``FOUR``; ``OPEN_THREE``: one more makes an ``OPEN_FOUR``;
- ``FOUR``: one empty cell completes a five; ``OPEN_FOUR``: two or more cells do;
- ``FIVE``: a five (exactly five under the standard rule) through ``c``.

A table is built for one way of winning: exactly five or five or more; under caro, a five
whose both neighbours on the line are the opponent's stones does not win. The edge codes as
2 like an opponent's stone, but blocks nothing in caro: so caro has one table for each place
of the edge in the window (``left``, ``right``: the offset of the first edge cell on each
side, 6 for none, 36 tables), in which the cells from the edge out are code 3, the edge::

    left = 2:   # # x x x [.] . o . .      a five against the edge still wins

And renju's black, whose forbidden moves need two more shapes and a stricter open four::

    OPEN_FOUR   . x x [.] x .     a straight four: four in a row, both ends make exactly five
    FOUR_FOUR   x . x [.] x . x   two fives on one line that are no straight four: two fours
    OVERLINE    x x [.] x x x     six or more through the centre (black does not win by it)
    OPEN_THREE  . x [.] x . .     one more stone makes a straight four (renju: the engine does
                                  not ask whether that stone is itself forbidden; ``renju``
                                  does)
"""

from __future__ import annotations

import io
import sys
import zipfile
import zlib
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from ...core.files import write_atomically

NONE, TWO, OPEN_TWO, THREE, OPEN_THREE, FOUR, OPEN_FOUR, FIVE, FOUR_FOUR, OVERLINE = range(10)
SHAPE_NAMES = ("none", "two", "open two", "three", "open three", "four", "open four", "five",
               "four-four", "overline")
WINDOW = 5  # cells looked at on each side of the centre
TABLE_SIZE = 3 ** (2 * WINDOW)
POWERS_OF_3 = np.array([3 ** i for i in range(2 * WINDOW)], dtype=np.int32)
CENTRE = WINDOW


@njit(cache=True)
def _run(line: np.ndarray, p: int) -> tuple[int, int]:
    """First and last position of the run of own stones through ``p``."""
    left = p
    while left > 0 and line[left - 1] == 1:
        left -= 1
    right = p
    while right < 2 * WINDOW and line[right + 1] == 1:
        right += 1
    return left, right


EDGE_PLACES = 6  # the first edge cell 1..5 cells away, or none in the window (6)


@njit(cache=True)
def _makes_five(line: np.ndarray, p: int, exact: bool, caro: bool) -> bool:
    """Whether the own stone on ``p`` is in a run through the centre that wins."""
    left, right = _run(line, p)
    if not left <= CENTRE <= right:
        return False
    length = right - left + 1
    if length < 5 or (exact and length != 5):
        return False
    if caro:  # blocked at both ends by stones (a point past the window, or the edge: open)
        return not (left > 0 and line[left - 1] == 2 and right < 2 * WINDOW
                    and line[right + 1] == 2)
    return True


@njit(cache=True)
def _five_points(line: np.ndarray, exact: bool, caro: bool) -> int:
    """How many empty cells complete a five through the centre."""
    count = 0
    for p in range(1, 2 * WINDOW):  # (a stone 5 away makes no five through the centre)
        if line[p] == 0:
            line[p] = 1
            if _makes_five(line, p, exact, caro):
                count += 1
            line[p] = 0
    return count


@njit(cache=True)
def _straight_four(line: np.ndarray) -> bool:
    """Renju: the centre is in four in a row whose two ends each make exactly five."""
    left, right = _run(line, CENTRE)
    if right - left != 3 or left < 1 or right > 2 * WINDOW - 1:
        return False
    if line[left - 1] != 0 or line[right + 1] != 0:
        return False
    return (left < 2 or line[left - 2] != 1) and (right > 2 * WINDOW - 2
                                                  or line[right + 2] != 1)


@njit(cache=True)
def _is_open_four(line: np.ndarray, exact: bool, caro: bool, renju: bool) -> bool:
    if renju:
        return _straight_four(line)
    return _five_points(line, exact, caro) >= 2


@njit(cache=True)
def _three_level(line: np.ndarray, exact: bool, caro: bool, renju: bool) -> int:
    """OPEN_THREE if one more stone makes an open four through the centre, THREE if a four."""
    best = NONE
    for p in range(1, 2 * WINDOW):  # (a stone 5 away makes no five through the centre)
        if line[p] == 0:
            line[p] = 1
            four = _is_open_four(line, exact, caro, renju)
            wins = 0 if four else _five_points(line, exact, caro)
            line[p] = 0
            if four:
                return OPEN_THREE
            if wins >= 1:
                best = THREE
    return best


@njit(cache=True)
def classify(line: np.ndarray, exact: bool, caro: bool = False, renju: bool = False) -> int:
    """The shape of the centre stone of ``line`` (11 codes, centre = own stone).

    ``renju``: black's shapes under renju (exactly five, and OVERLINE, FOUR_FOUR and the
    straight OPEN_FOUR told apart, as its forbidden moves need)."""
    if _makes_five(line, CENTRE, exact, caro):
        return FIVE
    if renju:
        left, right = _run(line, CENTRE)
        if right - left >= 5:
            return OVERLINE
    wins = _five_points(line, exact, caro)
    if renju and wins >= 2:
        return OPEN_FOUR if _straight_four(line) else FOUR_FOUR
    if wins >= 2:
        return OPEN_FOUR
    if wins == 1:
        return FOUR
    three = _three_level(line, exact, caro, renju)
    if three != NONE:
        return three
    best = NONE
    for p in range(1, 2 * WINDOW):  # (a stone 5 away makes no five through the centre)
        if line[p] == 0:
            line[p] = 1
            level = _three_level(line, exact, caro, renju)
            line[p] = 0
            if level == OPEN_THREE:
                return OPEN_TWO
            if level == THREE:
                best = TWO
    return best


@njit(cache=True)
def build_table(exact: bool, caro: bool, renju: bool, left: int = EDGE_PLACES,
                right: int = EDGE_PLACES) -> np.ndarray:
    """SHAPE_TABLE for one way of winning: the shape for every key (ten base-3 codes);
    ``left``/``right``: where the edge is (module doc), which only caro tells apart."""
    table = np.zeros(TABLE_SIZE, dtype=np.int8)
    line = np.zeros(2 * WINDOW + 1, dtype=np.int8)
    for key in range(TABLE_SIZE):
        rest = key
        for i in range(2 * WINDOW):
            line[i if i < WINDOW else i + 1] = rest % 3
            rest //= 3
        for i in range(2 * WINDOW + 1):
            if i - CENTRE <= -left or i - CENTRE >= right:
                line[i] = 3
        line[CENTRE] = 1
        table[key] = classify(line, exact, caro, renju)
    return table


# Every table the rules use ships built in the package (``SHIPPED``, 53 KB): building them
# needs ``build_table`` compiled, about 3 s of numba on a machine's first run and 1 s of work
# on every start for caro's 36. ``write_shipped`` writes the file (``python -m
# yipan.games.gomoku.patterns``); a test rebuilds and compares it.
SHIPPED = "gomoku-shapes.npz"
# the ways of winning the rules use, as (exact, caro, renju): freestyle, standard, renju's
# black, caro, caro with exactly five
WAYS = ((False, False, False), (True, False, False), (True, False, True), (False, True, False),
        (True, True, False))

_EDGE_TABLES: dict[tuple[bool, bool, bool], np.ndarray] = {}


def way_name(exact: bool, caro: bool, renju: bool) -> str:
    """The array's name in the shipped file, e.g. ``exact-caro``."""
    return "-".join(word for word, on in (("exact", exact), ("caro", caro), ("renju", renju))
                    if on) or "free"


def build_edge_tables(exact: bool, caro: bool, renju: bool = False) -> np.ndarray:
    """Build what ``edge_tables`` returns (a second or so for caro's 36)."""
    if not caro:
        return build_table(exact, caro, renju)[np.newaxis]
    return np.stack([build_table(exact, caro, renju, left, right)
                     for left in range(1, EDGE_PLACES + 1)
                     for right in range(1, EDGE_PLACES + 1)])


def shipped_path() -> Path:
    """Where the package keeps the built tables."""
    return Path(str(resources.files("yipan") / "data" / SHIPPED))


def edge_tables(exact: bool, caro: bool, renju: bool = False) -> np.ndarray:
    """The (read-only) tables of every place of the edge, ``[(left - 1) * 6 + right - 1]``
    (caro); one table for the rules where the edge and a stone are alike. Read from the
    shipped file, or built when it lacks them."""
    key = (exact, caro, renju)
    if key not in _EDGE_TABLES:
        name = way_name(*key)
        try:
            with np.load(shipped_path()) as shipped:
                tables = shipped[name] if name in shipped.files else None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error):  # absent or
            tables = None  # damaged: built instead (slower, the same tables)
        if (tables is None or tables.dtype != np.int8
                or tables.shape != (EDGE_PLACES ** 2 if caro else 1, TABLE_SIZE)):
            tables = build_edge_tables(exact, caro, renju)
        tables.setflags(write=False)
        _EDGE_TABLES[key] = tables
    return _EDGE_TABLES[key]


def shape_table(exact: bool, caro: bool = False, renju: bool = False,
                left: int = EDGE_PLACES, right: int = EDGE_PLACES) -> np.ndarray:
    """The (read-only) shape table of one way of winning and one place of the edge."""
    tables = edge_tables(exact, caro, renju)
    return tables[(left - 1) * EDGE_PLACES + right - 1] if caro else tables[0]


def shape_of(text: str, exact: bool = False, caro: bool = False, renju: bool = False) -> int:
    """The shape of a line written like ``"..xx[.]x.o.."`` (for tests and docs).

    ``[.]`` marks the centre (which gets the stone); ``x`` own, ``o`` opponent, ``#`` edge
    (the first ``#`` on each side places the edge there: cells past it are edge too).
    Cells beyond the written ones count as empty.
    """
    left, _, right = text.partition("[.]")
    codes = {".": 0, "x": 1, "o": 2, "#": 3}
    before = [codes[ch] for ch in left][-WINDOW:]
    after = [codes[ch] for ch in right][:WINDOW]
    before = [0] * (WINDOW - len(before)) + before
    after = after + [0] * (WINDOW - len(after))
    key = sum(min(code, 2) * 3 ** i for i, code in enumerate(before + after))
    edge_left = next((WINDOW - i for i in range(WINDOW - 1, -1, -1) if before[i] == 3),
                     EDGE_PLACES) if caro else EDGE_PLACES
    edge_right = next((i + 1 for i in range(WINDOW) if after[i] == 3),
                      EDGE_PLACES) if caro else EDGE_PLACES
    return int(shape_table(exact, caro, renju, edge_left, edge_right)[key])


def write_shipped(path: str | Path) -> None:
    """Build every table the rules use and write them (atomically) to ``path``."""
    tables: dict[str, Any] = {way_name(*way): build_edge_tables(*way) for way in WAYS}
    out = io.BytesIO()
    np.savez_compressed(out, **tables)
    write_atomically(path, out.getvalue())


if __name__ == "__main__":  # python -m yipan.games.gomoku.patterns [PATH]
    write_shipped(sys.argv[1] if len(sys.argv) > 1 else shipped_path())
