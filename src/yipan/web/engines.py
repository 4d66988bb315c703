"""The web app's engines, from the one registry (``yipan.engines``), and how a search job runs.

The page offers a game the registered engines that serve it and show there (an
``EngineSpec``'s ``on_page``); it names them as the CLI does (``player``, the game's own AI,
is also ``ai``, and ``auto``, the game's own analysis, ``analysis``). Every search runs the
engine's ``think`` with the server's stop in its limit, so every engine streams its answers
as they improve and answers "Move now" with its best so far the same way, whichever it is.

``default_engine`` is a game's strongest player (its AI), and ``value_engine`` the engine that
values every move for the board (module functions below).

Every answer is the shared ``Analysis`` schema (``yipan.core.analysis``), as ``yipan analyze
--json`` prints it. A job runs in a separate process (see ``workers``), so it is plain data,
and the game is rebuilt from its name and options there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from .. import engines as shared
from ..core import CHANCE, Analysis, AnalysisRequest, CapabilityError, Limit
from ..engines import UnknownEngineError
from ..plugins import load_game_modules
from .positions import Position, load_position

__all__ = ["SearchJob", "UnknownEngineError", "check_job", "default_engine", "engine_help",
           "engine_labels", "engines_for", "opponents", "run", "value_engine"]


@dataclass(frozen=True, slots=True)
class SearchJob:
    """One search, as plain data that can travel to a worker process."""

    game: str
    moves: tuple[str, ...]
    engine: str
    limit: Limit
    options: dict[str, Any] = field(default_factory=dict)
    analysis: bool = False  # every root move's value (alpha-beta), for drawing on the board
    level: str | None = None  # for the game's own AI
    seed: int = 0


def engines_for(position: Position) -> list[str]:
    """The engines the page offers for this game (whatever the current position), those that
    can play against you first."""
    return shared.page_engines(position.game)


def opponents(engines: list[str]) -> list[str]:
    """The engines among ``engines`` that can play against you (the others value moves)."""
    return [name for name in engines if shared.engine_spec(name).plays]


def default_engine(engines: list[str]) -> str:
    """The strongest player among ``engines``: the game's AI where it has one."""
    return next((name for name in ("player", "alphabeta", "mcts") if name in engines),
                engines[0])


def value_engine(position: Position, engines: list[str]) -> str | None:
    """The engine that values every move of a position for the board: the game's own analysis
    where alpha-beta cannot play the game or the game has no heuristic to search with (the
    heap games' theory, 2048's expectimax), else alpha-beta; None when neither can."""
    if "auto" in engines and ("alphabeta" not in engines or not position.game.info.heuristic):
        return "auto"
    return "alphabeta" if "alphabeta" in engines else None


def engine_help(position: Position, engines: list[str]) -> dict[str, str]:
    """What each engine does, in words; the game's AI in its hooks' words."""
    summary = shared.hooks_of(position.game).ai_summary
    return {name: shared.engine_spec(name).help
            + (f": {summary}" if name == "player" and summary else "") for name in engines}


def engine_labels(engines: list[str]) -> dict[str, str]:
    """Each engine's name on the page, in a few words."""
    return {name: shared.engine_spec(name).label or name for name in engines}


def check_job(position: Position, engine: str) -> str:
    """The engine's registered name, or refuse, with a clear message, a search that cannot
    run: raised before any process starts."""
    name = shared.engine_spec(engine).name
    game = position.game
    if name not in engines_for(position):
        if name == "alphabeta":
            info = game.info
            why = ("a one-player game" if info.players == 1 else
                   "a game of chance" if info.chance else "not a two-player zero-sum game")
            raise CapabilityError(f"alpha-beta cannot play {info.title}: it is {why}; "
                                  f"try {' or '.join(engines_for(position))}")
        raise UnknownEngineError(f"engine {engine!r} is not available for {game.info.title}")
    if game.outcome(position.state) is not None:
        raise CapabilityError("the game is over: there is no move to search")
    if game.to_move(position.state) == CHANCE:
        raise CapabilityError("the next move is a chance draw, not a choice to search")
    return name


def run(job: SearchJob, stop: Callable[[], bool] | None = None) -> Iterator[dict[str, Any]]:
    """Run a job, yielding JSON-ready results as they come; the last one is the answer.
    ``stop`` is polled by the search (the server's "stop now")."""
    load_game_modules()  # a worker knows the games the server was started with
    position = load_position(job.game, job.options, list(job.moves))
    name = check_job(position, job.engine)
    request = AnalysisRequest(limit=replace(job.limit, stop=stop))
    named = position.game.view(position.state).get("kind") == "chess"
    for analysis in shared.think(position.game, position.state, name, request=request,
                                 rng=random.Random(job.seed), level=job.level or "perfect",
                                 every_move=job.analysis):
        yield result_json(position, analysis, name, named)


def result_json(position: Position, analysis: Analysis, engine: str,
                named: bool = False) -> dict[str, Any]:
    """The shared schema, with ``engine`` the registered engine that ran and ``searcher`` what
    answered (for the game's AI: which of its parts); ``named``: the move and the line also as
    people write them, ``move_name`` and ``pv_names`` (chess: SAN, as the move list shows)."""
    game, state = position.game, position.state
    data = analysis.to_json(game, state, list(position.moves))
    data["searcher"] = data["engine"]
    data["engine"] = engine
    if named:
        names = []
        for move in analysis.pv:
            if game.outcome(state) is not None:
                break
            names.append(game.describe_move(state, move))
            state = game.play(state, move)
        data["pv_names"] = names
        data["move_name"] = None if analysis.move is None \
            else game.describe_move(position.state, analysis.move)
    return data
