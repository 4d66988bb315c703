"""The numba solver kernel: negamax with alpha-beta over ``(current, mask, moves)`` bitboards.

Scores follow the shared benchmark's convention, for the side to move: a win is
``(cells + 1 - moves) // 2`` when made on the next move, one less per extra move of the winner;
losses are the negatives; 0 is a draw (``cells = width * height``).

Everything a search needs lives in preallocated arrays, so a search allocates nothing:

- ``geo``: the board's constants and the search options (``G_*`` indices below);
- ``keys``/``vals``: the transposition table, ``vals == 0`` marks an empty slot. A value is an
  upper bound stored as ``v - MIN + 1`` or a lower bound stored as ``v + MAX - 2 * MIN + 2``;
- ``stats``: node count, node limit, abort flag, and the log of table slots written since the
  last reset, so that a reset after a small search clears only those slots (``log``);
- ``scratch``: per-ply buffers for move ordering (a recursion frame at ``moves`` plies uses row
  ``moves`` only);
- ``book_keys``/``book_vals``: a sorted opening book (mirror-folded keys, exact scores).

Contract of ``negamax`` (the side to move cannot win at once; ``alpha < beta``)::

    v = negamax(position, alpha, beta)
    if v <= alpha:  the true score is <= v
    if v >= beta:   the true score is >= v
    otherwise:      v is the true score
"""

from __future__ import annotations

import numpy as np
from numba import njit

# geo indices
G_WIDTH, G_HEIGHT, G_BOTTOM, G_BOARD, G_CELLS, G_MIN, G_MAX = 0, 1, 2, 3, 4, 5, 6
G_FLAGS, G_BOOK_DEPTH, G_SIZE = 7, 8, 9
GEO_LEN = 10

# option flags (geo[G_FLAGS])
MIRROR_KEY = 1  # fold a position and its mirror image into one table entry
ETC = 2  # enhanced transposition cut-off: probe the children before searching them
DEPTH_PREFERRED = 4  # keep the entry nearer the root when two positions share a slot
DEFAULT_FLAGS = 0

# stats indices
S_NODES, S_LIMIT, S_ABORTED, S_LOGGED = 0, 1, 2, 3
STATS_LEN = 4

NO_LIMIT = np.iinfo(np.int64).max
UNKNOWN = -1000  # a score no position has


@njit(cache=True)
def popcount(bits: int) -> int:
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@njit(cache=True)
def winning_cells(stones: int, mask: int, height: int, board: int) -> int:
    """Empty cells where ``stones`` would complete a four (see rules.py)."""
    r = (stones << 1) & (stones << 2) & (stones << 3)
    for i in range(3):
        d = height + 1 if i == 0 else height if i == 1 else height + 2
        pair = (stones << d) & (stones << (2 * d))
        r |= pair & (stones << (3 * d))
        r |= pair & (stones >> d)
        pair = (stones >> d) & (stones >> (2 * d))
        r |= pair & (stones << d)
        r |= pair & (stones >> (3 * d))
    return r & (board ^ mask)


@njit(cache=True)
def mirror(bits: int, width: int, height: int) -> int:
    step = height + 1
    column = (1 << step) - 1
    out = 0
    for col in range(width):
        out |= ((bits >> (col * step)) & column) << ((width - 1 - col) * step)
    return out


@njit(cache=True)
def table_key(current: int, mask: int, geo: np.ndarray) -> int:
    key = current + mask
    if geo[G_FLAGS] & MIRROR_KEY:
        other = mirror(key, geo[G_WIDTH], geo[G_HEIGHT])
        if other < key:
            return other
    return key


@njit(cache=True)
def book_key(current: int, mask: int, width: int, height: int) -> int:
    key = current + mask
    other = mirror(key, width, height)
    return other if other < key else key


@njit(cache=True)
def book_lookup(key: int, book_keys: np.ndarray, book_vals: np.ndarray) -> int:
    """The book's score for a (mirror-folded) key, or UNKNOWN."""
    lo, hi = 0, book_keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if book_keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < book_keys.shape[0] and book_keys[lo] == key:
        return book_vals[lo]
    return UNKNOWN


