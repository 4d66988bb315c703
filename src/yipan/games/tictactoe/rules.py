"""Tic-tac-toe and every m,n,k-game (k in a row on an m x n board) on bitboards.

State encoding: two bitboards, one per player, in a row-major layout with one empty
sentinel column on the right, so a shift never carries a line across the board's edge::

    3x3 board, cols + 1 = 4 bits a row        bit index of each cell
         a  b  c  |                           .  0  1  2 | 3
      1  .  .  .  |                           .  4  5  6 | 7
      2  .  .  .  |                           .  8  9 10 | 11
      3  .  .  .  |

    A line of k along direction d (1 across, cols+1 down, cols+2 and cols diagonally)
    exists where  b & b>>d & b>>2d & ... (k-1 shifts)  is not zero.

Moves are bit indices; they are written ``a1`` (column letter, row number from the top),
and on the command line a square number ``1``..``m*n`` in reading order is accepted too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ...core import (
    DRAW,
    WIN,
    Game,
    GameInfo,
    GameOptionError,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
)
from ...core.text import is_digits

LETTERS = "abcdefghijklmnopqrstuvwxyz"
MARKS = "XO"


class Board(NamedTuple):
    """Stones of the first player (X) and of the second (O), as bitboards."""

    first: int
    second: int


def parse_size(text: str) -> tuple[int, int]:
    """``"4x5"`` -> (4, 5) rows x columns; ``"4"`` -> (4, 4)."""
    match = re.fullmatch(r"\s*([0-9]+)\s*(?:[xX]\s*([0-9]+))?\s*", str(text))
    if not match:
        raise ValueError(f"board size must look like 3x3, got {text!r}")
    rows = int(match.group(1))
    cols = int(match.group(2) or rows)
    return rows, cols


class TicTacToe(Game[Board, int]):
    """The m,n,k-game: players alternately place a stone; k in a row (any direction) wins."""

    player_names = ("X", "O")

    def __init__(self, size: str | tuple[int, int] = "3x3", k: int | None = None) -> None:
        rows, cols = parse_size(size) if isinstance(size, str) else size
        if not (1 <= rows <= 26 and 1 <= cols <= 26):
            raise GameOptionError(f"board size {rows}x{cols} is out of range (1..26 each side)")
        k = min(rows, cols) if k is None else int(k)
        if not 1 <= k <= max(rows, cols):
            raise GameOptionError(f"k={k} cannot fit on a {rows}x{cols} board")
        self.rows, self.cols, self.k = rows, cols, k
        self.stride = cols + 1
        self.cells = [r * self.stride + c for r in range(rows) for c in range(cols)]
        self.full = sum(1 << bit for bit in self.cells)
        self.directions = (1, self.stride, self.stride + 1, self.stride - 1)
        self.lines = self._lines()
        self.lines_through = {bit: [ln for ln in self.lines if ln >> bit & 1] for bit in self.cells}
        self._center_order = sorted(self.cells, key=self._distance_from_center)
        self._symmetry_tables = self._build_symmetry_tables(self.rows * self.stride, 0)
        # tables over both boards in one integer, for canonical keys
        self.shift = self.rows * self.stride
        self._key_tables = self._build_symmetry_tables(2 * self.shift, self.shift)
        self._canonical_cache: dict[int, int] = {}
        self._outcome_cache: dict[Board, Outcome | None] = {}
        self._rank = {bit: i for i, bit in enumerate(self._center_order)}
        self.info = GameInfo(
            name="tictactoe",
            title="Tic-tac-toe" if (rows, cols, k) == (3, 3, 3) else f"{rows},{cols},{k}-game",
            heuristic=True,
            move_ordering=True,
            symmetry=True,
            bounds=True,
            grid=(rows, cols),
            max_moves=rows * cols,
        )

    # -- geometry ------------------------------------------------------------------------------
    def bit(self, row: int, col: int) -> int:
        return row * self.stride + col

    def coordinates(self, bit: int) -> tuple[int, int]:
        return divmod(bit, self.stride)

    def _lines(self) -> list[int]:
        """Every set of k cells in a row, as a mask."""
        lines = []
        for row in range(self.rows):
            for col in range(self.cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = row + dr * (self.k - 1), col + dc * (self.k - 1)
                    if 0 <= end_r < self.rows and 0 <= end_c < self.cols:
                        lines.append(sum(1 << self.bit(row + dr * i, col + dc * i)
                                         for i in range(self.k)))
        return lines

    def _distance_from_center(self, bit: int) -> float:
        row, col = self.coordinates(bit)
        return abs(row - (self.rows - 1) / 2) + abs(col - (self.cols - 1) / 2)

    # -- rules ---------------------------------------------------------------------------------
    def initial_state(self) -> Board:
        return Board(0, 0)

    def to_move(self, state: Board) -> int:
        return 0 if state.first.bit_count() == state.second.bit_count() else 1

    def legal_moves(self, state: Board) -> list[int]:
        if self.outcome(state) is not None:
            return []
        empty = self.full & ~(state.first | state.second)
        return [bit for bit in self.cells if empty >> bit & 1]

    def play(self, state: Board, move: int) -> Board:
        first, second = state
        if first.bit_count() == second.bit_count():
            return Board(first | 1 << move, second)
        return Board(first, second | 1 << move)

    def has_line(self, stones: int) -> bool:
        """Whether ``stones`` hold k in a row (the shift trick drawn in the module docstring)."""
        for d in self.directions:
            run = stones
            for _ in range(self.k - 1):
                run &= run >> d
                if not run:
                    break
            if run:
                return True
        return False

    def outcome(self, state: Board) -> Outcome | None:
        try:
            return self._outcome_cache[state]
        except KeyError:
            pass
        result = self._outcome(state)
        if len(self._outcome_cache) >= 1 << 20:
            self._outcome_cache.clear()  # a bounded cache of a pure function
        self._outcome_cache[state] = result
        return result

    def _outcome(self, state: Board) -> Outcome | None:
        first, second = state
        # only the player who moved last can have just made a line
        if first.bit_count() > second.bit_count():
            if self.has_line(first):
                return Outcome(0)
        elif self.has_line(second):
            return Outcome(1)
        if first | second == self.full:
            return DRAW
        return None

    # -- notation ------------------------------------------------------------------------------
    def format_move(self, move: int) -> str:
        row, col = self.coordinates(move)
        return f"{LETTERS[col]}{row + 1}"

    def parse_move(self, state: Board | None, text: str) -> int:
        text = text.strip().lower()
        if is_digits(text):
            number = int(text)
            if not 1 <= number <= self.rows * self.cols:
                raise InvalidMoveError(
                    f"square {number} is off the board (1-{self.rows * self.cols})")
            row, col = divmod(number - 1, self.cols)
            return self.bit(row, col)
        match = re.fullmatch(r"([a-z])([0-9]+)", text)
        if not match:
            raise InvalidMoveError(
                f"cannot read {text!r}: write a square as a1..{self.format_move(self.cells[-1])}"
                f" or 1..{self.rows * self.cols}")
        col, row = LETTERS.index(match.group(1)), int(match.group(2)) - 1
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise InvalidMoveError(f"{text} is off the board")
        return self.bit(row, col)

    def play_checked(self, state: Board, move: int) -> Board:
        if move not in self.cells:
            raise InvalidMoveError(f"{move} is not a square of this board")
        if (state.first | state.second) >> move & 1:
            raise IllegalMoveError(f"square {self.format_move(move)} is taken")
        return super().play_checked(state, move)

    def render(self, state: Board) -> str:
        header = "    " + " ".join(LETTERS[c] for c in range(self.cols))
        rows = [header]
        for row in range(self.rows):
            cells = []
            for col in range(self.cols):
                bit = self.bit(row, col)
                cells.append("X" if state.first >> bit & 1 else "O" if state.second >> bit & 1
                             else ".")
            rows.append(f"{row + 1:>3} " + " ".join(cells))
        return "\n".join(rows)

    def split_moves(self, text: str) -> list[str]:
        """``"159"`` on a board of at most 9 squares is three moves; otherwise split on spaces."""
        text = text.strip()
        if is_digits(text) and self.rows * self.cols <= 9:
            return list(text)
        return super().split_moves(text)

    def view(self, state: Board) -> dict:
        empty = self.full & ~(state.first | state.second)
        playing = self.outcome(state) is None
        winning = [line for line in self.lines
                   if line & state.first == line or line & state.second == line]
        highlight = sorted({self.coordinates(bit) for line in winning[:1] for bit in self.cells
                            if line >> bit & 1})
        return {
            "kind": "grid",
            "rows": self.rows,
            "cols": self.cols,
            "k": self.k,
            "highlight": [list(cell) for cell in highlight],
            "cells": [[self.cell(state, r, c) for c in range(self.cols)] for r in range(self.rows)],
            "move_at": [[self.format_move(self.bit(r, c))
                         if playing and empty >> self.bit(r, c) & 1 else None
                         for c in range(self.cols)] for r in range(self.rows)],
        }

    def cell(self, state: Board, row: int, col: int) -> int | None:
        """The player (0 or 1) whose stone is on (row, col), or None."""
        bit = self.bit(row, col)
        return 0 if state.first >> bit & 1 else 1 if state.second >> bit & 1 else None

    # -- heuristic and ordering ------------------------------------------------------------------
    def evaluate(self, state: Board) -> float:
        """Open lines for each side, as the seed's ``count_potential_lines``, weighted.

        A line with stones of one side only is worth ``4**stones`` to
        that side; the value is mine minus theirs, for the side to move.
        """
        first, second = state
        score = 0
        for line in self.lines:
            a, b = first & line, second & line
            if a and not b:
                score += 4 ** a.bit_count()
            elif b and not a:
                score -= 4 ** b.bit_count()
        return score if self.to_move(state) == 0 else -score

    def winning_cells(self, stones: int, others: int) -> int:
        """Empty cells where ``stones`` would complete k in a row, as a mask."""
        wins = 0
        empty = self.full & ~(stones | others)
        for line in self.lines:
            if not line & others:
                missing = line & ~stones
                if missing.bit_count() == 1 and missing & empty:
                    wins |= missing
        return wins

    def order_moves(self, state: Board, moves: Sequence[int]) -> list[int]:
        """Wins first, then blocks of the opponent's wins, then from the centre outwards."""
        first, second = state
        mine, theirs = (first, second) if self.to_move(state) == 0 else (second, first)
        urgent = self.winning_cells(mine, theirs) or self.winning_cells(theirs, mine)
        present = 0
        for move in moves:
            present |= 1 << move
        ordered = [bit for bit in self._center_order if present >> bit & 1]
        if urgent:
            ordered.sort(key=lambda m: not urgent >> m & 1)  # stable: the centre order stays
        return ordered

    # -- symmetry ------------------------------------------------------------------------------
    def _build_symmetry_tables(self, n_bits: int, second_offset: int) -> list[list[list[int]]]:
        """For each board symmetry, per-byte lookup tables mapping bits to their images
        (with ``second_offset``, a second board above the first is mapped the same way)."""
        rows, cols = self.rows, self.cols
        maps = [lambda r, c: (r, c), lambda r, c: (r, cols - 1 - c),
                lambda r, c: (rows - 1 - r, c), lambda r, c: (rows - 1 - r, cols - 1 - c)]
        if rows == cols:
            maps += [lambda r, c: (c, r), lambda r, c: (cols - 1 - c, r),
                     lambda r, c: (c, rows - 1 - r), lambda r, c: (cols - 1 - c, rows - 1 - r)]
        n_chunks = (n_bits + 7) // 8
        tables = []
        for mapping in maps:
            image = {}
            for bit in self.cells:
                image[bit] = self.bit(*mapping(*self.coordinates(bit)))
                if second_offset:
                    image[bit + second_offset] = image[bit] + second_offset
            chunks = []
            for chunk in range(n_chunks):
                table = [0] * 256
                for byte in range(256):
                    out = 0
                    for i in range(8):
                        if byte >> i & 1 and chunk * 8 + i in image:
                            out |= 1 << image[chunk * 8 + i]
                    table[byte] = out
                chunks.append(table)
            tables.append(chunks)
        return tables

    def _transform(self, chunks: list[list[int]], mask: int) -> int:
        out = 0
        for table in chunks:
            out |= table[mask & 255]
            mask >>= 8
        return out

    def symmetries(self, state: Board) -> list[Board]:
        return [Board(self._transform(t, state.first), self._transform(t, state.second))
                for t in self._symmetry_tables]

    def canonical(self, state: Board) -> int:
        """The least image of ``first | second << shift`` under the board's symmetries."""
        key = state.first | state.second << self.shift
        cached = self._canonical_cache.get(key)
        if cached is None:
            cached = min(self._transform(t, key) for t in self._key_tables)
            if len(self._canonical_cache) >= 1 << 20:
                self._canonical_cache.clear()  # a cache, bounded; clearing only costs time
            self._canonical_cache[key] = cached
        return cached

    def value_bounds(self, state: Board) -> tuple[int, int]:
        """What the side to move can still achieve, from the lines alone (node-relative values).

        - it can complete a line now: a win on the next ply, exactly ``WIN - 1``;
        - else the opponent has two different cells that complete a line: only one can be
          blocked, so a loss two plies on, exactly ``-(WIN - 2)``;
        - else a side with no open line (one free of enemy stones) can no longer win: the
          side to move's best is then a draw (high 0), the opponent's likewise (low 0).
        """
        first, second = state
        mine, theirs = (first, second) if first.bit_count() == second.bit_count() \
            else (second, first)
        need = self.k - 1
        i_can_win = they_can_win = False
        their_wins = 0
        for line in self.lines:
            if not line & theirs:
                if (line & mine).bit_count() == need:
                    return (WIN - 1, WIN - 1)
                i_can_win = True
            elif not line & mine:
                they_can_win = True
                if (line & theirs).bit_count() == need:
                    their_wins |= line & ~theirs
        if their_wins & (their_wins - 1):  # two cells or more
            return (-(WIN - 2), -(WIN - 2))
        return (-(WIN - 2) if they_can_win else 0, WIN - 3 if i_can_win else 0)
