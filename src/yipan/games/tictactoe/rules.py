"""Tic-tac-toe and every m,n,k-game (k in a row on an m x n board) on bitboards.

State encoding: two bitboards, one per player, in the layout of ``yipan.games.grid``:
row-major, with one empty sentinel column on the right, so a shift never carries a line
across the board's edge::

    3x3 board, cols + 1 = 4 bits a row        bit index of each cell
         a  b  c                                   a  b  c
      1  .  .  .  |                           1    0  1  2 | 3
      2  .  .  .  |                           2    4  5  6 | 7
      3  .  .  .  |                           3    8  9 10 | 11

    A line of k along direction d (1 across, cols+1 down, cols+2 and cols diagonally)
    exists where  b & b>>d & b>>2d & ... (k-1 shifts)  is not zero (``Grid.has_run``).

Moves are bit indices; they are written ``a1`` (column letter, row number from the top),
and on the command line a square number ``1``..``m*n`` in reading order is accepted too.

The heuristic counts open lines (free of the opponent's stones): a line holding s stones is
worth ``base**s``, ``base`` 4 unless the board has so many long lines that the sum could reach
the search's ``HEURISTIC_LIMIT`` (see ``line_weights``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ...core import (
    DRAW,
    HEURISTIC_LIMIT,
    WIN,
    Game,
    GameInfo,
    GameOptionError,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
)
from ...core.drawing import notebook_html
from ...core.text import is_digits, quote, read_int
from ..grid import Grid, byte_tables, grid_view, permute, render_board

MAX_SIDE = 26  # one column letter each
MARKS = "XO"


class Board(NamedTuple):
    """Stones of the first player (X) and of the second (O), as bitboards."""

    first: int
    second: int

    def _repr_html_(self) -> str:
        """Drawn in a notebook (on the default 3x3 board)."""
        return notebook_html("tictactoe", self)


def parse_size(text: str) -> tuple[int, int]:
    """``"4x5"`` -> (4, 5) rows x columns; ``"4"`` -> (4, 4)."""
    match = re.fullmatch(r"\s*([0-9]+)\s*(?:[xX]\s*([0-9]+))?\s*", str(text))
    if not match:
        raise ValueError(f"board size must look like 3x3, got {quote(str(text))}")
    rows = read_int(match.group(1), "the number of rows", max_digits=4)
    cols = read_int(match.group(2), "the number of columns", max_digits=4) \
        if match.group(2) else rows
    return rows, cols


def line_weights(n_lines: int, k: int) -> list[int] | list[float]:
    """``weights[s]``: what an open line holding s stones is worth, s = 0..k.

    ``4**s`` where ``n_lines * 4**k`` (every line full: no evaluation can sum to more) stays
    under ``HEURISTIC_LIMIT``; else a smaller base, so that ``n_lines * base**k`` is half
    the limit (a 26x26 board with k = 26 has 54 lines and a base of about 1.42).
    """
    if n_lines * 4**k < HEURISTIC_LIMIT:
        return [4**s for s in range(k + 1)]
    base = (HEURISTIC_LIMIT / 2 / n_lines) ** (1 / k)
    return [base**s for s in range(k + 1)]


class TicTacToe(Game[Board, int]):
    """The m,n,k-game: players alternately place a stone; k in a row (any direction) wins."""

    player_names = ("X", "O")

    def __init__(self, size: str | tuple[int, int] = "3x3", k: int | None = None) -> None:
        rows, cols = parse_size(size) if isinstance(size, str) else size
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise GameOptionError(
                f"board size {rows}x{cols} is out of range (1..{MAX_SIDE} each side)")
        k = min(rows, cols) if k is None else int(k)
        if not 1 <= k <= max(rows, cols):
            raise GameOptionError(f"k={k} cannot fit on a {rows}x{cols} board")
        self.rows, self.cols, self.k = rows, cols, k
        self.grid = grid = Grid.of(rows, cols)
        self.stride = grid.stride
        self.cells = list(grid.cells)
        self.full = grid.full
        self.lines = grid.lines(k)
        self._weights = line_weights(len(self.lines), k)
        self._center_order = sorted(self.cells, key=self._distance_from_center)
        symmetries = grid.symmetries()
        self._symmetry_tables = [byte_tables(image) for image in symmetries]
        # tables over both boards in one integer, for canonical keys
        self.shift = self.rows * self.stride
        self._key_tables = [
            byte_tables({**image, **{a + self.shift: b + self.shift for a, b in image.items()}})
            for image in symmetries]
        self._canonical_cache: dict[int, int] = {}
        self._outcome_cache: dict[Board, Outcome | None] = {}
        self.info = GameInfo(
            name="tictactoe",
            title="Tic-tac-toe" if (rows, cols, k) == (3, 3, 3) else f"{rows},{cols},{k}-game",
            heuristic=True,
            move_ordering=True,
            symmetry=True,
            bounds=True,
            grid=(rows, cols),
            max_moves=rows * cols,
            encoding=(2, rows, cols),
            actions=rows * cols,
        )
        self._cell_bits = np.array([[self.bit(r, c) for c in range(cols)] for r in range(rows)],
                                   np.intp)

    # -- geometry ------------------------------------------------------------------------------
    def bit(self, row: int, col: int) -> int:
        return row * self.stride + col

    def coordinates(self, bit: int) -> tuple[int, int]:
        return divmod(bit, self.stride)

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
        return self.grid.has_run(stones, self.k)

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
            if self.grid.has_run(first, self.k):
                return Outcome(0)
        elif self.grid.has_run(second, self.k):
            return Outcome(1)
        if first | second == self.full:
            return DRAW
        return None

    # -- networks -------------------------------------------------------------------------------
    def encode(self, state: Board) -> np.ndarray:
        """Two planes of ``rows x cols``: the side to move's stones, then the opponent's."""
        mine, theirs = (state.first, state.second) if self.to_move(state) == 0 \
            else (state.second, state.first)
        size = (self.shift + 7) // 8  # bytes of one bitboard (boards may pass 64 bits)
        bits = np.unpackbits(np.frombuffer(mine.to_bytes(size, "little")
                                           + theirs.to_bytes(size, "little"), np.uint8),
                             bitorder="little").reshape(2, -1)
        return bits[:, self._cell_bits].astype(np.float32)

    def move_index(self, state: Board, move: int) -> int:
        """The cell in reading order: ``row * cols + col``."""
        row, col = self.coordinates(move)
        return row * self.cols + col

    # -- notation ------------------------------------------------------------------------------
    def format_move(self, move: int) -> str:
        return self.grid.format(*self.coordinates(move))

    def parse_move(self, state: Board | None, text: str) -> int:
        text = text.strip()
        squares = self.rows * self.cols
        if is_digits(text):
            number = int(text) if len(text) <= 4 else 0
            if not 1 <= number <= squares:
                raise InvalidMoveError(f"square {quote(text)} is off the board (1-{squares})")
            row, col = divmod(number - 1, self.cols)
            return self.bit(row, col)
        row, col = self.grid.parse(text, noun="square", also=f" or 1..{squares}")
        return self.bit(row, col)

    def play_checked(self, state: Board, move: int) -> Board:
        if move not in self.cells:
            raise InvalidMoveError(f"{move} is not a square of this board")
        if (state.first | state.second) >> move & 1:
            raise IllegalMoveError(f"square {self.format_move(move)} is taken")
        return super().play_checked(state, move)

    def render(self, state: Board) -> str:
        return render_board(self.grid, self.grid.owners(*state), MARKS)

    def split_moves(self, text: str) -> list[str]:
        """``"159"`` on a board of at most 9 squares is three moves (squares 1-9, so a run with
        a 0 in it is one number, and refused as such); otherwise split on spaces."""
        text = text.strip()
        if is_digits(text) and "0" not in text and self.rows * self.cols <= 9:
            return list(text)
        return super().split_moves(text)

    def view(self, state: Board) -> dict:
        """The grid of marks; the winning line (every line of k, if one move made two)
        highlighted."""
        first, second = state
        outcome = self.outcome(state)
        playable = self.full & ~(first | second) if outcome is None else 0
        winner = None if outcome is None else outcome.winner
        highlight = 0 if winner is None else self.grid.run_cells(
            first if winner == 0 else second, self.k)
        return {**grid_view(self.grid, self.grid.owners(first, second), playable=playable,
                            pieces="marks", highlight=highlight), "k": self.k}

    def cell(self, state: Board, row: int, col: int) -> int | None:
        """The player (0 or 1) whose stone is on (row, col), or None."""
        bit = self.bit(row, col)
        return 0 if state.first >> bit & 1 else 1 if state.second >> bit & 1 else None

    # -- heuristic and ordering ------------------------------------------------------------------
    def evaluate(self, state: Board) -> float:
        """Open lines for each side (lines that one side may still complete), weighted.

        A line with stones of one side only is worth ``weights[stones]`` (``4**stones`` but
        on boards of many long lines: ``line_weights``) to that side; the value is mine minus
        theirs, for the side to move, and always inside ``(-HEURISTIC_LIMIT, HEURISTIC_LIMIT)``.
        """
        first, second = state
        weights = self._weights
        score: float = 0
        for line in self.lines:
            a, b = first & line, second & line
            if a and not b:
                score += weights[a.bit_count()]
            elif b and not a:
                score -= weights[b.bit_count()]
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
    def symmetries(self, state: Board) -> list[Board]:
        return [Board(permute(t, state.first), permute(t, state.second))
                for t in self._symmetry_tables]

    def canonical(self, state: Board) -> int:
        """The least image of ``first | second << shift`` under the board's symmetries."""
        key = state.first | state.second << self.shift
        cached = self._canonical_cache.get(key)
        if cached is None:
            cached = -1
            for tables in self._key_tables:  # permute(), written out: this is hot
                image, rest = 0, key
                for table in tables:
                    image |= table[rest & 255]
                    rest >>= 8
                if image < cached or cached < 0:
                    cached = image
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
