"""Preparing the engines: each game's compiled kernels loaded before any clock starts.

numba compiles a kernel on its first call and keeps the machine code in a cache on disk, so the
first run on a machine pays for compilation (6 s for Gomoku, 18 s for chess) and later runs only
load it (about a second). Either way it must not happen inside a move's time: front ends call
``prepare_for`` (or ``prepare_engines``) before they start a clock. When preparing takes more
than a moment, the user is told what is happening, and then how long it took.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed

from .core import Game, game_spec, get_game, list_games
from .plugins import load_game_modules

Say = Callable[[str], None]
ANNOUNCE_AFTER = 2.0  # seconds: a warm cache loads faster than this and is not announced
MAX_WORKERS = 4  # compiling processes at once (each takes one CPU and some 300 MB)


def prepare_for(game: Game, say: Say | None = None) -> float:
    """Run the game's ``prepare`` hook; returns the seconds it took (0 when it has none).

    If it is still running after ``ANNOUNCE_AFTER`` seconds (numba is compiling: the first
    run on this machine), ``say`` gets a line saying so, and another with the time taken."""
    hooks = game_spec(game.info.name).load_hooks()
    if hooks.prepare is None:
        return 0.0
    prepare = hooks.prepare
    return announced(lambda: prepare(game), game.info.title, say)


def prepare_counter(game: Game, say: Say | None = None) -> float:
    """Load or compile the game's own perft counter (its hooks' ``perft``; 0 when it has none)
    by a count two plies deep from the start, so that ``yipan perft`` times only counting.
    Not part of ``prepare_for``: a game never counts, and chess's counter takes 3-7 s to
    compile (its move generator again, with the bulk-counting flag a constant)."""
    hooks = game_spec(game.info.name).load_hooks()
    if hooks.perft is None:
        return 0.0
    counter = hooks.perft
    return announced(lambda: counter(game, game.initial_state(), 2),
                     f"{game.info.title} perft", say)


def announced(work: Callable[[], object], title: str, say: Say | None) -> float:
    """Run ``work`` (loading or compiling an engine's kernels); if it is still running after
    ``ANNOUNCE_AFTER`` seconds, ``say`` what is happening, and then how long it took.
    Returns the seconds it took. ``say`` is called from a timer thread while ``work`` runs."""
    happened = threading.Event()

    def announce() -> None:
        happened.set()
        if say is not None:
            say(f"preparing the {title} engine: numba compiles its kernels the first "
                "time they run on a machine (up to a minute; `yipan prepare` does it ahead), "
                "then keeps them...")

    timer = threading.Timer(ANNOUNCE_AFTER, announce)
    timer.daemon = True
    start = time.perf_counter()
    timer.start()
    try:
        work()
    finally:
        timer.cancel()
    seconds = time.perf_counter() - start
    if happened.is_set() and say is not None:
        say(f"ready in {seconds:.1f} s (later runs load the compiled kernels in about a "
            "second)")
    return seconds


def prepare_engines(names: Iterable[str] | None = None, say: Say | None = None, *,
                    counters: bool = False, workers: int = 1) -> dict[str, float]:
    """Prepare every game (or those named) with its default options, each set of hooks once
    (the heap games share theirs): seconds per game that has kernels. With ``counters``
    (``yipan prepare``: everything up front) their perft counters too.

    numba compiles on one CPU, so with ``workers`` above 1 the games are prepared on that many
    processes at once (each compiled kernel lands in numba's cache on disk, where this process
    and later ones load it); ``say`` then hears a line when each game is ready."""
    games = []
    done: set[int] = set()
    for name in names if names is not None else list_games():
        hooks = game_spec(name).load_hooks()
        if hooks.prepare is not None and id(hooks) not in done:
            done.add(id(hooks))
            games.append(name)
    if workers > 1 and len(games) > 1:
        return _prepare_on_processes(games, say, counters, workers)
    return {name: _prepare_one(name, counters, say) for name in games}


def _prepare_one(name: str, counters: bool, say: Say | None = None) -> float:
    game = get_game(name)
    seconds = prepare_for(game, say)
    if counters:
        seconds += prepare_counter(game, say)
    return seconds


def _prepare_on_processes(games: list[str], say: Say | None, counters: bool,
                          workers: int) -> dict[str, float]:
    """Each game on one of ``workers`` fresh processes (spawned: nothing of this process's
    numba state is copied; they load the games of other packages as this one did), the
    results in the order asked. A game a worker cannot prepare (one registered only in this
    process, say) is prepared here instead."""
    if say is not None:
        say(f"preparing {len(games)} engines on {workers} processes at once (the first run on "
            "a machine compiles their kernels; later runs only load them)...")
    seconds = {}
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context,
                             initializer=load_game_modules) as pool:
        futures = {pool.submit(_prepare_one, name, counters): name for name in games}
        for future in as_completed(futures):
            name = futures[future]
            try:
                seconds[name] = future.result()
            except Exception:  # noqa: BLE001 - whatever went wrong there, try it here
                seconds[name] = _prepare_one(name, counters, say)
            if say is not None:
                say(f"{name} ready in {seconds[name]:.1f} s")
    return {name: seconds[name] for name in games}


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not on every system)
        return os.cpu_count() or 1


def compile_workers() -> int:
    """Processes to prepare engines on at once: one a CPU, at most ``MAX_WORKERS``."""
    return min(cpus(), MAX_WORKERS)


class Readiness:
    """Which games' engines are ready, while the rest are prepared in the background (``yipan
    serve`` listens at once and a game becomes playable when its engine is ready).

    ``start`` prepares every game's hooks (once per set of hooks) on ``workers`` spawned
    processes, in a thread of its own; each compiled kernel lands in numba's cache, where the
    processes that search load it. A game whose hooks prepare nothing is ready at once. A
    game whose preparation failed counts as ready: its engine then prepares where it runs,
    before any clock starts."""

    def __init__(self, names: Iterable[str] | None = None, *, prepared: bool = False) -> None:
        self.names = list(names if names is not None else list_games())
        self._events = {name: threading.Event() for name in self.names}
        self._groups: dict[str, list[str]] = {}  # the game prepared -> every game it readies
        leaders: dict[int, str] = {}
        for name in self.names if not prepared else ():
            hooks = game_spec(name).load_hooks()
            if hooks.prepare is None:
                self._events[name].set()
            else:
                leader = leaders.setdefault(id(hooks), name)
                self._groups.setdefault(leader, []).append(name)
        if prepared:
            for event in self._events.values():
                event.set()
        self.started = time.monotonic()
        self.finished: float | None = None if self._groups else self.started

    @classmethod
    def all_ready(cls, names: Iterable[str] | None = None) -> Readiness:
        """Every game ready (the engines were prepared some other way)."""
        return cls(names, prepared=True)

    def start(self, workers: int = 1) -> threading.Thread:
        """Prepare every game in the background; returns the thread doing it."""
        thread = threading.Thread(target=self._prepare, args=(max(workers, 1),),
                                  name="yipan-prepare", daemon=True)
        thread.start()
        return thread

    def _prepare(self, workers: int) -> None:
        context = multiprocessing.get_context("spawn")
        leaders = list(self._groups)
        try:
            with ProcessPoolExecutor(max_workers=min(workers, len(leaders)), mp_context=context,
                                     initializer=load_game_modules) as pool:
                futures = {pool.submit(_prepare_group, self._groups[leader]): leader
                           for leader in leaders}
                for future in as_completed(futures):
                    self.set_ready(futures[future])
        finally:  # whatever went wrong, no game waits for ever: it prepares where it runs
            for leader in leaders:
                self.set_ready(leader)
            self.finished = time.monotonic()

    def set_ready(self, name: str) -> None:
        """Mark the game ready, and every game that shares its hooks."""
        group = next((names for names in self._groups.values() if name in names), [name])
        for each in group:
            if each in self._events:
                self._events[each].set()

    def is_ready(self, name: str) -> bool:
        event = self._events.get(name)
        return event is None or event.is_set()

    def wait(self, name: str, timeout: float | None = None) -> bool:
        """Block until ``name`` is ready (or ``timeout`` seconds pass); whether it is."""
        event = self._events.get(name)
        return event is None or event.wait(timeout)

    def report(self) -> dict[str, object]:
        """The JSON of ``GET /api/ready``: each game's readiness, and whether all are."""
        games = {name: self.is_ready(name) for name in self.names}
        return {"ready": all(games.values()), "games": games,
                "ready_count": sum(games.values()), "count": len(games)}


def _prepare_group(names: list[str]) -> float:
    """Prepare a set of games that share hooks: the first with its default options (the
    hooks' ``prepare`` readies every game that shares them)."""
    return _prepare_one(names[0], False)
