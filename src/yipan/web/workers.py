"""Searches in worker processes, off the event loop, that can be stopped at once.

The search is pure Python and holds the GIL while it runs, so in a thread it would slow every
other request down; in a process it does not. Starting a process costs imports (a second, more
on a busy machine), so a few workers are started once and kept warm::

    server (event loop)                           worker process (one search at a time)
      send (id, job)  ─────────────────────────▶  engines.run(job)
      await pipe      ◀──── (id, "result", {...})  after each completed depth
                      ◀──── (id, "result", {...})
                      ◀──── (id, "done")           or (id, "error", kind, message)
      cancel: cancel.value = id; SIGUSR1 ─────▶  the handler raises inside the search
                      ◀──── (id, "cancelled")      and the worker waits for the next job

A search nobody wants any more (the client went away, the time cap passed) is interrupted by
a signal, so it stops using the CPU at once and its worker serves the next request. The signal
only interrupts the job it names (``cancel.value``), and is blocked while a message is being
written, so the pipe never carries half a message. At most ``max_running`` searches run; a few
more wait their turn, and beyond that the server answers "busy".
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import signal
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from multiprocessing.connection import Connection
from typing import Any

from ..core.errors import YipanError
from .engines import SearchJob

OVERRUN = 30.0
"""Seconds a search may overrun its own time limit (a game's AI may compile a kernel first)."""

GRACE = 5.0
"""Seconds an interrupted search may take to say it stopped, before its worker is replaced."""

CANCEL_SIGNAL = signal.SIGUSR1


class SearchFailed(YipanError):
    """A search ended with an error; ``kind`` says whose fault (the input's, or the server's)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind  # "input": a YipanError in the search; "internal": anything else


class ServerBusy(YipanError):  # noqa: N818 - a condition, reported as HTTP 503
    """Too many searches are running or waiting."""


# -- the worker process ---------------------------------------------------------------------------
class _Cancelled(BaseException):  # noqa: N818 - not an Exception, so no engine swallows it
    """Raised inside a worker's search by the cancel signal."""


def _send(connection: Connection, message: tuple) -> None:
    """Write a whole message with the cancel signal held back until it is written."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {CANCEL_SIGNAL})
    try:
        connection.send(message)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {CANCEL_SIGNAL})


def _worker_main(connection: Connection, cancel: Any) -> None:
    """A worker's life: run the jobs that come down the pipe, one at a time, until it closes."""
    from .engines import run

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server, which ends us
    running = 0  # the id of the job being searched; 0 between jobs

    def interrupt(signum: int, frame: Any) -> None:
        if running and cancel.value == running:
            raise _Cancelled

    signal.signal(CANCEL_SIGNAL, interrupt)
    while True:
        try:
            job_id, job = connection.recv()
        except (EOFError, OSError):
            return
        try:
            try:
                running = job_id
                for result in run(job):
                    _send(connection, (job_id, "result", result))
                outcome: tuple = (job_id, "done")
            finally:
                running = 0
        except _Cancelled:
            outcome = (job_id, "cancelled")
        except YipanError as error:
            outcome = (job_id, "error", "input", str(error))
        except Exception as error:  # noqa: BLE001 - reported to the client, never a crash
            outcome = (job_id, "error", "internal", f"{type(error).__name__}: {error}")
        _send(connection, outcome)


class _Worker:
    """The server's handle on one worker process."""

    def __init__(self, context: Any) -> None:
        self.connection, child_end = context.Pipe(duplex=True)
        self.cancel = context.Value("q", 0, lock=False)
        self.process = context.Process(target=_worker_main, args=(child_end, self.cancel),
                                       name="yipan-search", daemon=True)
        self._child_end = child_end

    def start(self) -> None:
        self.process.start()
        self._child_end.close()

    def interrupt(self, job_id: int) -> None:
        self.cancel.value = job_id
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, CANCEL_SIGNAL)

    def stop(self) -> None:
        self.connection.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(GRACE)


