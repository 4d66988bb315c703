"""A training run's CPU time counts the units of work done on other processes or machines."""

from __future__ import annotations

import time

from yipan.learning.pipeline import CpuClock, in_order, map_timed, timed_unit


def burn(seconds: float) -> str:
    """Spend about ``seconds`` of CPU here; return a name for the result."""
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass
    return f"burnt {seconds}"


def test_timed_unit_reports_the_cpu_time_where_it_ran():
    result, seconds = timed_unit(burn, 0.05)
    assert result == "burnt 0.05" and 0.05 <= seconds < 1.0


def test_units_run_elsewhere_add_their_reported_time_to_the_clock():
    def elsewhere(function, jobs):  # a runner on other processes: what their units report
        assert function is timed_unit and [job[1:] for job in jobs] == [(0.5,), (0.25,)]
        return iter([("first", 2.5), ("second", 1.5)])

    clock = CpuClock(earlier=10.0)
    results = list(map_timed(elsewhere, clock, burn, [(0.5,), (0.25,)]))
    assert results == ["first", "second"]
    assert 14.0 <= clock.seconds() < 14.5  # the earlier 10 s, the units' 4 s, a moment here


def test_units_run_here_are_counted_once():
    clock = CpuClock()
    results = list(map_timed(in_order, clock, burn, [(0.05,), (0.05,)]))
    assert results == ["burnt 0.05", "burnt 0.05"]
    assert 0.1 <= clock.seconds() < 0.5  # this process's clock alone: not twice

