"""Searches in worker processes, off the event loop, that can always be stopped.

The search is pure Python (or a numba kernel) and holds the GIL while it runs, so in a thread
it would slow every other request down; in a process it does not. Starting a process costs
imports, so a few workers are kept warm, forked from a server process that has loaded the
engines and their compiled kernels once (``set_forkserver_preload``)::

    server (event loop)                             worker process (one search at a time)
      jobs pipe:    (id, job)  ──────────────────▶  engines.run(job, stop)
      results pipe: frames     ◀──────────────────  [8-byte length][pickle], one a result
      cancel: cancel.value = id  ── shared ──────▶  stop() is polled by the search
      hurry:  hurry.value = id   ── shared ──────▶  stop() too, but the answer is still sent
      after GRACE without an answer:  SIGKILL, and a fresh worker takes its place

Safe by construction:

- no signal ever interrupts a worker (a signal can land in another thread, and a message
  half written would be left on the pipe); a search is asked to stop through a flag its
  ``Limit.stop`` polls, and a worker that does not stop in time (a numba kernel polls no
  flag) is killed, its pipes thrown away with whatever half message they held;
- the event loop never blocks on a pipe: the results pipe is non-blocking, read as bytes
  when it is readable, and cut into frames by length;
- every search has a hard deadline (its time limit plus ``OVERRUN``); past it the worker is
  killed and replaced, and the request gets a clear error (HTTP 503);
- a worker that dies in a search (killed from outside, out of memory, a crash in native
  code) costs a retry, not the request: a search that has sent nothing yet is run again
  once on a fresh worker (a search is a pure function of its job); one that dies again, or
  had already streamed results, ends with a clear error (HTTP 503).

"Move now" is ``hurry``: the search is asked to stop as for a cancel, but the worker goes on
sending what it found (the best so far) and ends with ``done``; the search is named by a
token the caller chose (``search(job, token=...)``, ``hurry(token)``).

At most ``max_running`` searches run; a few more wait their turn, and beyond that the server
answers "busy".
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import pickle
import signal
import struct
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from ..core.errors import YipanError
from .engines import SearchJob

if TYPE_CHECKING:
    from .explore import ExplainJob

OVERRUN = 5.0
"""Seconds a search may run past its own time limit before its worker is killed (engines are
prepared before the clock starts, so this covers slow machines, not compilation)."""

PREPARING = 600.0
"""Seconds a worker may take to prepare a search's game before its clock starts (loading the
compiled kernels: a second; compiling them, on a machine that never did: minutes)."""

GRACE = 1.0
"""Seconds a search asked to stop may take to say so, before its worker is killed."""

RETRIES = 1
"""Times a search whose worker died before it sent anything is run again, on a fresh
worker."""

FRAME = struct.Struct("!Q")  # the length of the pickle that follows
PRELOAD = ["yipan.web.engines", "yipan.web.prepare", "yipan.web.explore"]


class SearchFailed(YipanError):
    """A search ended with an error; ``kind`` says whose fault: ``input`` (a YipanError in the
    search: HTTP 422), ``overrun`` (it outran its hard limit: 503), ``unavailable`` (its
    worker died, and the search could not be run again: 503), ``internal`` (500)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class ServerBusy(YipanError):  # noqa: N818 - a condition, reported as HTTP 503 with Retry-After
    """Too many searches are running or waiting."""


# -- the worker process ---------------------------------------------------------------------------
def _write_frame(descriptor: int, message: tuple) -> None:
    """One whole frame on the results pipe (blocking: the worker has nothing else to do)."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(FRAME.pack(len(data)) + data)
    while view:
        written = os.write(descriptor, view)
        view = view[written:]


def _worker_main(jobs: Connection, results: Connection, cancel: Any, hurry: Any) -> None:
    """A worker's life: run the jobs that come down the pipe, one at a time, until it closes."""
    from .engines import run
    from .explore import ExplainJob
    from .prepare import prepare_job

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server, which ends us
    out = results.fileno()
    while True:
        try:
            job_id, job = jobs.recv()
        except (EOFError, OSError):
            return

        def cancelled(job_id: int = job_id) -> bool:
            return cancel.value == job_id

        def stop(job_id: int = job_id) -> bool:  # cancelled, or hurried: answer now
            return cancel.value == job_id or hurry.value == job_id

        with contextlib.suppress(Exception):  # bad options: the search itself says so
            prepare_job(job.game, job.options)  # compiling is not searching: before the clock
        _write_frame(out, (job_id, "started"))
        try:
            # an explained search runs itself; every other job is an engine's
            work = job.run(stop) if isinstance(job, ExplainJob) else run(job, stop)
            for result in work:
                if cancelled():
                    break
                _write_frame(out, (job_id, "result", result))
            outcome: tuple = (job_id, "cancelled") if cancelled() else (job_id, "done")
        except YipanError as error:
            outcome = (job_id, "error", "input", str(error))
        except Exception as error:  # noqa: BLE001 - reported to the client, never a crash
            outcome = (job_id, "error", "internal", f"{type(error).__name__}: {error}")
        try:
            _write_frame(out, outcome)
        except OSError:
            return  # the server closed our pipe: it has replaced us


