"""Boards of cells on a grid: bitboard geometry, lines, ``a1`` coordinates, the text board
and the web view, shared by the games played by placing stones (tic-tac-toe and the m,n,k-games,
Gomoku; Go to come).

Bit layout: row-major, ``cols + 1`` bits a row; the last bit of each row is a sentinel that no
stone ever takes, so a shift never carries a line from one row into the next::

    3 rows x 4 columns, stride = cols + 1 = 5          bit index of each cell

         a  b  c  d                                    a   b   c   d   sentinel
      1  .  .  .  .                                1   0   1   2   3 |  4
      2  .  .  .  .                                2   5   6   7   8 |  9
      3  .  .  .  .                                3  10  11  12  13 | 14

    direction   shift        from (r, c) to     past the edge it lands on
    across      1            (r, c + 1)         the sentinel of row r
    down        stride       (r + 1, c)         nothing (past the last row)
    down-right  stride + 1   (r + 1, c + 1)     the sentinel of row r + 1
    down-left   stride - 1   (r + 1, c - 1)     the sentinel of row r

    A run of k along direction d starts at every bit of  b & b>>d & b>>2d & ... & b>>(k-1)d
    (bit s survives when s, s+d, ..., s+(k-1)d all hold stones); a sentinel is never a stone,
    so no run crosses an edge. The run's cells are  starts | starts<<d | ... | starts<<(k-1)d.

Coordinates are written ``a1``: the column letter (``a`` at the left), then the row number,
counted from the top (tic-tac-toe) or from the bottom (Go; Gomoku's ``h8``, as renju notation
writes it). Go's letters skip ``i`` (``Grid.of(19, 19, skip_i=True, rows_from_top=False)``:
``a1`` is the bottom-left point, ``t19`` the top-right); Gomoku's do not. Reading one is
strict: ASCII only, short.

Pictures take ``owners``, one row a list from the top, each cell 0, 1 (the player whose stone it
holds) or None: ``render_board`` gives the text board and ``grid_view`` the web view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core import InvalidMoveError
from ..core.text import is_digits, quote

LETTERS = "abcdefghijklmnopqrstuvwxyz"
GO_LETTERS = "abcdefghjklmnopqrstuvwxyz"  # no i: it is too easily read as j or l
MAX_MOVE_TEXT = 12  # "z26" is three characters; anything much longer is not a cell
PIECES = ("marks", "stones", "discs")  # how the web page draws what lies on a cell

Owners = Sequence[Sequence[int | None]]


@dataclass(frozen=True, slots=True)
class Grid:
    """One board size: its bit layout (in the module docstring) and its coordinates.
    Build it with ``Grid.of(rows, cols)``; the other fields follow from those."""

    rows: int
    cols: int
    skip_i: bool  # the column letters skip i (Go)
    rows_from_top: bool  # row 1 is the top row (else the bottom row, as in Go)
    stride: int  # bits a row: cols + 1, the sentinel included
    cells: tuple[int, ...]  # the bit of every cell in reading order (row by row, from the top)
    full: int  # every cell
    directions: tuple[int, int, int, int]  # across, down, down-right, down-left
    letters: str  # the column letters, from the left

    @classmethod
    def of(cls, rows: int, cols: int, *, skip_i: bool = False,
           rows_from_top: bool = True) -> Grid:
        letters = GO_LETTERS if skip_i else LETTERS
        if rows < 1 or cols < 1:
            raise ValueError(f"a grid needs a row and a column, not {rows}x{cols}")
        if cols > len(letters):
            raise ValueError(f"{cols} columns cannot be written with {len(letters)} letters")
        stride = cols + 1
        cells = tuple(r * stride + c for r in range(rows) for c in range(cols))
        return cls(rows, cols, skip_i, rows_from_top, stride, cells, sum(1 << bit for bit in cells),
                   (1, stride, stride + 1, stride - 1), letters[:cols])

    # -- geometry ------------------------------------------------------------------------------
    def bit(self, row: int, col: int) -> int:
        return row * self.stride + col

    def coordinates(self, bit: int) -> tuple[int, int]:
        """(row, col) of a cell's bit, row 0 at the top."""
        return divmod(bit, self.stride)

    def runs(self, stones: int, length: int, direction: int) -> int:
        """The start bits of every run of ``length`` stones along ``direction``."""
        run = stones
        for _ in range(length - 1):
            run &= run >> direction
            if not run:
                break
        return run

    def has_run(self, stones: int, length: int) -> bool:
        """Whether ``stones`` hold ``length`` (or more) in a row in any direction.
        (``runs`` written out in the loop: games call this once a position.)"""
        for d in self.directions:
            run = stones
            for _ in range(length - 1):
                run &= run >> d
                if not run:
                    break
            if run:
                return True
        return False

    def spread(self, starts: int, length: int, direction: int) -> int:
        """Every cell of the runs of ``length`` that begin at ``starts`` along ``direction``."""
        cells = 0
        for i in range(length):
            cells |= starts << i * direction
        return cells

    def run_cells(self, stones: int, length: int) -> int:
        """Every stone that belongs to a run of ``length`` or more (to highlight a win)."""
        cells = 0
        for d in self.directions:
            cells |= self.spread(self.runs(stones, length, d), length, d)
        return cells

    def lines(self, length: int) -> tuple[int, ...]:
        """Every set of ``length`` cells in a row, as masks: for each cell in reading order,
        the line starting there across, down, down-right, then down-left (each set once)."""
        lines: list[int] = []
        for row in range(self.rows):
            for col in range(self.cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = row + dr * (length - 1), col + dc * (length - 1)
                    if 0 <= end_r < self.rows and 0 <= end_c < self.cols:
                        lines.append(sum(1 << self.bit(row + dr * i, col + dc * i)
                                         for i in range(length)))
        return tuple(dict.fromkeys(lines))  # a line of one cell is found in all four directions

    def symmetries(self) -> tuple[dict[int, int], ...]:
        """Each symmetry of the board as a map from a cell's bit to its image's, the identity
        first: the two mirrors and the half turn; on a square board also the transpose,
        the quarter turns and the anti-transpose."""
        rows, cols = self.rows, self.cols
        maps = [lambda r, c: (r, c), lambda r, c: (r, cols - 1 - c),
                lambda r, c: (rows - 1 - r, c), lambda r, c: (rows - 1 - r, cols - 1 - c)]
        if rows == cols:
            maps += [lambda r, c: (c, r), lambda r, c: (cols - 1 - c, r),
                     lambda r, c: (c, rows - 1 - r), lambda r, c: (cols - 1 - c, rows - 1 - r)]
        return tuple({bit: self.bit(*mapping(*self.coordinates(bit))) for bit in self.cells}
                     for mapping in maps)

    # -- coordinates -------------------------------------------------------------------------------
    def row_label(self, row: int) -> str:
        """The number row ``row`` (0 at the top) is written with."""
        return str(row + 1 if self.rows_from_top else self.rows - row)

    def format(self, row: int, col: int) -> str:
        """``a1``: the column letter, then the row number."""
        return f"{self.letters[col]}{self.row_label(row)}"

    def parse(self, text: str, *, noun: str = "cell", also: str = "") -> tuple[int, int]:
        """(row, col) of a cell written ``a1`` (any case); InvalidMoveError otherwise.
        ``noun`` and ``also`` (other ways to write a move) complete the error's advice."""
        text = text.strip()
        letter, number = text[:1].lower(), text[1:]
        span = f"{self.letters[0]}1..{self.letters[-1]}{self.rows}"
        if not (text.isascii() and len(text) <= MAX_MOVE_TEXT and is_digits(number)
                and letter.isalpha()):
            raise InvalidMoveError(f"cannot read {quote(text)}: write a {noun} as {span}{also}")
        alphabet = GO_LETTERS if self.skip_i else LETTERS
        if letter not in alphabet:
            raise InvalidMoveError(f"cannot read {quote(text)}: there is no column {letter}")
        col, row = alphabet.index(letter), int(number)
        if col >= self.cols or not 1 <= row <= self.rows:
            raise InvalidMoveError(f"{text} is off the board ({span})")
        return (row - 1 if self.rows_from_top else self.rows - row), col

    # -- pictures ------------------------------------------------------------------------------
    def owners(self, first: int, second: int) -> list[list[int | None]]:
        """Whose stone is on each cell (0, 1 or None), a row a list from the top."""
        stride = self.stride
        return [[0 if first >> bit & 1 else 1 if second >> bit & 1 else None
                 for bit in range(r * stride, r * stride + self.cols)]
                for r in range(self.rows)]


def render_board(grid: Grid, owners: Owners, marks: str = "XO", empty: str = ".") -> str:
    """The text board: column letters on top, row numbers on the left."""
    symbols = {0: marks[0], 1: marks[1], None: empty}
    lines = ["    " + " ".join(grid.letters)]
    for row, cells in enumerate(owners):
        lines.append(f"{grid.row_label(row):>3} " + " ".join(symbols[owner] for owner in cells))
    return "\n".join(lines)


def grid_view(grid: Grid, owners: Owners, *, playable: int, pieces: str,
              highlight: int = 0) -> dict[str, Any]:
    """The web page's picture (``Game.view``): ``{"kind": "grid", "rows", "cols", "cells",
    "move_at", "pieces", "highlight", "col_labels", "row_labels"}``.

    ``playable`` is the mask of cells a click plays on (the move is the cell's ``a1``);
    ``pieces`` how the page draws what lies on a cell (``"marks"``: X and O between rules;
    ``"stones"``: stones on the rules' crossings; ``"discs"``: discs in holes);
    ``highlight`` the mask of cells to mark, as a winning line, listed in reading order.
    """
    if pieces not in PIECES:
        raise ValueError(f"pieces must be one of {', '.join(PIECES)}, not {pieces!r}")
    return {
        "kind": "grid",
        "rows": grid.rows,
        "cols": grid.cols,
        "pieces": pieces,
        "cells": [list(row) for row in owners],
        "move_at": [[grid.format(r, c) if playable >> grid.bit(r, c) & 1 else None
                     for c in range(grid.cols)] for r in range(grid.rows)],
        "highlight": [list(grid.coordinates(bit)) for bit in grid.cells if highlight >> bit & 1],
        "col_labels": list(grid.letters),
        "row_labels": [grid.row_label(r) for r in range(grid.rows)],
    }


def byte_tables(image: dict[int, int]) -> tuple[tuple[int, ...], ...]:
    """Lookup tables that move each bit ``b`` of a mask to bit ``image[b]`` (bits missing from
    ``image`` are dropped), a byte at a time: ``permute(tables, mask)`` applies them."""
    n_chunks = (max(image, default=0) >> 3) + 1
    tables = []
    for chunk in range(n_chunks):
        table = [0] * 256
        for byte in range(1, 256):
            low = byte & -byte
            source = chunk * 8 + low.bit_length() - 1
            table[byte] = table[byte ^ low] | (1 << image[source] if source in image else 0)
        tables.append(tuple(table))
    return tuple(tables)


def permute(tables: Sequence[Sequence[int]], mask: int) -> int:
    """``mask`` with each bit moved by ``byte_tables``."""
    out = 0
    for table in tables:
        out |= table[mask & 255]
        mask >>= 8
    return out


def set_bits(mask: int) -> list[int]:
    """The indices of the bits set in ``mask``, lowest first."""
    bits = []
    while mask:
        low = mask & -mask
        bits.append(low.bit_length() - 1)
        mask ^= low
    return bits
