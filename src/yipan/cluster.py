"""Units of work run where the user says: local processes, or a Ray cluster.

The long jobs (an opening book, self-play, a match) are cut into *units*: plain data in, plain
data out, each a call ``function(*job)`` of a module-level function. ``map_units`` runs them and
yields the results in the order of the jobs, so the job that saves each result as it comes (and
resumes from what it saved) needs no change to run anywhere::

    runner = make_runner(None, workers=2)          # local processes
    runner = make_runner("auto", workers=2)        # the Ray cluster this machine belongs to
    runner = make_runner("local", workers=2)       # a Ray cluster started here, for this job
    runner = make_runner("10.0.0.5:6379", ...)     # a Ray cluster started elsewhere
    for result in runner.map_units(solve_unit, jobs):
        save(result)

Ray is an optional extra (``pip install -e ".[cluster]"``): the base install never imports it,
and asking for it without it is one clear line. A unit whose worker process dies is run
again on a new one (up to ``RETRIES`` times), locally as on Ray, and gives the same result,
since a unit is a pure function of its job; a unit that raises is reported with its index,
and the job stops or goes on as the caller chose (``on_error``).

``run_units`` wraps ``map_units`` with a progress line on stderr every few seconds (units
done, failed, retried, units/s, the time left), and ``run_match`` runs the games of a match
as units (one game a unit), for the match runners of benchmarks/ (``add_cluster_arguments``
gives them ``--ray`` and ``--workers``).
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .core import YipanError

RETRIES = 3  # runs of a unit whose worker died, after the first
CONNECT_SECONDS = 5.0  # to reach a cluster's head before Ray is asked to join it
IN_FLIGHT_PER_CPU = 2  # units submitted ahead of the results read, per CPU (bounded memory)


class ClusterError(YipanError):
    """Ray missing, a cluster that cannot be reached, or a unit that failed."""


@dataclass(frozen=True, slots=True)
class UnitFailed:
    """The result in place of a unit that raised (``on_error="skip"``)."""

    index: int
    error: str


class Runner(Protocol):
    """Runs units of work; ``describe`` says where, for the progress lines."""

    def map_units(self, function: Callable[..., Any], jobs: Iterable[Sequence[Any]]
                  ) -> Iterator[Any]: ...

    def describe(self) -> str: ...


class LocalRunner:
    """Units on local worker processes (``workers == 1``: in this process, one by one)."""

    def __init__(self, workers: int = 2, on_error: str = "stop") -> None:
        self.workers = workers
        self.on_error = on_error
        self.retried = 0  # units run again after a worker process died

    def describe(self) -> str:
        return f"{self.workers} local process{'es' if self.workers > 1 else ''}"

    def map_units(self, function: Callable[..., Any], jobs: Iterable[Sequence[Any]]
                  ) -> Iterator[Any]:
        jobs = list(jobs)
        if self.workers <= 1 or len(jobs) <= 1:
            for index, job in enumerate(jobs):
                yield _run_one(function, job, index, self.on_error)
            return
        yield from self._pooled(function, jobs)

    def _pooled(self, function: Callable[..., Any], jobs: list[Sequence[Any]]
                ) -> Iterator[Any]:
        """The units on a pool of ``workers`` processes, one unit each at a time, so that
        the units a dead worker took down with it are known: a process that dies breaks the
        whole pool (an executor, not ``multiprocessing.Pool``, which would wait forever for
        the lost unit), and the units that were running are run again on a fresh pool. A death
        is charged to a unit only when it ran alone: the units lost together run again one at
        a time, so a unit that kills its worker is the one named after ``RETRIES`` retries,
        never a unit that happened to run beside it."""
        context = multiprocessing.get_context("spawn")
        waiting = deque(range(len(jobs)))  # units not yet handed out, in order
        running: dict[Future, int] = {}
        finished: dict[int, Future] = {}  # results held until the units before them are out
        deaths = [0] * len(jobs)  # deaths of a worker while the unit ran alone
        suspects: set[int] = set()  # units lost beside others: each runs alone next time
        pool = ProcessPoolExecutor(self.workers, mp_context=context)
        try:
            for next_out in range(len(jobs)):
                while next_out not in finished:
                    broken = False
                    while waiting and len(running) < self.workers:
                        alone = waiting[0] in suspects
                        if running and (alone or suspects & set(running.values())):
                            break
                        try:
                            future = pool.submit(function, *jobs[waiting[0]])
                        except BrokenProcessPool:  # a worker died since the last look
                            broken = True
                            break
                        running[future] = waiting.popleft()
                        if alone:
                            break
                    done = wait(running, return_when=FIRST_COMPLETED)[0] if running else set()
                    for future in done:
                        if not isinstance(future.exception(), BrokenProcessPool):
                            finished[running.pop(future)] = future
                    if broken or running.keys() & done:  # the pool is broken: units lost
                        lost = sorted(running.values())
                        running.clear()
                        pool.shutdown(wait=True, cancel_futures=True)
                        pool = ProcessPoolExecutor(self.workers, mp_context=context)
                        if len(lost) == 1:
                            index = lost[0]
                            deaths[index] += 1
                            if deaths[index] > RETRIES:
                                raise ClusterError(
                                    f"unit {index}: a worker process died while it ran, "
                                    f"{deaths[index]} times; run the job again to resume "
                                    "from what was saved")
                        else:
                            suspects.update(lost)
                        self.retried += len(lost)
                        waiting.extendleft(reversed(lost))
                yield _result_of(finished.pop(next_out).result, next_out, self.on_error)
        except BaseException:  # interrupted, terminated, failed or closed early
            _end_workers(pool)
            raise
        pool.shutdown(wait=True)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Stop the pool's workers mid-unit rather than wait for their units: the job is being
    abandoned, and a unit, a pure function of its job, is made again when the job resumes.
    Left running, a worker whose parent is gone waits for work forever."""
    # the executor's own record of its processes: Python 3.14 adds terminate_workers()
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(5)


