"""Searches in their own processes, off the event loop.

The search is pure Python and holds the GIL while it runs, so a thread would slow every other
request down; a process does not. Each search gets a fresh process (forked from a fork
server that has the engines already imported, so starting one is cheap) and a pipe::

    server (event loop)                      search process
      start(job) ───── fork ───────────────▶ engines.run(job)
      await pipe  ◀──── ("result", {...}) ──  after each depth
                  ◀──── ("result", {...}) ──
                  ◀──── ("done", None) ─────  or ("error", kind, message)

A search that is no longer wanted (the client went away, the time cap passed) is ended with
``terminate``, so it stops using the CPU at once. At most ``max_running`` searches run at a
time; a few more wait their turn, and beyond that the server answers "busy".
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from multiprocessing.connection import Connection
from typing import Any

from ..core.errors import YipanError
from .engines import SearchJob

GRACE = 5.0
"""Seconds a search may overrun its own time limit (process start, a slow last node)."""


class SearchFailed(YipanError):
    """A search ended with an error; ``kind`` says whose fault (the input's, or the server's)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind  # "input": a YipanError in the search; "internal": anything else


class ServerBusy(YipanError):  # noqa: N818 - a condition, reported as HTTP 503
    """Too many searches are running or waiting."""


def _search_process(job: SearchJob, connection: Connection) -> None:
    """The body of a search process: run the job and send each result down the pipe."""
    from .engines import run

    try:
        for result in run(job):
            connection.send(("result", result))
        connection.send(("done", None))
    except YipanError as error:
        connection.send(("error", "input", str(error)))
    except Exception as error:  # noqa: BLE001 - reported to the client, never a crash
        connection.send(("error", "internal", f"{type(error).__name__}: {error}"))
    finally:
        connection.close()


class SearchRunner:
    """Starts search processes, caps how many run, and ends them when they are not wanted."""

    def __init__(self, max_running: int = 2, max_waiting: int = 8,
                 start_method: str = "forkserver") -> None:
        self.max_running = max_running
        self.max_waiting = max_waiting
        self.context = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            self.context.set_forkserver_preload(["yipan.web.engines"])
        self.running = 0
        self.waiting = 0
        self.started = 0
        self.cancelled = 0  # searches ended before they finished (client gone, cap reached)
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._slots is None or self._loop is not loop:  # one per event loop (tests)
            self._slots, self._loop = asyncio.Semaphore(self.max_running), loop
        return self._slots

    @asynccontextmanager
    async def search(self, job: SearchJob) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        """``async with runner.search(job) as results: async for result in results: ...``

        Leaving the block early (or being cancelled) ends the search process at once.
        """
        if self.waiting >= self.max_waiting:
            raise ServerBusy("the server is busy with other searches; try again in a moment")
        slots = self._semaphore()
        self.waiting += 1
        try:
            await slots.acquire()
        finally:
            self.waiting -= 1
        try:
            self.running += 1
            receiver, sender = self.context.Pipe(duplex=False)
            process = self.context.Process(target=_search_process, args=(job, sender),
                                           name=f"yipan-search-{job.engine}", daemon=True)
            await asyncio.to_thread(process.start)
            self.started += 1
            sender.close()
            deadline = time.monotonic() + (job.limit.time or 0.0) + GRACE
            try:
                yield self._results(receiver, deadline)
            finally:
                receiver.close()
                if process.is_alive():
                    self.cancelled += 1
                    process.terminate()
                await asyncio.to_thread(process.join, GRACE)
                if process.is_alive():
                    process.kill()
                    await asyncio.to_thread(process.join)
        finally:
            self.running -= 1
            slots.release()

    async def _results(self, receiver: Connection,
                       deadline: float) -> AsyncIterator[dict[str, Any]]:
        while True:
            remaining = deadline - time.monotonic()
            try:
                message = await asyncio.wait_for(_receive(receiver), max(remaining, 0.0))
            except TimeoutError:
                raise SearchFailed("the search overran its time limit", "internal") from None
            except EOFError:
                raise SearchFailed("the search process ended unexpectedly", "internal") from None
            if message[0] == "result":
                yield message[1]
            elif message[0] == "done":
                return
            else:
                raise SearchFailed(message[2], message[1])

    async def run(self, job: SearchJob) -> dict[str, Any]:
        """The final result of a job (the deepest iteration)."""
        last = None
        async with self.search(job) as results:
            async for last in results:
                pass
        if last is None:
            raise SearchFailed("the search gave no result", "internal")
        return last


async def _receive(connection: Connection) -> Any:
    """Wait for the pipe to be readable without blocking the event loop, then read."""
    loop = asyncio.get_running_loop()
    readable = loop.create_future()
    descriptor = connection.fileno()

    def ready() -> None:
        if not readable.done():
            readable.set_result(None)

    loop.add_reader(descriptor, ready)
    try:
        await readable
    finally:
        loop.remove_reader(descriptor)
    return connection.recv()
