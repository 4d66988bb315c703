"""The web app's network engines: PUCT and the network alone, for a game that ships one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi", reason="the web app needs the web extra (fastapi)")
pytest.importorskip("httpx", reason="FastAPI's test client needs httpx (the test extra)")

from fastapi.testclient import TestClient  # noqa: E402

from yipan.engines import has_network  # noqa: E402
from yipan.games.connect4 import ConnectFour  # noqa: E402
from yipan.web import create_app  # noqa: E402

MOVES = list("4453423")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    assert has_network(ConnectFour()), "the Connect Four network is shipped in src/yipan/data"
    with TestClient(create_app(max_running=2)) as test_client:
        yield test_client


def test_connect_four_offers_puct_and_the_network_tictactoe_does_not(client):
    body = client.post("/api/games/connect4/state", json={"moves": MOVES}).json()
    assert {"puct", "net"} <= set(body["engines"])
    assert "network" in body["engine_help"]["puct"]
    body = client.post("/api/games/tictactoe/state", json={"moves": []}).json()
    assert "puct" not in body["engines"] and "net" not in body["engines"]


@pytest.mark.parametrize("engine", ["puct", "net"])
def test_an_answer_carries_the_networks_policy_and_value(client, engine):
    response = client.post("/api/games/connect4/analyze",
                           json={"moves": MOVES, "engine": engine, "limit": {"nodes": 64}})
    assert response.status_code == 200, response.text
    body = response.json()
    policy = body["extra"]["policy"]
    assert set(policy) == {str(c) for c in range(1, 8)}  # every column is open
    assert abs(sum(policy.values()) - 1) < 1e-2
    assert -1 <= body["extra"]["network_value"] <= 1
    assert body["move"] in policy
    if engine == "puct":
        assert sum(body["extra"]["visits"].values()) == 64


def test_the_page_has_the_network_view():
    from importlib import resources

    page = (resources.files("yipan") / "web" / "static" / "index.html").read_text()
    script = (resources.files("yipan") / "web" / "static" / "app.js").read_text()
    assert 'id="t-net-value"' in page and 'id="t-policy"' in page
    assert "showNetwork(result)" in script
