"""A machine's first run: the engine's two searches compiled at once, on two processes.

numba compiles a kernel the first time it runs on a machine and keeps the machine code in its
cache on disk; later runs load it in about a second. The first time, compiling is the
Gomocup brain's whole answer to START (a tournament manager waits for it). The alpha-beta
search and the threat search are separate kernels (each with the board's kernels beneath),
so a second process compiles the threat search while this one compiles the alpha-beta
search, and this one then loads the threat search from the cache::

    this process:    import | board + alpha-beta (compiled) ........| threats (loaded)
    second process:  import | board + threat search (compiled) ...|

The board's kernels are compiled by both (neither can wait for the other); on two cores
that still shortens the first START by about a quarter (``benchmarks/first_move.py``). With
the threat search already in the cache, or if the second process cannot start or fails,
this process compiles whatever is missing itself: the helper only ever saves time. On one
CPU it would not, and it is not started; ``YIPAN_COMPILE_HELPER=0`` turns it off (the
benchmark compares the two).

    python -m yipan.games.gomoku.first_run SIZE RULE   (what the second process runs)
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence

from .threats import threat_node

PATIENCE = 60.0  # seconds to wait for the helper beyond this process's own compile time


def threat_search_cached() -> bool:
    """Whether numba's cache already holds the threat search for this source (read from the
    cache's index; if numba changes how it keeps its cache, we assume it does: no helper)."""
    try:
        return bool(threat_node._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - numba's internals: any failure means "do not help"
        return True


def cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not on every system)
        return os.cpu_count() or 1


def compile_threat_search_elsewhere(size: int, rule: str) -> subprocess.Popen | None:
    """Start the second process when the threat search is not compiled yet, there is a
    second CPU for it, and ``YIPAN_COMPILE_HELPER`` is not ``0`` (else None)."""
    if os.environ.get("YIPAN_COMPILE_HELPER") == "0" or cpus() < 2 or threat_search_cached():
        return None
    try:
        return subprocess.Popen([sys.executable, "-m", __name__, str(size), rule],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    except (OSError, ValueError, TypeError):  # (no interpreter to run, or none named)
        return None


def wait_for(helper: subprocess.Popen | None, own_seconds: float) -> None:
    """Wait for the second process (what it compiled is then in the cache), as long as this
    one took to compile its part and ``PATIENCE`` more; a helper still running then is
    stopped, and this process compiles what it did not."""
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


def main(argv: Sequence[str]) -> int:
    from .engine import Engine

    size, rule = int(argv[0]), argv[1]
    Engine(size, rule, memory_bytes=1 << 20).compile_threat_search()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
