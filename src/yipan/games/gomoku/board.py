"""The fast engine's board: numpy arrays kept up to date move by move by numba kernels.

Layout: a padded one-dimensional array of ``width * width`` cells, ``width = size + 10``,
with a frame of five wall cells around the board, so that every cell five steps away from a
board cell along a line is inside the array and no kernel tests bounds::

    index of (x, y) = (y + 5) * width + (x + 5)
    directions: 1 (across), width (down), width + 1 and width - 1 (diagonals)

What is kept, for each colour ``c`` (0 black, 1 white) and each cell ``q``:

- ``keys[q, d]``: the ten cells around ``q`` on direction ``d``, coded as in ``patterns``,
  as black sees them in the low 32 bits and as white sees them in the high 32 (``colour_key``;
  changed by adding or subtracting one packed code per stone placed or removed: one
  read-modify-write for both colours);
- ``shapes[c, q, d]``: ``table[c, edge[q, d], keys]`` for empty cells (a shape table a
  colour: under renju black's differs from white's; and under caro one for each place of
  the edge in the window, ``edge[q, d]``, since the edge blocks no five there: ``patterns``);
- ``level[c, q]``: the threat a stone of ``c`` on ``q`` makes (``L_*`` below) and
  ``level_count[c, L]``: how many empty cells have each level L >= 1 (occupied cells count
  as ``L_NONE``), so "can black make five?" is one read;
- ``value[c, q]``: the cell's worths to ``c``, ``worth[combination of its four shapes]``
  (``worth_table``: fitted from the engine's games where they show it, else the shapes'
  worths and the level's bonus), two in one number: in the low 32 bits its worth when ``c``
  is to move, in the high 32 bits its worth in tenths when ``c`` waits (a cell is worth
  less to the side that must first answer); and ``total[c]``: the sum over empty cells,
  both halves in one addition (kept incrementally; ``evaluate`` weighs the mover's low half
  against the waiting side's high half);
- ``near[q]``: stones within two cells (the candidate moves are empty cells near stones);
- ``bounds[k]``: the rows and columns the first ``k`` stones of ``stack`` span (first row,
  last row, first column, last column, padded): the candidates lie within two of them;
- ``hash[0]``: the Zobrist hash of the position;
- ``undo``: what placing each stone changed (one row a cell and colour whose shape changed:
  ``q * 8 + colour * 4 + d``, then the old shape, level and worth), the rows of the stone
  ``stack[k]`` from ``undo_from[k]`` to the next stone's; so that taking back the last stone
  puts the old values back instead of reading the tables again. ``logged[k] = 0`` when
  those rows no longer describe the board (a stone taken back out of order: the stones
  under it are then taken back by the tables).
"""

from __future__ import annotations

from collections import namedtuple
from itertools import combinations_with_replacement, product

import numpy as np
from numba import njit

from ...native_struct import ArrayStruct, array_struct
from .patterns import (
    FIVE,
    FOUR,
    FOUR_FOUR,
    OPEN_FOUR,
    OPEN_THREE,
    OVERLINE,
    POWERS_OF_3,
    WINDOW,
    edge_tables,
)
from .worths import FITTED_WAITING_WORTH, FITTED_WORTH

EMPTY, WALL = 0, 3  # cells hold 0 empty, 1 black, 2 white, 3 wall
PAD = WINDOW

# threat levels of a cell for one colour (a stone there makes ...); L_FORBIDDEN: renju's
# black may not play there (an overline, two fours, or two open threes, counted on the shapes:
# the engine's threes do not ask whether their completing point is forbidden, so it forbids
# a little more than the rules do; ``Engine`` checks its own moves by the rules)
L_NONE, L_THREE, L_DOUBLE_THREE, L_FOUR, L_FOUR_THREE, L_OPEN_FOUR, L_FIVE, L_FORBIDDEN = \
    range(8)
LEVELS = 8
LEVEL_NAMES = ("none", "three", "double three", "four", "four-three", "open four", "five",
               "forbidden")

# the worth of each shape to the side that would make it (index: shape)
SHAPE_WORTH = np.array([0, 6, 8, 29, 0, 47, 1500, 10000, 1500, 0], dtype=np.int64)
LEVEL_BONUS = np.array([0, 84, 315, 74, 502, 1500, 0, 0], dtype=np.int64)
SHAPES = len(SHAPE_WORTH)

BoardArrays = namedtuple("BoardArrays", [
    "cells", "keys", "shapes", "level", "level_count", "value", "total", "near", "hash",
    "zobrist", "table", "edge", "points", "stack", "bounds", "undo", "undo_from", "logged",
    "worth", "meta",
])
# meta: [size, width, renju (0/1: black has forbidden points), stones on the board, rows of
# ``undo`` in use, caro (0/1: a five blocked at both ends is none)]
SIZE, WIDTH, RENJU, STONES, UNDO_TOP, CARO = range(6)
UNDO_ROWS_A_STONE = 2 * 4 * 2 * WINDOW  # colours x directions x cells on a line


class Board(ArrayStruct):
    """The board the kernels take: its arrays in one struct, read by name from Python too."""


@array_struct(Board, BoardArrays._fields)
@njit(cache=True)
def _board_struct(arrays: BoardArrays) -> Board:
    return Board(*arrays)


def rule_tables(rule: str) -> np.ndarray:
    """The shape tables of black and white under ``rule`` (``rules.RULES``), stacked:
    ``[colour, edge place, key]``."""
    exact = rule in ("standard", "caro-exact")
    caro = rule in ("caro", "caro-exact")
    white = edge_tables(exact, caro)
    black = edge_tables(True, False, True) if rule == "renju" else white
    return np.stack([black, white])


def edge_places(cells: np.ndarray, width: int, caro: bool) -> np.ndarray:
    """``edge[q, d]``: which of caro's tables serves cell q on direction d (0 elsewhere)."""
    edge = np.zeros((cells.size, 4), dtype=np.int8)
    if not caro:
        return edge
    for q in np.flatnonzero(cells != WALL):
        for d, step in enumerate((1, width, width + 1, width - 1)):
            left = right = 1
            while left < 6 and cells[q - left * step] != WALL:
                left += 1
            while right < 6 and cells[q + right * step] != WALL:
                right += 1
            edge[q, d] = (left - 1) * 6 + right - 1
    return edge


def new_board(size: int, rule: str) -> Board:
    """An empty board of ``size`` under ``rule`` (arrays allocated here, then updated by the
    kernels)."""
    board = Board.of(board_arrays(size, rule))
    initialise(board)
    return board


def board_arrays(size: int, rule: str) -> BoardArrays:
    """The arrays of an empty board before ``initialise`` reads its lines."""
    width = size + 2 * PAD
    cells = np.full(width * width, WALL, dtype=np.int8)
    points = np.empty(size * size, dtype=np.int32)
    for y in range(size):
        for x in range(size):
            index = (y + PAD) * width + x + PAD
            cells[index] = EMPTY
            points[y * size + x] = index
    zobrist = np.random.default_rng(0x59495041).integers(
        1, 2**63, size=(2, width * width), dtype=np.int64).astype(np.uint64)
    return BoardArrays(
        cells=cells,
        keys=np.zeros((width * width, 4), dtype=np.int64),
        shapes=np.zeros((2, width * width, 4), dtype=np.int8),
        level=np.zeros((2, width * width), dtype=np.int8),
        level_count=np.zeros((2, LEVELS), dtype=np.int32),
        value=np.zeros((2, width * width), dtype=np.int64),
        total=np.zeros(2, dtype=np.int64),
        near=np.zeros(width * width, dtype=np.int16),
        hash=np.zeros(1, dtype=np.uint64),
        zobrist=zobrist,
        table=rule_tables(rule),
        edge=edge_places(cells, width, rule in ("caro", "caro-exact")),
        points=points,
        stack=np.zeros(size * size, dtype=np.int32),
        bounds=np.array([[width, -1, width, -1]] * (size * size + 1), dtype=np.int64),
        undo=np.zeros((size * size * UNDO_ROWS_A_STONE, 4), dtype=np.int64),
        undo_from=np.zeros(size * size, dtype=np.int64),
        logged=np.zeros(size * size, dtype=np.int8),
        worth=WORTH_TABLE,  # (read only: every board shares it)
        meta=np.array([size, width, int(rule == "renju"), 0, 0,
                       int(rule in ("caro", "caro-exact"))], dtype=np.int64),
    )


@njit(cache=True)
def directions(width: int) -> tuple:
    return (1, width, width + 1, width - 1)


@njit(cache=True)
def window_index(offset: int) -> int:
    """Position in a key of the cell ``offset`` steps from the centre (offset != 0)."""
    return offset + WINDOW if offset < 0 else offset + WINDOW - 1


KEY_BITS = 32  # each colour's key (< 3 ** 10) in one half of an int64


@njit(cache=True)
def colour_key(packed: int, colour: int) -> int:
    """Colour ``colour``'s key of a packed ``keys`` entry."""
    return (packed >> (KEY_BITS * colour)) & 0xFFFFFFFF


@njit(cache=True)
def cell_level(shapes: np.ndarray, forbid: bool) -> int:
    """The threat level of four directional shapes together (``forbid``: renju's black).

    The same reckoning as ``_update_lines`` and ``refresh`` (which have it written out)."""
    fours = 0
    straight = 0
    open_threes = 0
    overline = False
    for d in range(4):
        shape = shapes[d]
        if shape == FIVE:
            return L_FIVE
        if shape == OPEN_FOUR:
            straight += 1
        elif shape == FOUR:
            fours += 1
        elif shape == FOUR_FOUR:
            fours += 2
        elif shape == OPEN_THREE:
            open_threes += 1
        elif shape == OVERLINE:
            overline = True
    if forbid and (overline or fours + straight >= 2 or open_threes >= 2):
        return L_FORBIDDEN
    if straight or fours >= 2:  # two five-cells: fours on two lines never share theirs
        return L_OPEN_FOUR
    if fours == 1:
        return L_FOUR_THREE if open_threes else L_FOUR
    if open_threes >= 2:
        return L_DOUBLE_THREE
    return L_THREE if open_threes else L_NONE


def formula_worth(shapes: tuple[int, ...]) -> int:
    """A cell's worth by the hand-set reckoning: its shapes' worths and its level's bonus."""
    level = cell_level.py_func(np.array(shapes), False)
    return int(sum(SHAPE_WORTH[shape] for shape in shapes) + LEVEL_BONUS[level])


WORTH_BITS = 32  # a packed worth: to move in the low bits, waiting (tenths) above
MOVING_WORTH = (1 << WORTH_BITS) - 1


def worth_table(fitted: dict[tuple[int, ...], int],
                fitted_waiting: dict[tuple[int, ...], int] | None = None) -> np.ndarray:
    """A cell's worths to a colour by its four shapes (index ``((s0 * 10 + s1) * 10 + s2) *
    10 + s3``, directions in ``directions``' order), packed as ``value`` keeps them. To move:
    ``fitted``'s worth of the shapes as a set (sorted), else ``formula_worth``; waiting, in
    tenths: ``fitted_waiting``'s, else nine times that (the hand-set 9/10). One lookup a
    cell, and the worth of a combination of shapes (two open twos, a three beside a two) is
    its own number, not a sum."""
    waiting_fitted = fitted_waiting or {}
    worth: dict[tuple[int, ...], int] = {}
    for combination in combinations_with_replacement(range(SHAPES), 4):
        moving = fitted.get(combination, formula_worth(combination))
        waiting = waiting_fitted.get(combination, 9 * moving)
        worth[combination] = moving | (waiting << WORTH_BITS)
    table = np.array([worth[tuple(sorted(shapes))]
                      for shapes in product(range(SHAPES), repeat=4)], dtype=np.int64)
    table.setflags(write=False)
    return table


WORTH_TABLE = worth_table(FITTED_WORTH, FITTED_WAITING_WORTH)


@njit(cache=True)
def refresh(board: Board, q: int) -> None:
    """Recompute shapes, level and worth of cell ``q`` for both colours from its keys.

    Written out in one body with each array read once from the struct (a field read counts
    a reference, and ``place`` and ``remove`` call this once a stone): the same reckoning
    as ``cell_level``."""
    empty = board.cells[q] == EMPTY
    shapes, table, edge, keys = board.shapes, board.table, board.edge, board.keys
    levels, level_count, value, total = board.level, board.level_count, board.value, \
        board.total
    renju = board.meta[RENJU] == 1
    worth_of = board.worth
    for c in range(2):
        combination = 0
        level = L_NONE
        if empty:
            fours = 0
            straight = 0
            open_threes = 0
            five = False
            overline = False
            for d in range(4):
                shape = table[c, edge[q, d], (keys[q, d] >> (KEY_BITS * c)) & 0xFFFFFFFF]
                shapes[c, q, d] = shape
                combination = combination * SHAPES + shape
                if shape == FIVE:
                    five = True
                elif shape == OPEN_FOUR:
                    straight += 1
                elif shape == FOUR:
                    fours += 1
                elif shape == FOUR_FOUR:
                    fours += 2
                elif shape == OPEN_THREE:
                    open_threes += 1
                elif shape == OVERLINE:
                    overline = True
            if five:
                level = L_FIVE
            elif renju and c == 0 and (overline or fours + straight >= 2 or open_threes >= 2):
                level = L_FORBIDDEN
            elif straight or fours >= 2:
                level = L_OPEN_FOUR
            elif fours == 1:
                level = L_FOUR_THREE if open_threes else L_FOUR
            elif open_threes >= 2:
                level = L_DOUBLE_THREE
            elif open_threes:
                level = L_THREE
        else:
            for d in range(4):
                shapes[c, q, d] = 0
        level_count[c, levels[c, q]] -= 1
        levels[c, q] = level
        level_count[c, level] += 1
        worth = 0 if level == L_FORBIDDEN else worth_of[combination]
        total[c] += worth - value[c, q]
        value[c, q] = worth


@njit(cache=True)
def initialise(board: Board) -> None:
    """Keys of every board cell read from the cells (used once, on an empty board)."""
    width = board.meta[WIDTH]
    dirs = directions(width)
    board.level_count[:, :] = 0
    for q in board.points:
        board.level_count[0, 0] += 1
        board.level_count[1, 0] += 1
        for d in range(4):
            packed = 0
            for c in range(2):
                key = 0
                for offset in range(-WINDOW, WINDOW + 1):
                    if offset == 0:
                        continue
                    cell = board.cells[q + offset * dirs[d]]
                    code = 0 if cell == EMPTY else 1 if cell == c + 1 else 2
                    key += code * POWERS_OF_3[window_index(offset)]
                packed += key << (KEY_BITS * c)
            board.keys[q, d] = packed
        refresh(board, np.int64(q))


@njit(cache=True)
def _update_lines(board: Board, m: int, colour: int, sign: int) -> None:
    """The keys, shapes, levels and worth of the cells on the four lines through ``m``; when
    placing (``sign`` 1), the old values of what changes go to ``undo``.

    The hottest loop of the engine, written out in one body (no calls).
    """
    width = board.meta[WIDTH]
    undo = board.undo
    top = board.meta[UNDO_TOP]
    renju = board.meta[RENJU] == 1
    cells, keys, shapes, table, edge = (board.cells, board.keys, board.shapes, board.table,
                                        board.edge)
    level_of, level_count, value, total = board.level, board.level_count, board.value, board.total
    worth_of = board.worth
    # a stone is code 1 in its colour's key and 2 in the other's: both in one addition
    codes = (1 << (KEY_BITS * colour)) + (2 << (KEY_BITS * (1 - colour)))
    for d in range(4):
        step = 1 if d == 0 else width if d == 1 else width + 1 if d == 2 else width - 1
        for side in (-1, 1):
            for distance in range(1, WINDOW + 1):
                q = m + side * distance * step
                if cells[q] == WALL:
                    break
                offset = -side * distance
                index = offset + WINDOW if offset < 0 else offset + WINDOW - 1
                keys[q, d] += sign * POWERS_OF_3[index] * codes
                if cells[q] != EMPTY:
                    continue
                both = keys[q, d]
                for c in range(2):
                    shape = table[c, edge[q, d], (both >> (KEY_BITS * c)) & 0xFFFFFFFF]
                    if shape == shapes[c, q, d]:
                        continue  # (most cells of a line: nothing else of theirs changes)
                    if sign == 1:
                        undo[top, 0] = q * 8 + c * 4 + d
                        undo[top, 1] = shapes[c, q, d]
                        undo[top, 2] = level_of[c, q]
                        undo[top, 3] = value[c, q]
                        top += 1
                    shapes[c, q, d] = shape
                    combination = 0
                    fours = 0
                    straight = 0
                    open_threes = 0
                    five = False
                    overline = False
                    for e in range(4):
                        shape = shapes[c, q, e]
                        combination = combination * SHAPES + shape
                        if shape == FIVE:
                            five = True
                        elif shape == OPEN_FOUR:
                            straight += 1
                        elif shape == FOUR:
                            fours += 1
                        elif shape == FOUR_FOUR:
                            fours += 2
                        elif shape == OPEN_THREE:
                            open_threes += 1
                        elif shape == OVERLINE:
                            overline = True
                    if five:
                        level = L_FIVE
                    elif renju and c == 0 and (overline or fours + straight >= 2
                                               or open_threes >= 2):
                        level = L_FORBIDDEN
                    elif straight or fours >= 2:
                        level = L_OPEN_FOUR
                    elif fours == 1:
                        level = L_FOUR_THREE if open_threes else L_FOUR
                    elif open_threes >= 2:
                        level = L_DOUBLE_THREE
                    else:
                        level = L_THREE if open_threes else L_NONE
                    level_count[c, level_of[c, q]] -= 1
                    level_of[c, q] = level
                    level_count[c, level] += 1
                    worth = 0 if level == L_FORBIDDEN else worth_of[combination]
                    total[c] += worth - value[c, q]
                    value[c, q] = worth
    board.meta[UNDO_TOP] = top
    near = board.near
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            near[m + dy * width + dx] += sign


# Every caller passes points as int64 (numba compiles a kernel once per argument type, and
# these two carry the whole incremental update: a test checks there is one version of each).
@njit(cache=True)
def place(board: Board, m: int, colour: int) -> None:
    """Put a stone of ``colour`` (0 black, 1 white) on the empty cell ``m``."""
    board.cells[m] = colour + 1
    board.hash[0] ^= board.zobrist[colour, m]
    stones = board.meta[STONES]
    board.stack[stones] = m
    board.undo_from[stones] = board.meta[UNDO_TOP]
    board.logged[stones] = 1
    board.meta[STONES] += 1
    _extend_bounds(board, stones, m)
    refresh(board, m)
    _update_lines(board, m, colour, np.int64(1))  # (not a literal: one compiled version)


@njit(cache=True)
def _extend_bounds(board: Board, k: int, m: int) -> None:
    """``bounds[k + 1]``: those of the first ``k`` stones and ``m``."""
    width = board.meta[WIDTH]
    row, column = m // width, m % width
    before, after = board.bounds[k], board.bounds[k + 1]
    after[0] = min(before[0], row)
    after[1] = max(before[1], row)
    after[2] = min(before[2], column)
    after[3] = max(before[3], column)


@njit(cache=True)
def remove(board: Board, m: int) -> None:
    """Take the stone off ``m`` (the exact inverse of ``place``)."""
    colour = np.int64(board.cells[m] - 1)
    board.cells[m] = EMPTY
    board.hash[0] ^= board.zobrist[colour, m]
    board.meta[STONES] -= 1
    stones = board.meta[STONES]
    if board.stack[stones] == m and board.logged[stones]:
        _take_back_lines(board, m, colour, board.undo_from[stones])
    else:  # out of order: the stack closes up, and what was logged describes the past
        at = 0
        while board.stack[at] != m:
            at += 1
        for k in range(at, stones):
            board.stack[k] = board.stack[k + 1]
            _extend_bounds(board, k, np.int64(board.stack[k]))
        board.logged[:stones] = 0
        board.meta[UNDO_TOP] = 0
        _update_lines(board, m, colour, np.int64(-1))
    refresh(board, m)


@njit(cache=True)
def _take_back_lines(board: Board, m: int, colour: int, start: int) -> None:
    """``_update_lines`` undone for the last stone placed: its keys taken off the lines, and
    the shapes, levels and worth its placing changed put back from ``undo`` (from ``start``).
    """
    width = board.meta[WIDTH]
    cells, keys = board.cells, board.keys
    codes = (1 << (KEY_BITS * colour)) + (2 << (KEY_BITS * (1 - colour)))
    for d in range(4):
        step = 1 if d == 0 else width if d == 1 else width + 1 if d == 2 else width - 1
        for side in (-1, 1):
            for distance in range(1, WINDOW + 1):
                q = m + side * distance * step
                if cells[q] == WALL:
                    break
                offset = -side * distance
                index = offset + WINDOW if offset < 0 else offset + WINDOW - 1
                keys[q, d] -= POWERS_OF_3[index] * codes
    undo, shapes, level_of, level_count = board.undo, board.shapes, board.level, board.level_count
    value, total = board.value, board.total
    for row in range(start, board.meta[UNDO_TOP]):
        packed = undo[row, 0]
        q = packed >> 3
        c = (packed >> 2) & 1
        shapes[c, q, packed & 3] = undo[row, 1]
        level_count[c, level_of[c, q]] -= 1
        level_of[c, q] = undo[row, 2]
        level_count[c, undo[row, 2]] += 1
        total[c] += undo[row, 3] - value[c, q]
        value[c, q] = undo[row, 3]
    board.meta[UNDO_TOP] = start
    near = board.near
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            near[m + dy * width + dx] -= 1


@njit(cache=True)
def find_level(board: Board, colour: int, level: int) -> int:
    """The first empty cell where ``colour`` reaches ``level`` (or -1)."""
    cells, levels = board.cells, board.level  # (read once: see ``generate``)
    for q in board.points:
        if cells[q] == EMPTY and levels[colour, q] == level:
            return q
    return -1


