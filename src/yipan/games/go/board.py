"""The engine's Go board in numba: strings kept as circular lists with pseudo-liberty counts.

One board is one ``int64`` array ``b`` of shape ``(ROWS, points)`` (so a board is copied with
one ``copy_board(b, b2)``), over a padded board of ``width = size + 2`` with a ring of edge points::

    5x5: width 7, 49 points           b[COLOUR, p]   EMPTY, BLACK, WHITE or EDGE
      # # # # # # #                   b[NEXT, p]     the next stone of p's string (a circle)
      # . . . . . #   row 1 (top)     b[HEAD, p]     the string's representative stone
      # . . . . . #                   b[LIBS, h]     pseudo-liberties of the string headed by h:
      # . . . . . #                                  (stone, empty neighbour) pairs
      # . . . . . #                   b[LSUM, h]     the sum of those liberties' points
      # . . . . . #   row 5           b[LSUM2, h]    the sum of their squares
      # # # # # # #                   b[STONES, h]   stones in the string
                                      b[EMPTY_AT, p] where p is in the list of empty points
    point p = (row + 1) * width       b[EMPTIES, i]  the empty points, b[META, M_EMPTY] of them
              + col + 1               b[META, ...]   size, side to move, ko point, key...
    neighbours p - 1, p + 1, p - width, p + width; point 0 (a corner of the ring) is PASS

A string is in atari when all its pseudo-liberties are one point: ``LIBS * LSUM2 == LSUM**2``
(GNU Go's trick: n * sum(x^2) = (sum x)^2 only when every x is equal), and that point is then
``LSUM / LIBS``. So liberties need no list: playing a stone changes a few counters.

Simple ko only (the point of a single stone just captured by a single stone); positional
superko is the rules' (``rules.py``) and the search's, at the root. The Zobrist key of a
stone is the rules' ``zobrist(row, col, colour)``, so the keys of the two boards agree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY, BLACK, WHITE, EDGE = 0, 1, 2, 3
PASS = 0  # point 0 is a corner of the edge ring: never a stone
COLOUR, NEXT, HEAD, LIBS, LSUM, LSUM2, STONES, EMPTY_AT, EMPTIES, META = range(10)
ROWS = 10
# b[META, ...]
M_SIZE, M_WIDTH, M_TO_MOVE, M_KO, M_KEY, M_PASSES, M_MOVES, M_LAST, M_LAST2 = range(9)
M_CAPTURED_BY_BLACK, M_CAPTURED_BY_WHITE, M_EMPTY = 9, 10, 11
META_FIELDS = 12

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


@njit(cache=True, inline="always")
def zobrist_key(p: int, colour: int, width: int) -> np.int64:
    """The rules' ``zobrist(row, col, colour - 1)`` of a stone on padded point p."""
    row = p // width - 1
    col = p % width - 1
    x = np.uint64(((row * 32 + col) << 1 | (colour - 1)) + 1)
    x = x + _GOLDEN
    x = (x ^ (x >> _S30)) * _MIX1
    x = (x ^ (x >> _S27)) * _MIX2
    x = x ^ (x >> _S31)
    return np.int64(x)


def new_board(size: int) -> np.ndarray:
    """An empty board, black to move."""
    width = size + 2
    b = np.zeros((ROWS, width * width), np.int64)
    clear(b, size)
    return b


@njit(cache=True, inline="always")
def copy_board(source: np.ndarray, target: np.ndarray) -> None:
    """``target[:, :] = source`` as loops, for boards of one shape (unchecked): numba's slice
    assignment compiles a shape check and its error message, seconds of a first run."""
    for row in range(source.shape[0]):
        for point in range(source.shape[1]):
            target[row, point] = source[row, point]


