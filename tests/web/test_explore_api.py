"""POST /api/games/{name}/explain: the tree ``yipan explain --json`` prints, through the web
app's search workers, with every size capped and bad input a 4xx naming the problem."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra (fastapi)")
pytest.importorskip("httpx", reason="the API tests need httpx")

from fastapi.testclient import TestClient  # noqa: E402

from yipan.web import create_app  # noqa: E402
from yipan.web.explore import MAX_DEPTH, MAX_ITERATIONS, MAX_RECORDED  # noqa: E402

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # spawned workers import this tree's code (a forkserver started by Python 3.11 does not
    # take the test's sys.path, and would import the installed yipan)
    with TestClient(create_app(max_running=2, start_method="spawn")) as test_client:
        yield test_client


def cli_explain(*argv: str) -> dict:
    """``yipan explain ... --json`` run as a user runs it."""
    environment = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-m", "yipan", "explain", *argv, "--json"],
                          capture_output=True, text=True, env=environment, check=True)
    return json.loads(done.stdout)


def flat(node: dict) -> list[dict]:
    """The nodes in the order searched (as the page numbers them)."""
    nodes = [node]
    for child in node["children"]:
        nodes.extend(flat(child))
    return nodes


def error(response, status: int) -> str:
    assert response.status_code == status, response.text
    return response.json()["error"]


@pytest.mark.parametrize(("game", "moves", "request_fields", "argv"), [
    ("tictactoe", ["a1", "b2"], {"algorithm": "minimax", "depth": 4},
     ["--algorithm", "minimax", "--depth", "4"]),
    ("tictactoe", ["a1", "b2"], {"algorithm": "alphabeta", "depth": 7},
     ["--algorithm", "alphabeta", "--depth", "7"]),
    ("tictactoe", ["a1"], {"algorithm": "alphabeta-tt", "depth": 8, "without": ["table"]},
     ["--algorithm", "alphabeta-tt", "--depth", "8", "--without", "table"]),
    ("tictactoe", ["a1", "b2"], {"algorithm": "mcts", "iterations": 300, "seed": 5},
     ["--algorithm", "mcts", "--iterations", "300", "--seed", "5"]),
    ("tictactoe", ["a1", "b2"], {"algorithm": "mcts-solver", "iterations": 200, "seed": 2},
     ["--algorithm", "mcts-solver", "--iterations", "200", "--seed", "2"]),
    ("2048", ["2@a1", "2@b1"], {"algorithm": "expectimax", "depth": 2},
     ["--algorithm", "expectimax", "--depth", "2"]),
    ("nim", [], {"algorithm": "grundy", "options": {"heaps": "2,3"}},
     ["2", "3", "--algorithm", "grundy"]),
])
def test_the_tree_is_the_clis(client: TestClient, game: str, moves: list[str],
                              request_fields: dict, argv: list[str]) -> None:
    body = {"moves": moves, **request_fields}
    response = client.post(f"/api/games/{game}/explain", json=body)
    assert response.status_code == 200, response.text
    served = response.json()
    printed = cli_explain(game, *moves, *argv)
    assert served["nodes"] == printed["nodes"]
    assert served["recorded"] == printed["recorded"]
    assert served["value"] == printed["value"]
    assert served["root"] == printed["root"]
    assert served.get("follow_ups") == printed.get("follow_ups")
    follow_ups = [follow["root"] for follow in served.get("follow_ups", [])]
    assert served["recorded"] == sum(len(flat(root)) for root in [served["root"], *follow_ups])


def test_alphabeta_searches_fewer_nodes_than_minimax_for_the_same_value(
        client: TestClient) -> None:
    body = {"moves": ["a1", "b2"], "depth": 7}
    minimax = client.post("/api/games/tictactoe/explain",
                          json={**body, "algorithm": "minimax"}).json()
    alphabeta = client.post("/api/games/tictactoe/explain",
                            json={**body, "algorithm": "alphabeta"}).json()
    assert minimax["value"] == alphabeta["value"]
    assert alphabeta["nodes"] < minimax["nodes"]
    cut = [node for node in flat(alphabeta["root"]) if node["cutoff"]]
    assert any(node["pruned"] for node in cut)  # (a cut at the last move prunes none)
    assert not any("cutoff" in node for node in flat(minimax["root"]))


def test_mcts_iterations_replay_to_each_nodes_visits_and_mean(client: TestClient) -> None:
    data = client.post("/api/games/tictactoe/explain",
                       json={"moves": ["a1"], "algorithm": "mcts", "iterations": 400,
                             "seed": 3}).json()
    paths = data["iteration_paths"]
    assert len(paths) == data["nodes"] == 400
    nodes = flat(data["root"])
    visits = Counter(at for step in paths for at in step["path"])
    totals: Counter = Counter()
    for step in paths:
        assert step["path"][0] == 0  # every iteration starts at the root
        for at in step["path"]:
            totals[at] += step["result"]
    for at, node in enumerate(nodes):
        assert node["visits"] == visits[at]
        assert node["mean"] == pytest.approx(totals[at] / visits[at], abs=1e-6)
    assert data["exploration"] > 0


def test_the_tree_kept_is_capped_and_says_so(client: TestClient) -> None:
    data = client.post("/api/games/tictactoe/explain",
                       json={"moves": ["a1"], "algorithm": "minimax", "depth": 8,
                             "max_nodes": 100}).json()
    assert data["truncated"] is True
    assert data["recorded"] == len(flat(data["root"])) == 100
    assert data["nodes"] > 100


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"algorithm": "minimax", "depth": MAX_DEPTH + 1}, 422, "depth"),
    ({"algorithm": "mcts", "iterations": MAX_ITERATIONS + 1}, 422, "iterations"),
    ({"algorithm": "minimax", "depth": 2, "max_nodes": MAX_RECORDED + 1}, 422, "max_nodes"),
    ({"algorithm": "minimax", "depth": 0}, 422, "depth"),
    ({"algorithm": "quantum", "depth": 2}, 422, "algorithm"),
    ({"algorithm": "minimax"}, 422, "--depth"),
    ({"algorithm": "mcts", "depth": 3}, 422, "iterations"),
    ({"algorithm": "grundy"}, 422, "impartial"),
    ({"algorithm": "alphabeta", "depth": 2, "without": ["table"]}, 422, "alphabeta-tt"),
    ({"algorithm": "alphabeta-tt", "depth": 2, "without": ["magic"]}, 422, "without"),
    ({"algorithm": "minimax", "depth": 2, "moves": ["z9"]}, 422, "z9"),
    ({"algorithm": "minimax", "depth": 2, "colour": "red"}, 422, "colour"),
])
def test_bad_or_oversized_requests_get_a_4xx_naming_the_problem(client: TestClient, body: dict,
                                                                status: int, words: str) -> None:
    assert words in error(client.post("/api/games/tictactoe/explain", json=body), status)


def test_a_search_past_the_node_budget_is_refused_not_left_running(client: TestClient,
                                                                   monkeypatch) -> None:
    from yipan.web import explore

    monkeypatch.setattr(explore, "MAX_SEARCHED", 1_000)
    job = explore.ExplainJob(game="tictactoe", moves=(), algorithm="minimax", depth=9,
                             iterations=None, max_nodes=10)
    with pytest.raises(explore.ExplainTooLarge, match="1,000 nodes"):
        list(job.run())


def test_an_unknown_game_is_404_and_the_page_is_served(client: TestClient) -> None:
    assert "no-such-game" in error(client.post("/api/games/no-such-game/explain",
                                               json={"algorithm": "grundy"}), 404)
    page = client.get("/explore")
    assert page.status_code == 200 and "explore.js" in page.text
    for name in ("explore.js", "explore.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_a_cancelled_search_ends_without_an_answer() -> None:
    from yipan.web import explore

    job = explore.ExplainJob(game="tictactoe", moves=(), algorithm="minimax", depth=9,
                             iterations=None, max_nodes=10)
    asked = 0

    def stop() -> bool:  # the server's cancel, raised after a few polls
        nonlocal asked
        asked += 1
        return asked > 5

    assert list(job.run(stop)) == []
    assert asked == 6  # it stopped at the first poll that said so
