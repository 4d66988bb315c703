"""mex, grundy over an options function, and sums of games (XOR and winning moves)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yipan.impartial import CycleError, grundy, mex, nim_sum, winning_moves


def test_mex_is_the_least_missing_value():
    assert mex([]) == 0
    assert mex([1, 2]) == 0
    assert mex([0, 1, 3, 0]) == 2
    assert mex(iter([2, 0, 1])) == 3


def nim_heap_options(n: int) -> range:
    return range(n)


def test_grundy_of_a_nim_heap_is_its_size():
    memo: dict = {}
    assert [grundy(n, nim_heap_options, memo) for n in range(8)] == list(range(8))


def test_grundy_walks_a_chain_far_deeper_than_the_recursion_limit():
    # heap n may only go to n - 1: values alternate 0, 1, 0, 1 ...
    assert grundy(20_000, lambda n: [n - 1] if n else []) == 0
    assert grundy(20_001, lambda n: [n - 1] if n else []) == 1


def test_grundy_fills_and_reuses_the_memo():
    calls = []

    def options(n: int) -> list[int]:
        calls.append(n)
        return [n - 1, n - 2] if n >= 2 else []

    memo: dict = {}
    grundy(30, options, memo)
    assert set(memo) == set(range(31))
    before = len(calls)
    assert grundy(25, options, memo) == memo[25]
    assert len(calls) == before


def test_a_cycle_raises_an_error_naming_a_position_on_it():
    graph = {"start": ["a"], "a": ["b"], "b": ["c", "end"], "c": ["a"], "end": []}
    with pytest.raises(CycleError) as caught:
        grundy("start", graph.__getitem__)
    assert caught.value.position in {"a", "b", "c"}
    assert repr(caught.value.position) in str(caught.value)


def test_a_self_loop_is_a_cycle():
    with pytest.raises(CycleError):
        grundy(0, lambda n: [n])


# A small "graph game" for sums: position p of component k moves to any q < p in steps
# allowed by that component: components differ, so the values are not simply the sizes.
STEPS = ({1, 2}, {1, 3, 4}, {2, 5})


def step_options(position: tuple[int, int]) -> list[tuple[int, int]]:
    kind, size = position
    return [(kind, size - s) for s in STEPS[kind] if s <= size]


def brute_wins(positions: tuple, memo: dict) -> bool:
    """Whether the side to move wins the sum, by trying every move (no theory)."""
    key = tuple(sorted(positions))
    if key not in memo:
        memo[key] = any(not brute_wins(positions[:i] + (option,) + positions[i + 1:], memo)
                        for i, p in enumerate(positions) for option in step_options(p))
    return memo[key]


component = st.tuples(st.integers(0, 2), st.integers(0, 12))


@given(st.lists(component, min_size=1, max_size=4))
def test_the_sum_is_won_exactly_when_the_xor_is_not_zero(components):
    total = nim_sum(grundy(c, step_options) for c in components)
    assert (total != 0) == brute_wins(tuple(components), {})


@given(st.lists(component, min_size=1, max_size=4))
def test_winning_moves_of_a_sum_are_exactly_the_moves_to_lost_positions(components):
    moves = winning_moves(components, step_options)
    found = {(m.component, m.position) for m in moves}
    expected = set()
    memo: dict = {}
    for i, p in enumerate(components):
        for option in step_options(p):
            after = tuple(components[:i]) + (option,) + tuple(components[i + 1:])
            if not brute_wins(after, memo):
                expected.add((i, option))
    assert found == expected
    assert len(moves) == len(found)  # no move listed twice