@njit(cache=True)
def clear(b: np.ndarray, size: int) -> None:
    """Empty the board (of ``size``), black to move."""
    width = size + 2
    b[:, :] = 0
    n = 0
    for p in range(width * width):
        row, col = p // width, p % width
        if row == 0 or col == 0 or row == width - 1 or col == width - 1:
            b[COLOUR, p] = EDGE
            b[EMPTY_AT, p] = -1
        else:
            b[COLOUR, p] = EMPTY
            b[EMPTY_AT, p] = n
            b[EMPTIES, n] = p
            n += 1
    b[META, M_SIZE] = size
    b[META, M_WIDTH] = width
    b[META, M_TO_MOVE] = BLACK
    b[META, M_EMPTY] = n


@njit(cache=True, inline="always")
def in_atari(b: np.ndarray, head: int) -> bool:
    """Whether the string headed by ``head`` has exactly one liberty."""
    libs = b[LIBS, head]
    return libs > 0 and libs * b[LSUM2, head] == b[LSUM, head] * b[LSUM, head]


@njit(cache=True, inline="always")
def atari_point(b: np.ndarray, head: int) -> int:
    """The one liberty of a string in atari."""
    return b[LSUM, head] // b[LIBS, head]


@njit(cache=True, inline="always")
def _take_empty(b: np.ndarray, p: int) -> None:
    """Remove p from the list of empty points (the last one takes its place)."""
    n = b[META, M_EMPTY] - 1
    i = b[EMPTY_AT, p]
    last = b[EMPTIES, n]
    b[EMPTIES, i] = last
    b[EMPTY_AT, last] = i
    b[EMPTY_AT, p] = -1
    b[META, M_EMPTY] = n


@njit(cache=True, inline="always")
def _give_empty(b: np.ndarray, p: int) -> None:
    n = b[META, M_EMPTY]
    b[EMPTIES, n] = p
    b[EMPTY_AT, p] = n
    b[META, M_EMPTY] = n + 1


@njit(cache=True, inline="always")
def is_legal(b: np.ndarray, p: int, colour: int) -> bool:
    """Whether ``colour`` may play on p: empty, not the ko point, not suicide (simple ko)."""
    if p == PASS:
        return True
    if b[COLOUR, p] != EMPTY or p == b[META, M_KO]:
        return False
    width = b[META, M_WIDTH]
    for q in (p - 1, p + 1, p - width, p + width):
        c = b[COLOUR, q]
        if c == EMPTY:
            return True
        if c == EDGE:
            continue
        atari = in_atari(b, b[HEAD, q])
        if c == colour and not atari:
            return True  # a string of ours keeps another liberty
        if c != colour and atari:
            return True  # captures
    return False


@njit(cache=True)
def _merge(b: np.ndarray, first: int, second: int) -> int:
    """Join two strings (by their heads); returns the head of the joined string."""
    if b[STONES, first] < b[STONES, second]:
        first, second = second, first
    s = second
    while True:
        b[HEAD, s] = first
        s = b[NEXT, s]
        if s == second:
            break
    b[NEXT, first], b[NEXT, second] = b[NEXT, second], b[NEXT, first]
    b[LIBS, first] += b[LIBS, second]
    b[LSUM, first] += b[LSUM, second]
    b[LSUM2, first] += b[LSUM2, second]
    b[STONES, first] += b[STONES, second]
    return first


@njit(cache=True)
def _remove_string(b: np.ndarray, head: int) -> int:
    """Take a captured string off the board; returns its number of stones."""
    width = b[META, M_WIDTH]
    colour = b[COLOUR, head]
    key = b[META, M_KEY]
    count = 0
    s = head
    while True:
        b[COLOUR, s] = EMPTY
        _give_empty(b, s)
        key ^= zobrist_key(s, colour, width)
        count += 1
        s = b[NEXT, s]
        if s == head:
            break
    s = head
    while True:  # every stone left next to a removed one gains a liberty
        for q in (s - 1, s + 1, s - width, s + width):
            c = b[COLOUR, q]
            if EMPTY < c < EDGE:  # a stone
                h = b[HEAD, q]
                b[LIBS, h] += 1
                b[LSUM, h] += s
                b[LSUM2, h] += s * s
        s = b[NEXT, s]
        if s == head:
            break
    b[META, M_KEY] = key
    return count