@njit(cache=True)
def tt_put(key: int, value: int, moves: int, geo: np.ndarray, keys: np.ndarray,
           vals: np.ndarray, depths: np.ndarray, stats: np.ndarray, log: np.ndarray) -> None:
    index = key % geo[G_SIZE]
    if vals[index] == 0:
        logged = stats[S_LOGGED]
        if logged < log.shape[0]:
            log[logged] = index
        stats[S_LOGGED] = logged + 1
    elif geo[G_FLAGS] & DEPTH_PREFERRED and depths[index] < moves and keys[index] != key:
        return  # a position nearer the root guards a larger subtree: keep it
    keys[index] = key
    vals[index] = value
    depths[index] = moves


@njit(cache=True)
def tt_reset(vals: np.ndarray, stats: np.ndarray, log: np.ndarray) -> None:
    """Empty the table in place: only the logged slots after a small search, else all."""
    logged = stats[S_LOGGED]
    if logged <= log.shape[0]:
        for i in range(logged):
            vals[log[i]] = 0
    else:
        vals[:] = 0
    stats[S_LOGGED] = 0


@njit(cache=True)
def possible_non_losing(current: int, mask: int, bottom: int, board: int, height: int) -> int:
    """Playable cells that do not let the opponent win at once (0: every move loses)."""
    possible = (mask + bottom) & board
    opponent_win = winning_cells(current ^ mask, mask, height, board)
    forced = possible & opponent_win
    if forced:
        if forced & (forced - 1):
            return 0  # two threats to parry
        possible = forced
    return possible & ~(opponent_win >> 1)  # never play just below an opponent's threat


@njit(cache=True)
def can_win_next(current: int, mask: int, bottom: int, board: int, height: int) -> bool:
    return (winning_cells(current, mask, height, board) & (mask + bottom) & board) != 0


