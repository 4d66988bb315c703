"""The first hour on a machine that never ran yipan: ``yipan serve`` serves the page at once
and prepares the engines in the background; every game's first move works once its engine
is ready (none compiles or solves inside a search), in the browser too; after preparing,
nothing compiles again; the AIs of the heap and card games say what the position is worth."""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from yipan.core import CHANCE, Limit, game_spec, get_game, list_games

from .conftest import WAIT, opened_pages, url_moves

pytest.importorskip("fastapi", reason="the web app needs the web extra (fastapi)")
pytest.importorskip("uvicorn", reason="the web app needs the web extra (uvicorn)")

SRC = Path(__file__).resolve().parents[2] / "src"
CARD_GAMES = ("kuhn", "leduc", "liars-dice", "pushfold")
HEAP_GAMES = tuple(name for name in list_games()
                   if game_spec(name).hooks == "yipan.games.heaps.hooks:HOOKS")
LAZY_GAMES = HEAP_GAMES + CARD_GAMES
"""The games whose first move compiled a kernel or solved a strategy inside the search."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def dealt(name: str, options: dict[str, Any] | None = None) -> list[str]:
    """The moves up to the first choice of a player: the deal of a card game (its first
    outcomes), nothing for the others."""
    game = get_game(name, **(options or {}))
    state, moves = game.initial_state(), []
    while game.outcome(state) is None and game.to_move(state) == CHANCE:
        draw = game.chance_outcomes(state)[0][0]
        moves.append(game.format_move(draw))
        state = game.play(state, draw)
    return moves


# -- a cold server --------------------------------------------------------------------------------
def games_of_a_fresh_process() -> list[str]:
    """The games a new process registers (this one's registry may hold games other tests
    added)."""
    done = subprocess.run([sys.executable, "-m", "yipan", "games", "--json"],
                          capture_output=True, text=True, check=True, timeout=300)
    return [game["name"] for game in json.loads(done.stdout)["games"]]


def call(url: str, body: dict | None = None, timeout: float = 600) -> tuple[int, dict, Any]:
    """(status, JSON body, headers: read case-insensitively) of a GET (or a POST of
    ``body``)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - ours
            text = response.read().decode()
            kind = response.headers.get("content-type", "")
            return response.status, json.loads(text) if "json" in kind else {"text": text}, \
                response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode() or "{}"), error.headers


def as_the_page_does(url: str, body: dict) -> tuple[int, dict]:
    """A POST asked again after Retry-After while the server answers 503 with one (a game
    still being prepared), as the page does."""
    while True:
        status, answer, headers = call(url, body)
        if status != 503 or headers.get("Retry-After") is None:
            return status, answer
        time.sleep(float(headers.get("Retry-After")))


