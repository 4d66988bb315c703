"""The event stream on a real server: a search ends as soon as its client goes away."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

httpx = pytest.importorskip("httpx", reason="the stream test needs httpx (the test extra)")

X_WINS_NEXT = ["a1", "a2", "b1", "b2"]


def next_event(lines: Iterator[str]) -> str:
    """The name of the next event in a stream's lines.

    The caller keeps ``lines`` (one ``response.iter_lines()``) as long as the stream is to stay
    open: an httpx line iterator dropped half-read closes the connection when it is collected,
    and the server then (rightly) stops the search.
    """
    for line in lines:
        if line.startswith("event:"):
            return line.removeprefix("event:").strip()
    raise AssertionError("the stream ended before its next event")


def test_a_search_stops_when_the_client_goes_away(live_server) -> None:
    url, app = live_server
    runner = app.state.runner
    # far too large to finish: it would run for its whole 30 s if nobody stopped it
    body = {"options": {"size": "7x7", "k": 5}, "limit": {"time": 30}}
    with httpx.Client(timeout=60) as http:
        with http.stream("POST", f"{url}/api/games/tictactoe/stream", json=body) as response:
            assert response.status_code == 200
            lines = response.iter_lines()
            assert next_event(lines) == "start"
            assert next_event(lines) == "progress"
            assert runner.running == 1
        # the connection is closed here, in the middle of the search
        deadline = time.monotonic() + 45
        while runner.running and time.monotonic() < deadline:
            time.sleep(0.05)
        assert runner.running == 0
        assert runner.cancelled == 1  # interrupted, not finished
        started = runner.started
        result = http.post(f"{url}/api/games/tictactoe/analyze",
                           json={"moves": X_WINS_NEXT, "limit": {"time": 10}}).json()
        assert result["move"] == "c1"
        assert runner.started == started  # the interrupted worker served the next search


def test_a_dead_worker_is_replaced(live_server) -> None:
    url, app = live_server
    runner = app.state.runner
    with httpx.Client(timeout=60) as http:
        http.post(f"{url}/api/games/tictactoe/analyze", json={"moves": X_WINS_NEXT})
        assert runner._idle, "a worker should be waiting after a search"
        for worker in runner._idle:
            worker.process.kill()
            worker.process.join()
        result = http.post(f"{url}/api/games/tictactoe/analyze",
                           json={"moves": X_WINS_NEXT, "limit": {"time": 10}}).json()
        assert result["move"] == "c1"


def test_a_full_server_answers_busy_and_keeps_serving(server_factory) -> None:
    long_search = {"options": {"size": "7x7", "k": 5}, "limit": {"time": 30}}
    with server_factory(max_running=1, max_waiting=0) as (url, app), \
            httpx.Client(timeout=60) as http:
        with http.stream("POST", f"{url}/api/games/tictactoe/stream",
                         json=long_search) as response:
            lines = response.iter_lines()
            assert next_event(lines) == "start"
            assert next_event(lines) == "progress"  # the long search is running
            busy = http.post(f"{url}/api/games/tictactoe/analyze", json={"moves": X_WINS_NEXT})
            assert busy.status_code == 503 and "busy" in busy.json()["error"]
            assert float(busy.headers["Retry-After"]) > 0  # a passing condition: ask again
            assert http.get(f"{url}/api/games").status_code == 200  # cheap requests still served
        deadline = time.monotonic() + 45
        while app.state.runner.running and time.monotonic() < deadline:
            time.sleep(0.05)
        result = http.post(f"{url}/api/games/tictactoe/analyze", json={"moves": X_WINS_NEXT})
        assert result.json()["move"] == "c1"


def stream_events(lines: Iterator[str]) -> Iterator[tuple[str, dict]]:
    """The (event, data) pairs of a stream as they come, up to ``done`` (or ``error``)."""
    import json

    kind = ""
    for line in lines:
        if line.startswith("event:"):
            kind = line.removeprefix("event:").strip()
        elif line.startswith("data:"):
            yield kind, json.loads(line.removeprefix("data:"))
            if kind in ("done", "error"):
                return


def events_until_done(lines: Iterator[str]) -> list[tuple[str, dict]]:
    """Every (event, data) of a stream up to and including ``done`` (or ``error``)."""
    return list(stream_events(lines))


@pytest.mark.parametrize(("game", "moves"), [("gomoku", ["h8", "h9", "i8"]),
                                             ("connect4", ["4", "4", "3"]),
                                             ("chess", ["e2e4"]), ("xiangqi", ["h2e2"])])
def test_the_game_ai_thinks_aloud(live_server, game: str, moves: list[str]) -> None:
    """The game's own AI reports as it goes (Gomoku, chess, xiangqi: each depth; Connect
    Four: its tree search), as alpha-beta does: a start, progress, then the answer."""
    url, _ = live_server
    body = {"moves": moves, "engine": "ai", "level": "perfect", "limit": {"time": 2}}
    with httpx.Client(timeout=60) as http, \
            http.stream("POST", f"{url}/api/games/{game}/stream", json=body) as response:
        stream = events_until_done(response.iter_lines())
    kinds = [kind for kind, _ in stream]
    assert kinds[0] == "start" and kinds[-1] == "done"
    assert kinds.count("progress") >= 2, kinds
    assert stream[-1][1]["move"] and stream[-1][1]["engine"] == "player"  # "ai" is its other name


@pytest.mark.parametrize(("game", "body"), [
    ("connect4", {"moves": ["4", "4", "3"], "engine": "player", "level": "perfect",
                  "options": {"size": "7x7"}}),  # no book on 7x7: a long solve
    ("gomoku", {"moves": ["h8", "h9", "i8"], "engine": "player", "level": "perfect"}),
    ("chess", {"moves": ["e2e4"], "engine": "player", "level": "perfect"}),
    ("xiangqi", {"moves": ["h2e2"], "engine": "player", "level": "perfect"}),
    ("tictactoe", {"options": {"size": "7x7", "k": 5}, "engine": "alphabeta"}),
    ("tictactoe", {"options": {"size": "7x7", "k": 5}, "engine": "mcts"}),
])
def test_move_now_stops_a_search_and_answers_with_its_best(live_server, game: str,
                                                           body: dict) -> None:
    """"Move now" with every engine: the search named by its start event stops early and
    sends its best move as the answer (the connection stays open: not a cancel)."""
    url, app = live_server
    cancelled = app.state.runner.cancelled
    with httpx.Client(timeout=60) as http:
        with http.stream("POST", f"{url}/api/games/{game}/stream",
                         json={**body, "limit": {"time": 25}}) as response:
            lines = response.iter_lines()
            start = events_until_done_or_first(lines, "start")
            time.sleep(0.5)  # searching (Connect Four's AI: solving; no report yet)
            stop = http.post(f"{url}/api/searches/{start['search']}/stop")
            assert stop.status_code == 200, stop.text
            answer = events_until_done(lines)[-1]
        assert http.post(f"{url}/api/searches/{start['search']}/stop").status_code == 404
    assert answer[0] == "done" and answer[1]["move"]
    assert answer[1]["seconds"] < 15  # far sooner than the 25 s it was given
    assert app.state.runner.cancelled == cancelled


def events_until_done_or_first(lines: Iterator[str], wanted: str) -> dict:
    """The data of the next ``wanted`` event."""
    for kind, data in stream_events(lines):
        if kind == wanted:
            return data
        if kind in ("done", "error"):
            raise AssertionError(f"the stream ended ({kind}) before a {wanted} event")
    raise AssertionError(f"the stream ended before a {wanted} event")
