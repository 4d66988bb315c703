"""Random Connect Four playouts in numba, over the state of ``yipan.games.connect4``.

The state is ``rules.Position(current, mask, moves)`` in Pascal Pons' layout (drawn in
``rules.py``): column-major, ``height + 1`` bits a column, the top bit of each column always
empty; ``mask`` holds every stone, ``current`` the stones of the side to move. Playing column
``c`` adds the lowest empty cell of the column, ``mask + bottom(c)``, then swaps sides.

``has_four(stones, height)`` is the four-in-a-row test of ``rules.has_four``, the same
arguments with the same meaning (the tests hold the two together); ``random_playout`` is what
``ConnectFour.playout`` runs for the generic MCTS, and the playout of the UCT in ``uct.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...native import random_below


@njit(cache=True)
def has_four(stones: int, height: int) -> bool:
    """Four in a row among ``stones`` on a board ``height`` rows high: along direction d (1 up,
    height + 1 across, height and height + 2 diagonally), ``b & b>>d & b>>2d & b>>3d != 0``."""
    for shift in (1, height + 1, height, height + 2):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


@njit(cache=True)
def random_playout(current: int, mask: int, moves: int, width: int, height: int,
                   seed: np.uint64) -> tuple:
    """Uniformly random moves to the end; returns (the result for the side to move at the
    start: +1, 0 or -1, the generator's next state). A finished position gives its result.

    Each move takes one ``random_below(state, count)`` over the playable columns in increasing
    order (the tests replay the same stream through the rules)."""
    state = np.uint64(seed)  # the generator's state (see yipan.native)
    if moves and has_four(current ^ mask, height):
        return -1, state  # the side that just moved has four
    stride = height + 1
    columns = np.empty(width, np.int64)
    start_parity = moves & 1
    while moves < width * height:
        count = 0
        for col in range(width):
            if not mask & (1 << (height - 1 + col * stride)):
                columns[count] = col
                count += 1
        state, pick = random_below(state, count)
        col = columns[pick]
        column_mask = ((1 << height) - 1) << (col * stride)
        new_mask = mask | (mask + (1 << (col * stride)))
        mine = current | (new_mask & column_mask & ~mask)
        if has_four(mine, height):
            return (1 if (moves & 1) == start_parity else -1), state
        current, mask = mine ^ new_mask, new_mask
        moves += 1
    return 0, state


@njit(cache=True)
def many_playouts(current: int, mask: int, moves: int, width: int, height: int, count: int,
                  seed: np.uint64) -> int:
    """The sum of ``count`` playouts' results (for the benchmark of the kernel alone)."""
    state = np.uint64(seed)
    total = 0
    for _ in range(count):
        result, state = random_playout(current, mask, moves, width, height, state)
        total += result
    return total