class _Worker:
    """The server's handle on one worker process and its two pipes."""

    def __init__(self, context: Any) -> None:
        self.jobs, child_jobs = context.Pipe(duplex=False)[::-1]
        self.results, child_results = context.Pipe(duplex=False)
        self.cancel = context.Value("q", 0, lock=False)
        self.hurry = context.Value("q", 0, lock=False)
        self.process = context.Process(
            target=_worker_main, args=(child_jobs, child_results, self.cancel, self.hurry),
            name="yipan-search", daemon=True)
        self._child_ends = (child_jobs, child_results)
        self.buffer = bytearray()
        self.messages: asyncio.Queue[tuple] = asyncio.Queue()
        self.alive = False

    def start(self) -> None:
        """Start the process (blocking: run it in a thread)."""
        self.process.start()
        for end in self._child_ends:
            end.close()

    def listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """Read the results pipe whenever it is readable (never blocking the loop)."""
        descriptor = self.results.fileno()
        os.set_blocking(descriptor, False)
        loop.add_reader(descriptor, self._readable)
        self.alive = True

    def _readable(self) -> None:
        try:
            chunk = os.read(self.results.fileno(), 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:  # the worker is gone
            self._hang_up()
            return
        self.buffer += chunk
        while len(self.buffer) >= FRAME.size:
            (length,) = FRAME.unpack_from(self.buffer)
            if len(self.buffer) < FRAME.size + length:
                break
            data = bytes(self.buffer[FRAME.size:FRAME.size + length])
            del self.buffer[:FRAME.size + length]
            self.messages.put_nowait(pickle.loads(data))  # noqa: S301 - our own child's bytes

    def _hang_up(self) -> None:
        if self.alive:
            self.detach()
            self.messages.put_nowait((0, "gone"))

    def detach(self) -> None:
        """Stop reading the results pipe (in the event loop's thread, before ``kill``)."""
        if self.alive:
            self.alive = False
            with contextlib.suppress(ValueError, OSError, RuntimeError):
                asyncio.get_running_loop().remove_reader(self.results.fileno())

    def send(self, job_id: int, job: SearchJob | ExplainJob) -> None:
        self.cancel.value = 0
        self.hurry.value = 0
        self.jobs.send((job_id, job))

    def ask_to_stop(self, job_id: int) -> None:
        self.cancel.value = job_id

    def ask_to_hurry(self, job_id: int) -> None:
        self.hurry.value = job_id

    def kill(self) -> None:
        """Kill the process and drop its pipes, half-read messages and all (blocking; call
        ``detach`` first, in the loop's thread)."""
        with contextlib.suppress(ProcessLookupError, ValueError, AttributeError):
            self.process.kill()
        with contextlib.suppress(ValueError, AssertionError):
            self.process.join(5.0)
        for end in (self.jobs, self.results):
            with contextlib.suppress(OSError):
                end.close()

    async def dispose(self) -> None:
        """Detach, then kill in a thread (the event loop goes on meanwhile)."""
        self.detach()
        await asyncio.to_thread(self.kill)

    def stop(self) -> None:
        """Stop the worker for good (on server shutdown, in the loop's thread)."""
        self.detach()
        self.kill()


# -- the server's side ----------------------------------------------------------------------------
@dataclass(slots=True)
class _Search:
    """One search as the server follows it: its job, and the worker and job id it runs
    under now (both change when a dead worker's search is run again)."""

    job: SearchJob | ExplainJob
    token: str | None
    worker: _Worker | None = None
    job_id: int = 0
    deadline: float = 0.0
    runs: int = 1
    finished: bool = False
    hurried: bool = False  # "Move now" was asked: a search run again is asked again


class SearchRunner:
    """A small pool of warm worker processes, a cap on searches, cancellation, hard limits."""

    def __init__(self, max_running: int = 2, max_waiting: int = 8,
                 start_method: str = "forkserver") -> None:
        self.max_running = max_running
        self.max_waiting = max_waiting
        self.context = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            self.context.set_forkserver_preload(PRELOAD)
        self.waiting = 0
        self.running = 0
        self.started = 0  # worker processes started
        self.searches = 0
        self.cancelled = 0  # searches stopped before they finished
        self.killed = 0  # workers killed because they did not stop in time
        self.lost = 0  # workers that died during a search
        self.retried = 0  # searches run again on a fresh worker after theirs died
        self._idle: list[_Worker] = []
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ids = itertools.count(1)
        self._cleanups: set[asyncio.Task] = set()
        self._named: dict[str, _Search] = {}  # token -> the search it names

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
        worker.listen(asyncio.get_running_loop())
        self.started += 1
        return worker

    async def _idle_worker(self) -> _Worker:
        while self._idle:
            worker = self._idle.pop()
            if worker.alive and worker.process.is_alive():
                return worker
            await worker.dispose()  # died while idle: replace it
        return await self._start_worker()

    def close(self) -> None:
        """Stop every idle worker (running searches stop with their requests)."""
        while self._idle:
            self._idle.pop().stop()

    def hurry(self, token: str) -> bool:
        """Ask the search named ``token`` to answer now, with its best so far ("Move now");
        False when no such search is running."""
        named = self._named.get(token)
        if named is None:
            return False
        named.hurried = True
        if named.worker is not None:  # (None between a dead worker and its retry)
            named.worker.ask_to_hurry(named.job_id)
        return True

    @asynccontextmanager
    async def search(self, job: SearchJob | ExplainJob, token: str | None = None
                     ) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        """``async with runner.search(job) as results: async for result in results: ...``

        Leaving the block before the last result (or being cancelled) stops the search.
        ``token`` names it for ``hurry`` while it runs.
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
        state = _Search(job, token)
        if token is not None:
            self._named[token] = state
        try:
            await self._dispatch(state, await self._idle_worker())
            self.searches += 1
            yield self._results(state)
        finally:
            if token is not None:
                self._named.pop(token, None)
            worker, job_id = state.worker, state.job_id
            if worker is not None and not state.finished:
                # stopping waits for the worker's answer: a task of its own, since this
                # request may be being cancelled (a closed connection) and could not wait
                self.cancelled += 1
                worker.ask_to_stop(job_id)
                task = asyncio.get_running_loop().create_task(
                    self._recover(worker, job_id, slots))
                self._cleanups.add(task)
                task.add_done_callback(self._cleanups.discard)
            else:
                if worker is not None:
                    self._release(worker)
                self.running -= 1
                slots.release()

    async def _dispatch(self, state: _Search, worker: _Worker) -> None:
        """Send the search's job to ``worker`` (a fresh one if it died since it was idle),
        under a new job id; its hard deadline starts once the worker has prepared the game
        (``started``)."""
        state.job_id = next(self._ids)
        try:
            worker.send(state.job_id, state.job)
        except OSError:  # the worker died between the check and the send
            await worker.dispose()
            worker = await self._start_worker()
            worker.send(state.job_id, state.job)
        state.worker = worker
        state.deadline = time.monotonic() + PREPARING
        if state.hurried:  # asked before this worker had the search
            worker.ask_to_hurry(state.job_id)

    def _release(self, worker: _Worker) -> None:
        if worker.alive and len(self._idle) < self.max_running:
            self._idle.append(worker)
        else:  # dead, or one too many (started while the pool was warming up)
            worker.stop()

    async def _recover(self, worker: _Worker, job_id: int, slots: asyncio.Semaphore) -> None:
        """Wait for a stopped search to say so; a worker that does not is killed."""
        try:
            deadline = time.monotonic() + GRACE
            while worker.alive:
                message = await asyncio.wait_for(worker.messages.get(),
                                                 max(deadline - time.monotonic(), 0.0))
                if message[0] == job_id and message[1] in ("done", "cancelled", "error"):
                    self._release(worker)
                    return
            await worker.dispose()
        except TimeoutError:
            self.killed += 1
            await worker.dispose()
        finally:
            self.running -= 1
            slots.release()

    async def _results(self, state: _Search) -> AsyncIterator[dict[str, Any]]:
        sent = False  # whether a result has gone to the caller (then no retry can hide it)
        while True:
            worker, job_id = state.worker, state.job_id
            assert worker is not None
            try:
                message = await asyncio.wait_for(worker.messages.get(),
                                                 max(state.deadline - time.monotonic(), 0.0))
            except TimeoutError:
                state.finished = True
                self.killed += 1
                await worker.dispose()
                # (the hard limit is the server's, not the player's: the message names none)
                raise SearchFailed("the engine did not answer in time and was restarted; "
                                   "ask for the move again", "overrun") from None
            if message[1] == "gone":
                self.lost += 1
                state.worker = None  # (gone: nothing to stop or give back)
                await worker.dispose()
                if not sent and state.runs <= RETRIES:
                    state.runs += 1
                    self.retried += 1
                    await self._dispatch(state, await self._start_worker())
                    continue
                state.finished = True
                raise SearchFailed("the search process ended unexpectedly; try again in a "
                                   "moment", "unavailable")
            if message[0] != job_id:
                continue  # left over from an earlier job that was stopped
            kind = message[1]
            if kind == "started":  # the game is prepared: the search's clock starts
                state.deadline = time.monotonic() + (state.job.limit.time or 0.0) + OVERRUN
                continue
            if kind == "result":
                sent = True
                yield message[2]
                continue
            state.finished = True
            if kind == "done":
                return
            if kind == "cancelled":
                raise SearchFailed("the search was stopped", "internal")
            raise SearchFailed(message[3], message[2])

    async def run(self, job: SearchJob | ExplainJob) -> dict[str, Any]:
        """The final result of a job (for alpha-beta, the deepest completed iteration)."""
        last = None
        async with self.search(job) as results:
            async for result in results:
                last = result
        if last is None:
            raise SearchFailed("the search gave no result", "internal")
        return last
