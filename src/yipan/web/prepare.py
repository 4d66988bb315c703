"""Loads every engine's compiled kernels once, on import, before any clock starts.

The search workers are forked from a server process that imports this module
(``set_forkserver_preload``), so each worker starts with the kernels in memory: the first
search of a game is as fast as the next, and a worker killed for overrunning its limit is
replaced by one just as ready. The first time on a machine numba compiles the kernels and
caches them on disk (``yipan serve`` says so and how long it took).
"""

from __future__ import annotations

import time

from ..prepare import prepare_engines

started = time.perf_counter()
PREPARED = prepare_engines()  # every game with its default options
SECONDS = time.perf_counter() - started