# -- the server's side ----------------------------------------------------------------------------
class SearchRunner:
    """A small pool of warm worker processes, a cap on searches, and cancellation."""

    def __init__(self, max_running: int = 2, max_waiting: int = 8,
                 start_method: str = "forkserver") -> None:
        self.max_running = max_running
        self.max_waiting = max_waiting
        self.context = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            self.context.set_forkserver_preload(["yipan.web.engines", "yipan.search"])
        self.waiting = 0
        self.running = 0
        self.started = 0  # worker processes started
        self.searches = 0
        self.cancelled = 0  # searches interrupted before they finished
        self._idle: list[_Worker] = []
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ids = itertools.count(1)
        self._cleanups: set[asyncio.Task] = set()

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._slots is None or self._loop is not loop:  # one per event loop (tests)
            self._slots, self._loop = asyncio.Semaphore(self.max_running), loop
        return self._slots

    def busy(self) -> bool:
        """Whether every worker is searching and the queue is full."""
        return self.running + self.waiting >= self.max_running + self.max_waiting

    async def warm_up(self) -> None:
        """Start the workers ahead of the first search (they take a moment to import)."""
        while len(self._idle) < self.max_running:
            self._idle.append(await self._start_worker())

    async def _start_worker(self) -> _Worker:
        worker = _Worker(self.context)
        await asyncio.to_thread(worker.start)
        self.started += 1
        return worker

    def close(self) -> None:
        """Stop every idle worker (running searches stop with their requests)."""
        while self._idle:
            self._idle.pop().stop()

    @asynccontextmanager
    async def search(self, job: SearchJob) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        """``async with runner.search(job) as results: async for result in results: ...``

        Leaving the block before the last result (or being cancelled) interrupts the search.
        """
        if self.busy():
            raise ServerBusy("the server is busy with other searches; try again in a moment")
        slots = self._semaphore()
        self.waiting += 1
        try:
            await slots.acquire()
        finally:
            self.waiting -= 1
        self.running += 1
        worker = None
        job_id = next(self._ids)
        state = {"finished": False}
        try:
            worker = self._idle.pop() if self._idle else await self._start_worker()
            try:
                worker.connection.send((job_id, job))
            except OSError:  # the worker died while idle: replace it
                await asyncio.to_thread(worker.stop)
                worker = await self._start_worker()
                worker.connection.send((job_id, job))
            self.searches += 1
            deadline = time.monotonic() + (job.limit.time or 0.0) + OVERRUN
            yield self._results(worker, job_id, deadline, state)
        finally:
            if worker is not None and not state["finished"]:
                # interrupting waits for the worker's answer: a task of its own, since this
                # request may be being cancelled (a closed connection) and could not wait
                self.cancelled += 1
                worker.interrupt(job_id)
                task = asyncio.get_running_loop().create_task(
                    self._recover(worker, job_id, slots))
                self._cleanups.add(task)
                task.add_done_callback(self._cleanups.discard)
            else:
                if worker is not None:
                    self._release(worker)
                self.running -= 1
                slots.release()

    def _release(self, worker: _Worker) -> None:
        if len(self._idle) < self.max_running:
            self._idle.append(worker)
        else:  # one too many (started while the pool was warming up)
            worker.stop()

    async def _recover(self, worker: _Worker, job_id: int, slots: asyncio.Semaphore) -> None:
        """Wait for an interrupted worker to say it stopped; one that does not is replaced."""
        try:
            deadline = time.monotonic() + GRACE
            while True:
                message = await asyncio.wait_for(_receive(worker.connection),
                                                 max(deadline - time.monotonic(), 0.0))
                if message[0] == job_id and message[1] in ("done", "cancelled", "error"):
                    break
            self._release(worker)
        except (TimeoutError, EOFError, OSError):
            await asyncio.to_thread(worker.stop)
        finally:
            self.running -= 1
            slots.release()

    async def _results(self, worker: _Worker, job_id: int, deadline: float,
                       state: dict[str, bool]) -> AsyncIterator[dict[str, Any]]:
        while True:
            try:
                message = await asyncio.wait_for(_receive(worker.connection),
                                                 max(deadline - time.monotonic(), 0.0))
            except TimeoutError:
                raise SearchFailed("the search overran its time limit", "internal") from None
            except (EOFError, OSError):
                raise SearchFailed("the search process ended unexpectedly", "internal") from None
            if message[0] != job_id:
                continue  # left over from an earlier job (cannot happen: drained on cancel)
            kind = message[1]
            if kind == "result":
                yield message[2]
                continue
            state["finished"] = True
            if kind == "done":
                return
            if kind == "cancelled":
                raise SearchFailed("the search was stopped", "internal")
            raise SearchFailed(message[3], message[2])

    async def run(self, job: SearchJob) -> dict[str, Any]:
        """The final result of a job (for alpha-beta, the deepest completed iteration)."""
        last = None
        async with self.search(job) as results:
            async for result in results:
                last = result
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
