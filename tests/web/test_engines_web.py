"""The engine registry as the web API meets it: every engine the page offers answers on a
game it serves, an unknown name is a 4xx with one error, the page's old names (``ai``,
``analysis``) still work, and an engine registered here appears in the lists and runs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra (fastapi)")
pytest.importorskip("httpx", reason="the web tests need httpx (the test extra)")

from fastapi.testclient import TestClient  # noqa: E402

from yipan import engines  # noqa: E402
from yipan.core import CHANCE, Analysis, Game, get_game  # noqa: E402
from yipan.engines import Asked, EngineSpec  # noqa: E402
from yipan.web import create_app  # noqa: E402

POSITIONS = [("tictactoe", ["a1", "b2"]), ("nim", []), ("2048", None), ("connect4", ["4", "4"])]
PAGE_ENGINES = [spec.name for spec in engines.all_engines() if spec.analyses
                and any(spec.serves(get_game(name)) and spec.on_page(get_game(name))
                        for name, _ in POSITIONS)]


def first_move_thoughts(asked: Asked) -> Iterator[Analysis]:
    """Thinks aloud twice: the last legal move, then (its answer) the first."""
    moves = list(asked.game.legal_moves(asked.state))
    for move in (moves[-1], moves[0]):
        yield Analysis(move=move, value=None, pv=(move,), engine="first-move")


FIRST_MOVE = EngineSpec("first-move", "plays the first legal move (a test's engine)",
                        think=first_move_thoughts, label="the first move")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """A server whose search workers are forked from this process after the test's engine
    is registered, so they know it as the server does."""
    engines.register_engine(FIRST_MOVE)
    try:
        with TestClient(create_app(max_running=1, start_method="fork")) as test_client:
            yield test_client
    finally:
        engines.unregister_engine(FIRST_MOVE.name)


def decision_moves(game: Game, moves: list[str] | None) -> list[str]:
    """``moves``, or (None) the chance draws from the start up to the first choice."""
    if moves is not None:
        return moves
    state, drawn = game.initial_state(), []
    while game.to_move(state) == CHANCE:
        draw = game.chance_outcomes(state)[0][0]
        drawn.append(game.format_move(draw))
        state = game.play(state, draw)
    return drawn


def state(client: TestClient, game: str, moves: list[str]) -> dict[str, Any]:
    response = client.post(f"/api/games/{game}/state", json={"moves": moves})
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("name", PAGE_ENGINES)
def test_every_engine_the_page_offers_answers_through_the_api(client: TestClient,
                                                               name: str) -> None:
    spec = engines.engine_spec(name)
    game_name, moves = next((game, moves) for game, moves in POSITIONS
                            if spec.serves(get_game(game)) and spec.on_page(get_game(game)))
    moves = decision_moves(get_game(game_name), moves)
    position = state(client, game_name, moves)
    assert name in position["engines"]
    response = client.post(f"/api/games/{game_name}/analyze",
                           json={"moves": moves, "engine": name, "seed": 1, "level": "medium",
                                 "limit": {"depth": 2, "nodes": 300, "time": 10}})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["move"] in position["legal_moves"] and answer["engine"] == name


@pytest.mark.parametrize("path", ["analyze", "stream"])
def test_an_unknown_engine_is_a_4xx_with_one_error(client: TestClient, path: str) -> None:
    response = client.post(f"/api/games/tictactoe/{path}", json={"engine": "nope"})
    assert 400 <= response.status_code < 500
    body = response.json()
    assert set(body) == {"error"} and "nope" in body["error"] and "alphabeta" in body["error"]


@pytest.mark.parametrize(("old", "name"), [("ai", "player"), ("analysis", "auto")])
def test_the_pages_old_engine_names_still_run(client: TestClient, old: str, name: str) -> None:
    assert client.get("/api/games").json()["engine_aliases"][old] == name
    response = client.post("/api/games/nim/analyze", json={"engine": old})
    assert response.status_code == 200, response.text
    assert response.json()["engine"] == name


def test_a_registered_engine_is_listed_offered_and_runs(client: TestClient) -> None:
    listing = client.get("/api/games").json()
    assert "first-move" in listing["engines"]
    assert listing["engine_help"]["first-move"].startswith("plays the first legal move")
    position = state(client, "tictactoe", ["b2"])
    assert "first-move" in position["engines"] and "first-move" in position["opponents"]
    assert position["engine_labels"]["first-move"] == "the first move"
    response = client.post("/api/games/tictactoe/stream",
                           json={"moves": ["b2"], "engine": "first-move"})
    kinds = [line.removeprefix("event: ") for line in response.text.splitlines()
             if line.startswith("event: ")]
    assert kinds == ["start", "progress", "progress", "done"]
    assert '"move": "a1"' in response.text.split("event: done")[1]  # its last thought
