"""The web app: a JSON API over the game registry and the engines, and the page that uses it.

Stateless per request: every call carries the game, its options and the moves so far (in the
game's own notation), so a position is a URL and any number of tabs can play at once.

    GET  /api/games                      the games, their rules, options and engines
    GET  /api/ready                      which games' engines are ready (the rest are being
                                         prepared: the first run on a machine compiles them)
    POST /api/games/{name}/state         {moves, options} -> board, side to move, legal moves
    POST /api/games/{name}/analyze       {moves, options, engine, limit, analysis} -> result
    POST /api/games/{name}/stream        the same, as server-sent events: start, one per
                                         step of the search, then the answer
    GET  /explore                        the search explorer (``explore``): the tree an
    POST /api/games/{name}/explain       algorithm explored, as ``yipan explain --json``
    POST /api/searches/{token}/stop      "Move now": the streamed search named by its start
                                         event answers at once with its best so far
    GET  /api/poker/pushfold?stack=10&ante=0   the push-or-fold equilibrium at one stack
    GET  /api/poker/pushfold/chart?ante=0      its thresholds over 1-20 big blinds
    GET  /api/openapi.json               the API's OpenAPI document

Bad input gets a 4xx with ``{"error": "..."}`` naming the problem.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, Literal

import anyio
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core import (
    CapabilityError,
    GameOptionError,
    IllegalMoveError,
    InvalidMoveError,
    Limit,
    UnknownGameError,
    YipanError,
    game_spec,
    list_games,
)
from ..core.version import VERSION
from ..engines import all_engines
from ..plugins import load_game_modules
from ..prepare import Readiness
from .engines import (
    SearchJob,
    UnknownEngineError,
    check_job,
    default_engine,
    engine_help,
    engine_labels,
    engines_for,
    opponents,
    value_engine,
)
from .explore import explore_routes
from .positions import (
    MoveListTooLongError,
    Position,
    describe_position,
    load_position,
    option_descriptions,
)
from .schemas import AnalyzeRequest, StateRequest
from .workers import SearchFailed, SearchRunner, ServerBusy

PREPARE_ENVIRONMENT = "YIPAN_WEB_PREPARE"  # yipan.web.prepare's (not imported: it prepares)

STATIC = Path(__file__).parent / "static"
DISCONNECT_POLL = 0.25  # seconds between checks that an /analyze client is still there
READY_WAIT = 20.0  # seconds a request for a game still being prepared waits, then a 503
READY_POLL = 0.25  # seconds between looks at a game being prepared
RETRY_AFTER = 3  # seconds the page waits before asking again for a game still being prepared
BUSY_RETRY_AFTER = 1  # seconds before asking again when every worker is taken: searches are short


class ClientGone(YipanError):  # noqa: N818 - a condition
    """The client closed its connection before its answer was ready."""


class NoSuchSearch(YipanError, LookupError):
    """A stop asked of a search that is not running (finished, or never started)."""


class NotReady(YipanError):  # noqa: N818 - a condition, reported as HTTP 503 with Retry-After
    """The game's engine is still being prepared (the first run on a machine compiles it)."""


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": {
        "type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]}}}}


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _error("malformed JSON"),
    404: _error("no such game (or no such search)"),
    413: _error("the body or the move list is too long"),
    422: _error("a bad move, option, engine or limit; a game over; a search refused"),
    503: _error("busy with other searches or the game's engine still being prepared (both "
                "with Retry-After: ask again then), or a search overran its hard limit"),
}
MAX_BODY = 64 * 1024  # bytes: far more than the longest move list of any game needs


