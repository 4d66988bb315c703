"""Wythoff's game: the numba table against the generic grundy, P-positions from phi."""

from __future__ import annotations

import numpy as np
import pytest

from yipan.core import GameOptionError
from yipan.impartial import grundy, wythoff_p_positions, wythoff_table, wythoff_value
from yipan.impartial.wythoff import is_p_position, wythoff_pair


def options(position: tuple[int, int]) -> list[tuple[int, int]]:
    a, b = position
    return ([(a - k, b) for k in range(1, a + 1)] + [(a, b - k) for k in range(1, b + 1)]
            + [(a - k, b - k) for k in range(1, min(a, b) + 1)])


def test_table_agrees_with_generic_grundy():
    size = 14
    memo: dict = {}
    expected = [[grundy((a, b), options, memo) for b in range(size)] for a in range(size)]
    assert wythoff_table(size).tolist() == expected


def test_p_positions_from_the_golden_ratio_are_the_zeros_of_the_table():
    size = 300
    table = wythoff_table(size)
    zeros = {(int(a), int(b)) for a, b in zip(*np.nonzero(table == 0), strict=True) if a <= b}
    from_phi = {(a, b) for a, b in wythoff_p_positions(200) if b < size}
    assert zeros == from_phi
    assert wythoff_p_positions(5) == [(0, 0), (1, 2), (3, 5), (4, 7), (6, 10)]


def test_p_positions_far_out_use_exact_integers():
    a, b = wythoff_pair(10**6)
    assert (a, b) == (1618033, 2618033)
    assert is_p_position(b, a) and not is_p_position(a, b + 1)


def test_values():
    assert wythoff_value(0, 9) == 9
    assert wythoff_value(2, 2) == 1
    with pytest.raises(GameOptionError):
        wythoff_value(-1, 3)
