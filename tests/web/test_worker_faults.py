"""A search worker killed in the middle of a search (SIGKILL, as the OOM killer or a person
would) costs a retry, not the request: the search runs again on a fresh worker and answers;
a second death in the same search is a clear "try again" (HTTP 503), and the runner goes on
answering."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from yipan.core import Limit
from yipan.web.engines import SearchJob
from yipan.web.workers import SearchFailed, SearchRunner

# the Connect Four solver early in a game on 7x7 (no book): its one result comes at the end
# of its second
SLOW = SearchJob(game="connect4", moves=("4",), engine="analysis", limit=Limit(time=1),
                 options={"size": "7x7"})
QUICK = SearchJob(game="tictactoe", moves=("a1", "a2", "b1", "b2"), engine="alphabeta",
                  limit=Limit(time=5))


def worker_pid(runner: SearchRunner, token: str) -> int | None:
    """The process id of the worker that runs the search named ``token`` (None between a
    dead worker and its retry)."""
    worker = runner._named[token].worker
    return None if worker is None else worker.process.pid


def kill(runner: SearchRunner, token: str) -> int:
    """SIGKILL the worker that runs the search named ``token``; its pid."""
    pid = worker_pid(runner, token)
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    return pid


async def search_with_kills(runner: SearchRunner, job: SearchJob, kills: int
                            ) -> list[dict]:
    """The results of ``job``, killing the worker that runs it, ``kills`` times, each time
    before it sends anything (the results are read meanwhile: that is when a retry starts)."""
    token = "victim"
    async with runner.search(job, token=token) as results:

        async def read() -> list[dict]:
            return [result async for result in results]

        reading = asyncio.ensure_future(read())
        killed: set[int] = set()
        for _ in range(kills):
            while worker_pid(runner, token) in killed | {None}:  # wait for the retry's
                await asyncio.sleep(0.01)
            killed.add(kill(runner, token))
        return await reading


async def scenario(kills: int) -> tuple[list[dict] | SearchFailed, dict, SearchRunner]:
    runner = SearchRunner(max_running=1, max_waiting=2)
    try:
        await runner.warm_up()
        try:
            outcome: list[dict] | SearchFailed = await search_with_kills(runner, SLOW, kills)
        except SearchFailed as error:
            outcome = error
        return outcome, await runner.run(QUICK), runner
    finally:
        runner.close()


def test_a_worker_killed_mid_search_costs_a_retry_not_the_request() -> None:
    results, after, runner = asyncio.run(asyncio.wait_for(scenario(kills=1), 300))
    assert isinstance(results, list) and results[-1]["move"] is not None
    assert runner.lost == 1 and runner.retried == 1
    assert after["move"] == "c1"  # and the runner goes on
    assert runner.running == 0


def test_a_search_whose_worker_dies_twice_is_a_clear_503() -> None:
    from yipan.web.app import error_status

    failed, after, runner = asyncio.run(asyncio.wait_for(scenario(kills=2), 300))
    assert isinstance(failed, SearchFailed) and failed.kind == "unavailable"
    assert str(failed) == "the search process ended unexpectedly; try again in a moment"
    pytest.importorskip("fastapi", reason="the HTTP status needs the web extra")
    assert error_status(failed) == 503
    assert runner.lost == 2 and runner.retried == 1
    assert after["move"] == "c1"


def test_a_search_past_the_servers_hard_limit_is_restarted_in_words_a_player_reads(
        monkeypatch) -> None:
    """A search still running when the server's own hard limit passes is stopped, its worker
    replaced; the player, who set no such limit, is told to ask again, not about limits."""
    from yipan.web import workers

    monkeypatch.setattr(workers, "OVERRUN", -0.7)  # the hard limit 0.3 s into a 1 s search

    async def overrun() -> tuple[SearchFailed, dict, SearchRunner]:
        runner = SearchRunner(max_running=1, max_waiting=2)
        try:
            await runner.warm_up()
            with pytest.raises(SearchFailed) as failed:
                await runner.run(SLOW)
            return failed.value, await runner.run(QUICK), runner
        finally:
            runner.close()

    error, after, runner = asyncio.run(asyncio.wait_for(overrun(), 300))
    assert error.kind == "overrun" and runner.killed == 1
    assert "ask for the move again" in str(error) and "limit" not in str(error)
    assert after["move"] == "c1"  # and the runner goes on