def _run_one(function: Callable[..., Any], job: Sequence[Any], index: int,
             on_error: str) -> Any:
    return _result_of(lambda: function(*job), index, on_error)


def _result_of(get: Callable[[], Any], index: int, on_error: str) -> Any:
    try:
        return get()
    except (KeyboardInterrupt, ClusterError, BrokenProcessPool):
        raise
    except Exception as error:  # noqa: BLE001 - a unit's own failure, reported with its index
        message = f"unit {index} failed: {type(error).__name__}: {error}"
        if on_error == "skip":
            return UnitFailed(index, message)
        raise ClusterError(message) from None


class RayRunner:
    """Units as Ray tasks on a cluster: retried when their worker dies, in order."""

    def __init__(self, address: str, workers: int | None = None, on_error: str = "stop") -> None:
        if importlib.util.find_spec("ray") is None:
            raise ClusterError("--ray needs Ray: pip install -e '.[cluster]'")
        import ray

        self.ray = ray
        self.on_error = on_error
        if not ray.is_initialized():
            try:
                if address == "local":  # a cluster of this machine, for this job
                    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                             configure_logging=False, runtime_env=_same_yipan())
                else:
                    _check_reachable(address)
                    ray.init(address=address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise ClusterError(f"cannot reach the Ray cluster at {address!r}: "
                                   f"{str(error)[:120]}") from None
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.address = address
        self.retried = 0  # units run again after their worker died

    def describe(self) -> str:
        return f"Ray ({self.address}: {self.cpus} CPUs)"

    def map_units(self, function: Callable[..., Any], jobs: Iterable[Sequence[Any]]
                  ) -> Iterator[Any]:
        # retried here, not by Ray's max_retries, so that the retries can be counted
        remote = self.ray.remote(max_retries=0, retry_exceptions=False)(function)
        pending: list[tuple[Any, Sequence[Any]]] = []
        window = self.cpus * IN_FLIGHT_PER_CPU
        index = 0
        for job in jobs:
            pending.append((remote.remote(*job), job))
            if len(pending) >= window:
                yield self._get(remote, *pending.pop(0), index)
                index += 1
        while pending:
            yield self._get(remote, *pending.pop(0), index)
            index += 1

    def _get(self, remote: Any, reference: Any, job: Sequence[Any], index: int) -> Any:
        ray = self.ray
        for attempt in range(RETRIES + 1):
            try:
                return ray.get(reference)
            except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError):
                if attempt == RETRIES:
                    break
                self.retried += 1
                reference = remote.remote(*job)
            except ray.exceptions.RayTaskError as error:
                cause = error.cause if error.cause is not None else error
                message = f"unit {index} failed: {type(cause).__name__}: {cause}"
                if self.on_error == "skip":
                    return UnitFailed(index, message)
                raise ClusterError(message) from None
        raise ClusterError(f"unit {index}: its worker died {RETRIES + 1} times; run the "
                           "job again to resume")


def _check_reachable(address: str) -> None:
    """A ``host:port`` that nothing answers is one line at once (Ray would retry for
    minutes, logging as it goes)."""
    import socket

    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or "://" in address:
        return  # "auto", or a form Ray reads itself
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as error:
        raise ClusterError(f"cannot reach the Ray cluster at {address!r}: {error} (is "
                           "'ray start --head' running there?)") from None


