"""The search explorer: the tree an algorithm explored, for the page at ``/explore``.

    GET  /explore                        the page (static/explore.html)
    POST /api/games/{name}/explain       {moves, options, algorithm, depth | iterations,
                                          max_nodes, without, seed} -> the tree, as
                                          ``yipan explain --json`` prints it

The search is ``yipan.explain`` (the real search, watched through its trace hook), run in a
search worker like every other search (``workers``), so a slow one cannot hold the server:
besides the worker's hard deadline, the search itself stops (HTTP 422, saying why) past
``SEARCH_SECONDS`` or ``MAX_SEARCHED`` nodes, and the request's sizes are capped before it
starts (``ExplainRequest``). The answer adds ``exploration`` (MCTS's UCB1 constant) so the
page can replay each node's UCB score iteration by iteration.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal, Protocol

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from ..core import CapabilityError, Limit, YipanError
from ..explain import ALGORITHMS, REFINEMENTS, SearchStopped, check, explain, to_json
from ..plugins import load_game_modules
from ..search.mcts import DEFAULT_EXPLORATION
from .positions import load_position
from .schemas import MoveText


class Runner(Protocol):
    """What the routes need of the server's search runner (``workers.SearchRunner``, which
    imports this module to run its jobs)."""

    def run(self, job: Any) -> Awaitable[dict[str, Any]]: ...

STATIC = Path(__file__).parent / "static"
MAX_DEPTH = 12  # plies: deeper trees than a person can read, and searches that take long
MAX_ITERATIONS = 20_000
MAX_RECORDED = 20_000  # nodes of a tree sent to the page (the CLI's default cap)
DEFAULT_RECORDED = 5_000
MAX_SEARCHED = 3_000_000  # nodes a search may visit, recorded or not
SEARCH_SECONDS = 15.0  # after this the search stops itself (the worker's deadline is later)

Algorithm = Literal["minimax", "alphabeta", "alphabeta-tt", "mcts", "mcts-solver",
                    "expectimax", "grundy"]
Refinement = Literal["table", "symmetry", "ordering", "pvs", "bounds"]
assert set(Algorithm.__args__) == set(ALGORITHMS)  # type: ignore[attr-defined]
assert set(Refinement.__args__) == set(REFINEMENTS)  # type: ignore[attr-defined]


class ExplainTooLarge(YipanError):  # noqa: N818 - a condition, reported as HTTP 422
    """The search went past what one request may search (nodes or seconds)."""


class ExplainRequest(BaseModel):
    """One explained search (the fields of ``yipan explain``), every size capped."""

    model_config = ConfigDict(extra="forbid")

    moves: list[MoveText] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    algorithm: Algorithm
    depth: int | None = Field(None, ge=1, le=MAX_DEPTH)
    iterations: int | None = Field(None, ge=1, le=MAX_ITERATIONS)
    max_nodes: int = Field(DEFAULT_RECORDED, ge=1, le=MAX_RECORDED)
    without: list[Refinement] = Field(default_factory=list, max_length=len(REFINEMENTS))
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


@dataclass(frozen=True, slots=True)
class ExplainJob:
    """An explained search as plain data for a worker process (``workers``), which runs it
    with ``run`` rather than as an engine; ``limit.time`` sets the worker's hard deadline."""

    game: str
    moves: tuple[str, ...]
    algorithm: str
    depth: int | None
    iterations: int | None
    max_nodes: int
    without: tuple[str, ...] = ()
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    limit: Limit = Limit(time=SEARCH_SECONDS)

    def run(self, stop: Callable[[], bool] | None = None) -> Iterator[dict[str, Any]]:
        """The explanation as JSON (one result); ``stop`` is the server's cancel."""
        load_game_modules()  # a worker knows the games the server was started with
        position = load_position(self.game, self.options, list(self.moves))
        check(position.game, position.state, self.algorithm, self.depth, self.iterations)
        deadline = time.monotonic() + SEARCH_SECONDS
        searched = 0

        def stopping() -> bool:
            nonlocal searched
            searched += 1
            if searched > MAX_SEARCHED:
                raise ExplainTooLarge(f"the search went past {MAX_SEARCHED:,} nodes; ask for "
                                      "a smaller depth (or fewer iterations)")
            if searched % 256 == 0 and time.monotonic() > deadline:
                raise ExplainTooLarge(f"the search took more than {SEARCH_SECONDS:g} s; ask "
                                      "for a smaller depth (or fewer iterations)")
            return stop is not None and stop()

        try:
            explanation = explain(position.game, position.state, self.algorithm,
                                  depth=self.depth, iterations=self.iterations,
                                  rng=random.Random(self.seed), max_nodes=self.max_nodes,
                                  without=self.without, stop=stopping)
        except SearchStopped:
            return  # cancelled: the worker says so
        data = to_json(position.game, explanation, list(self.moves), self.depth,
                       self.iterations)
        data["options"] = self.options
        data["without"] = list(self.without)
        data["exploration"] = DEFAULT_EXPLORATION
        yield data


Guard = Callable[[Request, Awaitable[Any]], Awaitable[Any]]


def explore_routes(runner: Runner, unless_abandoned: Guard,
                   until_ready: Callable[[str], Awaitable[None]]) -> APIRouter:
    """The page and its API; ``unless_abandoned`` stops the search of a client that leaves,
    ``until_ready`` waits while the game's engine is being prepared (the app's own)."""
    router = APIRouter()

    @router.get("/explore", include_in_schema=False)
    def explore_page() -> FileResponse:
        return FileResponse(STATIC / "explore.html")

    @router.post("/api/games/{name}/explain")
    async def explain_search(name: str, body: ExplainRequest,
                             request: Request) -> dict[str, Any]:
        """The tree the algorithm explored from the position (``yipan explain --json``),
        each node's values in the algorithm's terms; MCTS adds each iteration's path.
        Waits while the game's engine is being prepared."""
        await until_ready(name)
        position = await anyio.to_thread.run_sync(
            partial(load_position, name, body.options, body.moves))
        check(position.game, position.state, body.algorithm, body.depth, body.iterations)
        if body.without and body.algorithm != "alphabeta-tt":
            raise CapabilityError("refinements are turned off in alphabeta-tt; "
                                  f"{body.algorithm} has none")
        job = ExplainJob(game=name, moves=tuple(body.moves), algorithm=body.algorithm,
                         depth=body.depth, iterations=body.iterations,
                         max_nodes=body.max_nodes, without=tuple(body.without),
                         seed=body.seed if body.seed is not None else random.getrandbits(63),
                         options=body.options)
        result: dict[str, Any] = await unless_abandoned(request, runner.run(job))
        return result

    return router