def create_app(*, max_running: int = 2, max_waiting: int = 8,
               start_method: str = "forkserver", readiness: Readiness | None = None) -> FastAPI:
    """The app, with at most ``max_running`` searches at once and ``max_waiting`` queued.

    ``readiness``: the games' engines being prepared in the background (``yipan serve``:
    the page is served at once, and a game is played once its engine is ready); None: they
    are all ready, the search workers' server process preloading them."""
    load_game_modules()  # games of other packages, and those named in $YIPAN_GAMES
    runner = SearchRunner(max_running, max_waiting, start_method)
    readiness = readiness or Readiness.all_ready()

    async def warm_up_when_ready() -> None:
        # the workers' server process loads every engine once all are in numba's cache
        while readiness.finished is None:
            await asyncio.sleep(READY_POLL)
        os.environ.pop(PREPARE_ENVIRONMENT, None)  # (unless a search started it already)
        await runner.warm_up()

    async def until_ready(name: str) -> None:
        """Wait (a while) for the game's engine; then a 503 the page answers by waiting."""
        spec = game_spec(name)
        deadline = asyncio.get_running_loop().time() + READY_WAIT
        while not readiness.is_ready(spec.name):
            if asyncio.get_running_loop().time() > deadline:
                raise NotReady(f"the {spec.title} engine is still being prepared (the first run "
                               "on a machine compiles it); the page goes on as soon as it is "
                               "ready")
            await asyncio.sleep(READY_POLL)
        if readiness.finished is None:
            # a worker started now has its server process load only the games ready so far
            os.environ[PREPARE_ENVIRONMENT] = ",".join(
                game for game in readiness.names if readiness.is_ready(game))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        warming = asyncio.create_task(warm_up_when_ready())
        yield
        warming.cancel()
        runner.close()

    app = FastAPI(title="yipan", version=VERSION, lifespan=lifespan,
                  description="Play strategy games and watch the AI think.",
                  docs_url=None, redoc_url=None,  # their pages load scripts from the internet
                  openapi_url="/api/openapi.json")
    app.state.runner = runner
    app.state.readiness = readiness
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY)
    _add_error_handlers(app)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(explore_routes(runner, _unless_abandoned, until_ready))

    @app.get("/api/games")
    def games() -> dict[str, Any]:
        """Every registered game with its rules in words and its options, and the engines
        this server has (``engine_help``: what each does, in words; ``engine_aliases``: other
        names each is known by, such as ``ai`` for ``player``)."""
        listing = []
        for name in list_games():
            spec = game_spec(name)
            listing.append({"name": spec.name, "title": spec.title,
                            "aliases": list(spec.aliases), "rules": spec.rules,
                            "options": option_descriptions(spec),
                            "ready": readiness.is_ready(spec.name)})
        engines = [spec for spec in all_engines() if spec.analyses]
        return {"games": listing, "engines": [spec.name for spec in engines],
                "engine_help": {spec.name: spec.help for spec in engines},
                "engine_aliases": {alias: spec.name for spec in engines
                                   for alias in spec.aliases}}

    @app.get("/api/ready")
    def ready() -> dict[str, Any]:
        """Whether every game's engine is ready (``ready``), and each game's (``games``:
        name -> true once playable); the first run on a machine compiles them, game by game."""
        return readiness.report()

    @app.post("/api/games/{name}/state", responses=ERROR_RESPONSES)
    async def state(name: str, request: StateRequest) -> dict[str, Any]:
        """The board to draw after ``moves``, the side to move, the legal moves, the outcome;
        drawn as ``viewer`` sees it (a game of hidden cards shows that seat only its own);
        the engines the page offers for the game (``engines``; those that can play against
        you, ``opponents``), its strongest (``default_engine``), the one that values every
        move (``value_engine``), what each does (``engine_help``) and its name in words
        (``engine_labels``). Waits while the game's engine is being prepared."""
        await until_ready(name)
        return await anyio.to_thread.run_sync(partial(_describe, name, request))

    @app.post("/api/games/{name}/analyze", responses=ERROR_RESPONSES)
    async def analyze(name: str, body: AnalyzeRequest, request: Request) -> dict[str, Any]:
        """Search the position; the answer is the deepest result found within the limit.
        A client that goes away stops its search."""
        await until_ready(name)
        job = await _prepare(name, body)
        return await _unless_abandoned(request, runner.run(job))

    @app.post("/api/games/{name}/stream", response_class=StreamingResponse,
              responses={200: {"content": {"text/event-stream": {}}}, **ERROR_RESPONSES})
    async def stream(name: str, request: AnalyzeRequest) -> StreamingResponse:
        """Server-sent events while the search runs: ``start`` once it runs (``search``: the
        token that ``/api/searches/{token}/stop`` takes), ``progress`` each time its answer
        improves (alpha-beta: each depth; MCTS and the game AIs: as they report), then
        ``done`` (the answer) or ``error``. Closing the connection ends the search."""
        await until_ready(name)
        job = await _prepare(name, request)
        if runner.busy():
            raise ServerBusy("the server is busy with other searches; try again in a moment")
        return EventStream(_events(runner, job), media_type="text/event-stream",
                           headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @app.get("/pushfold", include_in_schema=False)
    def pushfold_page() -> FileResponse:
        return FileResponse(STATIC / "pushfold.html")

    @app.get("/api/poker/pushfold", responses=ERROR_RESPONSES)
    def pushfold(stack: float = Query(10.0, gt=0, le=100),
                 ante: float = Query(0.0, ge=0, le=10)) -> dict[str, Any]:
        """The heads-up push-or-fold equilibrium (``yipan poker pushfold --json``)."""
        return pushfold_ranges(stack, ante)

    @app.get("/api/poker/pushfold/chart", responses=ERROR_RESPONSES)
    def pushfold_chart(ante: ChartAnte = "0") -> dict[str, Any]:
        """The thresholds: the largest stack of 1-20 bb at which each hand shoves and calls.
        A chart solves 191 stacks (seconds), so the antes offered are those the package keeps
        computed."""
        return pushfold_thresholds(float(ante))
    @app.post("/api/searches/{token}/stop", responses=ERROR_RESPONSES)
    def stop(token: str) -> dict[str, Any]:
        """"Move now": the streamed search named ``token`` (its start event's ``search``)
        stops and sends its best answer so far as ``done``; 404 once it has ended."""
        if not runner.hurry(token):
            raise NoSuchSearch("no such search is running (it may have just finished)")
        return {"stopping": True}

    return app


ChartAnte = Literal["0", "0.1", "0.125", "0.25"]


def _describe(name: str, request: StateRequest) -> dict[str, Any]:
    position = load_position(name, request.options, request.moves)
    engines = engines_for(position)
    return {**describe_position(position, engines, viewer=request.viewer),
            "opponents": opponents(engines),
            "default_engine": default_engine(engines),
            "value_engine": value_engine(position, engines),
            "engine_help": engine_help(position, engines),
            "engine_labels": engine_labels(engines)}


def pushfold_ranges(stack: float, ante: float) -> dict[str, Any]:
    from ..poker import pushfold

    if ante > stack:
        raise GameOptionError("the ante cannot exceed the stack")
    solution = pushfold.solve(stack, ante)
    return {"stack": stack, "ante": ante, "push": solution.push_range(),
            "call": solution.call_range(), "value": solution.value,
            "exploitability": solution.exploitability, "iterations": solution.iterations}


def pushfold_thresholds(ante: float) -> dict[str, Any]:
    from ..poker import pushfold

    chart = pushfold.chart_for(ante)
    return {"ante": ante, "push": chart.push, "call": chart.call,
            "stacks": [float(chart.stacks[0]), float(chart.stacks[-1]), 0.1],
            "worst_exploitability": chart.worst_exploitability}


async def _unless_abandoned(request: Request, work: Any) -> Any:
    """Await ``work``, cancelling it (and so stopping its search) if the client goes away."""
    task = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=DISCONNECT_POLL)
            if done:
                return task.result()
            if await request.is_disconnected():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, YipanError):
                    await task
                raise ClientGone("the client went away; its search was stopped")
    finally:
        if not task.done():
            task.cancel()


