"""Numba kernels over 2048 boards: moves, the heuristic, expectimax and random playouts.

The board is the ``uint64`` of ``g2048`` (16 four-bit exponents, row r in bits 16r..16r+15,
column 0 in a row's low nibble). The row tables come from ``g2048.row_tables()`` as arguments,
so a kernel holds no state of its own and the Python rules stay the reference: the tests
check each kernel against them.

All arithmetic stays in ``uint64`` (a ``uint64`` mixed with a signed int becomes a float in
numba), hence the typed constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...native import random_below

U0 = np.uint64(0)
U4 = np.uint64(4)
U12 = np.uint64(12)
U16 = np.uint64(16)
U24 = np.uint64(24)
NIBBLE = np.uint64(0xF)
ROW = np.uint64(0xFFFF)
ONE_TILE = np.uint64(1)

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3
FOUR_PROBABILITY = 0.1

# the expectimax cache: a direct-mapped table of (board, depth searched, value, generation)
CACHE_BITS = 20


@njit(cache=True)
def transpose(board: np.uint64) -> np.uint64:
    a1 = board & np.uint64(0xF0F00F0FF0F00F0F)
    a2 = board & np.uint64(0x0000F0F00000F0F0)
    a3 = board & np.uint64(0x0F0F00000F0F0000)
    a = a1 | (a2 << U12) | (a3 >> U12)
    b1 = a & np.uint64(0xFF00FF0000FF00FF)
    b2 = a & np.uint64(0x00FF00FF00000000)
    b3 = a & np.uint64(0x00000000FF00FF00)
    return b1 | (b2 >> U24) | (b3 << U24)


@njit(cache=True)
def slide(board, move, left, right, score_left, score_right):
    """(board after ``move``, points scored): four row lookups, on the transpose for up/down."""
    vertical = move < LEFT  # up (0) and down (1)
    work = transpose(board) if vertical else board
    towards_start = move % 2 == 0  # up (0) and left (2) slide towards a line's index 0
    out = U0
    score = 0
    for r in range(4):
        shift = np.uint64(16 * r)
        row = (work >> shift) & ROW
        if towards_start:
            out |= left[row] << shift
            score += score_left[row]
        else:
            out |= right[row] << shift
            score += score_right[row]
    if vertical:
        out = transpose(out)
    return out, score


@njit(cache=True)
def count_empty(board):
    count = 0
    for cell in range(16):
        if (board >> np.uint64(4 * cell)) & NIBBLE == U0:
            count += 1
    return count


@njit(cache=True)
def heuristic(board, line_heuristic):
    """Sum of the line heuristic over the rows and the columns."""
    columns = transpose(board)
    total = 0.0
    for r in range(4):
        shift = np.uint64(16 * r)
        total += line_heuristic[(board >> shift) & ROW] + line_heuristic[(columns >> shift) & ROW]
    return total


@njit(cache=True)
def distinct_tiles(board):
    seen = U0
    for cell in range(16):
        exponent = (board >> np.uint64(4 * cell)) & NIBBLE
        seen |= ONE_TILE << exponent
    seen >>= ONE_TILE  # empty cells do not count
    count = 0
    while seen != U0:
        if seen & ONE_TILE:
            count += 1
        seen >>= ONE_TILE
    return count


@njit(cache=True)
def _chance_node(board, depth, probability, tables, cache_keys, cache_depths, cache_values,
                 cache_generation, generation, cutoff, counters):
    """The expected value over the new tile, or the heuristic at the horizon.

    Below each new tile the player picks the best of the moves that change the board (a
    board with none is worth 0: the game is lost). ``depth`` counts the player's moves still to
    search; a branch whose cumulative probability falls below ``cutoff`` is scored by the
    heuristic at once. (One self-recursive function: numba's cache cannot reload a pair of
    mutually recursive ones.)
    """
    left, right, score_left, score_right, line_heuristic = tables
    counters[0] += 1
    if depth <= 0 or probability < cutoff:
        return heuristic(board, line_heuristic)
    mask = np.uint64((1 << CACHE_BITS) - 1)
    slot = ((board * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - CACHE_BITS)) & mask
    if (cache_generation[slot] == generation and cache_keys[slot] == board
            and cache_depths[slot] >= depth):
        counters[1] += 1
        return cache_values[slot]
    empty = count_empty(board)
    total = 0.0
    for cell in range(16):
        shift = np.uint64(4 * cell)
        if (board >> shift) & NIBBLE != U0:
            continue
        for exponent in range(1, 3):
            weight = FOUR_PROBABILITY if exponent == 2 else 1.0 - FOUR_PROBABILITY
            spawned = board | (np.uint64(exponent) << shift)
            best = 0.0
            for move in range(4):
                after, _ = slide(spawned, move, left, right, score_left, score_right)
                if after != spawned:
                    value = _chance_node(after, depth - 1, probability * weight / empty, tables,
                                         cache_keys, cache_depths, cache_values,
                                         cache_generation, generation, cutoff, counters)
                    if value > best:
                        best = value
            total += weight * best
    value = total / empty
    cache_keys[slot] = board
    cache_depths[slot] = depth
    cache_values[slot] = value
    cache_generation[slot] = generation
    return value


@njit(cache=True)
def expectimax_moves(board, depth, cutoff, tables, cache_keys, cache_depths, cache_values,
                     cache_generation, generation, values, counters):
    """Fill ``values[move]`` with each move's expected heuristic (-1 for a move that changes
    nothing), searching ``depth`` moves deep (this one included)."""
    left, right, score_left, score_right, _ = tables
    for move in range(4):
        after, _ = slide(board, move, left, right, score_left, score_right)
        if after == board:
            values[move] = -1.0
        else:
            values[move] = _chance_node(after, depth - 1, 1.0, tables, cache_keys, cache_depths,
                                        cache_values, cache_generation, generation, cutoff,
                                        counters)


@njit(cache=True)
def spawn(board, seed):
    """Put a 2 (probability 0.9) or a 4 on a uniformly random empty cell: two draws of
    ``yipan.native``'s generator, the cell among the empty ones (in increasing order), then
    the tile (a 4 when ``random_below(state, 10)`` is 0)."""
    state, target = random_below(seed, count_empty(board))
    state, tenth = random_below(state, 10)
    exponent = np.uint64(2) if tenth == 0 else ONE_TILE
    index = 0
    for cell in range(16):
        shift = np.uint64(4 * cell)
        if (board >> shift) & NIBBLE == U0:
            if index == target:
                return board | (exponent << shift), state
            index += 1
    return board, state


@njit(cache=True)
def random_playout(board, spawns, seed, left, right, score_left, score_right):
    """Spawn the pending tiles, then random moves (each followed by a spawn) to the end.

    Returns the points scored along the way.
    """
    state = np.uint64(seed) | ONE_TILE
    for _ in range(spawns):
        board, state = spawn(board, state)
    score = 0
    moves = np.empty(4, np.int64)
    afters = np.empty(4, np.uint64)
    gains = np.empty(4, np.int64)
    while True:
        count = 0
        for move in range(4):
            after, gained = slide(board, move, left, right, score_left, score_right)
            if after != board:
                moves[count] = move
                afters[count] = after
                gains[count] = gained
                count += 1
        if count == 0:
            return score
        state, pick = random_below(state, count)
        board = afters[pick]
        score += gains[pick]
        board, state = spawn(board, state)
