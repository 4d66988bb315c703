"""Numba kernels for Grundy tables: the hot loops, over preallocated integer arrays.

Each kernel has a pure-Python twin in the tests (the generic ``grundy`` over the same rules),
which it must match on every heap small enough for both.

Marks use a *stamp* array instead of a set: ``stamp[v] == n`` means "value v is an option of
heap n", so nothing is cleared between heaps. Values below ``top`` (a power of two above every
value so far) XOR to values below ``top``, so a stamp array of ``2 * top`` always suffices.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _grown(stamp: np.ndarray, size: int) -> np.ndarray:
    """``stamp`` widened to at least ``size`` entries (new entries never match a heap)."""
    if size <= stamp.shape[0]:
        return stamp
    wider = np.full(2 * size, -1, np.int64)
    wider[:stamp.shape[0]] = stamp
    return wider


@njit(cache=True)
def _least_unstamped(stamp: np.ndarray, n: int) -> int:
    """The mex of heap n's options: the least value whose stamp is not ``n`` (the options'
    values were stamped with ``n``, so the stamp array never needs clearing)."""
    value = 0
    while stamp[value] == n:
        value += 1
    return value


@njit(cache=True)
def subtraction_table(subtract: np.ndarray, upto: int) -> np.ndarray:
    """G(0..upto) of the subtraction game with the (positive) amounts in ``subtract``."""
    values = np.zeros(upto + 1, np.int64)
    stamp = np.full(subtract.shape[0] + 2, -1, np.int64)  # G(n) <= |S|
    for n in range(upto + 1):
        for s in subtract:
            if s <= n:
                stamp[values[n - s]] = n
        value = _least_unstamped(stamp, n)
        values[n] = value
    return values


@njit(cache=True)
def octal_table(digits: np.ndarray, upto: int) -> np.ndarray:
    """G(0..upto) of the octal (or hexadecimal) game with code digits d0, d1, d2, ...

    Digit ``d_k`` is a sum of bits: removing k tokens from a heap may leave no heap (1), one
    heap (2), two non-empty heaps (4), three non-empty heaps (8, hexadecimal games).
    """
    values = np.zeros(upto + 1, np.int64)
    stamp = np.full(64, -1, np.int64)
    top = 1
    for n in range(upto + 1):
        stamp = _grown(stamp, 2 * top + 1)
        for k in range(min(n, digits.shape[0] - 1) + 1):
            digit = digits[k]
            rest = n - k
            if digit & 1 and rest == 0:
                stamp[0] = n
            if digit & 2 and rest >= 1:
                stamp[values[rest]] = n
            if digit & 4:
                for a in range(1, rest // 2 + 1):
                    stamp[values[a] ^ values[rest - a]] = n
            if digit & 8:
                for a in range(1, rest // 3 + 1):
                    for b in range(a, (rest - a) // 2 + 1):
                        stamp[values[a] ^ values[b] ^ values[rest - a - b]] = n
        value = _least_unstamped(stamp, n)
        values[n] = value
        while top <= value:
            top *= 2
    return values


@njit(cache=True)
def grundy_game_plain(upto: int) -> np.ndarray:
    """G(0..upto) of Grundy's game by looking at every split: O(n^2), the baseline."""
    values = np.zeros(upto + 1, np.int64)
    stamp = np.full(64, -1, np.int64)
    top = 1
    for n in range(upto + 1):
        stamp = _grown(stamp, 2 * top + 1)
        for a in range(1, (n - 1) // 2 + 1):
            stamp[values[a] ^ values[n - a]] = n
        value = _least_unstamped(stamp, n)
        values[n] = value
        while top <= value:
            top *= 2
    return values


@njit(cache=True)
def _is_rare(value: int) -> bool:
    """Grundy's game's sparse space: a value is rare when ``value >> 1`` has even popcount."""
    bits = value >> 1
    parity = 0
    while bits:
        parity ^= 1
        bits &= bits - 1
    return parity == 0


@njit(cache=True)
def grundy_game_rare(upto: int) -> np.ndarray:
    """G(0..upto) of Grundy's game by the rare-values (sparse space) method.

    Values split into *rare* and *common* ones (``_is_rare``), closed like parities under XOR:
    rare ^ rare and common ^ common are rare, rare ^ common is common. Very few heaps have a
    rare value, so the common options of heap n come only from the few splits with a rare
    part: marking those finds ``c``, the least common value that is not an option, at once.
    G(n) is then ``c`` unless some rare value below ``c`` is missing too; the splits are
    scanned for those only until every rare value below ``c`` has been seen (usually after a
    few splits). The result is exact whatever the values; the sparse space only makes it fast.
    """
    values = np.zeros(upto + 1, np.int64)
    rare_heaps = np.empty(upto + 1, np.int64)
    grundy_game_rare_extend(values, rare_heaps, 0, 0, upto + 1)
    return values


@njit(cache=True)
def grundy_game_rare_extend(values: np.ndarray, rare_heaps: np.ndarray, rare_count: int,
                            start: int, stop: int) -> int:
    """``grundy_game_rare`` for the heaps ``start .. stop - 1`` only, given G of the heaps
    below ``start`` in ``values`` and the first ``rare_count`` heaps with a rare value in
    ``rare_heaps`` (both arrays as long as the table will be); returns the new count of
    rare heaps. A long table is computed a slice at a time this way, so that its caller can
    say how far it got and stop at a time limit."""
    top = 1
    for n in range(start):
        while top <= values[n]:
            top *= 2
    stamp = np.full(2 * top + 1, -1, np.int64)
    for n in range(start, stop):
        stamp = _grown(stamp, 2 * top + 1)
        for i in range(rare_count):
            r = rare_heaps[i]
            other = n - r
            if r >= 1 and other >= 1 and other != r:
                stamp[values[r] ^ values[other]] = n
        least_common = 0
        while _is_rare(least_common) or stamp[least_common] == n:
            least_common += 1
        missing = 0  # rare values below least_common not yet seen as options
        for v in range(least_common):
            if stamp[v] != n:
                missing += 1
        a = 1
        while missing > 0 and a <= (n - 1) // 2:
            v = values[a] ^ values[n - a]
            if v < least_common and stamp[v] != n:
                stamp[v] = n
                missing -= 1
            a += 1
        value = _least_unstamped(stamp, n)
        values[n] = value
        while top <= value:
            top *= 2
        if _is_rare(value):
            rare_heaps[rare_count] = n
            rare_count += 1
    return rare_count


@njit(cache=True)
def find_proved_period(values: np.ndarray, scale: int, span: int, offset: int,
                       floor: int) -> tuple[int, int]:
    """The least period p, with the pre-period e, that a theorem proves from ``values``.

    For each p (smallest first), e is one past the last n with ``values[n] != values[n + p]``.
    The theorem proves ``G(n + p) == G(n)`` for all n >= e once it holds for
    ``e <= n < scale * max(e, floor) + span * p + offset``; that needs values up to that bound
    plus p. Returns (-1, -1) when no p is proved by these values.
    """
    length = values.shape[0]
    for p in range(1, length):
        e = 0
        for n in range(length - p - 1, -1, -1):
            if values[n] != values[n + p]:
                e = n + 1
                break
        bound = scale * max(e, floor) + span * p + offset
        if bound + p <= length:
            return e, p
    return -1, -1


@njit(cache=True)
def wythoff_table(size: int) -> np.ndarray:
    """G(a, b) for 0 <= a, b < size in Wythoff's game (take from one heap, or equally from both).

    Each row, column and diagonal keeps the set of values already in it; G(a, b) is the least
    value in none of the three. Values are below a + b + 1 <= 2 * size.
    """
    table = np.zeros((size, size), np.int64)
    width = 2 * size + 1
    in_row = np.zeros((size, width), np.bool_)
    in_col = np.zeros((size, width), np.bool_)
    in_diagonal = np.zeros((2 * size, width), np.bool_)  # indexed by b - a + size
    for a in range(size):
        for b in range(size):
            d = b - a + size
            value = 0
            while in_row[a, value] or in_col[b, value] or in_diagonal[d, value]:
                value += 1
            table[a, b] = value
            in_row[a, value] = True
            in_col[b, value] = True
            in_diagonal[d, value] = True
    return table