async def _prepare(name: str, request: AnalyzeRequest) -> SearchJob:
    """Check a search request in a worker thread (replaying moves is quick, but not free)."""
    position: Position = await anyio.to_thread.run_sync(
        partial(load_position, name, request.options, request.moves))
    engine = check_job(position, request.engine)
    limit = request.limit
    return SearchJob(game=name, moves=tuple(request.moves), engine=engine,
                     limit=Limit(depth=limit.depth, nodes=limit.nodes, time=limit.time),
                     options=request.options, analysis=request.analysis, level=request.level,
                     seed=request.seed if request.seed is not None else random.getrandbits(63))


def _event(kind: str, data: dict[str, Any]) -> str:
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"


async def _events(runner: SearchRunner, job: SearchJob) -> AsyncIterator[str]:
    last = None
    token = secrets.token_urlsafe(12)
    # the endpoint found a free place, but other requests may have taken it since: an open
    # stream waits its turn (until its client goes away) rather than fail
    while runner.busy():
        await asyncio.sleep(BUSY_RETRY_AFTER)
    try:
        async with runner.search(job, token=token) as results:
            yield _event("start", {"search": token, "engine": job.engine, "level": job.level,
                                   "time": job.limit.time})
            async for last in results:
                yield _event("progress", last)
    except YipanError as error:
        yield _event("error", {"error": str(error)})
        return
    if last is None:
        yield _event("error", {"error": "the search gave no result"})
    else:
        yield _event("done", last)