@pytest.fixture
def cold_server(tmp_path: Path):
    """``yipan serve`` on a fresh numba cache and a fresh strategy cache: a machine's first
    run. Yields its base URL."""
    port = free_port()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "YIPAN_CACHE": str(tmp_path / "yipan"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}
    env.pop("YIPAN_WEB_PREPARE", None)
    server = subprocess.Popen([sys.executable, "-m", "yipan", "serve", "--port", str(port)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            assert server.poll() is None, server.stdout.read() if server.stdout else ""
            try:
                call(base + "/api/ready", timeout=5)
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_a_cold_server_serves_the_page_while_it_prepares_and_every_first_move_works(
        cold_server: str, request: pytest.FixtureRequest) -> None:
    """The page and the API on a machine's first run (one cold server: its compile is the
    dear part). The page itself, where a browser is installed: every game opened at once with
    the AI to move first, while the engines are still being prepared, gets the AI's first
    move (the page waiting as the server tells it), with no error shown."""
    status, page, _ = call(cold_server + "/")
    _, first, _ = call(cold_server + "/api/ready")
    assert status == 200 and "<html" in page["text"].lower()
    assert first["ready"] is False  # the page answered while engines were still compiling
    with contextlib.ExitStack() as pages_open:
        try:
            browser = request.getfixturevalue("browser")
        except pytest.skip.Exception:  # no browser here: the API's part still runs
            pages = {}
        else:
            open_page = pages_open.enter_context(opened_pages(browser))
            pages = {name: open_page(f"{cold_server}/?game={name}&first=ai",
                                     {"width": 1280, "height": 800}, lambda _page: None)
                     for name in games_of_a_fresh_process()}
        the_api_on_a_cold_server(cold_server, first)
        for name, tab in pages.items():
            dealt_moves = len(dealt(name))
            tab.wait_for_function(
                "([n]) => (new URLSearchParams(location.search).get('moves') ?? '')"
                ".split(' ').filter(Boolean).length > n"
                " || document.getElementById('status')?.className === 'error'",
                arg=[dealt_moves], timeout=WAIT * 5)
            shown = tab.locator("#status")
            assert shown.get_attribute("class") != "error", (name, shown.inner_text())
            assert len(url_moves(tab)) > dealt_moves, name


def the_api_on_a_cold_server(cold_server: str, first: dict) -> None:
    """Every game's first move over the page's API, asked as soon as the page may ask."""
    assert first["count"] == len(games_of_a_fresh_process())
    _, listing, _ = call(cold_server + "/api/games")
    assert {game["name"]: game["ready"] for game in listing["games"]}.keys() == \
        first["games"].keys()

    # the first move of each game that used to compile or solve inside it: asked at once,
    # it waits for its engine (or is told to come back), then answers well inside its time
    for name in LAZY_GAMES:
        moves = dealt(name)
        for engine in ("ai", "analysis"):
            status, answer = as_the_page_does(
                f"{cold_server}/api/games/{name}/analyze",
                {"moves": moves, "engine": engine, "limit": {"time": 0.3}})
            assert status == 200, (name, engine, answer)
            assert answer["move"] is not None and answer["description"] != "unknown", \
                (name, engine, answer)

    # then every other game's first move by the engine the page picks for it (its AI), on
    # the state the page asks for first, as soon as the page may ask
    asked = []
    for name in games_of_a_fresh_process():
        if name in LAZY_GAMES:
            continue
        moves = dealt(name)
        status, state = as_the_page_does(f"{cold_server}/api/games/{name}/state",
                                          {"moves": moves})
        assert status == 200, (name, state)
        if state.get("outcome") is not None or not state.get("legal_moves", True):
            continue
        status, answer = as_the_page_does(
            f"{cold_server}/api/games/{name}/analyze",
            {"moves": moves, "engine": state["default_engine"], "limit": {"time": 0.3}})
        assert status == 200 and answer["move"] is not None, (name, answer)
        asked.append(name)
    assert {"chess", "xiangqi", "go", "gomoku", "connect4", "2048", "tictactoe"} <= set(asked)

    seen = [first["ready_count"]]
    while True:
        _, report, _ = call(cold_server + "/api/ready")
        seen.append(report["ready_count"])
        if report["ready"]:
            break
        time.sleep(1)
    assert seen == sorted(seen) and seen[-1] == first["count"]
    assert all(report["games"].values())


def test_a_game_still_being_prepared_is_a_503_with_retry_after(monkeypatch) -> None:
    from fastapi.testclient import TestClient

    from yipan.prepare import Readiness
    from yipan.web import app as web_app

    monkeypatch.setattr(web_app, "READY_WAIT", 0.0)
    readiness = Readiness(["tictactoe", "kayles", "nim"])  # kayles and nim share hooks
    with TestClient(web_app.create_app(readiness=readiness)) as client:
        assert client.get("/api/ready").json() == {
            "ready": False, "games": {"tictactoe": True, "kayles": False, "nim": False},
            "ready_count": 1, "count": 3}
        waiting = client.post("/api/games/kayles/state", json={"moves": []})
        assert waiting.status_code == 503 and int(waiting.headers["Retry-After"]) > 0
        assert "being prepared" in waiting.json()["error"]
        assert "limit" not in waiting.json()["error"]
        assert client.post("/api/games/tictactoe/state", json={"moves": []}).status_code == 200
        readiness.set_ready("nim")
        assert readiness.wait("kayles", 0)
        assert client.post("/api/games/kayles/state", json={"moves": []}).status_code == 200
        assert client.get("/api/ready").json()["ready"] is True


# -- after preparing, nothing compiles ------------------------------------------------------------
FIRST_MOVES = """
from yipan.core import CHANCE, Limit, get_game
from yipan.web.engines import SearchJob, run

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def dealt(name):
    game = get_game(name)
    state, moves = game.initial_state(), []
    while game.outcome(state) is None and game.to_move(state) == CHANCE:
        draw = game.chance_outcomes(state)[0][0]
        moves.append(game.format_move(draw))
        state = game.play(state, draw)
    return tuple(moves)

report["answers"] = {}
for name in NAMES:
    for engine in ("ai", "analysis"):
        job = SearchJob(name, dealt(name), engine, Limit(time=1.0), level="perfect")
        report["answers"][name + " " + engine] = list(run(job))[-1]["description"]
"""


def test_after_preparing_the_first_moves_compile_nothing(count_compilations, tmp_path,
                                                         monkeypatch) -> None:
    """``yipan prepare``'s machinery leaves nothing for a heap or card game's first move to
    compile (every heap game shares the hooks of the one prepared) or to solve (Liar's
    Dice's strategy is kept on disk)."""
    monkeypatch.setenv("YIPAN_CACHE", str(tmp_path / "yipan"))
    names = f"NAMES = {list(LAZY_GAMES)!r}\n"
    prepared = count_compilations(
        names + "from yipan.prepare import prepare_engines\nprepare_engines(NAMES)")
    assert prepared["compiled"]  # a fresh cache: preparing compiled the kernels
    from yipan.games.equilibrium import SOLVE_ITERATIONS, _cache_path
    from yipan.games.liarsdice import LiarsDice

    # solved ahead, and kept for every process that plays it
    assert _cache_path(LiarsDice(), "cfr+", SOLVE_ITERATIONS["liars-dice"]).is_file()
    then = count_compilations(names + FIRST_MOVES)
    assert then["compiled"] == {}, then["compiled"]
    assert "unknown" not in then["answers"].values(), then["answers"]


# -- values in words ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", HEAP_GAMES)
def test_the_heap_games_ai_says_who_wins(name: str) -> None:
    from yipan.web.engines import SearchJob, run

    game = get_game(name)
    lost = game.is_lost(game.initial_state())  # type: ignore[attr-defined]
    answer = list(run(SearchJob(name, (), "ai", Limit(time=1.0), level="perfect",
                                seed=random.getrandbits(63))))[-1]
    assert answer["description"] == ("loss" if lost else "win")
    assert answer["outcome"] == answer["description"]


@pytest.mark.parametrize(("name", "options"), [
    ("kuhn", {}), ("leduc", {}), ("liars-dice", {"faces": 3}), ("pushfold", {})])
@pytest.mark.parametrize("level", ["perfect", "easy"])
def test_the_card_games_ai_gives_the_equilibriums_expected_value(
        name: str, options: dict[str, Any], level: str) -> None:
    from yipan.web.engines import SearchJob, run

    moves = tuple(dealt(name, options))
    job = SearchJob(name, moves, "ai", Limit(time=1.0), options=options, level=level,
                    seed=random.getrandbits(63))
    answer = list(run(job))[-1]
    theory = list(run(SearchJob(name, moves, "analysis", Limit(time=1.0), options=options)))[-1]
    assert answer["description"].startswith("expected payoff ")
    assert answer["move"] in answer["move_values"]
    if name == "pushfold":  # the value of the action it took
        assert answer["value"] == pytest.approx(theory["move_values"][answer["move"]])
    else:  # the value of its information state
        assert answer["value"] == pytest.approx(theory["value"])

