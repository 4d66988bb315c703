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
and asking for it without it is one clear line. On Ray, a unit whose worker process dies is
run again (``RETRIES`` times) and gives the same result, since a unit is a pure function of its
job; a unit that raises is reported with its index, and the job stops or goes on as the caller
chose (``on_error``).
"""

from __future__ import annotations

import importlib.util
import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol

from .core import YipanError

RETRIES = 3  # runs of a unit whose worker died, after the first
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

    def describe(self) -> str:
        return f"{self.workers} local process{'es' if self.workers > 1 else ''}"

    def map_units(self, function: Callable[..., Any], jobs: Iterable[Sequence[Any]]
                  ) -> Iterator[Any]:
        jobs = list(jobs)
        if self.workers <= 1 or len(jobs) <= 1:
            for index, job in enumerate(jobs):
                yield _run_one(function, job, index, self.on_error)
            return
        # an executor, not multiprocessing.Pool: a worker that dies breaks the job (which can
        # be resumed) instead of being replaced while its unit is waited for forever
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(self.workers, mp_context=context) as pool:
            futures = [pool.submit(function, *job) for job in jobs]
            try:
                for index, future in enumerate(futures):
                    yield _result_of(future.result, index, self.on_error)
            except BrokenProcessPool:
                raise ClusterError("a worker process died; run the job again to resume "
                                   "from what was saved") from None
            finally:
                for future in futures:
                    future.cancel()


def _run_one(function: Callable[..., Any], job: Sequence[Any], index: int,
             on_error: str) -> Any:
    return _result_of(lambda: function(*job), index, on_error)


def _result_of(get: Callable[[], Any], index: int, on_error: str) -> Any:
    try:
        return get()
    except (KeyboardInterrupt, ClusterError):
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
                             configure_logging=False)
                else:
                    ray.init(address=address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise ClusterError(f"cannot reach the Ray cluster at {address!r}: "
                                   f"{str(error)[:120]}") from None
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.address = address

    def describe(self) -> str:
        return f"Ray ({self.address}: {self.cpus} CPUs)"

    def map_units(self, function: Callable[..., Any], jobs: Iterable[Sequence[Any]]
                  ) -> Iterator[Any]:
        ray = self.ray
        remote = ray.remote(max_retries=RETRIES, retry_exceptions=False)(function)
        pending: list[Any] = []
        window = self.cpus * IN_FLIGHT_PER_CPU
        index = 0
        for job in jobs:
            pending.append(remote.remote(*job))
            if len(pending) >= window:
                yield self._get(pending.pop(0), index)
                index += 1
        while pending:
            yield self._get(pending.pop(0), index)
            index += 1

    def _get(self, reference: Any, index: int) -> Any:
        ray = self.ray
        try:
            return ray.get(reference)
        except ray.exceptions.WorkerCrashedError:
            raise ClusterError(f"unit {index}: its worker died {RETRIES + 1} times; run the "
                               "job again to resume") from None
        except ray.exceptions.RayTaskError as error:
            cause = error.cause if error.cause is not None else error
            message = f"unit {index} failed: {type(cause).__name__}: {cause}"
            if self.on_error == "skip":
                return UnitFailed(index, message)
            raise ClusterError(message) from None


def make_runner(ray_address: str | None, workers: int = 2, on_error: str = "stop") -> Runner:
    """Local processes (``ray_address`` None) or Ray at ``ray_address`` (``auto``, ``local``,
    or ``host:port``)."""
    if on_error not in ("stop", "skip"):
        raise ClusterError(f"on_error is stop or skip, not {on_error!r}")
    if ray_address is None:
        return LocalRunner(workers, on_error)
    return RayRunner(ray_address, workers, on_error)
