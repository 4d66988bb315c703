"""The benchmark's choice of balanced openings (``benchmarks/gomoku.py --balanced``): reading a
brain's value from its MESSAGE lines and keeping the candidates both engines call even, with
fake judges instead of a real opponent brain."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from yipan.games.gomoku.rules import Gomoku

BENCHMARK = Path(__file__).resolve().parents[3] / "benchmarks" / "gomoku.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("gomoku_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up by name)
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_eval_seen_reads_the_last_eval_and_counts_mates_as_far_from_even(bench) -> None:
    last = "MESSAGE Speed 812K | Depth 10-14 | Eval -35 | Node 266K | Time 320ms"
    assert bench.eval_seen(["MESSAGE Depth 9-12 | Eval 48 | Time 100ms | h8 i9", last]) == -35
    assert bench.eval_seen(["MESSAGE Speed 1M | Depth 3-5 | Eval +M7 | Node 3K"]) == \
        bench.MATE_VALUE
    assert bench.eval_seen(["MESSAGE Depth 4-6 | Eval -M4 | Time 1ms | h8"]) == \
        -bench.MATE_VALUE
    assert bench.eval_seen(["MESSAGE Allocated 32768 KB hash"]) is None
    assert bench.eval_seen([]) is None


def test_near_even_needs_both_values_within_their_own_margins(bench) -> None:
    assert bench.near_even(-60, 60, (60, 60))
    assert bench.near_even(0, -5, (10, 5))
    assert not bench.near_even(61, 0, (60, 60))
    assert not bench.near_even(0, -61, (60, 60))
    assert not bench.near_even(200, 3, (100, 5))  # margins are per engine: (yipan, theirs)
    assert not bench.near_even(None, 0, (60, 60))
    assert not bench.near_even(0, None, (60, 60))


def fake_judge(opening: list[int]) -> tuple[int | None, int | None]:
    """Even when the first stone's x is even: yipan 10 there, the opponent -20."""
    x = opening[0] % 15
    return (10, -20) if x % 2 == 0 else (10, 500)


def test_balanced_openings_keep_only_even_candidates_drawn_from_the_seed(bench) -> None:
    game = Gomoku(15, "freestyle")
    found = bench.balanced_openings(game, 4, 3, random.Random(7), fake_judge, (60, 60), 100)
    assert len(found.openings) == 4
    assert all(fake_judge(o) == (10, -20) for o in found.openings)
    assert found.tried == len(found.values) >= 4
    assert sum(bench.near_even(*v, (60, 60)) for v in found.values) == 4
    # the candidates are exactly the openings the seed draws, in order
    rng = random.Random(7)
    drawn = [bench.draw_opening(game, 3, rng) for _ in range(found.tried)]
    assert [o for o in drawn if fake_judge(o) == (10, -20)] == found.openings
    assert all(len(set(o)) == 3 for o in found.openings)
    again = bench.balanced_openings(game, 4, 3, random.Random(7), fake_judge, (60, 60), 100)
    assert again.openings == found.openings and again.tried == found.tried


def test_balanced_openings_stop_after_the_tries_allowed(bench) -> None:
    game = Gomoku(15, "freestyle")
    never = bench.balanced_openings(game, 3, 3, random.Random(1), lambda o: (0, 900),
                                    (60, 60), 25)
    assert never.openings == [] and never.tried == 25
    always = bench.balanced_openings(game, 3, 3, random.Random(1), lambda o: (0, 0),
                                     (60, 60), 25)
    assert always.tried == 3 and len(always.openings) == 3


def test_match_plays_given_openings_with_both_colours(bench, monkeypatch) -> None:
    game = Gomoku(15, "freestyle")
    openings = [[112, 113, 127], [96, 98, 110]]
    seen = []

    def no_games(unit, jobs, runner=None):
        seen.extend(jobs)
        return [bench.Played(None, 20, 0.1, 0, job[6]) for job in jobs]

    monkeypatch.setattr(bench, "run_match", no_games)
    score, _, played = bench.match(game, ["yipan"], ["other"], "other", 5, 3, 100,
                                   random.Random(0), None, openings=openings)
    assert [(job[5], job[6]) for job in seen] == [
        ([112, 113, 127], 0), ([112, 113, 127], 1), ([96, 98, 110], 0), ([96, 98, 110], 1)]
    assert score.draws == 4 and len(played) == 4


def test_a_brain_is_not_asked_again_at_once_after_it_answers(bench, monkeypatch) -> None:
    """(Rapfi takes commands again a moment after writing its move.)"""
    slept: list[float] = []
    monkeypatch.setattr(bench.time, "perf_counter", lambda: 100.0)  # a stopped clock
    monkeypatch.setattr(bench.time, "sleep", slept.append)
    echo = "import sys\nfor line in sys.stdin:\n    print('OK', flush=True)"
    pipe = bench.Pipe("echo", [sys.executable, "-c", echo])
    try:
        assert pipe.ask("RESTART") == "OK"
        assert pipe.ask("RESTART") == "OK"
        asked = list(slept)  # (waiting for the process to end sleeps too)
    finally:
        pipe.process.stdin.close()
        pipe.process.wait(timeout=10)
    assert asked == [0.0, pytest.approx(bench.GRACE)]
