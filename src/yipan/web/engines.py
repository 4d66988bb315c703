"""The engines the web app offers, by name, and how one search job runs.

- ``alphabeta``: iterative deepening (``yipan.search.iterate``) under a time limit; one result
  per completed depth, so the page can watch it think. Two-player zero-sum games without chance.
- ``mcts``: Monte Carlo tree search (``yipan.search.mcts``), when that module is installed.
- ``ai``: the game's own AI (``GameSpec.ai``), or the generic search player of ``yipan.players``,
  at a level (``perfect``, ``medium``, ``easy``: the players' levels).
- ``random``: a uniformly random legal move (a sparring partner, and a check of the plumbing).

A job runs in a separate process (see ``workers``), so it is plain data, and the game is
rebuilt from its name and options there.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..core import CHANCE, CapabilityError, Limit, SearchResult, YipanError
from .positions import Position, finite, load_position

ENGINES = ("alphabeta", "mcts", "ai", "random")


class UnknownEngineError(YipanError, LookupError):
    """The request named an engine this server does not have (or not for this game)."""


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


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def engines_for(position: Position) -> list[str]:
    """The engines that can play this game (whatever the current position)."""
    info = position.game.info
    names = []
    if info.players == 2 and info.zero_sum and not info.chance:
        names.append("alphabeta")
    if _module_exists("yipan.search.mcts"):
        names.append("mcts")
    if position.spec.ai is not None or (info.players == 2 and info.zero_sum and not info.chance):
        names.append("ai")
    names.append("random")
    return names


def check_job(position: Position, engine: str) -> None:
    """Refuse, with a clear message, a search that cannot run: raised before any process starts."""
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


def run(job: SearchJob) -> Iterator[dict[str, Any]]:
    """Run a job, yielding JSON-ready results as they come; the last one is the answer."""
    position = load_position(job.game, job.options, list(job.moves))
    check_job(position, job.engine)
    game, state = position.game, position.state
    rng = random.Random(job.seed)
    if job.engine == "alphabeta":
        yield from _alphabeta(position, job)
    elif job.engine == "mcts":
        mcts = importlib.import_module("yipan.search.mcts").mcts
        yield result_json(game, mcts(game, state, limit=job.limit, rng=rng), job.engine)
    elif job.engine == "ai":
        yield _own_ai(position, job, rng)
    else:
        move = rng.choice(list(game.legal_moves(state)))
        yield move_json(game, move, job.engine)


def _alphabeta(position: Position, job: SearchJob) -> Iterator[dict[str, Any]]:
    from ..search import alphabeta, iterate

    game, state = position.game, position.state
    found = False
    for result in iterate(game, state, limit=job.limit, analysis=job.analysis):
        found = True
        yield result_json(game, result, job.engine)
    if not found:  # not even depth 1 finished in time: a one-ply search always gives a move
        yield result_json(game, alphabeta(game, state, depth=1, analysis=job.analysis),
                          job.engine)


def _own_ai(position: Position, job: SearchJob, rng: random.Random) -> dict[str, Any]:
    from ..players import make_ai

    game = position.game
    player = make_ai(game, job.level or "perfect", rng, job.limit.time)
    choice = player.choose(game, position.state)
    if choice.result is not None:
        answer = result_json(game, choice.result, job.engine)
        answer["move"] = game.format_move(choice.move)
        return answer
    return move_json(game, choice.move, job.engine)


def result_json(game: Any, result: SearchResult, engine: str) -> dict[str, Any]:
    """A search result as the page reads it, with the speed (nodes per second) added."""
    data = result.to_dict(game)
    data["value"] = finite(data["value"])
    data["move_values"] = {move: finite(value) for move, value in data["move_values"].items()}
    seconds = data["seconds"]
    data["nodes_per_second"] = round(data["nodes"] / seconds) if seconds > 0 else None
    data["engine"] = engine
    return data


def move_json(game: Any, move: Any, engine: str) -> dict[str, Any]:
    """A bare move (an engine that gives no search result) in the same shape."""
    text = game.format_move(move)
    return {"move": text, "value": None, "description": "", "pv": [text], "move_values": {},
            "depth": 0, "exact": False, "nodes": 0, "tt_hits": 0, "cutoffs": 0,
            "seconds": 0.0, "nodes_per_second": None, "engine": engine}
