"""Loads the engines' compiled kernels once, on import, before any clock starts.

The search workers are forked from a server process that imports this module
(``set_forkserver_preload``), so each worker starts with the kernels in memory: the first
search of a game is as fast as the next, and a worker killed for overrunning its limit is
replaced by one just as ready. ``$YIPAN_WEB_PREPARE`` (comma-separated game names; set by a
server that prepares in the background and starts its forkserver before every game is ready)
names the games to load; unset, every game. A game not loaded here is prepared by the worker
that first searches it, before that search's clock starts (``prepare_job``).
"""

from __future__ import annotations

import os
import time

from ..plugins import load_game_modules
from ..prepare import prepare_engines, prepare_for
from .positions import load_game

ENVIRONMENT = "YIPAN_WEB_PREPARE"


def _named() -> list[str] | None:
    names = os.environ.get(ENVIRONMENT)
    return None if names is None else [name for name in names.split(",") if name]


started = time.perf_counter()
PREPARED = prepare_engines(_named())  # with their default options
SECONDS = time.perf_counter() - started
_prepared: set[tuple[str, str]] = set()


def prepare_job(game: str, options: dict) -> float:
    """Prepare a search's game (its kernels and tables, at these options) in this process,
    once: a worker calls it before the search's clock starts. Seconds it took."""
    load_game_modules()
    built = load_game(game, dict(options))
    key = (built.info.name, repr(sorted(options.items())))
    if key in _prepared:
        return 0.0
    seconds = prepare_for(built)
    _prepared.add(key)
    return seconds
