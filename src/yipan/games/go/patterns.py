"""MoGo-style 3x3 patterns for the playouts and the tree's priors, as one lookup table.

The eight points round a move, read as a 3x3 picture (the move in the middle), are coded two
bits each, in reading order, into a 16-bit word::

    NW N NE        bits  0-1  2-3  4-5        0 empty, 1 black, 2 white, 3 off the board
    W  .  E              6-7   .   8-9
    SW S SE             10-11 12-13 14-15

``PATTERNS`` is the classic set of Gelly and Wang's MoGo (as listed in Pachi and michi): hane,
cuts and moves along the edge that players make without reading. In a picture ``X`` and ``O``
are stones of the two colours, ``x`` is not X (O or empty), ``o`` not O, ``.`` empty, ``#``
off the board and ``?`` anything. A pattern matches in any of the 8 orientations and with the
colours swapped, for either player: ``table()`` expands them into a read-only bit table of
65536 entries (``table[code] == 1``: some pattern matches).
"""

from __future__ import annotations

from itertools import product

import numpy as np
from numba import njit

from .board import COLOUR, M_WIDTH, META

PATTERNS = (
    ("XOX", "...", "???"),  # hane: enclosing hane
    ("XO.", "...", "?.?"),  # hane: non-cutting hane
    ("XO?", "X..", "x.?"),  # hane: magari
    (".O.", "X..", "..."),  # katatsuke or diagonal attachment
    ("XO?", "O.o", "?o?"),  # cut: unprotected cut
    ("XO?", "O.X", "???"),  # cut: peeped cut
    ("?X?", "O.O", "ooo"),  # cut: de (push between)
    ("OX?", "o.O", "???"),  # cut: keima cut
    ("X.?", "O.?", "##?"),  # edge: chase
    ("OX?", "X.O", "###"),  # edge: block the side cut
    ("?X?", "x.O", "###"),  # edge: block the side connection
    ("?XO", "x.x", "###"),  # edge: sagari
    ("?OX", "X.O", "###"),  # edge: cut
)

EMPTY, BLACK, WHITE, EDGE = 0, 1, 2, 3
MEANS = {".": (EMPTY,), "X": (BLACK,), "O": (WHITE,), "x": (EMPTY, WHITE),
         "o": (EMPTY, BLACK), "#": (EDGE,), "?": (EMPTY, BLACK, WHITE, EDGE)}


def orientations(picture: tuple[str, str, str]) -> set[tuple[str, ...]]:
    """The picture turned and mirrored (8 ways), and each with its colours swapped."""
    grid = [list(row) for row in picture]
    found = set()
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # a quarter turn
        for image in (grid, [row[::-1] for row in grid]):
            flat = "".join("".join(row) for row in image)
            found.add(tuple(flat))
            found.add(tuple(flat.translate(str.maketrans("XOxo", "OXox"))))
    return found


def table() -> np.ndarray:
    """The 65536-entry table: 1 where some pattern matches the code (module docstring)."""
    matches = np.zeros(1 << 16, np.uint8)
    for picture in PATTERNS:
        for flat in orientations(picture):
            around = flat[:4] + flat[5:]  # the middle is the move itself
            for colours in product(*(MEANS[ch] for ch in around)):
                code = 0
                for index, colour in enumerate(colours):
                    code |= colour << (2 * index)
                matches[code] = 1
    matches.setflags(write=False)
    return matches


@njit(cache=True, inline="always")
def code_at(b: np.ndarray, p: int) -> int:
    """The 16-bit code of the eight points round p (module docstring)."""
    width = b[META, M_WIDTH]
    code = 0
    shift = 0
    for q in (p - width - 1, p - width, p - width + 1, p - 1, p + 1,
              p + width - 1, p + width, p + width + 1):
        code |= b[COLOUR, q] << shift
        shift += 2
    return code