class EventStream(StreamingResponse):
    """A stream that always watches for the client going away, and then stops (whatever ASGI
    version the server speaks), so an abandoned search is ended at once, not at its next
    result."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async with anyio.create_task_group() as group:

            async def stream_then_stop() -> None:
                await self.stream_response(send)
                group.cancel_scope.cancel()

            group.start_soon(stream_then_stop)
            await self.listen_for_disconnect(receive)
            group.cancel_scope.cancel()


# -- errors ---------------------------------------------------------------------------------------
def error_status(error: YipanError) -> int:
    """The HTTP status of an error of ours: whose fault, and which kind."""
    if isinstance(error, (UnknownGameError, NoSuchSearch)):
        return 404
    if isinstance(error, (ServerBusy, NotReady)):
        return 503
    if isinstance(error, SearchFailed):
        return {"input": 422, "overrun": 503, "unavailable": 503}.get(error.kind, 500)
    if isinstance(error, ClientGone):
        return 499
    if isinstance(error, MoveListTooLongError):
        return 413
    if isinstance(error, (InvalidMoveError, IllegalMoveError, GameOptionError, CapabilityError,
                          UnknownEngineError)):
        return 422
    return 400


def _validation_message(error: RequestValidationError) -> tuple[int, str]:
    problems = error.errors()
    if not problems:
        return 422, "invalid request"
    first = problems[0]
    if first.get("type") == "json_invalid":
        return 400, f"malformed JSON: {first.get('ctx', {}).get('error', first.get('msg'))}"
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    return 422, f"{where or 'body'}: {first.get('msg', 'invalid')}"


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(YipanError)
    async def yipan_error(request: Request, error: YipanError) -> JSONResponse:
        # both are conditions that pass: the client (the page does) asks again after the wait
        wait = {NotReady: RETRY_AFTER, ServerBusy: BUSY_RETRY_AFTER}.get(type(error))
        headers = {"Retry-After": str(wait)} if wait is not None else None
        return JSONResponse({"error": str(error)}, status_code=error_status(error),
                            headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        status, message = _validation_message(error)
        return JSONResponse({"error": message}, status_code=status)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code,
                            headers=getattr(error, "headers", None))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"error": f"internal error: {type(error).__name__}"},
                            status_code=500)


class BodyLimit:
    """Refuse (413) a request body over ``max_bytes`` before anything parses it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                response = JSONResponse(
                    {"error": f"request body over {self.max_bytes} bytes"}, status_code=413)
                await response(scope, receive, send)
                return
        first: Message = {"type": "http.request", "body": bytes(body), "more_body": False}
        await self.app(scope, _replay([first], receive), send)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives ``messages`` first, then reads on (for the disconnect)."""
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed
