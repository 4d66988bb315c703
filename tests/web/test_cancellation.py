"""Cancellation, hammered: thousands of searches started and stopped at random moments, some
in the middle of sending a large result, some in a numba kernel that cannot be asked to stop
(its worker is killed); the runner still answers every search that is allowed to finish."""

from __future__ import annotations

import asyncio
import contextlib
import random

from yipan.core import Limit
from yipan.web import workers
from yipan.web.engines import SearchJob
from yipan.web.workers import SearchFailed, SearchRunner

X_WINS_NEXT = ("a1", "a2", "b1", "b2")

# alpha-beta on twenty rows of Kayles, every move valued: results of about 5 KB (larger than
# a pipe writes at once), the first within milliseconds
LARGE = SearchJob(game="kayles", moves=(), engine="alphabeta", limit=Limit(time=5),
                  options={"heaps": [20] * 20}, analysis=True)
# the Connect Four solver early in a game on 7x7 (no book), as its own analysis runs it (in
# numba slices, the stop flag asked between them); given no grace at all to answer, its
# worker is killed
STUBBORN = SearchJob(game="connect4", moves=("4",), engine="analysis", limit=Limit(time=20),
                     options={"size": "7x7"})
QUICK = SearchJob(game="tictactoe", moves=X_WINS_NEXT, engine="alphabeta", limit=Limit(time=5))


async def start_and_stop(runner: SearchRunner, job: SearchJob, wait: float) -> None:
    """Start a search and leave it after ``wait`` seconds or its first result."""
    async with runner.search(job) as results:
        with contextlib.suppress(TimeoutError, StopAsyncIteration, SearchFailed):
            await asyncio.wait_for(anext(results), wait)


async def hammer(runner: SearchRunner, rng: random.Random, cycles: int) -> None:
    for _ in range(cycles):
        await start_and_stop(runner, LARGE, rng.choice([0.0, 0.001, 0.003, 0.01, 0.05]))


async def scenario(cycles: int, stubborn: int) -> tuple[dict, SearchRunner]:
    runner = SearchRunner(max_running=2, max_waiting=4)
    try:
        await runner.warm_up()
        rng = random.Random(7)
        await asyncio.gather(hammer(runner, random.Random(rng.random()), cycles),
                             hammer(runner, random.Random(rng.random()), cycles))
        workers.GRACE = 0.0  # no time to say it stopped: the kill-and-replace path
        for _ in range(stubborn):
            await start_and_stop(runner, STUBBORN, 0.2)
        while runner.running:  # the stopped searches' workers answer or are replaced
            await asyncio.sleep(0.05)
        answer = await runner.run(QUICK)
        return answer, runner
    finally:
        runner.close()


def test_the_runner_survives_thousands_of_stopped_searches(monkeypatch) -> None:
    monkeypatch.setattr(workers, "GRACE", workers.GRACE)  # restored after the test
    answer, runner = asyncio.run(asyncio.wait_for(scenario(cycles=1000, stubborn=4), 500))
    assert answer["move"] == "c1"
    assert runner.searches == 2 * 1000 + 4 + 1
    assert runner.cancelled >= 1000  # most were stopped before they finished
    assert runner.killed >= 4  # those given no grace were killed, and replaced
    assert runner.running == 0


def test_half_a_frame_from_a_dying_worker_is_dropped_never_waited_for() -> None:
    """A worker killed while writing leaves half a message in the pipe: the server reads what
    is there without blocking, delivers no broken message, and sees the worker gone."""
    import os
    import pickle

    from yipan.web.workers import FRAME, _Worker

    async def scenario() -> list[tuple]:
        reader, writer = os.pipe()
        worker = _Worker.__new__(_Worker)  # the reading half of a worker, on a bare pipe
        worker.results = os.fdopen(reader, "rb", buffering=0)
        worker.buffer, worker.messages, worker.alive = bytearray(), asyncio.Queue(), False
        worker.listen(asyncio.get_running_loop())
        whole = pickle.dumps((1, "result", {"move": "a1"}))
        half = pickle.dumps((1, "result", {"pv": ["a1"] * 5000}))
        os.write(writer, FRAME.pack(len(whole)) + whole)
        os.write(writer, FRAME.pack(len(half)) + half[: len(half) // 2])
        os.close(writer)  # the worker dies mid-message
        received = [await asyncio.wait_for(worker.messages.get(), 5)]
        received.append(await asyncio.wait_for(worker.messages.get(), 5))
        worker.results.close()
        return received

    received = asyncio.run(scenario())
    assert received == [(1, "result", {"move": "a1"}), (0, "gone")]
