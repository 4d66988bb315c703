"""What a network sees of a Connect Four position: stones and the threats they make.

A network given the stones alone must find every four-in-a-row threat itself, and on the
positions we can label it did not learn to (73% optimal moves from 90,000 positions). The
threats are what the game turns on (whoever holds the lower threat in a column, on the row
of the right parity, wins the endgame), and they are cheap to compute, so they are planes of
the input. Twelve planes of ``height x width``, row 0 at the top, each seen from the side to
move ("mine"), in this order::

     0 my stones               1 the opponent's stones
     2 my threats              3 the opponent's threats  (empty cells that complete a four)
     4 playable cells (the lowest empty cell of each column)
     5 all ones if the side to move is the first player (it moves on an even ply), else 0
     6 playable cells right under an opponent's threat (playing there gives it the win)
     7 playable cells right under one of my threats (playing there spoils it)
     8 my threats with no threat of either side below them in their column
     9 the same for the opponent
    10 empty cells: how many lines of four through them hold two of my stones and no
       opponent's, divided by 4 (mostly 0 to 1; a cell on many such lines, rarely, more)
    11 the same for the opponent

Every plane is computed for a whole batch at once from the lines of four (a line's cells as
indices into the flattened board), so the search's batched leaves pay once per batch.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

PLANES = 12


@functools.lru_cache(maxsize=8)
def lines_of_four(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The lines of four as (lines, 4) flat cell indices (row-major, row 0 at the top), and
    the (lines, cells) float32 incidence matrix (1 where a line passes through a cell)."""
    lines = []
    for row in range(height):
        for col in range(width):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + k * d_row, col + k * d_col) for k in range(4)]
                if all(0 <= r < height and 0 <= c < width for r, c in cells):
                    lines.append([r * width + c for r, c in cells])
    index = np.array(lines, np.int64).reshape(-1, 4)
    incidence = np.zeros((len(index), height * width), np.float32)
    np.put_along_axis(incidence, index, 1.0, axis=1)
    return index, incidence


def planes(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """The twelve planes (module docstring) of a batch: ``mine`` and ``theirs`` are
    (batch, height, width) arrays of 0/1 (row 0 at the top); float32 (batch, 12, h, w).
    Both sides at once: axis 1 of the arrays below is the side (0 mine, 1 the opponent's)."""
    batch, height, width = mine.shape
    index, incidence = lines_of_four(height, width)
    stones = np.stack([mine.reshape(batch, -1), theirs.reshape(batch, -1)], axis=1) > 0
    empty = ~(stones[:, 0] | stones[:, 1])  # (batch, cells)
    on_line = stones[:, :, index].sum(axis=3)  # (batch, side, lines): stones on each line
    clear = on_line[:, ::-1] == 0  # no stone of the other side on the line
    # a line with three stones of one side and none of the other has one empty cell left
    chosen = np.concatenate([(on_line == 3) & clear, (on_line == 2) & clear], axis=1)
    through = chosen.astype(np.float32) @ incidence  # (batch, 4, cells): such lines a cell is on
    threats = (through[:, :2] > 0) & empty[:, None]  # (batch, side, cells)
    grid = empty.reshape(batch, height, width)
    playable_grid = grid.copy()
    playable_grid[:, :-1] &= ~grid[:, 1:]  # the cell below is filled (or it is the bottom row)
    playable = playable_grid.reshape(batch, -1)
    by_row = threats.reshape(batch, 2, height, width)
    under = np.zeros_like(by_row)  # cells right under a threat
    under[:, :, 1:] = by_row[:, :, :-1]
    under = under.reshape(batch, 2, -1)
    any_threat = by_row[:, 0] | by_row[:, 1]
    below = np.zeros_like(any_threat)  # a threat of either side lower in the column
    below[:, :-1] = np.logical_or.accumulate(any_threat[:, :0:-1], axis=1)[:, ::-1]
    out = np.empty((batch, PLANES, height * width), np.float32)
    out[:, 0:2] = stones
    out[:, 2:4] = threats
    out[:, 4] = playable
    out[:, 5] = (stones.sum(axis=(1, 2)) % 2 == 0)[:, None]  # the side to move moved first
    out[:, 6] = playable & under[:, 1]
    out[:, 7] = playable & under[:, 0]
    out[:, 8:10] = threats & ~below.reshape(batch, 1, -1)
    out[:, 10:12] = np.where(empty[:, None], through[:, 2:] / 4, 0)
    return out.reshape(batch, PLANES, height, width)


def stone_planes(currents: Sequence[int], masks: Sequence[int], cell_bits: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(mine, theirs) as (batch, h, w) uint8 arrays from the bitboards of a batch of
    positions (``cell_bits``: the bit index of each cell, row 0 at the top)."""
    current = np.array(currents, np.uint64)[:, None, None]
    theirs = current ^ np.array(masks, np.uint64)[:, None, None]
    one = np.uint64(1)
    return ((current >> cell_bits) & one).astype(np.uint8), \
        ((theirs >> cell_bits) & one).astype(np.uint8)