@njit(cache=True)
def stops_open_fours(board: Board, q: int, defender: int) -> bool:
    """Whether a stone of ``defender`` on the empty cell ``q`` would leave the other side no
    open four (nor two fours) to make: every cell where they make one lies on a line through
    ``q`` within ``WINDOW`` (elsewhere the stone changes none of their shapes), or is ``q``
    itself, and its shape on that line, read again in the table with the stone added to its
    key, leaves it less. Exact, without placing the stone, where no point is forbidden (under
    renju a stone could also turn a forbidden point of black's into an open four, which this
    does not read: it serves caro).

    Under caro a stone can do that without standing where they would make a four: beyond
    the end of their five-to-be, it leaves that five blocked at both ends; so caro's
    defences are found this way, and the other rules' by shape alone."""
    attacker = 1 - defender
    threats = board.level_count[attacker, L_OPEN_FOUR]
    if threats == 0:
        return False
    width = board.meta[WIDTH]
    cells, levels, keys, shapes, table, edge = (board.cells, board.level, board.keys,
                                                board.shapes, board.table, board.edge)
    stopped = 1 if levels[attacker, q] == L_OPEN_FOUR else 0
    for d in range(4):
        step = 1 if d == 0 else width if d == 1 else width + 1 if d == 2 else width - 1
        for side in (-1, 1):
            for distance in range(1, WINDOW + 1):
                p = q + side * distance * step
                if cells[p] == WALL:
                    break
                if cells[p] != EMPTY or levels[attacker, p] != L_OPEN_FOUR:
                    continue
                # the stone seen from p, as ``_update_lines`` adds it: code 2 in their key
                offset = -side * distance
                index = offset + WINDOW if offset < 0 else offset + WINDOW - 1
                key = ((keys[p, d] >> (KEY_BITS * attacker)) & 0xFFFFFFFF) \
                    + 2 * POWERS_OF_3[index]
                fours = 0
                straight = False
                for e in range(4):
                    shape = table[attacker, edge[p, d], key] if e == d \
                        else shapes[attacker, p, e]
                    if shape in (OPEN_FOUR, FIVE):
                        straight = True
                    elif shape == FOUR:
                        fours += 1
                    elif shape == FOUR_FOUR:
                        fours += 2
                if straight or fours >= 2:
                    return False  # (this one is still there)
                stopped += 1
    return stopped == threats


@njit(cache=True)
def caro_defences(board: Board, defender: int) -> tuple[np.ndarray, int]:
    """Under caro, the empty cells (and how many) where ``defender`` stops every open four
    of the other side without making a four or standing where they make one (those are
    found by shape): a stone beyond the end of their five-to-be, which leaves it blocked at
    both ends. Only cells on the lines through one of their open-four points along which
    they make a four can (a defence must stop that one too); each is tried with
    ``stops_open_fours``."""
    attacker = 1 - defender
    found = np.empty(8 * WINDOW, dtype=np.int64)
    if board.level_count[attacker, L_OPEN_FOUR] == 0:
        return found, 0
    p = find_level(board, attacker, np.int64(L_OPEN_FOUR))
    width = board.meta[WIDTH]
    cells, levels, shapes = board.cells, board.level, board.shapes
    count = 0
    for d in range(4):
        if shapes[attacker, p, d] < FOUR:
            continue
        step = 1 if d == 0 else width if d == 1 else width + 1 if d == 2 else width - 1
        for side in (-1, 1):
            for distance in range(1, WINDOW + 1):
                q = p + side * distance * step
                if cells[q] == WALL:
                    break
                if cells[q] != EMPTY or levels[defender, q] >= L_FOUR:
                    continue
                theirs = False
                for e in range(4):
                    if shapes[attacker, q, e] >= FOUR:
                        theirs = True
                        break
                if not theirs and stops_open_fours(board, np.int64(q), np.int64(defender)):
                    found[count] = q
                    count += 1
    return found, count


LIKELY_WIN = 50_000  # a won race by the threat classes, not proved: far below WIN's values


@njit(cache=True)
def evaluate(board: Board, me: int) -> int:
    """Static value for ``me`` to move: my cells' worth to the side to move against theirs to
    the side waiting (which weighs less, since I move first), and the tempo of the threat
    classes: with a four-three or a double three to play while the opponent cannot make a
    single four, the race is mine (the four or one of the threes goes through), so the leaf
    is worth ``LIKELY_WIN`` more."""
    them = 1 - me
    counts = board.level_count
    value = int(board.total[me] & MOVING_WORTH) - int(board.total[them] >> WORTH_BITS) // 10
    their_fours = counts[them, L_FOUR] + counts[them, L_FOUR_THREE] + counts[them, L_OPEN_FOUR]
    if their_fours == 0 and (counts[me, L_FOUR_THREE] > 0 or counts[me, L_DOUBLE_THREE] > 0):
        value += LIKELY_WIN
    return value

