"""The rules of Gomoku (five in a row) on a square board, as a ``Game`` over bitboards.

Coordinates follow the Gomocup protocol: ``x`` is the column (0 at the left), ``y`` the row
(0 at the top). A move is the point ``y * size + x``; it is written ``h8``: the column letter
(``a`` = x 0) and the row number counted *from the top*, starting at 1 (``8`` = y 7). So the
Gomocup move ``7,7`` is ``h8``, the centre of a 15x15 board.

State encoding: two bitboards, black's stones (the first player) and white's, in a row-major
layout with one empty sentinel column on the right, so a shift never carries a line across
the board's edge::

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

import re
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

LETTERS = "abcdefghijklmnopqrstuvwxyz"
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
        self.stride = size + 1
        self.full = sum(1 << self.bit(point) for point in range(size * size))
        self.directions = (1, self.stride, self.stride + 1, self.stride - 1)
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
        y, x = divmod(point, self.size)
        return y * self.stride + x

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
        return [p for p in range(self.size * self.size) if not taken >> self.bit(p) & 1]

    def play(self, state: Stones, move: int) -> Stones:
        black, white = state
        if black.bit_count() == white.bit_count():
            return Stones(black | 1 << self.bit(move), white)
        return Stones(black, white | 1 << self.bit(move))

    def runs_of(self, stones: int, length: int, direction: int) -> int:
        """The start bits of every run of ``length`` stones along ``direction``."""
        run = stones
        for _ in range(length - 1):
            run &= run >> direction
            if not run:
                break
        return run

    def has_five(self, stones: int) -> bool:
        """Five in a row by this game's rule (exactly five under ``standard``)."""
        for d in self.directions:
            fives = self.runs_of(stones, 5, d)
            if not fives:
                continue
            if not self.exact_five:
                return True
            sixes = self.runs_of(stones, 6, d)
            # a five starting at s belongs to an overline if a six starts at s or at s - d
            if fives & ~sixes & ~(sixes << d):
                return True
        return False

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
        return f"{LETTERS[x]}{y + 1}"

    def parse_move(self, state: Stones | None, text: str) -> int:
        """``h8`` (column letter, row number from the top) or Gomocup's ``7,7`` (x,y)."""
        text = text.strip().lower()
        last = self.format_move(self.size * self.size - 1)
        if match := re.fullmatch(r"([0-9]+)\s*,\s*([0-9]+)", text):
            x, y = int(match.group(1)), int(match.group(2))
        elif match := re.fullmatch(r"([a-z])([0-9]+)", text):
            x, y = LETTERS.index(match.group(1)), int(match.group(2)) - 1
        else:
            raise InvalidMoveError(f"cannot read {text!r}: write a point as a1..{last}")
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise InvalidMoveError(f"{text} is off the {self.size}x{self.size} board")
        return self.point(x, y)

    def cell(self, state: Stones, x: int, y: int) -> int | None:
        """The player (0 black, 1 white) whose stone is on (x, y), or None."""
        bit = y * self.stride + x
        return 0 if state.black >> bit & 1 else 1 if state.white >> bit & 1 else None

    def render(self, state: Stones) -> str:
        marks = {0: "X", 1: "O", None: "."}
        lines = ["    " + " ".join(LETTERS[x] for x in range(self.size))]
        for y in range(self.size):
            row = " ".join(marks[self.cell(state, x, y)] for x in range(self.size))
            lines.append(f"{y + 1:>3} {row}")
        return "\n".join(lines)

    def view(self, state: Stones) -> dict:
        playing = self.outcome(state) is None
        cells = [[self.cell(state, x, y) for x in range(self.size)] for y in range(self.size)]
        return {
            "kind": "grid",
            "rows": self.size,
            "cols": self.size,
            "cells": cells,
            "move_at": [[self.format_move(self.point(x, y))
                         if playing and cells[y][x] is None else None
                         for x in range(self.size)] for y in range(self.size)],
        }

    # -- heuristic and ordering, for the generic engine (the fast engine has its own) ----------
    def evaluate(self, state: Stones) -> float:
        """The pattern evaluation of the fast engine, for the side to move."""
        from .engine import static_evaluation

        return static_evaluation(self, state)

    def order_moves(self, state: Stones, moves: Sequence[int]) -> list[int]:
        """Points near stones first, by the engine's threat score; far points after."""
        from .engine import ordered_points

        return ordered_points(self, state, moves)
