"""Units of work on local processes and on a local Ray cluster (2 CPUs): the same results in
the same order; a worker killed in the middle of a unit is replaced and the unit run again;
a unit that raises is reported with its index, or skipped; Ray missing is one clear line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from yipan.cluster import (
    ClusterError,
    LocalRunner,
    Progress,
    UnitFailed,
    make_runner,
    run_match,
    run_units,
)

JOBS = [(n,) for n in range(12)]


def square(n: int) -> int:
    return n * n


def fail_on_five(n: int) -> int:
    if n == 5:
        raise ValueError("five is not welcome")
    return n


def die_once(marker: str, n: int) -> int:
    """Kills its own worker process the first time it meets unit 3 (a marker file remembers)."""
    if n == 3 and not Path(marker).exists():
        Path(marker).write_text("died")
        os._exit(1)
    return n * n


def tictactoe_game(seed: int, nodes: int) -> tuple[list[int], int | None]:
    """A match's unit: one game of 4x4 three-in-a-row between seeded MCTS players at node
    limits (the first with ``nodes``, the second with a quarter); (moves, winner)."""
    import random

    from yipan.core import Limit
    from yipan.games.tictactoe.rules import TicTacToe
    from yipan.players import play_match
    from yipan.search.mcts import MCTSPlayer

    game = TicTacToe("4x4", 3)
    players = [MCTSPlayer(Limit(nodes=nodes), random.Random(seed)),
               MCTSPlayer(Limit(nodes=nodes // 4), random.Random(seed + 1))]
    result = play_match(game, players)
    return [int(m) for m in result.moves], result.outcome.winner  # type: ignore[call-overload]


MATCH = [(seed, 120) for seed in range(4)]


def replayed_winner(moves: list[int]) -> int | None:
    from yipan.games.tictactoe.rules import TicTacToe

    game = TicTacToe("4x4", 3)
    state = game.initial_state()
    for move in moves:
        state = game.play_checked(state, move)
    outcome = game.outcome(state)
    assert outcome is not None  # the game was played to its end
    return outcome.winner


def test_progress_counts_units_failures_retries_and_time_left() -> None:
    now = [0.0]
    lines: list[str] = []
    progress = Progress(4, lines.append, "games", every=5.0, clock=lambda: now[0])
    now[0] = 2.0
    progress.advance("a")  # within the 5 s: nothing said
    assert lines == []
    now[0] = 10.0
    progress.advance(UnitFailed(1, "boom"), retried=1)
    assert lines == ["games: 2/4 done, 1 failed, 1 retried; 0.20/s, 10 s so far, "
                     "about 10 s left"]
    now[0] = 11.0
    progress.advance("c")
    progress.advance("d")  # the last is always said
    assert lines[-1].startswith("games: 4/4 done, 1 failed, 1 retried") and lines[-1].endswith(
        "done")


def test_run_units_says_its_progress() -> None:
    lines: list[str] = []
    assert list(run_units(LocalRunner(1), square, JOBS, say=lines.append)) == [
        n * n for n in range(12)]
    assert lines[-1].startswith("units: 12/12 done, 0 failed, 0 retried")


HEARD: list[str] = []


def wait_to_be_heard(n: int) -> int:
    """A long unit: it ends once the progress line has been said while it ran."""
    import threading

    for _ in range(600):
        if HEARD:
            return n
        threading.Event().wait(0.05)
    raise AssertionError("no progress line while the unit ran")


def test_progress_is_said_while_a_long_unit_runs() -> None:
    HEARD.clear()
    assert list(run_units(LocalRunner(1), wait_to_be_heard, [(7,)], say=HEARD.append,
                          every=0.05)) == [7]
    assert HEARD[0].startswith("units: 0/1 done, 0 failed, 0 retried")
    assert HEARD[-1].startswith("units: 1/1 done")


@pytest.mark.parametrize("workers", [1, 2])
def test_local_units_come_back_in_order(workers: int) -> None:
    assert list(LocalRunner(workers).map_units(square, JOBS)) == [n * n for n in range(12)]


def test_a_failing_unit_stops_the_job_or_is_skipped() -> None:
    with pytest.raises(ClusterError, match="unit 5 failed: ValueError: five"):
        list(LocalRunner(1).map_units(fail_on_five, JOBS))
    results = list(LocalRunner(1, on_error="skip").map_units(fail_on_five, JOBS))
    assert isinstance(results[5], UnitFailed) and results[5].index == 5
    assert [r for r in results if not isinstance(r, UnitFailed)] == [n for n in range(12) if n != 5]


def test_without_ray_the_flag_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "ray" else real(name, *a))
    with pytest.raises(ClusterError, match=r"pip install -e '\.\[cluster\]'"):
        make_runner("local", workers=2)


@pytest.fixture(scope="module")
def ray_runner():
    pytest.importorskip("ray", reason="the Ray tests need the cluster extra (pip install -e "
                                      "'.[cluster]')")
    import ray

    runner = make_runner("local", workers=2)
    yield runner
    ray.shutdown()


def test_ray_gives_the_local_results(ray_runner) -> None:
    assert list(ray_runner.map_units(square, JOBS)) == list(LocalRunner(1).map_units(square, JOBS))
    assert "Ray" in ray_runner.describe()


def test_a_worker_killed_mid_unit_is_run_again(ray_runner, tmp_path: Path) -> None:
    marker = str(tmp_path / "died-once")
    lines: list[str] = []
    results = list(run_units(ray_runner, die_once, [(marker, n) for n in range(8)],
                             say=lines.append))
    assert Path(marker).exists()  # unit 3's first worker did die
    assert results == [n * n for n in range(8)]
    assert lines[-1].startswith("units: 8/8 done, 0 failed, 1 retried")


def test_a_unit_that_raises_on_ray_is_named(ray_runner) -> None:
    with pytest.raises(ClusterError, match="unit 5 failed: ValueError: five"):
        list(ray_runner.map_units(fail_on_five, JOBS))


def test_a_book_built_on_ray_is_byte_identical_and_resumes(ray_runner, tmp_path: Path) -> None:
    """The Connect Four book builder on Ray: interrupted after two units (the driver stopped),
    then run again, it resumes from the saved units, and its book is the local one, byte for
    byte."""
    from yipan.cli.main import main
    from yipan.games.connect4 import ConnectFour
    from yipan.games.connect4.book import build, solve_unit

    game = ConnectFour(5, 4)
    path = tmp_path / "ray.book"
    read = 0

    def interrupted(jobs):
        nonlocal read
        for result in ray_runner.map_units(solve_unit, jobs):
            if read == 2:
                raise KeyboardInterrupt
            read += 1
            yield result

    with pytest.raises(KeyboardInterrupt):
        build(game, path, 3, unit_size=10, map_units=interrupted)
    report = build(game, path, 3, unit_size=10,
                   map_units=lambda jobs: ray_runner.map_units(solve_unit, jobs))
    assert report.units_done_before == 2
    local = tmp_path / "local.book"
    assert main(["book", "build", "connect4", "--size", "5x4", "--depth", "3", "--output",
                 str(local), "--workers", "1"]) == 0
    assert path.read_bytes() == local.read_bytes()


def test_table_levels_come_after_the_tables_they_need() -> None:
    from yipan.games.chess.tablebase import FOUR_PIECE, dependencies, plan

    levels = plan(["KPK", *FOUR_PIECE])
    seen: set[str] = set()
    for level in levels:
        names = {material.name for material in level}
        for material in level:
            assert {sub.name for sub in dependencies(material)} <= seen, material.name
        seen |= names
    assert [m.name for m in levels[0]][:2] == ["KQK", "KRK"]  # KPK's promotions first
    assert "KPK" in seen and "KQKP" in seen and len(seen) == len(set(seen))


def test_tables_built_on_ray_are_the_one_process_tables(ray_runner, tmp_path: Path) -> None:
    """``yipan tablebase build chess KPK --ray local``: KQK and KRK at once, then KPK (it
    promotes into them); every file is the one-process build's, byte for byte."""
    from yipan.cli.main import main
    from yipan.games.chess.tablebase import build

    build(["KPK"], tmp_path / "one")
    assert main(["tablebase", "build", "chess", "KPK", "--output", str(tmp_path / "ray"),
                 "--ray", "local", "--workers", "2"]) == 0
    names = sorted(path.name for path in (tmp_path / "one").iterdir())
    assert names == ["KPK.tb", "KQK.tb", "KRK.tb"]
    for name in names:
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "one" / name).read_bytes()


