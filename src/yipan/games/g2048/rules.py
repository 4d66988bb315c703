"""2048: slide the tiles of a 4x4 board; equal tiles merge; a new tile appears after each move.

The rules: a move (up, down, left, right) slides every tile as far as it goes; two equal tiles
that meet merge into one of twice the value, which adds that value to the score; a tile merges
at most once per move. A move that changes nothing is not legal. After each legal move a tile
appears on a uniformly random empty cell: a 2 with probability 0.9, a 4 with 0.1. The game starts
with two such tiles and ends when no move changes the board.

State encoding: the board is one integer of 16 four-bit cells, each holding the exponent of
its tile (0 empty, 1 for 2, 2 for 4, ... 15 for 32768)::

    cell (row r, column c) -> bits 4*(4r + c) .. 4*(4r + c) + 3

         col 0  col 1  col 2  col 3
    row 0  0-3    4-7   8-11  12-15      a row is one 16-bit number, column 0 in its
    row 1 16-19  20-23 24-27  28-31      low nibble: so a move on a row is one lookup
    row 2 32-35   ...                    in a 65536-entry table, and up/down are the
    row 3 48-51   ...          60-63     same lookups on the transposed board.

The chance of the game is explicit: ``spawns`` counts the tiles still to appear before the
player moves (2 at the start, 1 after a move, 0 when the player is to move). While it is not
zero ``to_move`` is ``CHANCE`` and ``chance_outcomes`` lists every ``Spawn`` with its probability,
so expectimax and MCTS see the same chance nodes as the rules.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np

from ...core import CHANCE, DRAW, Game, GameInfo, IllegalMoveError, InvalidMoveError, Outcome
from ...core.drawing import notebook_html
from ...core.text import quote

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
MOVE_NAMES = ("up", "down", "left", "right")
KEYS = {"w": UP, "s": DOWN, "a": LEFT, "d": RIGHT}  # the usual keys: w/a/s/d as arrows
ARROW_KEYS = {"\x1b[A": "up", "\x1b[B": "down", "\x1b[C": "right", "\x1b[D": "left"}
"""What a terminal sends for the arrow keys (typed, then Enter)."""

SIZE = 4
CELLS = SIZE * SIZE
FOUR_PROBABILITY = 0.1
MAX_EXPONENT = 15  # a nibble's limit: two 32768 tiles do not merge (never reached in practice)
COLUMN_LETTERS = "abcd"


class Spawn(NamedTuple):
    """A chance outcome: a tile of value ``2**exponent`` appears on ``cell`` (0..15)."""

    cell: int
    exponent: int


class State2048(NamedTuple):
    """The board (16 nibbles, drawn in the module docstring), the score, tiles still to spawn."""

    board: int
    score: int
    spawns: int

    def _repr_html_(self) -> str:
        """Drawn in a notebook."""
        return notebook_html("2048", self)


# -- one row -------------------------------------------------------------------------------------
def slide_row_left(cells: Sequence[int]) -> tuple[list[int], int]:
    """Slide a row's exponents towards index 0, merging equal pairs once; returns (row, score).

    The rule of the game on one line: ``[1, 1, 1, 1]`` (2 2 2 2) becomes ``[2, 2, 0, 0]``
    (4 4 . .) and scores 8; ``[2, 1, 1, 0]`` becomes ``[2, 2, 0, 0]``, not ``[3, 0, 0, 0]``.
    """
    tiles = [c for c in cells if c]
    out: list[int] = []
    score = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1] and tiles[i] < MAX_EXPONENT:
            out.append(tiles[i] + 1)
            score += 1 << (tiles[i] + 1)
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(cells) - len(out)), score


def unpack_row(row: int) -> list[int]:
    return [row >> (4 * c) & 0xF for c in range(SIZE)]


def pack_row(cells: Sequence[int]) -> int:
    return sum(e << (4 * c) for c, e in enumerate(cells))


# -- heuristic on one line -------------------------------------------------------------------------
# Weights of a well-known 2048 expectimax player, tuned by its author over many games.
LOST_PENALTY = 200_000.0
MONOTONICITY_POWER = 4.0
MONOTONICITY_WEIGHT = 47.0
SUM_POWER = 3.5
SUM_WEIGHT = 11.0
MERGES_WEIGHT = 700.0
EMPTY_WEIGHT = 270.0


def line_heuristic(cells: Sequence[int]) -> float:
    """The heuristic of one row or column (the board's is the sum over its 4 rows and 4 columns).

    Rewards empty cells and adjacent equal tiles (smoothness: merges to come); penalises lines
    that are not monotonic (so the big tiles gather along an edge and in a corner) and the
    sum of big tiles left on the board. ``LOST_PENALTY`` keeps every board's value positive.
    """
    empty = merges = 0
    previous = counter = 0
    total = 0.0
    for rank in cells:
        total += rank ** SUM_POWER
        if rank == 0:
            empty += 1
        else:
            if previous == rank:
                counter += 1
            elif counter > 0:
                merges += 1 + counter
                counter = 0
            previous = rank
    if counter > 0:
        merges += 1 + counter
    towards_left = towards_right = 0.0
    for a, b in zip(cells, cells[1:], strict=False):
        if a > b:
            towards_left += a ** MONOTONICITY_POWER - b ** MONOTONICITY_POWER
        else:
            towards_right += b ** MONOTONICITY_POWER - a ** MONOTONICITY_POWER
    return (LOST_PENALTY + EMPTY_WEIGHT * empty + MERGES_WEIGHT * merges
            - MONOTONICITY_WEIGHT * min(towards_left, towards_right) - SUM_WEIGHT * total)


@dataclass(frozen=True)
class RowTables:
    """Lookup tables over all 65536 rows (read-only numpy arrays, shared with the kernels).

    ``left[row]``/``right[row]``: the row after sliding; ``score``: the points a slide left
    scores (``score_right`` for right); ``heuristic``: ``line_heuristic`` of the row.
    """

    left: np.ndarray
    right: np.ndarray
    score_left: np.ndarray
    score_right: np.ndarray
    heuristic: np.ndarray


@cache
def row_tables() -> RowTables:
    """Build the tables once per process (about half a second in pure Python)."""
    n = 1 << 16
    left = np.zeros(n, np.uint64)
    right = np.zeros(n, np.uint64)
    score_left = np.zeros(n, np.int64)
    score_right = np.zeros(n, np.int64)
    heuristic = np.zeros(n, np.float64)
    for row in range(n):
        cells = unpack_row(row)
        slid, score = slide_row_left(cells)
        left[row] = pack_row(slid)
        score_left[row] = score
        slid_right, score_r = slide_row_left(cells[::-1])
        right[row] = pack_row(slid_right[::-1])
        score_right[row] = score_r
        heuristic[row] = line_heuristic(cells)
    for array in (left, right, score_left, score_right, heuristic):
        array.flags.writeable = False
    return RowTables(left, right, score_left, score_right, heuristic)


# -- whole board ----------------------------------------------------------------------------------
def transpose(board: int) -> int:
    """Swap rows and columns (cell (r, c) -> (c, r)) with three masked shifts, twice."""
    a1 = board & 0xF0F00F0FF0F00F0F
    a2 = board & 0x0000F0F00000F0F0
    a3 = board & 0x0F0F00000F0F0000
    a = a1 | (a2 << 12) | (a3 >> 12)
    b1 = a & 0xFF00FF0000FF00FF
    b2 = a & 0x00FF00FF00000000
    b3 = a & 0x00000000FF00FF00
    return b1 | (b2 >> 24) | (b3 << 24)


def slide(board: int, move: int, tables: RowTables | None = None) -> tuple[int, int]:
    """The board after a move (no spawn) and the points it scores."""
    tables = tables or row_tables()
    vertical = move in (UP, DOWN)
    work = transpose(board) if vertical else board
    towards_start = move in (UP, LEFT)  # up on the transposed board is left
    line_table = tables.left if towards_start else tables.right
    score_table = tables.score_left if towards_start else tables.score_right
    out = 0
    score = 0
    for r in range(SIZE):
        row = work >> (16 * r) & 0xFFFF
        out |= int(line_table[row]) << (16 * r)
        score += int(score_table[row])
    return (transpose(out) if vertical else out), score


def cell_exponent(board: int, cell: int) -> int:
    return board >> (4 * cell) & 0xF


def empty_cells(board: int) -> list[int]:
    return [cell for cell in range(CELLS) if not board >> (4 * cell) & 0xF]


def max_tile(board: int) -> int:
    """The largest tile's value (0 on an empty board)."""
    top = max(cell_exponent(board, cell) for cell in range(CELLS))
    return 1 << top if top else 0


def board_from_rows(rows: Sequence[Sequence[int]]) -> int:
    """A board from tile values, row 0 at the top: ``[[2, 0, 0, 0], ...]``."""
    board = 0
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value:
                exponent = int(value).bit_length() - 1
                if value != 1 << exponent or exponent < 1:
                    raise ValueError(f"{value} is not a tile value (2, 4, 8, ...)")
                board |= exponent << (4 * (SIZE * r + c))
    return board


def board_rows(board: int) -> list[list[int]]:
    """Tile values, row 0 at the top (0 for an empty cell)."""
    return [[(1 << e) if (e := cell_exponent(board, SIZE * r + c)) else 0 for c in range(SIZE)]
            for r in range(SIZE)]


def board_heuristic(board: int, tables: RowTables | None = None) -> float:
    """Sum of the line heuristic over the 4 rows and the 4 columns."""
    tables = tables or row_tables()
    columns = transpose(board)
    return float(sum(tables.heuristic[board >> (16 * r) & 0xFFFF]
                     + tables.heuristic[columns >> (16 * r) & 0xFFFF] for r in range(SIZE)))


class G2048(Game[State2048, "int | Spawn"]):
    """2048 as a one-player game against chance (rules in the module docstring)."""

    player_names = ("player", "chance")

    def __init__(self) -> None:
        self.tables = row_tables()
        self.info = GameInfo(
            name="2048",
            title="2048",
            players=1,
            zero_sum=False,
            chance=True,
            heuristic=True,
            grid=(SIZE, SIZE),
            playout=True,
        )

    # -- rules -------------------------------------------------------------------------------------
    def initial_state(self) -> State2048:
        return State2048(0, 0, 2)

    def to_move(self, state: State2048) -> int:
        return CHANCE if state.spawns else 0

    def legal_moves(self, state: State2048) -> list[int]:
        if state.spawns:
            return []
        return [m for m in (UP, DOWN, LEFT, RIGHT)
                if slide(state.board, m, self.tables)[0] != state.board]

    def play(self, state: State2048, move: int | Spawn) -> State2048:
        if state.spawns:
            cell, exponent = move  # type: ignore[misc]
            return State2048(state.board | exponent << (4 * cell), state.score, state.spawns - 1)
        board, gained = slide(state.board, move, self.tables)  # type: ignore[arg-type]
        return State2048(board, state.score + gained, 1)

    def play_checked(self, state: State2048, move: int | Spawn) -> State2048:
        if state.spawns:
            if not isinstance(move, tuple) or move not in dict(self.chance_outcomes(state)):
                raise IllegalMoveError(f"{self.format_move(move)} is not a possible new tile here")
            return self.play(state, move)
        if isinstance(move, tuple):
            raise IllegalMoveError("it is the player's turn, not a new tile's")
        return super().play_checked(state, move)

    def outcome(self, state: State2048) -> Outcome | None:
        if state.spawns:
            return None
        return None if self.legal_moves(state) else DRAW

    def chance_outcomes(self, state: State2048) -> list[tuple[Spawn, float]]:
        """Every empty cell alike; a 2 with probability 0.9, a 4 with 0.1."""
        empty = empty_cells(state.board)
        share = 1.0 / len(empty)
        return [outcome for cell in empty for outcome in (
            (Spawn(cell, 1), share * (1 - FOUR_PROBABILITY)),
            (Spawn(cell, 2), share * FOUR_PROBABILITY))]

    def sample_spawn(self, state: State2048, rng: random.Random) -> Spawn:
        """Draw the next tile as the rules do (the sampler the CLI and tests use)."""
        empty = empty_cells(state.board)
        cell = empty[rng.randrange(len(empty))]
        return Spawn(cell, 2 if rng.random() < FOUR_PROBABILITY else 1)

    def start(self, rng: random.Random) -> State2048:
        """A new game with its two starting tiles drawn."""
        state = self.initial_state()
        while state.spawns:
            state = self.play(state, self.sample_spawn(state, rng))
        return state

    # -- heuristic and playouts --------------------------------------------------------------------
    def evaluate(self, state: State2048) -> float:
        """The board heuristic, scaled by 1/10 to stay inside the heuristic range; 0 once the
        game is lost (every board in play scores above 0, as in the numba search)."""
        if not state.spawns and not self.legal_moves(state):
            return 0.0
        return board_heuristic(state.board, self.tables) / 10

    def playout(self, state: State2048, rng: random.Random) -> float:
        """Random moves and spawns to the end; the reward is the final score (a numba kernel)."""
        from .kernel import random_playout

        return float(random_playout(np.uint64(state.board), state.spawns, rng.getrandbits(63),
                                    self.tables.left, self.tables.right,
                                    self.tables.score_left, self.tables.score_right)
                     + state.score)

    # -- notation ----------------------------------------------------------------------------------
    def format_move(self, move: int | Spawn) -> str:
        if isinstance(move, tuple):
            cell, exponent = move
            row, col = divmod(cell, SIZE)
            return f"{1 << exponent}@{COLUMN_LETTERS[col]}{row + 1}"
        return MOVE_NAMES[move]

    def parse_move(self, state: State2048 | None, text: str) -> int | Spawn:
        """``up``/``down``/``left``/``right`` (or the keys w/s/a/d); a new tile as ``2@c1``."""
        text = ARROW_KEYS.get(text.strip(), text).strip().lower()
        if text in MOVE_NAMES:
            return MOVE_NAMES.index(text)
        if text in KEYS:
            return KEYS[text]
        match = re.fullmatch(r"([24])@([a-d])([1-4])", text)
        if match:
            col = COLUMN_LETTERS.index(match.group(2))
            row = int(match.group(3)) - 1
            return Spawn(SIZE * row + col, int(match.group(1)).bit_length() - 1)
        raise InvalidMoveError(f"cannot read {quote(text)}: write up, down, left or right "
                               "(a new tile: 2@a1 .. 4@d4)")

    def figures(self, state: State2048) -> dict:
        return {"score": state.score, "max_tile": max_tile(state.board)}

    def render(self, state: State2048) -> str:
        lines = [f"score {state.score}"]
        for row in board_rows(state.board):
            lines.append(" ".join(f"{v:>5}" if v else "    ." for v in row))
        return "\n".join(lines)

    def view(self, state: State2048) -> dict:
        """The tiles, row 1 at the top; the coordinates new tiles are written in (``2@c1``)."""
        return {"kind": "tiles", "rows": SIZE, "cols": SIZE,
                "cells": board_rows(state.board), "score": state.score,
                "col_labels": list(COLUMN_LETTERS[:SIZE]),
                "row_labels": [str(row + 1) for row in range(SIZE)]}
