"""Playing weaker on purpose: the calibrated UCI_Elo range, its mapping to a node budget and a
choice temperature, the reproducible weighted choice, and full strength when the limit is off
(no matches here: benchmarks/chess_strength.py measures the scale)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yipan.protocols import strength
from yipan.protocols.uci import UciEngine

from .test_uci_gui_options import Transcript, run_session

ELOS = st.integers(strength.MIN_ELO, strength.MAX_ELO)


@dataclass
class Line:
    score: int
    move: str = ""


def test_the_range_is_the_measured_anchors():
    elos = [anchor.elo for anchor in strength.ANCHORS]
    assert (elos[0], elos[-1]) == (strength.MIN_ELO, strength.MAX_ELO)
    assert elos == sorted(set(elos))
    for anchor in strength.ANCHORS:
        assert strength.node_budget(anchor.elo) == anchor.nodes
        assert strength.temperature(anchor.elo) == pytest.approx(anchor.temperature)


@given(ELOS, ELOS)
def test_a_lower_elo_gets_a_smaller_budget_and_a_warmer_choice(first, second):
    low, high = sorted((first, second))
    assert strength.node_budget(low) <= strength.node_budget(high)
    assert strength.temperature(low) >= strength.temperature(high) > 0


def test_the_ends_of_the_range_differ():
    assert strength.node_budget(strength.MIN_ELO) < strength.node_budget(strength.MAX_ELO)
    assert strength.temperature(strength.MIN_ELO) > strength.temperature(strength.MAX_ELO)


@given(ELOS, st.integers(0, 2**32))
def test_the_weighted_choice_repeats_with_the_same_random_source(elo, seed):
    lines = [Line(60, "a"), Line(35, "b"), Line(20, "c"), Line(-150, "d")]

    def picks() -> list[str]:
        rng = random.Random(seed)
        return [strength.choose(lines, elo, rng).move for _ in range(30)]

    assert picks() == picks()


def elo_after(*lines: str) -> tuple[int | None, list[str]]:
    """The Elo a fresh engine plays at after ``lines``, and its info strings."""
    out = Transcript()
    uci = UciEngine(out, hash_mb=1)
    for line in lines:
        assert uci.handle(line) is True
    return uci.elo, [line for line in out.lines if line.startswith("info string")]


def test_an_elo_outside_the_range_is_refused_and_the_last_one_kept():
    inside = (strength.MIN_ELO + strength.MAX_ELO) // 2
    for outside in (strength.MIN_ELO - 1, strength.MAX_ELO + 1, 800):
        elo, notes = elo_after("setoption name UCI_LimitStrength value true",
                               f"setoption name UCI_Elo value {inside}",
                               f"setoption name UCI_Elo value {outside}")
        assert elo == inside
        assert notes == [f"info string setoption: UCI_Elo is {strength.MIN_ELO} to "
                         f"{strength.MAX_ELO}, not {outside}"]


def test_the_elo_counts_only_while_the_limit_is_on():
    assert elo_after(f"setoption name UCI_Elo value {strength.MIN_ELO}")[0] is None
    assert elo_after(f"setoption name UCI_Elo value {strength.MIN_ELO}",
                     "setoption name UCI_LimitStrength value true")[0] == strength.MIN_ELO
    assert elo_after("setoption name UCI_LimitStrength value true",
                     "setoption name UCI_LimitStrength value false")[0] is None


def searched(*options: str) -> tuple[list[tuple[str, ...]], str]:
    """The info lines (without their times) and the bestmove of one search after
    ``options``."""
    lines = run_session(*options, "position startpos moves d2d4 g8f6 c2c4 e7e6",
                        "go nodes 20000")
    infos = [line.split() for line in lines if line.startswith("info depth")]
    steady = [tuple(words[:words.index("nps")] + words[words.index("pv"):]) for words in infos]
    return steady, next(line for line in lines if line.startswith("bestmove"))


def test_with_the_limit_off_the_engine_plays_at_full_strength():
    full = searched()
    toggled = searched("setoption name UCI_LimitStrength value true",
                       f"setoption name UCI_Elo value {strength.MIN_ELO}",
                       "setoption name UCI_LimitStrength value false")
    weak = searched("setoption name UCI_LimitStrength value true",
                    f"setoption name UCI_Elo value {strength.MIN_ELO}")
    assert toggled == full
    assert not any("multipv" in info for info in full[0])
    assert any("multipv" in info for info in weak[0])  # the candidates of a weakened move


def test_an_injected_random_source_repeats_the_weakened_moves():
    def moves(seed: int) -> list[str]:
        out = Transcript()
        uci = UciEngine(out, hash_mb=1, rng=random.Random(seed))
        for line in ("setoption name UCI_LimitStrength value true",
                     f"setoption name UCI_Elo value {strength.MIN_ELO}",
                     *["ucinewgame", "position startpos", "go nodes 3000"] * 5):
            assert uci.handle(line) is True
            if uci.search_thread is not None:
                uci.search_thread.join(120)
        return [line.split()[1] for line in out.lines if line.startswith("bestmove")]

    first = moves(21)
    assert len(first) == 5 and first == moves(21)


def test_a_weakened_search_evaluates_by_hand_as_the_scale_was_measured():
    """The anchors were measured with the hand-set evaluation: a weakened search uses it
    whatever EvalFile says, and the chosen evaluation is back for the next full search."""
    weaken = ("setoption name UCI_LimitStrength value true",
              f"setoption name UCI_Elo value {strength.MIN_ELO}")
    assert searched(*weaken)[0] == searched("setoption name EvalFile value hand", *weaken)[0]
    assert searched()[0] != searched("setoption name EvalFile value hand")[0]

    out = Transcript()
    uci = UciEngine(out, hash_mb=1, rng=random.Random(5))
    for line in (*weaken, "position startpos", "go nodes 3000"):
        assert uci.handle(line) is True
    assert uci.search_thread is not None
    uci.search_thread.join(120)
    assert uci.variant.engine.network is not None