def test_a_seeded_match_is_the_same_on_ray_and_locally(ray_runner) -> None:
    """The games of a match as units: on one process, on two, and on a local Ray cluster,
    the same records in the same order; each record replays to the winner it says."""
    told: list[int] = []
    one = run_match(tictactoe_game, MATCH, None, 1, say=None,
                    on_game=lambda index, _record: told.append(index))
    assert told == [0, 1, 2, 3]
    assert len({tuple(moves) for moves, _ in one}) > 1  # the seeds make different games
    for moves, winner in one:
        assert replayed_winner(moves) == winner
    assert run_match(tictactoe_game, MATCH, None, 2, say=None) == one
    assert run_match(tictactoe_game, MATCH, runner=ray_runner, say=None) == one


def solve_unit_but_the_second(width: int, height: int, positions: list) -> list:
    """The book's unit, except that the unit holding the second position of ply 3 raises."""
    from yipan.games.connect4 import ConnectFour
    from yipan.games.connect4.book import positions_at, solve_unit

    second = positions_at(ConnectFour(width, height), 3)[1]
    if tuple(second) in [tuple(p) for p in positions]:
        raise ValueError("this unit is cursed")
    return solve_unit(width, height, positions)


def test_a_book_unit_that_raises_is_named_and_skipped_or_stops(tmp_path: Path) -> None:
    """``--on-error skip``: the other units are solved and saved, the failed one is said with
    its position, no book is written; the next run solves only that unit. ``stop``: the
    build stops at it."""
    from yipan.core import YipanError
    from yipan.games.connect4 import ConnectFour
    from yipan.games.connect4.book import build, positions_at, solve_unit, units_of

    game = ConnectFour(5, 4)
    path = tmp_path / "c4.book"
    with pytest.raises(ClusterError, match="unit 0 failed: ValueError: this unit is cursed"):
        build(game, path, 3, unit_size=10, map_units=lambda jobs: LocalRunner(1).map_units(
            solve_unit_but_the_second, jobs))
    said: list[str] = []
    with pytest.raises(YipanError, match=r"1 unit\(s\) failed \(0\): the book is not written"):
        build(game, path, 3, unit_size=10, progress=said.append,
              map_units=lambda jobs: LocalRunner(1, on_error="skip").map_units(
                  solve_unit_but_the_second, jobs))
    assert any(line.startswith("unit 0 (10 positions from ply 3, the first with key")
               and "cursed; skipped" in line for line in said)
    assert not path.exists()
    report = build(game, path, 3, unit_size=10,
                   map_units=lambda jobs: LocalRunner(1).map_units(solve_unit, jobs))
    units = len(units_of(positions_at(game, 3), 10))
    assert units > 1 and report.units_done_before == units - 1  # only unit 0 solved again
    build(game, tmp_path / "plain.book", 3, unit_size=10, workers=1)
    assert path.read_bytes() == (tmp_path / "plain.book").read_bytes()


