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
    (batch, height, width) arrays of 0/1 (row 0 at the top); float32 (batch, 12, h, w)."""
    batch, height, width = mine.shape
    index, incidence = lines_of_four(height, width)
    me = mine.reshape(batch, -1) > 0
    them = theirs.reshape(batch, -1) > 0
    empty = ~(me | them)
    on_line_me = me[:, index].sum(axis=2)  # (batch, lines): stones of each side on each line
    on_line_them = them[:, index].sum(axis=2)

    def cells_of(lines: np.ndarray) -> np.ndarray:
        """How many of the chosen lines pass through each cell: (batch, cells)."""
        return lines.astype(np.float32) @ incidence

    # a line with three stones of one side and none of the other has one empty cell left
    my_threats = (cells_of((on_line_me == 3) & (on_line_them == 0)) > 0) & empty
    their_threats = (cells_of((on_line_them == 3) & (on_line_me == 0)) > 0) & empty
    filled = ~empty.reshape(batch, height, width)
    supported = np.ones_like(filled)
    supported[:, :-1] = filled[:, 1:]  # the cell below is filled, or it is the bottom row
    playable = (empty.reshape(batch, height, width) & supported).reshape(batch, -1)
    first_player = (me.sum(axis=1) + them.sum(axis=1)) % 2 == 0

    def above(cells: np.ndarray) -> np.ndarray:
        """Each cell marked when the cell above it is marked."""
        grid = cells.reshape(batch, height, width)
        out = np.zeros_like(grid)
        out[:, 1:] = grid[:, :-1]
        return out.reshape(batch, -1)

    threat_grid = (my_threats | their_threats).reshape(batch, height, width)
    threat_below = np.zeros_like(threat_grid)
    for row in range(height - 2, -1, -1):
        threat_below[:, row] = threat_below[:, row + 1] | threat_grid[:, row + 1]
    lowest = ~threat_below.reshape(batch, -1)
    potential_me = np.where(empty, cells_of((on_line_me == 2) & (on_line_them == 0)) / 4, 0)
    potential_them = np.where(empty, cells_of((on_line_them == 2) & (on_line_me == 0)) / 4, 0)
    stacked = [me, them, my_threats, their_threats, playable,
               np.broadcast_to(first_player[:, None], me.shape),
               playable & above(their_threats), playable & above(my_threats),
               my_threats & lowest, their_threats & lowest, potential_me, potential_them]
    return np.stack(stacked, axis=1).astype(np.float32).reshape(batch, PLANES, height, width)


def stone_planes(currents: Sequence[int], masks: Sequence[int], cell_bits: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(mine, theirs) as (batch, h, w) uint8 arrays from the bitboards of a batch of
    positions (``cell_bits``: the bit index of each cell, row 0 at the top)."""
    current = np.array(currents, np.uint64)[:, None, None]
    theirs = current ^ np.array(masks, np.uint64)[:, None, None]
    one = np.uint64(1)
    return ((current >> cell_bits) & one).astype(np.uint8), \
        ((theirs >> cell_bits) & one).astype(np.uint8)
