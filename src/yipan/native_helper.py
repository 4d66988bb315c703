"""A second process compiling kernels on a machine's first run, while this one compiles others.

numba compiles on one CPU and keeps what it compiled in its cache on disk, where any process
finds it: the next time a process needs a kernel, numba reads the cache before compiling. So
on a machine's first run an engine can start a helper (``python -m MODULE ARGS``, stdin and
stdout closed) that compiles some of its kernels while it compiles the others, and load the
helper's from the cache. The helper only ever saves time: if it fails, is late or cannot
start, the engine compiles what it needs itself. It is started only where it can help: at
least two CPUs, the kernel it compiles not cached yet, and ``YIPAN_COMPILE_HELPER`` not ``0``
(which turns helpers off; ``benchmarks/first_move.py`` compares the two).

Used by Gomoku (the search's pieces, the board's set-up and the threat search,
``games/gomoku/first_run.py``) and chess (move ordering, static exchange and move making,
``games/chess/first_run.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

PATIENCE = 60.0  # seconds to wait for a helper beyond the engine's own compile time


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not on every system)
        return os.cpu_count() or 1


def is_cached(kernel: Any) -> bool:
    """Whether numba's cache already holds ``kernel`` (a ``@njit(cache=True)`` function) for
    its current source, read from the cache's index; if numba changes how it keeps its cache,
    we assume it does (and start no helper)."""
    try:
        return bool(kernel._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - numba's internals: any failure means "do not help"
        return True


def start_helper(module: str, arguments: Sequence[str], kernel: Any
                 ) -> subprocess.Popen | None:
    """``python -m module arguments`` when ``kernel`` (the helper's work) is not cached yet,
    there is a second CPU for it and helpers are not turned off; else None."""
    if os.environ.get("YIPAN_COMPILE_HELPER") == "0" or cpus() < 2 or is_cached(kernel):
        return None
    try:
        return subprocess.Popen([sys.executable, "-m", module, *arguments],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    except (OSError, ValueError, TypeError):  # (no interpreter to run, or none named)
        return None


def wait_for(helper: subprocess.Popen | None, own_seconds: float) -> None:
    """Wait for a helper (what it compiled is then in the cache), as long as this process
    took to compile its part and ``PATIENCE`` more; a helper still running then is stopped,
    and this process compiles what it did not."""
    if helper is None:
        return
    try:
        helper.wait(timeout=own_seconds + PATIENCE)
    except subprocess.TimeoutExpired:
        stop(helper)


def stop(helper: subprocess.Popen | None) -> None:
    if helper is not None and helper.poll() is None:
        helper.kill()
        helper.wait()
