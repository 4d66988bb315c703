"""Grundy tables of the heap rules: the reference sequences, the generic ``grundy`` on the
same rules, and values published for these games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import GameOptionError
from yipan.impartial import (
    BashRule,
    GrundyRule,
    NimRule,
    OctalRule,
    SubtractionRule,
    grundy,
    parse_code,
)
from yipan.impartial.kernels import grundy_game_plain, grundy_game_rare


def read_sequence(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()]


@pytest.mark.parametrize(("filename", "rule"), [
    ("kayles_0.77_N2000.txt", lambda: OctalRule("0.77")),
    ("dawsons_kayles_0.07_N2000.txt", lambda: OctalRule("0.07")),
    ("subtraction_1_2_3_N1000.txt", lambda: SubtractionRule("1,2,3")),
    ("subtraction_1_3_4_N1000.txt", lambda: SubtractionRule("1,3,4")),
    ("subtraction_2_5_7_N1000.txt", lambda: SubtractionRule("2,5,7")),
])
def test_tables_match_the_reference_sequences(shared_data, filename, rule):
    expected = read_sequence(shared_data / "sg" / filename)
    assert rule().table(len(expected) - 1).tolist() == expected


def test_a_long_table_extended_from_the_period_matches_the_direct_kernel():
    rule = OctalRule("0.77")
    extended = rule.table(6000)  # past the direct limit: from the proved period
    direct = rule._raw(6000)
    assert np.array_equal(extended, direct)


def brute_values(rule, upto: int) -> list[int]:
    """G(0..upto) by the generic grundy over the rule's positions (multisets of heaps)."""
    memo: dict = {}
    return [grundy((n,) if n else (), rule.options, memo) for n in range(upto + 1)]


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4.7", "0.4", "0.16", "0.51",
                                  "0.f", "0.8", "4.07", "c.3"])
def test_octal_kernel_agrees_with_generic_grundy(code):
    rule = OctalRule(code)
    assert rule._raw(22).tolist() == brute_values(rule, 22)


@given(st.sampled_from([0, 4, 8, 12]), st.lists(st.integers(0, 15), min_size=1, max_size=3))
@settings(max_examples=40, deadline=None)
def test_any_octal_or_hexadecimal_code_agrees_with_generic_grundy(first, digits):
    code = f"{first:x}." + "".join(f"{d:x}" for d in digits)
    rule = OctalRule(code)
    assert rule._raw(13).tolist() == brute_values(rule, 13), code


@pytest.mark.parametrize("rule", [SubtractionRule("2,5,7"), BashRule(4), NimRule(),
                                  SubtractionRule([3, 1])])
def test_one_heap_rules_agree_with_generic_grundy(rule):
    assert rule.table(40).tolist() == brute_values(rule, 40)


def test_grundys_game_agrees_with_generic_grundy_and_with_the_plain_kernel():
    rule = GrundyRule()
    assert rule.table(30).tolist() == brute_values(rule, 30)
    assert np.array_equal(grundy_game_rare(4000), grundy_game_plain(4000))


def test_grundys_game_starts_as_published():
    # Guy and Smith (1956), OEIS A002188
    published = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0,
                  4, 1, 2, 3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1]
    assert GrundyRule().table(len(published) - 1).tolist() == published


def test_closed_forms():
    assert NimRule().table(20).tolist() == list(range(21))
    assert BashRule(3).table(20).tolist() == [n % 4 for n in range(21)]
    assert BashRule(6).value(1_000_003) == 1_000_003 % 7
    assert BashRule(6).value(10**15 + 2) == (10**15 + 2) % 7  # by the period, not a table
    assert NimRule().value(10**18) == 10**18


def test_huge_heaps_fold_back_by_the_proved_period():
    kayles = OctalRule("0.77")
    table = kayles.table(200)
    assert kayles.value(10**15 + 5) == table[71 + (10**15 + 5 - 71) % 12]
    assert kayles._values.shape[0] < 10**6


def test_octal_codes_are_read_digit_by_digit():
    assert parse_code("0.77") == (0, 7, 7)
    assert parse_code(".137") == (0, 1, 3, 7)
    assert parse_code("4.7") == (4, 7)
    assert parse_code("0.0f") == (0, 0, 15)
    assert parse_code("0.770") == (0, 7, 7)
    assert parse_code("Kayles") == (0, 7, 7)
    assert parse_code("dawsons-chess") == (0, 1, 3, 7)
    assert OctalRule("0.f").title.startswith("Hexadecimal")
    assert OctalRule("0.77").title == "Kayles"


def test_kayles_moves_from_one_heap():
    moves = OctalRule("0.77").heap_moves(4)
    assert sorted(moves) == sorted([(1, (3,)), (1, (1, 2)), (2, (2,)), (2, (1, 1))])


@pytest.mark.parametrize("code", ["0.9x", "077", "1.7", "2.3", "0.", "", "0.7.7", "-0.7"])
def test_malformed_codes_are_refused(code):
    with pytest.raises(GameOptionError):
        OctalRule(code)


@pytest.mark.parametrize("amounts", ["0,1", "1,-2", "", "a,b", [0]])
def test_bad_subtraction_sets_are_refused(amounts):
    with pytest.raises(GameOptionError):
        SubtractionRule(amounts)


def test_grundy_game_grown_a_slice_at_a_time_is_the_whole_table() -> None:
    """From nothing, and from a table already known in part (its rare heaps found again)."""
    whole = grundy_game_plain(6000)
    rule = GrundyRule()
    steps = list(rule.growing_table(3000))
    assert steps[-1] == 3000 and steps == sorted(steps) and len(steps) > 1
    assert np.array_equal(rule.table(3000), whole[:3001])
    assert list(rule.growing_table(6000))[-1] == 6000
    assert np.array_equal(rule.table(6000), whole)
    assert list(rule.growing_table(10)) == [10]