def test_an_interrupted_table_build_resumes_with_the_tables_it_has(tmp_path: Path) -> None:
    """The driver stopped after the first table (KQK) came back: run again, the tables
    already there are kept (not rebuilt) and the rest built, the files the same."""
    from yipan.games.chess.tablebase import build

    built: list[str] = []

    def stopped_after_one(function, jobs):
        for job in jobs[:1]:
            built.append(job[0])
            yield function(*job)
        raise KeyboardInterrupt

    def counted(function, jobs):
        for job in jobs:
            built.append(job[0])
            yield function(*job)

    with pytest.raises(KeyboardInterrupt):
        build(["KPK"], tmp_path / "resumed", map_units=stopped_after_one)
    assert sorted(p.name for p in (tmp_path / "resumed").iterdir()) == ["KQK.tb"]
    built.clear()
    build(["KPK"], tmp_path / "resumed", map_units=counted)
    assert built == ["KRK", "KPK"]  # KQK kept
    build(["KPK"], tmp_path / "whole")
    for name in ("KQK.tb", "KRK.tb", "KPK.tb"):
        assert (tmp_path / "resumed" / name).read_bytes() == (tmp_path / "whole" / name
                                                              ).read_bytes()


def test_a_cluster_nobody_answers_is_one_line(tmp_path: Path) -> None:
    """``--ray HOST:PORT`` where no Ray head listens: exit status 2 and one line, at once
    (Ray itself would retry for minutes); nothing is built."""
    import subprocess
    import sys

    pytest.importorskip("ray", reason="the Ray tests need the cluster extra")
    src = Path(__file__).resolve().parents[2] / "src"
    done = subprocess.run(
        [sys.executable, "-m", "yipan", "tablebase", "build", "chess", "KQK", "--output",
         str(tmp_path), "--ray", "127.0.0.1:1"], capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(src)})
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "yipan: error: cannot reach the Ray cluster at '127.0.0.1:1': ")
    assert lines[0].endswith("(is 'ray start --head' running there?)")
    assert list(tmp_path.iterdir()) == []


def die_once_killed(marker: str, n: int) -> int:
    """Unit 3's first run kills its own worker process (SIGKILL, as the kernel's OOM killer
    or a person would); a marker file remembers."""
    import signal

    if n == 3 and not Path(marker).exists():
        Path(marker).write_text("killed")
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n