def _same_yipan() -> dict[str, Any]:
    """A local cluster's workers import the driver's yipan (a source tree included)."""
    import os

    here = str(Path(__file__).resolve().parents[1])
    paths = [here, *[p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]]
    return {"env_vars": {"PYTHONPATH": os.pathsep.join(dict.fromkeys(paths))}}


def make_runner(ray_address: str | None, workers: int = 2, on_error: str = "stop") -> Runner:
    """Local processes (``ray_address`` None) or Ray at ``ray_address`` (``auto``, ``local``,
    or ``host:port``)."""
    if on_error not in ("stop", "skip"):
        raise ClusterError(f"on_error is stop or skip, not {on_error!r}")
    if ray_address is None:
        return LocalRunner(workers, on_error)
    return RayRunner(ray_address, workers, on_error)


# -- progress -----------------------------------------------------------------------------------
class Progress:
    """Units done, failed and retried, units/s and the time left: a line every ``every``
    seconds (and at the end) through ``say``."""

    def __init__(self, total: int, say: Callable[[str], None], label: str = "units",
                 every: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.total, self.say, self.label, self.every, self.clock = total, say, label, every, clock
        self.done = self.failed = self.retried = 0
        self.start = self.last = clock()

    def advance(self, result: Any, retried: int | None = None) -> None:
        """One unit's result came back (a ``UnitFailed`` counts as failed); ``retried``: the
        runner's count of units run again so far, when it keeps one."""
        self.done += 1
        self.failed += isinstance(result, UnitFailed)
        if retried is not None:
            self.retried = retried
        now = self.clock()
        if now - self.last >= self.every or self.done == self.total:
            self.last = now
            self.say(self.line())

    def line(self) -> str:
        elapsed = max(1e-9, self.clock() - self.start)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        eta = "done" if self.done >= self.total else (
            "?" if left == float("inf") else f"about {_duration(left)} left")
        return (f"{self.label}: {self.done}/{self.total} done, {self.failed} failed, "
                f"{self.retried} retried; {rate:.2f}/s, {_duration(elapsed)} so far, {eta}")


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def stderr_line(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run_units(runner: Runner, function: Callable[..., Any], jobs: Iterable[Sequence[Any]], *,
              say: Callable[[str], None] | None = stderr_line, label: str = "units",
              every: float = 10.0) -> Iterator[Any]:
    """``runner.map_units`` with a progress line every ``every`` seconds (``say=None``: none),
    said even while no unit ends (units of minutes: a table, a game)."""
    jobs = list(jobs)
    progress = Progress(len(jobs), say or (lambda _text: None), label, every)
    stop = threading.Event()

    def heartbeat() -> None:
        while not stop.wait(every):
            if progress.clock() - progress.last >= every:
                progress.last = progress.clock()
                progress.say(progress.line())

    beating = threading.Thread(target=heartbeat, daemon=True)
    if say is not None and jobs:
        beating.start()
    before = getattr(runner, "retried", None)  # a runner that counts its retries
    try:
        for result in runner.map_units(function, jobs):
            progress.advance(result, None if before is None else runner.retried - before)  # type: ignore[attr-defined]
            yield result
    finally:
        stop.set()


# -- matches ------------------------------------------------------------------------------------
def add_cluster_arguments(parser: argparse.ArgumentParser, workers: int = 1) -> None:
    """``--ray [ADDRESS]`` and ``--workers N`` for a match runner."""
    parser.add_argument("--ray", nargs="?", const="auto", default=None, metavar="ADDRESS",
                        help="play the games on a Ray cluster: auto (the cluster this machine "
                             "belongs to), local (start one here), or host:port (needs pip "
                             "install -e '.[cluster]')")
    parser.add_argument("--workers", type=int, default=workers,
                        help=f"games played at once (default {workers}; local processes, or "
                             "the CPUs of a local Ray cluster)")


def run_match(play_game: Callable[..., Any], games: Sequence[Sequence[Any]],
              ray_address: str | None = None, workers: int = 1, *,
              runner: Runner | None = None, say: Callable[[str], None] | None = stderr_line,
              on_game: Callable[[int, Any], None] | None = None) -> list[Any]:
    """The records of a match: ``play_game(*game)`` for every game, one game a unit, in the
    order of ``games`` (a module-level function of plain data: openings, seeds, engine
    settings). ``on_game(index, record)`` is told of each as it comes back."""
    runner = runner or make_runner(ray_address, workers)
    records = []
    for index, record in enumerate(run_units(runner, play_game, games, say=say,
                                             label="games")):
        if on_game is not None:
            on_game(index, record)
        records.append(record)
    return records