@njit(cache=True)
def negamax(current: int, mask: int, moves: int, alpha: int, beta: int, geo: np.ndarray,
            order: np.ndarray, keys: np.ndarray, vals: np.ndarray, depths: np.ndarray,
            stats: np.ndarray, log: np.ndarray, scratch: np.ndarray,
            book_keys: np.ndarray, book_vals: np.ndarray) -> int:
    """Fail-soft bound on the score (contract in the module docstring)."""
    stats[S_NODES] += 1
    if stats[S_NODES] > stats[S_LIMIT]:
        stats[S_ABORTED] = 1
        return 0
    width, height, cells = geo[G_WIDTH], geo[G_HEIGHT], geo[G_CELLS]
    bottom, board = geo[G_BOTTOM], geo[G_BOARD]
    possible = possible_non_losing(current, mask, bottom, board, height)
    if possible == 0:
        return -((cells - moves) // 2)
    if moves >= cells - 2:
        return 0
    low = -((cells - 2 - moves) // 2)  # the opponent cannot win on their next move
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - moves) // 2  # we cannot win on this move
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta

    min_score, max_score = geo[G_MIN], geo[G_MAX]
    key = table_key(current, mask, geo)
    index = key % geo[G_SIZE]
    stored = vals[index]
    if stored != 0 and keys[index] == key:
        if stored > max_score - min_score + 1:  # a lower bound
            low = stored + 2 * min_score - max_score - 2
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
        else:  # an upper bound
            high = stored + min_score - 1
            if beta > high:
                beta = high
                if alpha >= beta:
                    return beta

    if moves <= geo[G_BOOK_DEPTH]:
        known = book_lookup(book_key(current, mask, width, height), book_keys, book_vals)
        if known != UNKNOWN:
            return known

    # order the moves: most threats created first; ties keep the centre-first order
    candidates = scratch[moves, 0]
    scores = scratch[moves, 1]
    count = 0
    step = height + 1
    column = (1 << height) - 1
    for i in range(width - 1, -1, -1):
        move = possible & (column << (order[i] * step))
        if move:
            score = popcount(winning_cells(current | move, mask, height, board))
            pos = count
            while pos > 0 and scores[pos - 1] > score:
                candidates[pos] = candidates[pos - 1]
                scores[pos] = scores[pos - 1]
                pos -= 1
            candidates[pos] = move
            scores[pos] = score
            count += 1

    opponent = current ^ mask
    if geo[G_FLAGS] & ETC:
        # a child whose stored upper bound u already gives us -u >= beta cuts at once
        for i in range(count):
            child_mask = mask | candidates[i]
            child_key = table_key(opponent, child_mask, geo)
            child_index = child_key % geo[G_SIZE]
            child_stored = vals[child_index]
            if (child_stored != 0 and child_stored <= max_score - min_score + 1
                    and keys[child_index] == child_key):
                bound = -(child_stored + min_score - 1)
                if bound >= beta:
                    return bound

    for i in range(count - 1, -1, -1):
        move = candidates[i]
        score = -negamax(opponent, mask | move, moves + 1, -beta, -alpha, geo, order, keys,
                         vals, depths, stats, log, scratch, book_keys, book_vals)
        if stats[S_ABORTED]:
            return 0
        if score >= beta:
            tt_put(key, score + max_score - 2 * min_score + 2, moves, geo, keys, vals, depths,
                   stats, log)
            return score
        if score > alpha:
            alpha = score
    tt_put(key, alpha - min_score + 1, moves, geo, keys, vals, depths, stats, log)
    return alpha


@njit(cache=True)
def half_toward_zero(value: int) -> int:
    return -((-value) // 2) if value < 0 else value // 2


@njit(cache=True)
def solve(current: int, mask: int, moves: int, weak: bool, geo: np.ndarray, order: np.ndarray,
          keys: np.ndarray, vals: np.ndarray, depths: np.ndarray, stats: np.ndarray,
          log: np.ndarray, scratch: np.ndarray, book_keys: np.ndarray,
          book_vals: np.ndarray) -> int:
    """The exact score (or only its sign when ``weak``) of a position not yet decided.

    Narrows ``[low, high]`` with null-window searches, probing near 0 first (where most
    positions are), then halfway toward the bounds.
    """
    width, height, cells = geo[G_WIDTH], geo[G_HEIGHT], geo[G_CELLS]
    bottom, board = geo[G_BOTTOM], geo[G_BOARD]
    if moves >= cells:
        return 0
    if can_win_next(current, mask, bottom, board, height):
        score = (cells + 1 - moves) // 2
        return 1 if weak else score
    if moves <= geo[G_BOOK_DEPTH]:
        known = book_lookup(book_key(current, mask, width, height), book_keys, book_vals)
        if known != UNKNOWN:
            if weak:
                return 1 if known > 0 else -1 if known < 0 else 0
            return known
    low = -((cells - moves) // 2)
    high = (cells + 1 - moves) // 2
    if weak:
        low, high = -1, 1
    while low < high:
        middle = low + (high - low) // 2
        if middle <= 0 and half_toward_zero(low) < middle:
            middle = half_toward_zero(low)
        elif middle >= 0 and half_toward_zero(high) > middle:
            middle = half_toward_zero(high)
        result = negamax(current, mask, moves, middle, middle + 1, geo, order, keys, vals,
                         depths, stats, log, scratch, book_keys, book_vals)
        if stats[S_ABORTED]:
            return UNKNOWN
        if result <= middle:
            high = result
        else:
            low = result
    return low


@njit(cache=True)
def solve_fresh(current: int, mask: int, moves: int, weak: bool, geo: np.ndarray,
                order: np.ndarray, keys: np.ndarray, vals: np.ndarray, depths: np.ndarray,
                stats: np.ndarray, log: np.ndarray, scratch: np.ndarray,
                book_keys: np.ndarray, book_vals: np.ndarray) -> int:
    """``solve`` with an empty table and zeroed counters: one call per benchmark line."""
    tt_reset(vals, stats, log)
    stats[S_NODES] = 0
    stats[S_ABORTED] = 0
    return solve(current, mask, moves, weak, geo, order, keys, vals, depths, stats, log,
                 scratch, book_keys, book_vals)


@njit(cache=True)
def play_column(current: int, mask: int, col: int, height: int) -> tuple[int, int]:
    return current ^ mask, mask | (mask + (1 << (col * (height + 1))))