@njit(cache=True)
def play(b: np.ndarray, p: int, colour: int) -> int:
    """Play a legal move (``is_legal``) of ``colour`` at p (or PASS); the other side is to
    move after it. Returns the number of stones captured."""
    b[META, M_LAST2] = b[META, M_LAST]
    b[META, M_LAST] = p
    b[META, M_MOVES] += 1
    b[META, M_TO_MOVE] = 3 - colour
    if p == PASS:
        b[META, M_PASSES] += 1
        b[META, M_KO] = 0
        return 0
    b[META, M_PASSES] = 0
    width = b[META, M_WIDTH]
    other = 3 - colour
    b[COLOUR, p] = colour
    _take_empty(b, p)
    b[META, M_KEY] ^= zobrist_key(p, colour, width)
    libs = 0
    lsum = 0
    lsum2 = 0
    for q in (p - 1, p + 1, p - width, p + width):
        c = b[COLOUR, q]
        if c == EMPTY:
            libs += 1
            lsum += q
            lsum2 += q * q
        elif c != EDGE:  # p was a liberty of this stone's string
            h = b[HEAD, q]
            b[LIBS, h] -= 1
            b[LSUM, h] -= p
            b[LSUM2, h] -= p * p
    b[HEAD, p] = p
    b[NEXT, p] = p
    b[STONES, p] = 1
    b[LIBS, p] = libs
    b[LSUM, p] = lsum
    b[LSUM2, p] = lsum2
    head = p
    for q in (p - 1, p + 1, p - width, p + width):
        if b[COLOUR, q] == colour and b[HEAD, q] != head:
            head = _merge(b, head, b[HEAD, q])
    captured = 0
    ko = 0
    for q in (p - 1, p + 1, p - width, p + width):
        if b[COLOUR, q] == other and b[LIBS, b[HEAD, q]] == 0:
            taken = _remove_string(b, b[HEAD, q])
            captured += taken
            ko = q if taken == 1 else -1
    head = b[HEAD, p]
    if captured == 1 and ko > 0 and b[STONES, head] == 1 and b[LIBS, head] == 1:
        b[META, M_KO] = ko
    else:
        b[META, M_KO] = 0
    if colour == BLACK:
        b[META, M_CAPTURED_BY_BLACK] += captured
    else:
        b[META, M_CAPTURED_BY_WHITE] += captured
    return captured


@njit(cache=True, inline="always")
def is_eyeish(b: np.ndarray, p: int, colour: int) -> bool:
    """Every neighbour of the empty point p is ``colour``'s stone or the edge."""
    width = b[META, M_WIDTH]
    for q in (p - 1, p + 1, p - width, p + width):
        c = b[COLOUR, q]
        if c != colour and c != EDGE:
            return False
    return True


@njit(cache=True, inline="always")
def is_eye(b: np.ndarray, p: int, colour: int) -> bool:
    """An eye a player should not fill: eyeish, and the diagonals hold at most one of the
    opponent's stones (none on the edge)."""
    if b[COLOUR, p] != EMPTY or not is_eyeish(b, p, colour):
        return False
    width = b[META, M_WIDTH]
    other = 3 - colour
    edges = 0
    enemies = 0
    for q in (p - width - 1, p - width + 1, p + width - 1, p + width + 1):
        c = b[COLOUR, q]
        if c == EDGE:
            edges += 1
        elif c == other:
            enemies += 1
    if edges > 0:
        return enemies == 0
    return enemies <= 1


