"""The engines the web app offers, by name, and how one search job runs.

- ``alphabeta``: iterative deepening (``yipan.search.iterate``) under a time limit; one result
  per completed depth, so the page can watch it think. Two-player zero-sum games without chance.
- ``mcts``: Monte Carlo tree search (``yipan.search.mcts``).
- ``ai`` (also ``player``): the game's own AI (its hooks' ``make_ai``), or the generic search
  player, at a level (``perfect``, ``medium``, ``easy``); it thinks aloud where the hooks offer
  ``make_thinker`` or ``think`` (``yipan.engines.think``).
- ``puct``: PUCT guided by the game's shipped network (``yipan.search.puct``), for games that
  ship one; its answers carry the network's ``policy`` and ``network_value`` in ``extra``.
- ``net``: the network alone (its most likely move).
- ``random``: a uniformly random legal move (a sparring partner, and a check of the plumbing).
- ``analysis``: the game's own analysis (its hooks' ``analyze``: Sprague-Grundy theory,
  expectimax, a solver), for games that have one: the page's per-move values where it suits.

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

__all__ = ["ENGINES", "ENGINE_HELP", "SearchJob", "UnknownEngineError", "check_job",
           "default_engine", "engine_help", "engines_for", "run", "value_engine"]

ENGINES = ("alphabeta", "mcts", "ai", "puct", "net", "random", "analysis")
ALIASES = {"player": "ai"}
TO_SHARED = {"alphabeta": "alphabeta", "mcts": "mcts", "ai": "player", "random": "random",
             "analysis": "auto", "puct": "puct", "net": "net"}
ENGINE_HELP = {
    "ai": "the game's own AI, its strongest player",
    "alphabeta": "alpha-beta: looks a few moves ahead, move by move, deeper each round",
    "mcts": "Monte Carlo tree search: plays thousands of random games and keeps the moves "
            "that win most",
    "random": "plays any legal move at random",
    "puct": "tree search guided by a trained network (AlphaZero's PUCT): the network "
            "proposes moves and judges positions, the search checks them",
    "net": "the trained network alone: its most likely move, no search",
    "analysis": "the game's own analysis (its theory or its solver), used for move values",
}


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


def engine_name(name: str) -> str:
    return ALIASES.get(name, name)


def engines_for(position: Position) -> list[str]:
    """The engines that can play this game (whatever the current position), the one the page
    should start with first: alpha-beta where it plays, the game's own AI where that thinks
    aloud (Go, which has no evaluation for alpha-beta)."""
    available = shared.engines_for(position.game)
    own_analysis = shared.hooks_of(position.game).analyze is not None
    network = shared.has_network(position.game)  # PUCT here only where a network guides it
    return [name for name in ENGINES if TO_SHARED[name] in available
            and (name != "analysis" or own_analysis) and (name != "puct" or network)]


def default_engine(engines: list[str]) -> str:
    """The strongest player among ``engines``: the game's AI where it has one."""
    return next((name for name in ("ai", "alphabeta", "mcts") if name in engines), engines[0])


def value_engine(position: Position, engines: list[str]) -> str | None:
    """The engine that values every move of a position for the board: the game's own analysis
    where alpha-beta cannot play the game or the game has no heuristic to search with (the
    heap games' theory, 2048's expectimax), else alpha-beta; None when neither can."""
    if "analysis" in engines and ("alphabeta" not in engines
                                  or not position.game.info.heuristic):
        return "analysis"
    return "alphabeta" if "alphabeta" in engines else None


def engine_help(position: Position, engines: list[str]) -> dict[str, str]:
    """What each engine does, in words; the game's AI in its hooks' words."""
    summary = shared.hooks_of(position.game).ai_summary
    return {name: ENGINE_HELP[name] + (f": {summary}" if name == "ai" and summary else "")
            for name in engines}


def check_job(position: Position, engine: str) -> None:
    """Refuse, with a clear message, a search that cannot run: raised before any process starts."""
    engine = engine_name(engine)
    if engine not in ENGINES:
        raise UnknownEngineError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")
    game = position.game
    if engine not in engines_for(position):
        if engine == "alphabeta":
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


def run(job: SearchJob, stop: Callable[[], bool] | None = None) -> Iterator[dict[str, Any]]:
    """Run a job, yielding JSON-ready results as they come; the last one is the answer.
    ``stop`` is polled by the search (the server's "stop now")."""
    load_game_modules()  # a worker knows the games the server was started with
    position = load_position(job.game, job.options, list(job.moves))
    check_job(position, job.engine)
    engine = engine_name(job.engine)
    limit = replace(job.limit, stop=stop)
    if engine == "alphabeta":
        yield from _alphabeta(position, job, limit)
        return
    for analysis in shared.think(position.game, position.state, TO_SHARED[engine],
                                 request=AnalysisRequest(limit=limit),
                                 rng=random.Random(job.seed), level=job.level or "perfect"):
        yield result_json(position, analysis, engine)


def _alphabeta(position: Position, job: SearchJob, limit: Limit) -> Iterator[dict[str, Any]]:
    from ..search import iterate

    game, state = position.game, position.state
    found = False
    for result in iterate(game, state, limit=limit, analysis=job.analysis):
        found = True
        yield result_json(position, Analysis.from_search(result, "alpha-beta"), "alphabeta")
    if not found:  # not even depth 1 finished in time: the game's first-ordered move, unsearched
        moves = list(game.legal_moves(state))
        if game.info.move_ordering:
            moves = list(game.order_moves(state, moves))
        yield result_json(position, Analysis(move=moves[0], value=None, pv=(moves[0],),
                                             engine="alpha-beta (no depth finished)"),
                          "alphabeta")


def result_json(position: Position, analysis: Analysis, engine: str) -> dict[str, Any]:
    """The shared schema, with ``engine`` the name the page asked for and ``searcher`` the
    engine that answered (for the game's AI: which of its parts)."""
    data = analysis.to_json(position.game, position.state, list(position.moves))
    data["searcher"] = data["engine"]
    data["engine"] = engine
    return data
