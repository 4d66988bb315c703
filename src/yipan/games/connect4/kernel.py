"""The numba solver kernel: negamax with alpha-beta over ``(current, mask, moves)`` bitboards.

Scores follow the shared benchmark's convention, for the side to move: a win is
``(cells + 1 - moves) // 2`` when made on the next move, one less per extra move of the winner;
losses are the negatives; 0 is a draw (``cells = width * height``).

A search allocates nothing and recurses on an explicit stack: four preallocated arrays carry
everything (few arguments keep numba's per-call cost down). Because the whole search state is
in those arrays, a search can stop at a node count and carry on later (``negamax`` pauses,
``resume`` continues): the Python side reads the clock between slices of nodes. The search
loop is one function (``run``): a numba helper taking the arrays would update their
reference counts, atomically, at every node, a cost the solver cannot afford.

- ``ctx`` (int64): the board's constants, the options, the counters, the centre-first column
  order and the log of table slots written since the last reset (``C_*`` indices below), so
  a reset after a small search clears only those slots;
- ``table`` (int64): the transposition table, one word a slot, 0 when empty::

      bit 63        19 18      14 13     8 7       0
      | check         | best + 1 | moves   | value   |

  By default ``slot = key % size`` (size a prime; computed with a floating-point reciprocal
  and an exact correction, as a division costs more than the rest of a probe) and
  ``check = key % 2**45``: the two
  together identify the key exactly (Chinese remainder theorem, size odd, and
  ``size * 2**45`` above every key). With ``MULTIPLY_HASH``,
  ``h = key * 0x9E3779B97F4A7C15 mod 2**64`` (a bijection), ``slot`` = the top ``bits``
  bits of h and ``check = h % 2**45``: exact too (bits >= 19), and no division. ``best``
  is the column that last cut off here (with ``BEST_MOVE``), ``moves`` the plies played.
  ``value`` is an upper bound ``v`` stored as ``v - MIN + 1`` or a lower bound stored as
  ``v + MAX - 2 * MIN + 2``, never 0;
- ``frames`` (int64, one row per ply from the root): the stack of the search;
- ``book`` (int64, 2 x n): an opening book, sorted mirror-folded keys over exact scores.

Contract of ``negamax`` (the side to move cannot win at once; ``alpha < beta``)::

    v = negamax(position, alpha, beta)
    if v <= alpha:  the true score is <= v
    if v >= beta:   the true score is >= v
    otherwise:      v is the true score
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ctx: constants and options
C_WIDTH, C_HEIGHT, C_BOTTOM, C_BOARD, C_CELLS, C_MIN, C_MAX = 0, 1, 2, 3, 4, 5, 6
C_FLAGS, C_BOOK_DEPTH, C_SIZE, C_SHIFT = 7, 8, 9, 14
# ctx: counters
C_NODES, C_LIMIT, C_PAUSED, C_LOGGED = 10, 11, 12, 13
C_SP, C_ROOT_MOVES = 15, 16  # where a paused search stands
C_ORDER = 24  # width entries: the columns, centre first
C_LOG = 48  # the rest: slots written since the last reset
LOG_CAPACITY = 1 << 16
CTX_LEN = C_LOG + LOG_CAPACITY

# frames: one row per ply below the root
F_CUR, F_MASK, F_ALPHA, F_BETA, F_KEY, F_NEXT = 0, 1, 2, 3, 4, 5
F_MOVES = 8  # up to 16 candidate moves, best last
F_SCORES = 24  # the threats each creates (non-decreasing: the best last)
FRAME_LEN = 40

# option flags (ctx[C_FLAGS])
MIRROR_KEY = 1  # fold a position and its mirror image into one table entry
ETC = 2  # enhanced transposition cut-off: probe the children before searching them
ETC_MIN_EMPTY = 16  # ... where enough cells are empty for a saved subtree to pay the probes
DEPTH_PREFERRED = 4  # keep the entry nearer the root when two positions share a slot
MULTIPLY_HASH = 8  # slot by multiplicative hashing instead of a division by a prime
BEST_MOVE = 16  # remember the move that cut off, and try it first next time
DEFAULT_FLAGS = 0

KEY_BITS = 45
CHECK_SHIFT = 19
KEY_MASK = (1 << KEY_BITS) - 1
GOLDEN = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit int
NO_LIMIT = np.iinfo(np.int64).max
UNKNOWN = -1000  # a score no position has
SEARCH = 1 << 20  # "not decided yet: search the children"


@njit(cache=True, inline="always")
def popcount(bits: int) -> int:
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def table_key(current: int, mask: int, flags: int, width: int, height: int) -> int:
    key = current + mask
    if flags & MIRROR_KEY:
        other = mirror(key, width, height)
        if other < key:
            return other
    return key


@njit(cache=True)
def book_key(current: int, mask: int, width: int, height: int) -> int:
    key = current + mask
    other = mirror(key, width, height)
    return other if other < key else key


@njit(cache=True)
def book_lookup(key: int, book: np.ndarray) -> int:
    """The book's score for a (mirror-folded) key, or UNKNOWN."""
    lo, hi = 0, book.shape[1]
    while lo < hi:
        mid = (lo + hi) >> 1
        if book[0, mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < book.shape[1] and book[0, lo] == key:
        return book[1, lo]
    return UNKNOWN


@njit(cache=True, inline="always")
def slot_of(key: int, flags: int, size: int, inverse_size: float, shift: int) -> int:
    """Where ``key`` lives in the table.

    ``key % size`` without a division: the quotient from ``inverse_size = 1 / size`` in
    floating point is off by at most one or two, which the correction loops repair exactly.
    """
    if flags & MULTIPLY_HASH:
        return ((key * GOLDEN) >> shift) & ((1 << (64 - shift)) - 1)
    index = key - int(key * inverse_size) * size
    while index < 0:
        index += size
    while index >= size:
        index -= size
    return index


@njit(cache=True, inline="always")
def check_of(key: int, flags: int) -> int:
    """The bits stored beside an entry to recognise its key (with the slot, the whole key)."""
    if flags & MULTIPLY_HASH:
        return (key * GOLDEN) & KEY_MASK
    return key & KEY_MASK


@njit(cache=True)
def tt_reset(ctx: np.ndarray, table: np.ndarray) -> None:
    """Empty the table in place: only the logged slots after a small search, else all."""
    logged = ctx[C_LOGGED]
    if logged <= LOG_CAPACITY:
        for i in range(logged):
            table[ctx[C_LOG + i]] = 0
    else:
        table[:] = 0
    ctx[C_LOGGED] = 0


@njit(cache=True, inline="always")
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
def negamax(current: int, mask: int, moves: int, alpha: int, beta: int, ctx: np.ndarray,
            table: np.ndarray, frames: np.ndarray, book: np.ndarray) -> int:
    """Fail-soft bound on the score (contract in the module docstring), on an explicit stack.

    Pauses (``ctx[C_PAUSED]`` set, the value meaningless) once ``ctx[C_LIMIT]`` nodes are
    counted; ``resume`` carries on from there. A paused search leaves the table sound: only
    finished nodes store bounds, so it may also simply be dropped.
    """
    frames[0, F_CUR] = current
    frames[0, F_MASK] = mask
    frames[0, F_ALPHA] = alpha
    frames[0, F_BETA] = beta
    ctx[C_ROOT_MOVES] = moves
    ctx[C_SP] = -1  # the root is still to be entered
    return run(ctx, table, frames, book)


@njit(cache=True)
def resume(ctx: np.ndarray, table: np.ndarray, frames: np.ndarray, book: np.ndarray) -> int:
    """Carry on a paused ``negamax`` (after raising ``ctx[C_LIMIT]``): its value, or another
    pause."""
    return run(ctx, table, frames, book)


@njit(cache=True)
def run(ctx: np.ndarray, table: np.ndarray, frames: np.ndarray, book: np.ndarray) -> int:
    """The search loop, from the root (``ctx[C_SP] == -1``) or where it paused.

    Every frame moves through: entered (its value decided at once, or its window narrowed
    and its moves sorted into the frame), then for each child in turn: descend, and on the
    child's return raise alpha or cut off; finally its bound is stored and handed up.

    Written as one function on purpose: a helper taking the arrays costs atomic
    reference-count updates on every call, which the search would pay at every node. The
    constants live in locals for the same reason.
    """
    width, height, cells = ctx[C_WIDTH], ctx[C_HEIGHT], ctx[C_CELLS]
    bottom, board = ctx[C_BOTTOM], ctx[C_BOARD]
    min_score, max_score = ctx[C_MIN], ctx[C_MAX]
    flags, book_depth, size, shift = ctx[C_FLAGS], ctx[C_BOOK_DEPTH], ctx[C_SIZE], ctx[C_SHIFT]
    inverse_size = 1.0 / size
    lower_code = max_score - 2 * min_score + 2  # stored lower bound = value + lower_code
    step = height + 1
    column = (1 << height) - 1
    root_moves = ctx[C_ROOT_MOVES]
    nodes, limit = ctx[C_NODES], ctx[C_LIMIT]
    ctx[C_PAUSED] = 0
    sp = ctx[C_SP]
    entering = sp < 0
    if entering:
        sp = 0
    value = SEARCH
    while True:
        if entering:  # open the node at sp: decide it at once, or prepare its children
            entering = False
            value = SEARCH
            nodes += 1
            moves = root_moves + sp
            current, mask = frames[sp, F_CUR], frames[sp, F_MASK]
            alpha, beta = frames[sp, F_ALPHA], frames[sp, F_BETA]
            possible = possible_non_losing(current, mask, bottom, board, height)
            if possible == 0:
                value = -((cells - moves) // 2)
            elif moves >= cells - 2:
                value = 0
            else:
                # narrow the window; the bound that closes it is the value (fail-soft)
                low = -((cells - 2 - moves) // 2)  # the opponent cannot win next move
                high = (cells - 1 - moves) // 2  # we cannot win on this move
                entry = 0
                if alpha < low:
                    alpha = low
                    if alpha >= beta:
                        value = alpha
                if value == SEARCH and beta > high:
                    beta = high
                    if alpha >= beta:
                        value = beta
                if value == SEARCH:
                    key = table_key(current, mask, flags, width, height)
                    entry = table[slot_of(key, flags, size, inverse_size, shift)]
                    if ((entry >> CHECK_SHIFT) & KEY_MASK) != check_of(key, flags):
                        entry = 0
                    stored = entry & 0xFF
                    if stored > max_score - min_score + 1:  # a lower bound
                        low = stored - lower_code
                        if alpha < low:
                            alpha = low
                            if alpha >= beta:
                                value = alpha
                    elif stored != 0:  # an upper bound
                        high = stored + min_score - 1
                        if beta > high:
                            beta = high
                            if alpha >= beta:
                                value = beta
                if value == SEARCH and moves <= book_depth:
                    value = book_lookup(book_key(current, mask, width, height), book)
                    if value == UNKNOWN:
                        value = SEARCH
                if value == SEARCH:
                    # the moves, most threats created last (searched first); ties keep
                    # the centre-first order: a small insertion sort on the frame's row
                    count = 0
                    for i in range(width - 1, -1, -1):
                        move = possible & (column << (ctx[C_ORDER + i] * step))
                        if move:
                            threats = popcount(winning_cells(current | move, mask, height,
                                                             board))
                            at = count
                            while at > 0 and frames[sp, F_SCORES + at - 1] > threats:
                                frames[sp, F_MOVES + at] = frames[sp, F_MOVES + at - 1]
                                frames[sp, F_SCORES + at] = frames[sp, F_SCORES + at - 1]
                                at -= 1
                            frames[sp, F_MOVES + at] = move
                            frames[sp, F_SCORES + at] = threats
                            count += 1
                    best = (entry >> 14) & 0x1F
                    if best and flags & BEST_MOVE:
                        # the move that cut off here before goes last (searched first)
                        wanted = column << ((best - 1) * step)
                        for i in range(count - 1):
                            if frames[sp, F_MOVES + i] & wanted:
                                move = frames[sp, F_MOVES + i]
                                for j in range(i, count - 1):
                                    frames[sp, F_MOVES + j] = frames[sp, F_MOVES + j + 1]
                                frames[sp, F_MOVES + count - 1] = move
                                break
                    if flags & ETC and cells - moves >= ETC_MIN_EMPTY:
                        # a child whose stored upper bound u gives us -u >= beta cuts at once
                        opponent = current ^ mask
                        for i in range(count):
                            child_key = table_key(opponent, mask | frames[sp, F_MOVES + i],
                                                  flags, width, height)
                            child = table[slot_of(child_key, flags, size, inverse_size,
                                                  shift)]
                            if ((child >> CHECK_SHIFT) & KEY_MASK) == check_of(child_key,
                                                                               flags):
                                child &= 0xFF
                                if child != 0 and child <= max_score - min_score + 1:
                                    bound = -(child + min_score - 1)
                                    if bound >= beta:
                                        value = bound
                                        break
                    if value == SEARCH:
                        frames[sp, F_ALPHA] = alpha
                        frames[sp, F_BETA] = beta
                        frames[sp, F_KEY] = key
                        frames[sp, F_NEXT] = count - 1
            continue

        if value == SEARCH:  # the node at sp has children left, or has searched them all
            i = frames[sp, F_NEXT]
            if i >= 0:  # descend into the next child
                if nodes >= limit:
                    ctx[C_NODES] = nodes
                    ctx[C_SP] = sp
                    ctx[C_PAUSED] = 1
                    return 0
                frames[sp, F_NEXT] = i - 1
                node_current, node_mask = frames[sp, F_CUR], frames[sp, F_MASK]
                frames[sp + 1, F_CUR] = node_current ^ node_mask
                frames[sp + 1, F_MASK] = node_mask | frames[sp, F_MOVES + i]
                frames[sp + 1, F_ALPHA] = -frames[sp, F_BETA]
                frames[sp + 1, F_BETA] = -frames[sp, F_ALPHA]
                sp += 1
                entering = True
                continue
            value = frames[sp, F_ALPHA]  # every child searched: an upper bound
            code = value - min_score + 1
            best = 0
        else:  # ``value`` is the finished value of the node at sp: hand it to the parent
            if sp == 0:
                ctx[C_NODES] = nodes
                return value
            sp -= 1
            score = -value
            if score < frames[sp, F_BETA]:
                if score > frames[sp, F_ALPHA]:
                    frames[sp, F_ALPHA] = score
                value = SEARCH
                continue
            value = score  # a cut-off: a lower bound
            code = score + lower_code
            best = 0
            if flags & BEST_MOVE:
                cut = frames[sp, F_MOVES + frames[sp, F_NEXT] + 1]
                best = popcount(cut - 1) // step + 1

        # store the bound ``code`` of the node at sp, then hand ``value`` up
        key = frames[sp, F_KEY]
        slot = slot_of(key, flags, size, inverse_size, shift)
        partial = check_of(key, flags)
        entry = table[slot]
        keep = False
        if entry == 0:
            logged = ctx[C_LOGGED]
            if logged < LOG_CAPACITY:
                ctx[C_LOG + logged] = slot
            ctx[C_LOGGED] = logged + 1
        else:
            same = ((entry >> CHECK_SHIFT) & KEY_MASK) == partial
            # with DEPTH_PREFERRED, a position nearer the root guards a larger subtree
            keep = (flags & DEPTH_PREFERRED) != 0 and not same and \
                ((entry >> 8) & 0x3F) < root_moves + sp
            if best == 0 and same:
                best = (entry >> 14) & 0x1F
        if not keep:
            table[slot] = (partial << CHECK_SHIFT) | (best << 14) | ((root_moves + sp) << 8) \
                | code


@njit(cache=True)
def half_toward_zero(value: int) -> int:
    return -((-value) // 2) if value < 0 else value // 2


@njit(cache=True)
def solve(current: int, mask: int, moves: int, weak: bool, ctx: np.ndarray, table: np.ndarray,
          frames: np.ndarray, book: np.ndarray) -> int:
    """The exact score (or only its sign when ``weak``) of a position not yet decided.

    Narrows ``[low, high]`` with null-window searches, probing near 0 first (where most
    positions are), then halfway toward the bounds. UNKNOWN if the node limit ran out.
    """
    width, height, cells = ctx[C_WIDTH], ctx[C_HEIGHT], ctx[C_CELLS]
    bottom, board = ctx[C_BOTTOM], ctx[C_BOARD]
    if moves >= cells:
        return 0
    if can_win_next(current, mask, bottom, board, height):
        return 1 if weak else (cells + 1 - moves) // 2
    if moves <= ctx[C_BOOK_DEPTH]:
        known = book_lookup(book_key(current, mask, width, height), book)
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
        result = negamax(current, mask, moves, middle, middle + 1, ctx, table, frames, book)
        if ctx[C_PAUSED]:
            return UNKNOWN
        if result <= middle:
            high = result
        else:
            low = result
    if weak:  # a fail-soft bound may overshoot the [-1, 1] window: keep the sign
        return 1 if low > 0 else -1 if low < 0 else 0
    return low


@njit(cache=True)
def solve_fresh(current: int, mask: int, moves: int, weak: bool, ctx: np.ndarray,
                table: np.ndarray, frames: np.ndarray, book: np.ndarray) -> int:
    """``solve`` with an empty table and zeroed counters: one call per benchmark line."""
    tt_reset(ctx, table)
    ctx[C_NODES] = 0
    ctx[C_PAUSED] = 0
    return solve(current, mask, moves, weak, ctx, table, frames, book)


@njit(cache=True)
def solve_many(currents: np.ndarray, masks: np.ndarray, moves: np.ndarray, weak: bool,
               ctx: np.ndarray, table: np.ndarray, frames: np.ndarray, book: np.ndarray,
               scores: np.ndarray, nodes: np.ndarray) -> None:
    """``solve_fresh`` over a batch (one call from Python for a whole file of positions):
    ``scores[i]`` and ``nodes[i]`` for position ``i``."""
    for i in range(len(currents)):
        scores[i] = solve_fresh(currents[i], masks[i], moves[i], weak, ctx, table, frames, book)
        nodes[i] = ctx[C_NODES]
