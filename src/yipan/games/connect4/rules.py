"""Connect Four on two bitboards and a move count (Pascal Pons' layout).

State encoding: ``Position(current, mask, moves)``. ``mask`` holds every stone, ``current``
the stones of the side to move, ``moves`` the plies played. The board is stored column by
column, ``height + 1`` bits a column; the extra bit on top of each column is always empty, so
a shift never carries a line from one column into the next::

    7x6 board (bit index of each cell)        a column is height + 1 = 7 bits
      .  .  .  .  .  .  .    <- sentinel row:  6 13 20 27 34 41 48 (always 0)
      5 12 19 26 33 40 47    <- top
      4 11 18 25 32 39 46
      3 10 17 24 31 38 45
      2  9 16 23 30 37 44
      1  8 15 22 29 36 43
      0  7 14 21 28 35 42    <- bottom
      1  2  3  4  5  6  7    <- moves are written as column numbers

    The stones of the side that just moved are ``current ^ mask``. A four along direction
    d (1 up, h+1 across, h and h+2 diagonally) exists where ``b & b>>d & b>>2d & b>>3d`` is
    not zero. ``current + mask`` is a unique key: adding ``mask`` sets one bit above each
    column's stones, which tells the column heights, and no carry crosses a column.

Moves are column indices 0..width-1 and are written 1..width. The first player's stones are
player 0. The same five ints ``(current, mask, moves, width, height)`` feed the numba kernels.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from ...core import (
    DRAW,
    Game,
    GameInfo,
    GameOptionError,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
)
from ...core.drawing import notebook_html
from ...core.text import is_digits, quote, read_int
from . import features

MAX_BITS = 63  # the kernels hold a bitboard in a signed 64-bit int


class Position(NamedTuple):
    """Stones of the side to move, all stones, plies played (layout in the module docstring)."""

    current: int
    mask: int
    moves: int

    def _repr_html_(self) -> str:
        """Drawn in a notebook (on the default 7x6 board)."""
        return notebook_html("connect4", self)


class Geometry(NamedTuple):
    """The masks of one board size, computed once."""

    width: int
    height: int
    bottom: int  # the bottom cell of every column
    board: int  # every playable cell

    @classmethod
    def of(cls, width: int, height: int) -> Geometry:
        bottom = sum(1 << (col * (height + 1)) for col in range(width))
        return cls(width, height, bottom, bottom * ((1 << height) - 1))

    def column_mask(self, col: int) -> int:
        return ((1 << self.height) - 1) << (col * (self.height + 1))

    def bottom_of(self, col: int) -> int:
        return 1 << (col * (self.height + 1))

    def top_of(self, col: int) -> int:
        return 1 << (self.height - 1 + col * (self.height + 1))


def parse_size(text: str) -> tuple[int, int]:
    """``"7x6"`` -> (7, 6), width x height."""
    match = re.fullmatch(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*", str(text))
    if not match:
        raise ValueError(f"board size must look like 7x6 (width x height), got {text!r}")
    return int(match.group(1)), int(match.group(2))


def check_size(width: int, height: int) -> None:
    if not (4 <= width <= 16 and 4 <= height <= 16):
        raise GameOptionError(f"board {width}x{height}: width and height must be 4..16")
    if width * (height + 1) > MAX_BITS:
        raise GameOptionError(
            f"board {width}x{height} does not fit the bitboard: width*(height+1) must be "
            f"at most {MAX_BITS}, it is {width * (height + 1)}")


def winning_cells(stones: int, mask: int, geometry: Geometry) -> int:
    """Empty cells (possibly not yet playable) where ``stones`` would complete a four."""
    h = geometry.height
    r = (stones << 1) & (stones << 2) & (stones << 3)  # vertical: only from below
    for d in (h + 1, h, h + 2):  # horizontal, and the two diagonals
        pair = (stones << d) & (stones << 2 * d)
        r |= pair & (stones << 3 * d)
        r |= pair & (stones >> d)
        pair = (stones >> d) & (stones >> 2 * d)
        r |= pair & (stones << d)
        r |= pair & (stones >> 3 * d)
    return r & (geometry.board ^ mask)


def has_four(stones: int, height: int) -> bool:
    for d in (1, height + 1, height, height + 2):
        pair = stones & (stones >> d)
        if pair & (pair >> 2 * d):
            return True
    return False


def four_cells(stones: int, height: int) -> int:
    """Every cell of ``stones`` that belongs to a four (for highlighting a win)."""
    cells = 0
    for d in (1, height + 1, height, height + 2):
        pair = stones & (stones >> d)
        starts = pair & (pair >> 2 * d)
        for i in range(4):
            cells |= starts << (i * d)
    return cells


class ConnectFour(Game[Position, int]):
    """Connect Four: drop stones into columns; four in a row in any direction wins."""

    player_names = ("X", "O")

    def __init__(self, width: int | None = None, height: int | None = None,
                 size: str | None = None) -> None:
        if size is not None:
            if width is not None or height is not None:
                raise GameOptionError("give either size or width/height, not both")
            try:
                width, height = parse_size(size)
            except ValueError as error:
                raise GameOptionError(str(error)) from None
        width = 7 if width is None else int(width)
        height = 6 if height is None else int(height)
        check_size(width, height)
        self.width, self.height = width, height
        self.geometry = Geometry.of(width, height)
        self.cells = width * height
        self.center_order = sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c))
        self.info = GameInfo(
            name="connect4",
            title="Connect Four" if (width, height) == (7, 6) else f"Connect Four {width}x{height}",
            heuristic=True,
            move_ordering=True,
            symmetry=True,
            grid=(height, width),
            max_moves=self.cells,
            playout=True,
            encoding=(features.PLANES, height, width),
            actions=width,
        )
        # encode: the bit of each cell, in the array's order (row 0 at the top)
        self._cell_bits = np.array(
            [[col * (height + 1) + height - 1 - row for col in range(width)]
             for row in range(height)], np.uint64)

    # -- rules ---------------------------------------------------------------------------------
    def initial_state(self) -> Position:
        return Position(0, 0, 0)

    def to_move(self, state: Position) -> int:
        return state.moves & 1

    def can_play(self, state: Position, col: int) -> bool:
        return 0 <= col < self.width and not state.mask & self.geometry.top_of(col)

    def legal_moves(self, state: Position) -> list[int]:
        if self.outcome(state) is not None:
            return []
        return [col for col in range(self.width) if not state.mask & self.geometry.top_of(col)]

    def play(self, state: Position, move: int) -> Position:
        current, mask, moves = state
        mask_after = mask | (mask + self.geometry.bottom_of(move))
        return Position(current ^ mask, mask_after, moves + 1)

    def is_winning_move(self, state: Position, col: int) -> bool:
        """Whether dropping in ``col`` makes a four for the side to move."""
        wins = winning_cells(state.current, state.mask, self.geometry)
        playable = (state.mask + self.geometry.bottom) & self.geometry.board
        return bool(wins & playable & self.geometry.column_mask(col))

    def non_losing_moves(self, state: Position) -> list[int]:
        """Columns after which the opponent cannot make a four at once (empty when every
        move loses so: two threats to parry). The solver prunes the others the same way."""
        g = self.geometry
        possible = (state.mask + g.bottom) & g.board
        opponent_wins = winning_cells(state.current ^ state.mask, state.mask, g)
        forced = possible & opponent_wins
        if forced:
            if forced & (forced - 1):
                return []
            possible = forced
        safe = possible & ~(opponent_wins >> 1)
        return [col for col in range(self.width) if safe & g.column_mask(col)]

    def outcome(self, state: Position) -> Outcome | None:
        last_mover = state.current ^ state.mask
        if state.moves and has_four(last_mover, self.height):
            return Outcome((state.moves - 1) & 1)
        if state.moves >= self.cells:
            return DRAW
        return None

    def play_checked(self, state: Position, move: int) -> Position:
        if not isinstance(move, int) or not 0 <= move < self.width:
            raise IllegalMoveError(f"column {self._written(move)} is not on the board "
                                   f"(1-{self.width})")
        if self.outcome(state) is not None:
            raise IllegalMoveError(f"the game is over; column {move + 1} cannot be played")
        if state.mask & self.geometry.top_of(move):
            raise IllegalMoveError(f"column {move + 1} is full")
        return self.play(state, move)

    @staticmethod
    def _written(move: Any) -> str:
        return str(move + 1) if isinstance(move, int) else repr(move)

    def playout(self, state: Position, rng: random.Random) -> float:
        """Uniformly random moves to the end, in numba (``playouts.random_playout``); the
        result for player 0 (+1, 0 or -1), for MCTS."""
        random_playout, seed_from = _playout_kernel()
        result, _ = random_playout(*state, self.width, self.height, seed_from(rng))
        return float(result if state.moves & 1 == 0 else -result)

    # -- networks -------------------------------------------------------------------------------
    def encode(self, state: Position) -> np.ndarray:
        """Twelve planes of ``height x width`` (row 0 at the top, as ``view``): the stones,
        the threats and what they imply (``features``)."""
        return self.encode_many([state])[0]

    def encode_many(self, states: Sequence[Position]) -> np.ndarray:
        mine, theirs = features.stone_planes([s.current for s in states],
                                             [s.mask for s in states], self._cell_bits)
        return features.planes(mine, theirs)

    def move_index(self, state: Position, move: int) -> int:
        """A move is its column: policy output ``col``."""
        return move

    # -- notation ------------------------------------------------------------------------------
    def format_move(self, move: int) -> str:
        return str(move + 1)

    def parse_move(self, state: Position | None, text: str) -> int:
        text = text.strip()
        if not is_digits(text):
            raise InvalidMoveError(f"cannot read {quote(text)}: a move is a column "
                                   f"1-{self.width}")
        column = read_int(text, "a column", error=InvalidMoveError)
        if not 1 <= column <= self.width:
            raise InvalidMoveError(f"column {column} is not on the board (1-{self.width})")
        return column - 1

    def split_moves(self, text: str) -> list[str]:
        """``"4453"`` -> one move per digit (columns are single digits up to width 9);
        wider boards separate moves by spaces or commas."""
        parts = [part for part in re.split(r"[\s,]+", text.strip()) if part]
        if self.width <= 9:
            return [char for part in parts for char in part]
        return parts

    def cell(self, state: Position, row: int, col: int) -> int | None:
        """The player (0 or 1) on (row, col), row 0 at the top; None when empty."""
        bit = 1 << (col * (self.height + 1) + self.height - 1 - row)
        if not state.mask & bit:
            return None
        mine = bool(state.current & bit)  # a stone of the side to move
        return self.to_move(state) if mine else 1 - self.to_move(state)

    def render(self, state: Position) -> str:
        marks = {0: "X", 1: "O", None: "."}
        rows = [" ".join(marks[self.cell(state, r, c)] for c in range(self.width))
                for r in range(self.height)]
        rows.append(" ".join(str(c + 1) if c < 9 else "+" for c in range(self.width)))
        return "\n".join(rows)

    def view(self, state: Position) -> dict:
        playing = self.outcome(state) is None
        playable = [playing and self.can_play(state, c) for c in range(self.width)]
        picture: dict[str, Any] = {
            "kind": "grid",
            "rows": self.height,
            "cols": self.width,
            "gravity": True,
            "cells": [[self.cell(state, r, c) for c in range(self.width)]
                      for r in range(self.height)],
            "move_at": [[self.format_move(c) if playable[c] else None for c in range(self.width)]
                        for _ in range(self.height)],
            "col_labels": [self.format_move(c) for c in range(self.width)],  # moves are columns
        }
        last_mover = state.current ^ state.mask
        if state.moves and has_four(last_mover, self.height):
            line = four_cells(last_mover, self.height)
            picture["highlight"] = [
                [self.height - 1 - bit % (self.height + 1), bit // (self.height + 1)]
                for bit in range(self.width * (self.height + 1)) if line >> bit & 1]
        return picture

    # -- heuristic, ordering, symmetry -----------------------------------------------------------
    def evaluate(self, state: Position) -> float:
        """Threats (cells that would complete a four) of the side to move minus the
        opponent's, and a little for central stones; for the generic search."""
        geometry = self.geometry
        mine, theirs = state.current, state.current ^ state.mask
        my_threats = winning_cells(mine, state.mask, geometry).bit_count()
        their_threats = winning_cells(theirs, state.mask, geometry).bit_count()
        centre = self.geometry.column_mask(self.width // 2)
        return (10 * (my_threats - their_threats)
                + 3 * ((mine & centre).bit_count() - (theirs & centre).bit_count()))

    def order_moves(self, state: Position, moves: Sequence[int]) -> list[int]:
        """Centre columns first, as the solver orders ties."""
        rank = {col: i for i, col in enumerate(self.center_order)}
        return sorted(moves, key=rank.__getitem__)

    def mirror(self, bits: int) -> int:
        """A bitboard reflected left to right."""
        step = self.height + 1
        column = (1 << step) - 1
        out = 0
        for col in range(self.width):
            out |= ((bits >> (col * step)) & column) << ((self.width - 1 - col) * step)
        return out

    def symmetries(self, state: Position) -> list[Position]:
        return [state, Position(self.mirror(state.current), self.mirror(state.mask), state.moves)]

    def canonical(self, state: Position) -> Position:
        return min(self.symmetries(state))

    def key(self, state: Position) -> int:
        """The unique key ``current + mask``, folded with its mirror image (the smaller)."""
        key = state.current + state.mask
        return min(key, self.mirror(key))

    def position(self, moves: str) -> Position:
        """The position after a move string such as ``"4453"`` (checked)."""
        from ...core import replay

        return replay(self, self.split_moves(moves))[-1]


@functools.cache
def _playout_kernel() -> tuple[Callable, Callable]:
    """The numba playout and the seeding of its generator, imported on the first playout: the
    rules stay the pure-Python reference that the kernels are tested against."""
    from ...native import seed_from
    from .playouts import random_playout

    return random_playout, seed_from
