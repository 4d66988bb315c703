"""Periods: the known ones, proved and minimal; every claim holds on long direct tables."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.impartial import OctalRule, ProofBound, SubtractionRule, apparent_period, prove_period


@pytest.mark.parametrize(("rule", "preperiod", "period"), [
    (OctalRule("0.77"), 71, 12),
    (OctalRule("0.07"), 53, 34),
    (SubtractionRule("1,2,3"), 0, 4),
    (SubtractionRule("1,3,4"), 0, 7),
    (SubtractionRule("2,5,7"), 0, 22),
])
def test_known_periods_are_found_and_proved(rule, preperiod, period):
    found = rule.periodicity()
    assert (found.preperiod, found.period, found.proved) == (preperiod, period, True)


def holds(values: np.ndarray, preperiod: int, period: int) -> bool:
    return bool(np.array_equal(values[preperiod + period:], values[preperiod:-period]))


def assert_minimal(values: np.ndarray, preperiod: int, period: int) -> None:
    """The period holds from the pre-period on, no smaller period holds on the tail, and it
    does not hold from one heap earlier."""
    assert holds(values, preperiod, period)
    for smaller in range(1, period):
        assert not holds(values, preperiod, smaller), f"period {smaller} also holds"
    if preperiod > 0:
        assert values[preperiod - 1] != values[preperiod - 1 + period]


@given(st.sets(st.integers(1, 9), min_size=1, max_size=4))
@settings(max_examples=40, deadline=None)
def test_subtraction_periods_hold_far_beyond_their_proof_and_are_minimal(amounts):
    rule = SubtractionRule(amounts)
    found = rule.periodicity()
    assert found.proved
    values = rule._raw(found.checked + 5 * found.period + 200)
    assert_minimal(values, found.preperiod, found.period)


@given(st.lists(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7]), min_size=1, max_size=3)
       .filter(lambda d: d[-1] != 0))
@settings(max_examples=30, deadline=None)
def test_octal_periods_hold_far_beyond_their_proof_and_are_minimal(digits):
    rule = OctalRule("0." + "".join(map(str, digits)))
    found = rule.periodicity(bound=1 << 11)
    if not found.proved:
        return
    values = rule._raw(max(3000, 4 * found.checked))
    assert_minimal(values, found.preperiod, found.period)


@given(st.lists(st.integers(0, 15), min_size=1, max_size=2).filter(lambda d: max(d) > 7))
@settings(max_examples=12, deadline=None)
def test_hexadecimal_periods_hold_beyond_their_proof(digits):
    rule = OctalRule("0." + "".join(f"{d:x}" for d in digits))
    found = rule.periodicity(bound=1 << 9)
    if not found.proved:
        return
    values = rule._raw(max(1200, 3 * found.checked))
    assert_minimal(values, found.preperiod, found.period)


def test_a_game_without_a_period_in_reach_is_not_proved():
    found = OctalRule("0.16").periodicity(bound=2000)  # its period is 149459
    assert (found.preperiod, found.period, found.proved) == (None, None, False)
    assert found.checked == 2000


def test_the_window_proof_needs_a_whole_window():
    # 0,1,0,1,... with largest take 2: two values (one window) past the repeat are needed
    values = np.array([0, 1, 0, 1])
    assert prove_period(values, ProofBound.window(2)).proved
    assert not prove_period(values[:3], ProofBound.window(2)).proved


def test_guy_smith_bound():
    # Kayles: t = 2, two heaps: agree for 71 <= n < 2*71 + 12 + 2
    bound = ProofBound.guy_smith(2, 2)
    assert bound.end(71, 12) == 156
    kayles = OctalRule("0.77")._raw(400)
    assert prove_period(kayles[:156 + 12], bound).period == 12
    assert not prove_period(kayles[:155 + 12], bound).proved


def test_extension_from_a_period_equals_the_direct_table():
    rule = SubtractionRule("2,5,7")
    found = rule.periodicity()
    direct = rule._raw(5000)
    assert np.array_equal(found.extend(direct[:found.checked], 5000), direct)


def test_apparent_period_of_a_sequence():
    assert apparent_period(np.array([5, 0, 1, 2, 0, 1, 2, 0, 1, 2])) == (1, 3)
    assert apparent_period(np.arange(10)) is None
