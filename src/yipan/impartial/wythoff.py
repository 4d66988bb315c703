"""Wythoff's game: two heaps; take any number from one heap, or the same number from both.

The P-positions (lost for the side to move) are the pairs ``(floor(k phi), floor(k phi^2))``
and their mirror images, phi the golden ratio (Wythoff, 1907). With integers only:
``floor(k phi) = (k + isqrt(5 k^2)) // 2`` since ``k phi = (k + sqrt(5) k) / 2`` and
``sqrt(5) k`` is irrational for k > 0; and ``floor(k phi^2) = floor(k phi) + k``.
"""

from __future__ import annotations

from math import isqrt

import numpy as np

from ..core.errors import GameOptionError

LARGEST_TABLE = 4096  # the table is quadratic in memory


def wythoff_pair(k: int) -> tuple[int, int]:
    """The k-th P-position ``(a_k, b_k)`` with a_k <= b_k (k = 0 gives (0, 0))."""
    a = (k + isqrt(5 * k * k)) // 2
    return a, a + k


def wythoff_p_positions(count: int) -> list[tuple[int, int]]:
    """The first ``count`` P-positions ``(a_k, b_k)``, k = 0, 1, ..."""
    return [wythoff_pair(k) for k in range(count)]


def is_p_position(a: int, b: int) -> bool:
    """Whether (a, b) is lost for the side to move, from the golden-ratio pairs."""
    a, b = min(a, b), max(a, b)
    return wythoff_pair(b - a) == (a, b)


def wythoff_table(size: int) -> np.ndarray:
    """G(a, b) for 0 <= a, b < size (a numba kernel)."""
    if not 0 < size <= LARGEST_TABLE:
        raise GameOptionError(f"a Wythoff table is 1 to {LARGEST_TABLE} wide, not {size}")
    from .kernels import wythoff_table as kernel

    return kernel(size)


def wythoff_value(a: int, b: int) -> int:
    """The Grundy value of the Wythoff position (a, b)."""
    if a < 0 or b < 0:
        raise GameOptionError(f"heaps cannot be negative, got ({a}, {b})")
    return int(wythoff_table(max(a, b) + 1)[a, b])
