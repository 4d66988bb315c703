"""The rules of Gomoku (five in a row) on a square board, as a ``Game`` over bitboards.

Coordinates follow the Gomocup protocol: ``x`` is the column (0 at the left), ``y`` the row
(0 at the top). A move is the point ``y * size + x``; it is written ``h8``: the column letter
(``a`` = x 0) and the row number counted *from the top*, starting at 1 (``8`` = y 7). So the
Gomocup move ``7,7`` is ``h8``, the centre of a 15x15 board.

State encoding: two bitboards, black's stones (the first player) and white's, in the layout
of ``yipan.games.grid``: row-major, with one empty sentinel column on the right, so a shift
never carries a line across the board's edge::

    bit of (x, y) = y * (size + 1) + x          5x5 board, stride 6
                                                 0  1  2  3  4 | 5
    A run of five along direction d              6  7  8  9 10 | 11
    (1 across, stride down, stride + 1 and      12 13 14 15 16 | 17
    stride - 1 diagonally) starts wherever       ...
    b & b>>d & b>>2d & b>>3d & b>>4d  is set.

Rules: ``freestyle`` (five or more in a row wins) and ``standard`` (exactly five wins; an
overline of six or more does not). A full board with no five is a draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ...core import (
    DRAW,
    Game,
    GameInfo,
    GameOptionError,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
)
from ..grid import Grid, grid_view, render_board

RULES = ("freestyle", "standard")
MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 7, 22, 15


class Stones(NamedTuple):
    """Black's stones (who moves first) and white's, as bitboards (layout in the module doc)."""

    black: int
    white: int


class Gomoku(Game[Stones, int]):
    """Gomoku: players alternately place a stone; five in a row (by ``rule``) wins."""

    player_names = ("black", "white")

    def __init__(self, size: int = DEFAULT_SIZE, rule: str = "freestyle") -> None:
        size = int(size)
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GameOptionError(f"board size {size} is out of range ({MIN_SIZE}..{MAX_SIZE})")
        if rule not in RULES:
            raise GameOptionError(f"unknown rule {rule!r} (rules: {', '.join(RULES)})")
        self.size = size
        self.rule = rule
        self.exact_five = rule == "standard"
        self.grid = Grid.of(size, size)
        self.stride = self.grid.stride
        self.full = self.grid.full
        self.directions = self.grid.directions
        self._bits = self.grid.cells  # the bit of each point: point y * size + x is cell (y, x)
        self.info = GameInfo(
            name="gomoku",
            title=f"Gomoku {size}x{size} ({rule})",
            heuristic=True,
            move_ordering=True,
            grid=(size, size),
            max_moves=size * size,
        )

    # -- geometry ------------------------------------------------------------------------------
    def point(self, x: int, y: int) -> int:
        return y * self.size + x

    def xy(self, point: int) -> tuple[int, int]:
        """(x, y) of a point: column from the left, row from the top (Gomocup's order)."""
        y, x = divmod(point, self.size)
        return x, y

    def bit(self, point: int) -> int:
        return self._bits[point]

    def stones_of(self, state: Stones, player: int) -> int:
        return state.black if player == 0 else state.white

    # -- rules ---------------------------------------------------------------------------------
    def initial_state(self) -> Stones:
        return Stones(0, 0)

    def to_move(self, state: Stones) -> int:
        return 0 if state.black.bit_count() == state.white.bit_count() else 1

    def legal_moves(self, state: Stones) -> list[int]:
        if self.outcome(state) is not None:
            return []
        taken = state.black | state.white
        return [p for p, bit in enumerate(self._bits) if not taken >> bit & 1]

    def play(self, state: Stones, move: int) -> Stones:
        black, white = state
        if black.bit_count() == white.bit_count():
            return Stones(black | 1 << self._bits[move], white)
        return Stones(black, white | 1 << self._bits[move])

    def fives(self, stones: int, direction: int) -> int:
        """The start bits of the fives along ``direction`` that win by this game's rule."""
        fives = self.grid.runs(stones, 5, direction)
        if not fives or not self.exact_five:
            return fives
        sixes = self.grid.runs(stones, 6, direction)
        # a five starting at s belongs to an overline if a six starts at s or at s - d
        return fives & ~sixes & ~(sixes << direction)

    def has_five(self, stones: int) -> bool:
        """Five in a row by this game's rule (exactly five under ``standard``)."""
        if not self.exact_five:
            return self.grid.has_run(stones, 5)
        runs = self.grid.runs
        for d in self.directions:  # ``fives`` written out: ``outcome`` calls this each position
            fives = runs(stones, 5, d)
            if fives:
                sixes = runs(stones, 6, d)
                if fives & ~sixes & ~(sixes << d):
                    return True
        return False

    def five_cells(self, stones: int) -> int:
        """Every stone of a winning five (of the whole overline, under ``freestyle``)."""
        cells = 0
        for d in self.directions:
            cells |= self.grid.spread(self.fives(stones, d), 5, d)
        return cells

    def outcome(self, state: Stones) -> Outcome | None:
        black, white = state
        if self.has_five(black):
            return Outcome(0)
        if self.has_five(white):
            return Outcome(1)
        if black | white == self.full:
            return DRAW
        return None

    def play_checked(self, state: Stones, move: int) -> Stones:
        if not (isinstance(move, int) and 0 <= move < self.size * self.size):
            raise InvalidMoveError(f"{move!r} is not a point of this board")
        if (state.black | state.white) >> self.bit(move) & 1:
            raise IllegalMoveError(f"point {self.format_move(move)} is taken")
        return super().play_checked(state, move)

    # -- notation ------------------------------------------------------------------------------
    def format_move(self, move: int) -> str:
        x, y = self.xy(move)
        return self.grid.format(y, x)

    def parse_move(self, state: Stones | None, text: str) -> int:
        """``h8``: column letter, row number from the top (Gomocup's x,y = 7,7 is h8; the
        brain protocol converts its own coordinates, so players meet one notation only)."""
        y, x = self.grid.parse(text.strip(), noun="point")
        return self.point(x, y)

    def cell(self, state: Stones, x: int, y: int) -> int | None:
        """The player (0 black, 1 white) whose stone is on (x, y), or None."""
        bit = y * self.stride + x
        return 0 if state.black >> bit & 1 else 1 if state.white >> bit & 1 else None

    def render(self, state: Stones) -> str:
        return render_board(self.grid, self.grid.owners(*state), "XO")

    def view(self, state: Stones) -> dict:
        """The grid of stones; the winning five highlighted."""
        outcome = self.outcome(state)
        playable = self.full & ~(state.black | state.white) if outcome is None else 0
        winner = None if outcome is None else outcome.winner
        highlight = 0 if winner is None else self.five_cells(self.stones_of(state, winner))
        return grid_view(self.grid, self.grid.owners(*state), playable=playable,
                         pieces="stones", highlight=highlight)

    # -- heuristic and ordering, for the generic engine (the fast engine has its own) ----------
    def evaluate(self, state: Stones) -> float:
        """The pattern evaluation of the fast engine, for the side to move."""
        from .engine import static_evaluation

        return static_evaluation(self, state)

    def order_moves(self, state: Stones, moves: Sequence[int]) -> list[int]:
        """Points near stones first, by the engine's threat score; far points after."""
        from .engine import ordered_points

        return ordered_points(self, state, moves)
