"""The clock of the UCI family: ``budget``'s margins as a pure function (and a whole game
played on a simulated clock), and the loop counting the time a ``position`` line took
against the move's budget (a fake clock: no wall-clock thresholds)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yipan.chess_family.clock import MIN_HARD, Clock, budget, reserve
from yipan.protocols.ucci import UcciEngine
from yipan.protocols.uci import UciEngine

SECONDS = st.floats(0.0, 600.0, allow_nan=False)
SMALL = st.floats(0.0, 5.0, allow_nan=False)
MOVES_TO_GO = st.one_of(st.none(), st.integers(1, 80))


@given(time_left=SECONDS, increment=SMALL, moves_to_go=MOVES_TO_GO,
       overhead=st.floats(0.0, 1.0), spent=st.floats(0.0, 1.0))
def test_a_move_that_keeps_to_its_hard_limit_never_flags(time_left, increment, moves_to_go,
                                                         overhead, spent):
    clock = Clock(time_left=time_left, increment=increment, moves_to_go=moves_to_go)
    soft, hard = budget(clock, overhead, spent)
    assert soft is not None and hard is not None
    assert 0 < soft <= hard
    usable = time_left - spent - overhead - reserve(clock, overhead)
    most = usable * (0.8 if moves_to_go == 1 else 1 / 3)
    if most >= MIN_HARD:  # room for more than the least search
        assert hard <= most + 1e-12
        assert spent + hard + overhead + reserve(clock, overhead) <= time_left + 1e-12
    else:
        assert hard == MIN_HARD


@given(time_left=SECONDS, increment=SMALL, overhead=st.floats(0.0, 1.0),
       spent=st.floats(0.0, 1.0), more=st.floats(0.0, 1.0))
def test_time_already_spent_and_the_overhead_only_take_time_away(time_left, increment,
                                                                 overhead, spent, more):
    clock = Clock(time_left=time_left, increment=increment)
    _, hard = budget(clock, overhead, spent)
    assert budget(clock, overhead, spent + more)[1] <= hard
    assert budget(clock, overhead + more, spent)[1] <= hard
    assert budget(Clock(time_left=time_left + more, increment=increment), overhead,
                  spent)[1] >= hard


@given(move_time=st.floats(0.0, 60.0), overhead=st.floats(0.0, 1.0),
       spent=st.floats(0.0, 1.0))
def test_movetime_is_used_whole_less_the_overhead_and_the_time_spent(move_time, overhead,
                                                                     spent):
    soft, hard = budget(Clock(move_time=move_time), overhead, spent)
    assert soft == hard == pytest.approx(max(MIN_HARD, move_time - overhead - spent))


def test_no_clock_no_limit():
    assert budget(Clock(), 0.1, 0.5) == (None, None)


def test_the_reserve_is_a_few_overheads_and_increments_within_the_clock():
    assert reserve(Clock(time_left=10, increment=0.1), 0.1) == pytest.approx(4 * 0.1 + 5 * 0.1)
    assert reserve(Clock(time_left=0.8, increment=0.1), 0.1) == pytest.approx(0.6)
    assert reserve(Clock(time_left=60), 0.0) == 0.0
    assert reserve(Clock(time_left=600, increment=30), 0.05) == pytest.approx(4 * 0.05 + 1)


@given(base=st.floats(0.1, 60.0), increment=st.floats(0.0, 1.0),
       overhead=st.floats(0.01, 0.2), unseen=st.floats(0.0, 1.0),
       spent=st.floats(0.0, 0.005))
def test_a_long_game_run_to_every_hard_limit_keeps_the_reserve_on_the_clock(
        base, increment, overhead, unseen, spent):
    """Every move runs to its hard limit and the GUI sees ``unseen`` of the overhead more.
    Where the increment pays for the least search, the clock never flags and never falls
    below the reserve (or the time it started with): a move's time grows with the clock,
    so the clock settles where the hard limit is the increment, above the reserve."""
    lag = unseen * overhead
    wanted = reserve(Clock(time_left=float("inf"), increment=increment), overhead)
    floor = min(base, spent + overhead + wanted, 4 * (spent + overhead))
    clock = base
    for _ in range(300):
        _, hard = budget(Clock(time_left=clock, increment=increment), overhead, spent)
        assert hard is not None
        clock += increment - spent - hard - lag
        if increment >= spent + MIN_HARD + lag:
            assert clock >= floor - 1e-9


# -- the loop's clock -----------------------------------------------------------------------------
class FakeClock:
    """``now`` for the loop: time passes only when a test says so."""

    def __init__(self) -> None:
        self.seconds = 1000.0

    def __call__(self) -> float:
        return self.seconds


class Searches:
    """Stands in for the engine's search: records each limit, advances the fake clock by
    ``takes`` seconds, and finds nothing (the loop then plays the first legal move)."""

    def __init__(self, clock: FakeClock, takes: float = 0.0) -> None:
        self.clock = clock
        self.takes = takes
        self.limits: list[tuple[Any, float | None]] = []

    def __call__(self, state: Any, limit: Any, *, soft_time: float | None, **_: Any) -> None:
        self.limits.append((limit, soft_time))
        self.clock.seconds += self.takes


@pytest.fixture
def engine() -> Any:
    lines: list[str] = []
    made = UciEngine(lines.append, hash_mb=1)
    made.ready.wait()
    made.lines = lines
    made.now = FakeClock()
    read_move = made.variant.read_move

    def slow_read_move(game: Any, state: Any, text: str) -> int:
        made.now.seconds += 0.01  # each move of a position line takes 10 ms
        return read_move(game, state, text)

    made.variant.read_move = slow_read_move
    yield made
    made.close()


def go_and_wait(engine: Any, line: str) -> None:
    engine.handle(line)
    engine.search_thread.join()


def test_the_position_line_counts_against_the_move_and_the_pause_after_it_does_not(engine):
    searches = Searches(engine.now, takes=0.2)
    engine.variant.think = searches
    engine.handle("setoption name Move Overhead value 100")
    engine.handle("debug on")
    engine.handle("position startpos moves e2e4 e7e5 g1f3 b8c6")  # 40 ms
    engine.now.seconds += 5.0  # the GUI waits: its clock has not started
    go_and_wait(engine, "go wtime 3000 btime 3000 winc 100 binc 100")
    limit, soft = searches.limits[-1]
    expected = budget(Clock(time_left=3.0, increment=0.1), 0.1, spent=0.04)
    assert (soft, limit.time) == pytest.approx(expected, abs=1e-9)
    assert engine.last_move.used == pytest.approx(0.04 + 0.2)
    assert engine.last_move.position == pytest.approx(0.04)
    assert engine.last_move.allowed == pytest.approx(3.0 - 0.1)
    assert engine.last_move.limit == pytest.approx(0.04 + limit.time)
    assert engine.lines[-2] == f"info string {engine.last_move.line()}"
    assert engine.lines[-1].startswith("bestmove ")


def test_a_go_after_another_command_counts_from_the_go(engine):
    searches = Searches(engine.now)
    engine.variant.think = searches
    engine.handle("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5")
    engine.handle("isready")
    go_and_wait(engine, "go wtime 3000 btime 3000 movetime 500")
    limit, soft = searches.limits[-1]
    assert soft == limit.time == pytest.approx(0.5 - engine.overhead_ms / 1000)
    assert engine.last_move.position == 0.0
    assert not any(line.startswith("info string clock") for line in engine.lines)


def test_moves_set_up_on_the_last_line_cost_the_clock_only_the_new_plies(engine):
    searches = Searches(engine.now)
    engine.variant.think = searches
    engine.handle("position startpos moves e2e4 e7e5 g1f3 b8c6")
    go_and_wait(engine, "go wtime 3000 btime 3000")
    engine.handle("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6")
    go_and_wait(engine, "go wtime 3000 btime 3000")
    assert engine.last_move.position == pytest.approx(0.02)


def test_ucci_counts_the_position_line_against_the_move_too():
    made = UcciEngine(ignore, hash_mb=1)
    made.ready.wait()
    clock = made.now = FakeClock()
    read_move = made.variant.read_move

    def slow_read_move(game: Any, state: Any, text: str) -> int:
        clock.seconds += 0.01
        return read_move(game, state, text)

    made.variant.read_move = slow_read_move
    searches = Searches(clock)
    made.variant.think = searches
    made.handle("setoption usemillisec true")
    made.handle("position startpos moves h2e2 h9g7 h0g2")  # 30 ms
    go_and_wait(made, "go time 4000 increment 200")
    limit, soft = searches.limits[-1]
    expected = budget(Clock(time_left=4.0, increment=0.2), made.overhead_ms / 1000, spent=0.03)
    assert (soft, limit.time) == pytest.approx(expected, abs=1e-9)
    made.close()


def ignore(_line: str) -> None:
    """Answers nobody reads."""