def always_dies(n: int) -> int:
    if n == 1:
        os._exit(1)
    return n


@pytest.mark.parametrize("unit", [die_once, die_once_killed])
def test_a_local_worker_killed_mid_unit_is_replaced_and_the_unit_run_again(
        tmp_path: Path, unit) -> None:
    marker = str(tmp_path / "died-once")
    lines: list[str] = []
    runner = LocalRunner(2)
    results = list(run_units(runner, unit, [(marker, n) for n in range(8)], say=lines.append))
    assert Path(marker).exists()  # unit 3's first worker did die
    assert results == [n * n for n in range(8)]
    assert 1 <= runner.retried <= 2  # unit 3, and the unit beside it on the broken pool
    assert lines[-1].startswith(f"units: 8/8 done, 0 failed, {runner.retried} retried")


def test_a_unit_whose_worker_always_dies_stops_the_job_after_its_retries() -> None:
    with pytest.raises(ClusterError, match=r"unit 1: a worker process died while it ran, 4 "
                                           r"times; run the job again"):
        list(LocalRunner(2).map_units(always_dies, [(n,) for n in range(4)]))


def kill_the_second_unit_once(marker: str, width: int, height: int, positions: list) -> list:
    """The book's unit, except that the worker running the second unit is killed the first
    time (SIGKILL)."""
    import signal

    from yipan.games.connect4.book import solve_unit

    if Path(marker + ".seen").exists() and not Path(marker).exists():
        Path(marker).write_text("killed")
        os.kill(os.getpid(), signal.SIGKILL)
    Path(marker + ".seen").touch()
    return solve_unit(width, height, positions)


def test_a_book_built_with_a_worker_killed_is_the_book_built_without(tmp_path: Path) -> None:
    """``yipan book build connect4 --workers 2`` as the CLI runs it (LocalRunner under
    run_units): a worker killed mid-unit costs a retry, not the job, and the book is the
    one process's, byte for byte."""
    from yipan.games.connect4 import ConnectFour
    from yipan.games.connect4.book import build

    game = ConnectFour(5, 4)
    marker = str(tmp_path / "killed")
    runner = LocalRunner(2)
    said: list[str] = []
    build(game, tmp_path / "killed.book", 3, unit_size=10,
          map_units=lambda jobs: run_units(
              runner, kill_the_second_unit_once, [(marker, *job) for job in jobs],
              say=said.append))
    assert Path(marker).exists() and runner.retried >= 1
    build(game, tmp_path / "plain.book", 3, unit_size=10, workers=1)
    assert (tmp_path / "killed.book").read_bytes() == (tmp_path / "plain.book").read_bytes()


def say_pid_and_wait(folder: str, n: int) -> int:
    """A long unit: writes its worker's pid, then waits far longer than the test."""
    import time

    Path(folder, f"pid-{n}").write_text(str(os.getpid()))
    time.sleep(600)
    return n


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status  # a zombie has ended; only its parent's reaping is left


if Path("/proc/self/status").exists():  # the workers are watched through Linux's /proc

    def test_a_terminated_job_stops_its_worker_processes(tmp_path: Path) -> None:
        """SIGTERM to a job on local processes (``kill``, ``pkill``) ends it with status 143 and
        ends its workers with it: none is left behind waiting for work."""
        import contextlib
        import signal
        import subprocess
        import sys
        import time

        here = Path(__file__).resolve().parent
        script = (f"import sys; sys.path.insert(0, {str(here)!r})\n"
                  "from test_cluster import say_pid_and_wait\n"
                  "from yipan.cli.main import exit_on_terminate\n"
                  "from yipan.cluster import LocalRunner\n"
                  "exit_on_terminate()\n"
                  f"jobs = [({str(tmp_path)!r}, n) for n in range(4)]\n"
                  "list(LocalRunner(2).map_units(say_pid_and_wait, jobs))\n")
        job = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(here.parents[1] / "src")})
        try:
            for _ in range(1200):
                if len(list(tmp_path.glob("pid-*"))) == 2 or job.poll() is not None:
                    break
                time.sleep(0.05)
            workers = [int(path.read_text()) for path in tmp_path.glob("pid-*")]
            assert len(workers) == 2 and all(map(_alive, workers)), job.stderr.read()[-2000:]
            job.send_signal(signal.SIGTERM)
            assert job.wait(60) == 128 + signal.SIGTERM
            for _ in range(200):
                if not any(map(_alive, workers)):
                    break
                time.sleep(0.05)
            assert not any(map(_alive, workers))
        finally:
            job.kill()
            for path in tmp_path.glob("pid-*"):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(path.read_text()), signal.SIGKILL)