@njit(cache=True)
def liberties_after(b: np.ndarray, p: int, colour: int, enough: int) -> int:
    """The liberties (counted up to ``enough``, at most 3) of the string ``colour`` would have
    after playing at p; ``enough`` at once when the move captures. It spots self-atari."""
    width = b[META, M_WIDTH]
    other = 3 - colour
    found0 = found1 = found2 = -1
    n = 0
    for q in (p - 1, p + 1, p - width, p + width):
        c = b[COLOUR, q]
        if c == other and in_atari(b, b[HEAD, q]):
            return enough
        if c == EMPTY and q != found0 and q != found1 and q != found2:
            if n == 0:
                found0 = q
            elif n == 1:
                found1 = q
            else:
                found2 = q
            n += 1
            if n >= enough:
                return n
    for q in (p - 1, p + 1, p - width, p + width):
        if b[COLOUR, q] != colour:
            continue
        head = b[HEAD, q]
        if not in_atari(b, head) and b[LIBS, head] >= 4 * enough + 1:
            return enough  # each liberty counts at most 4 times: enough besides p
        s = head
        while True:
            for r in (s - 1, s + 1, s - width, s + width):
                if b[COLOUR, r] == EMPTY and r != p and r != found0 and r != found1 \
                        and r != found2:
                    if n == 0:
                        found0 = r
                    elif n == 1:
                        found1 = r
                    else:
                        found2 = r
                    n += 1
                    if n >= enough:
                        return n
            s = b[NEXT, s]
            if s == head:
                break
    return n


@njit(cache=True)
def _flood_empty(b: np.ndarray, p: int, width: int, seen: np.ndarray, stack: np.ndarray,
                 region: np.ndarray) -> tuple[int, int]:
    """The empty region of p (not yet ``seen``) into ``region``: (its size, which colours it
    touches: bit 1 black, bit 2 white). Marks its points seen."""
    seen[p] = True
    stack[0] = p
    top = 1
    size = 0
    reach = 0
    while top > 0:
        top -= 1
        s = stack[top]
        region[size] = s
        size += 1
        for q in (s - 1, s + 1, s - width, s + width):
            cq = b[COLOUR, q]
            if cq == EMPTY:
                if not seen[q]:
                    seen[q] = True
                    stack[top] = q
                    top += 1
            elif cq == BLACK:
                reach |= 1
            elif cq == WHITE:
                reach |= 2
    return size, reach


@njit(cache=True)
def area_score(b: np.ndarray, komi: float) -> float:
    """Tromp-Taylor: black's stones and empty points reaching only black, less white's, less
    komi. Empty regions are flooded once each."""
    n_points = b.shape[1]
    width = b[META, M_WIDTH]
    seen = np.zeros(n_points, np.bool_)
    stack = np.empty(n_points, np.int64)
    region = np.empty(n_points, np.int64)
    score = 0.0
    for p in range(n_points):
        c = b[COLOUR, p]
        if c == BLACK:
            score += 1.0
        elif c == WHITE:
            score -= 1.0
        elif c == EMPTY and not seen[p]:
            size, reach = _flood_empty(b, p, width, seen, stack, region)
            if reach == 1:
                score += size
            elif reach == 2:
                score -= size
    return score - komi


@njit(cache=True)
def area_owner(b: np.ndarray, owner: np.ndarray) -> None:
    """``owner[p]``: BLACK or WHITE for each point of that colour's area (Tromp-Taylor),
    else EMPTY."""
    n_points = b.shape[1]
    width = b[META, M_WIDTH]
    seen = np.zeros(n_points, np.bool_)
    stack = np.empty(n_points, np.int64)
    region = np.empty(n_points, np.int64)
    owner[:] = EMPTY
    for p in range(n_points):
        c = b[COLOUR, p]
        if EMPTY < c < EDGE:  # a stone
            owner[p] = c
        elif c == EMPTY and not seen[p]:
            size, reach = _flood_empty(b, p, width, seen, stack, region)
            if reach == 1 or reach == 2:
                for i in range(size):
                    owner[region[i]] = reach
