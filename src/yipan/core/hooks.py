"""A game's hooks: what a game adds to the front ends, as typed functions that return results.

Every hook is optional; a game without hooks gets the generic searches everywhere. The front
ends (``yipan.cli``, ``yipan.web``) call a hook, take the ``Analysis`` or report it returns and
do all the formatting themselves, so a game never prints and never knows which front end
asked. A game registers its hooks by name (``GameSpec(hooks="yipan.games.x.hooks:HOOKS")``) so
that listing the games imports none of them.

    make_ai(game, level, rng, time) -> Player
        the game's strongest player (``yipan play``, the web page's "ai" engine, ``watch``)
    make_thinker(game, level, rng, time) -> Thinker
        the same player when it can choose aloud (usually ``make_thinker=make_ai``), for a
        front end that shows it thinking: its ``think(game, state, limit)`` yields a
        ``Choice`` each time its choice or its reasons change (a completed depth, a solver's
        verdict, a tree search's progress), the last one the move it plays, and once
        ``limit.stop()`` is true it ends soon with its best so far (the web page's "Move
        now"). Without it, front ends ask ``make_ai``'s player once and show the answer
    ai_summary
        what the AI does, in a few words for people (the web page's engine list)
    analyze(game, state, request) -> Analysis
        ``yipan analyze`` with the game's own engine (a solver, a threat search,
        Sprague-Grundy theory): the best move, its value, the main line, each move's value
    solve(game, state, request) -> Analysis
        ``yipan solve``: the position's proven value, by the game's own solver
    build_book(game, request) -> BookReport
        ``yipan book build``, when the game has a builder of its own
    prepare(game) -> None
        load the game's compiled kernels (numba compiles them the first time on a machine),
        so that no clock is running while it happens: the CLI, the web workers and the
        protocols call it before they start timing a move
    export(game, start, moves) -> {format: text}
        a game played, from ``start`` by ``moves``, in the formats its players use (chess:
        ``{"pgn": ...}``); ``yipan play`` prints one when its name is typed
    perft(game, state, depth) -> {move: leaves}
        ``yipan perft`` by the game's own fast counter (a numba kernel): the leaves below
        each legal move, as ``yipan.search.perft.divide`` counts them
    options
        options the game adds to a command (``yipan solve connect4 --weak``), passed to its
        hooks in ``request.options``
    think(game, state, request) -> Iterator[Analysis]
        the game's AI thinking aloud: an Analysis now and then as its search goes, the last
        one its answer (the web page shows them while the AI is to move)
    start(game, options) -> (game, states) or None
        where ``play`` and ``analyze`` begin when the game's own options say so (Go's
        ``--sgf FILE``): the game as the record sets it up and its states, the last the
        position; None when the options name no start
    finish(game, states, options) -> message or None
        what ``play`` does with a game at its end (Go's ``--save FILE``), in a line for the user
    label(game, count, rng, progress) -> Dataset
        ``count`` positions labelled by the game's own solver (``yipan.learning.data``:
        encoded planes, the optimal moves as the target policy, the exact value; a game
        with no solver, Gomoku, by its engine: its move, and the result of its game), for
        ``yipan train --from-solver``; ``progress(done)`` as they come
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .analysis import Analysis
from .player import Player, Thinker
from .results import Limit

Progress = Callable[[str], None]
"""Receives a line of progress (``"depth 12: score >= 0"``) while a long job runs."""


@dataclass(frozen=True, slots=True)
class CommandOption:
    """An option a game adds to some commands: ``--NAME`` (a flag when ``kind`` is bool);
    ``metavar`` names its value in the help (FILE; default: the name in capitals)."""

    name: str
    help: str
    commands: tuple[str, ...] = ("analyze", "solve")
    kind: type = bool
    default: Any = None
    metavar: str | None = None


@dataclass(frozen=True, slots=True)
class AnalysisRequest:
    """What the caller asks of ``analyze`` or ``solve``: a limit (None: the game's default),
    the game's own options (``CommandOption`` names), a progress callback, and a trace (a
    ``yipan.search.trace`` callable receiving one event per node) down to ``trace_depth``."""

    limit: Limit | None = None
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    progress: Progress | None = None
    trace: Callable[[Any], None] | None = None
    trace_depth: int | None = None


MapUnits = Callable[[Callable[..., Any], Any], Any]
"""``map_units(function, jobs) -> results in order``: where a job's units of work run (local
processes or a Ray cluster: ``yipan.cluster``)."""


@dataclass(frozen=True, slots=True)
class BookRequest:
    """``yipan book build``: where to write, how deep, on how many processes (or where the
    units of work run: ``map_units``, None for the builder's own local processes)."""

    path: Path
    depth: int
    workers: int = 2
    progress: Progress | None = None
    map_units: MapUnits | None = None


@dataclass(frozen=True, slots=True)
class BookReport:
    """What a book build wrote."""

    path: Path
    positions: int
    seconds: float


# The game is typed Any: each game's hooks receive the game they were registered for (a
# ConnectFour, a Gomoku...), which a Callable over the base Game would not accept.
MakeAI = Callable[[Any, str, random.Random, "float | None"], Player]
MakeThinker = Callable[[Any, str, random.Random, "float | None"], Thinker]
Analyze = Callable[[Any, Any, AnalysisRequest], Analysis]
BuildBook = Callable[[Any, BookRequest], BookReport]
Perft = Callable[[Any, Any, int], "Mapping[Any, int]"]
Export = Callable[[Any, Any, "list[Any]"], "Mapping[str, str]"]
Think = Callable[[Any, Any, AnalysisRequest], Iterator[Analysis]]
Start = Callable[[Any, Mapping[str, Any]], "tuple[Any, list[Any]] | None"]
Finish = Callable[[Any, list[Any], Mapping[str, Any]], "str | None"]
Label = Callable[[Any, int, random.Random, "Callable[[int], None] | None"], Any]


@dataclass(frozen=True, slots=True)
class GameHooks:
    """The hooks of one game (module docstring); any left None falls back to the generic."""

    make_ai: MakeAI | None = None
    make_thinker: MakeThinker | None = None
    analyze: Analyze | None = None
    solve: Analyze | None = None
    build_book: BuildBook | None = None
    prepare: Callable[[Any], None] | None = None
    perft: Perft | None = None
    export: Export | None = None
    options: tuple[CommandOption, ...] = ()
    ai_summary: str = ""
    think: Think | None = None
    start: Start | None = None
    finish: Finish | None = None
    label: Label | None = None

    def options_for(self, command: str) -> tuple[CommandOption, ...]:
        return tuple(option for option in self.options if command in option.commands)


NO_HOOKS = GameHooks()
