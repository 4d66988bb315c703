"""Nim under normal and misère play, against brute force over every position."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yipan.core import GameOptionError
from yipan.impartial import is_lost, nim_winning_moves


def children(heaps: tuple[int, ...]):
    for i, heap in enumerate(heaps):
        for after in range(heap):
            yield i, after, heaps[:i] + (after,) + heaps[i + 1:]


@cache
def brute_wins(heaps: tuple[int, ...], misere: bool) -> bool:
    """Whether the side to move wins, trying every move; no move left: the last mover won
    (normal play) or lost (misère)."""
    moves = list(children(heaps))
    if not moves:
        return misere
    return any(not brute_wins(child, misere) for _, _, child in moves)


ALL_UP_TO_555 = list(itertools.product(range(6), repeat=3))


@pytest.mark.parametrize("misere", [False, True])
def test_every_position_up_to_5_5_5(misere):
    for heaps in ALL_UP_TO_555:
        assert is_lost(heaps, misere=misere) == (not brute_wins(heaps, misere)), heaps
        expected = [(i, after) for i, after, child in children(heaps)
                    if not brute_wins(child, misere)]
        found = [(m.heap, m.after) for m in nim_winning_moves(heaps, misere=misere)]
        assert sorted(found) == expected, heaps


@given(st.lists(st.integers(0, 7), min_size=1, max_size=4), st.booleans())
def test_winning_moves_on_other_row_lengths(heaps, misere):
    heaps = tuple(heaps)
    expected = sorted((i, after) for i, after, child in children(heaps)
                      if not brute_wins(child, misere))
    found = sorted((m.heap, m.after) for m in nim_winning_moves(heaps, misere=misere))
    assert found == expected


def test_huge_heaps_are_answered_by_theory():
    moves = nim_winning_moves([10**12, 10**12 + 5, 3])
    assert [(m.heap, m.before, m.after) for m in moves] == [(1, 10**12 + 5, 10**12 + 3)]


def test_misere_endings():
    assert is_lost([1, 1, 1], misere=True)
    assert not is_lost([1, 1], misere=True)
    assert is_lost([], misere=False) and not is_lost([], misere=True)


def test_negative_heaps_are_refused():
    with pytest.raises(GameOptionError):
        is_lost([3, -1])
