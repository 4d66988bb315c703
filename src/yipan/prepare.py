"""Preparing the engines: each game's compiled kernels loaded before any clock starts.

numba compiles a kernel on its first call and keeps the machine code in a cache on disk, so the
first run on a machine pays for compilation (tens of seconds for Gomoku) and later runs only
load it (well under a second a game). Either way it must not happen inside a move's time:
front ends call ``prepare_engines`` (or a game's ``prepare`` hook) before they start a clock.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from .core import game_spec, list_games


def prepare_game(name: str) -> float:
    """Run a game's ``prepare`` hook; returns the seconds it took (0 when it has none)."""
    hooks = game_spec(name).load_hooks()
    if hooks.prepare is None:
        return 0.0
    start = time.perf_counter()
    hooks.prepare()
    return time.perf_counter() - start


def prepare_engines(names: Iterable[str] | None = None) -> dict[str, float]:
    """Prepare every game (or those named), each set of hooks once (the heap games share
    theirs): seconds per game that has kernels."""
    seconds = {}
    done: set[int] = set()
    for name in names if names is not None else list_games():
        hooks = game_spec(name).load_hooks()
        if hooks.prepare is None or id(hooks) in done:
            continue
        done.add(id(hooks))
        seconds[name] = prepare_game(name)
    return seconds
