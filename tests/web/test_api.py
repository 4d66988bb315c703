"""The web app's JSON API, through FastAPI's test client: every endpoint and every error case."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi", reason="the web app needs the web extra (fastapi)")
pytest.importorskip("httpx", reason="FastAPI's test client needs httpx (the test extra)")

from fastapi.testclient import TestClient  # noqa: E402

from yipan.core import (  # noqa: E402
    CHANCE,
    WIN,
    Game,
    GameInfo,
    GameSpec,
    Outcome,
    game_spec,
    get_game,
    register_game,
)
from yipan.core.registry import _REGISTRY  # noqa: E402
from yipan.search import alphabeta  # noqa: E402
from yipan.web import create_app  # noqa: E402
from yipan.web.positions import MAX_MOVES  # noqa: E402

X_WINS_NEXT = ["a1", "a2", "b1", "b2"]  # X to move; c1 completes the top row


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(max_running=2)) as test_client:
        yield test_client


def state(client: TestClient, moves: list[str], options: dict | None = None,
          game: str = "tictactoe") -> dict:
    response = client.post(f"/api/games/{game}/state",
                           json={"moves": moves, "options": options or {}})
    assert response.status_code == 200, response.text
    return response.json()


def error(response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert isinstance(body["error"], str) and body["error"]
    return body["error"]


def events(text: str) -> list[tuple[str, dict]]:
    """The (event, data) pairs of a server-sent event stream."""
    parsed = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        parsed.append((lines["event"], json.loads(lines["data"])))
    return parsed


# -- fake games for the kinds of board no built-in game has yet -----------------------------------
class HeapGame(Game[tuple, tuple]):
    """Nim on a tuple of heaps (normal play): a move ``h-n`` takes n tokens from heap h."""

    info = GameInfo(name="test-heaps", title="Test heaps", impartial=True)

    def initial_state(self) -> tuple:
        return ((1, 2, 3), 0)

    def to_move(self, state: tuple) -> int:
        return state[1]

    def legal_moves(self, state: tuple) -> list[tuple]:
        return [(h, n) for h, size in enumerate(state[0]) for n in range(1, size + 1)]

    def play(self, state: tuple, move: tuple) -> tuple:
        heaps = list(state[0])
        heaps[move[0]] -= move[1]
        return (tuple(heaps), 1 - state[1])

    def outcome(self, state: tuple) -> Outcome | None:
        return Outcome(1 - state[1]) if not any(state[0]) else None

    def format_move(self, move: tuple) -> str:
        return f"{move[0] + 1}-{move[1]}"

    def parse_move(self, state: tuple, text: str) -> tuple:
        heap, _, take = text.partition("-")
        return (int(heap) - 1, int(take))

    def view(self, state: tuple) -> dict:
        return {"kind": "heaps", "heaps": list(state[0])}


class DiceGame(Game[tuple, str]):
    """One player rolls a die (1-3) up to twice, or stops: a one-player game with chance.
    State: (score, rolls made, waiting for the die)."""

    info = GameInfo(name="test-dice", title="Test dice", players=1, chance=True)

    def initial_state(self) -> tuple:
        return (0, 0, False)

    def to_move(self, state: tuple) -> int:
        return CHANCE if state[2] else 0

    def legal_moves(self, state: tuple) -> list[str]:
        return [] if state[2] or self.outcome(state) else ["roll", "stop"]

    def play(self, state: tuple, move: str) -> tuple:
        score, rolls, _ = state
        if move == "roll":
            return (score, rolls, True)
        if move == "stop":
            return (score, 2, False)
        return (score + int(move), rolls + 1, False)

    def outcome(self, state: tuple) -> Outcome | None:
        return Outcome(None) if state[1] >= 2 and not state[2] else None

    def chance_outcomes(self, state: tuple) -> list[tuple[str, float]]:
        return [(str(face), 1 / 3) for face in (1, 2, 3)]

    def parse_move(self, state: tuple, text: str) -> str:
        return text.strip()


@pytest.fixture
def fake_games() -> Iterator[None]:
    for game in (HeapGame, DiceGame):
        register_game(GameSpec(game.info.name, game.info.title, game))
    yield
    for game in (HeapGame, DiceGame):
        _REGISTRY.pop(game.info.name, None)


# -- GET /api/games -------------------------------------------------------------------------------
def test_games_lists_the_registry_with_options(client: TestClient) -> None:
    body = client.get("/api/games").json()
    games = {game["name"]: game for game in body["games"]}
    assert "tictactoe" in games
    assert "mnk" in games["tictactoe"]["aliases"]
    options = {option["name"]: option for option in games["tictactoe"]["options"]}
    assert options["size"]["default"] == "3x3"
    assert set(options) == {"size", "k"}
    assert "alphabeta" in body["engines"]


def test_choices_come_with_their_labels(client: TestClient) -> None:
    games = {game["name"]: game for game in client.get("/api/games").json()["games"]}
    rule = {option["name"]: option for option in games["gomoku"]["options"]}["rule"]
    assert rule["choices"] == ["freestyle", "standard", "renju", "caro", "caro-exact"]
    assert set(rule["choice_labels"]) == set(rule["choices"])
    assert "forbidden" in rule["choice_labels"]["renju"] and "double three" in rule["help"]
    rules = games["gomoku"]["rules"].lower()
    assert "renju" in rules and "caro" in rules


def test_renju_through_the_api_refuses_a_forbidden_move(client: TestClient) -> None:
    moves = ["f8", "a1", "g8", "c1", "h7", "e1", "h6", "g1"]  # black: h8 makes two threes
    body = client.post("/api/games/gomoku/state",
                       json={"moves": moves, "options": {"rule": "renju"}}).json()
    assert "h8" not in body["legal_moves"] and "i8" in body["legal_moves"]
    response = client.post("/api/games/gomoku/state",
                           json={"moves": [*moves, "h8"], "options": {"rule": "renju"}})
    assert response.status_code == 422 and "double three" in response.text


def test_a_chess_null_move_is_refused_as_an_illegal_move(client: TestClient) -> None:
    response = client.post("/api/games/chess/state", json={"moves": ["e4", "0000"]})
    assert response.status_code == 422 and "null move" in response.text


def test_games_lists_a_newly_registered_game(client: TestClient, fake_games: None) -> None:
    names = [game["name"] for game in client.get("/api/games").json()["games"]]
    assert "test-heaps" in names and "test-dice" in names


# -- POST /api/games/{name}/state -----------------------------------------------------------------
def test_initial_state(client: TestClient) -> None:
    body = state(client, [])
    assert body["to_move"] == 0 and body["ply"] == 0 and body["outcome"] is None
    assert sorted(body["legal_moves"]) == sorted(f"{c}{r}" for c in "abc" for r in "123")
    view = body["view"]
    assert view["kind"] == "grid" and (view["rows"], view["cols"]) == (3, 3)
    assert all(cell is None for row in view["cells"] for cell in row)
    assert "last" not in view
    assert body["engines"][0] == "alphabeta" and "random" in body["engines"]


def test_state_after_moves_marks_the_stones_and_the_last_move(client: TestClient) -> None:
    body = state(client, ["b2", "a1"])
    cells = body["view"]["cells"]
    assert cells[1][1] == 0 and cells[0][0] == 1
    assert body["view"]["last"] == [0, 0]
    assert body["movers"] == [0, 1]
    assert body["to_move"] == 0
    assert "b2" not in body["legal_moves"] and len(body["legal_moves"]) == 7


def test_finished_game_has_an_outcome_and_no_moves(client: TestClient) -> None:
    body = state(client, [*X_WINS_NEXT, "c1"])
    assert body["outcome"] == {"winner": 0}
    assert body["to_move"] is None and body["legal_moves"] == []
    assert all(move is None for row in body["view"]["move_at"] for move in row)


def test_the_view_says_how_to_draw_the_board(client: TestClient) -> None:
    """Pieces, the winning line and coordinates come in the view: the page never needs the
    game's name to draw a board."""
    view = state(client, [*X_WINS_NEXT, "c1"])["view"]
    assert view["pieces"] == "marks"
    assert view["highlight"] == [[0, 0], [0, 1], [0, 2]]
    assert (view["col_labels"], view["row_labels"]) == (["a", "b", "c"], ["1", "2", "3"])
    boards = client.get("/static/boards.js").text
    assert "position.game" not in boards and "tictactoe" not in boards


def test_state_with_options(client: TestClient) -> None:
    body = state(client, ["a1"], {"size": "4x5", "k": 3})
    assert (body["view"]["rows"], body["view"]["cols"]) == (4, 5)
    assert len(body["legal_moves"]) == 19
    assert body["options"] == {"size": "4x5", "k": 3}


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(0, 9))
def test_state_agrees_with_the_game(client: TestClient, seed: int, length: int) -> None:
    """Random legal games: the API's moves, board and outcome are the game's own."""
    game = get_game("tictactoe")
    rng = random.Random(seed)
    position, moves = game.initial_state(), []
    for _ in range(length):
        if game.outcome(position) is not None:
            break
        move = rng.choice(list(game.legal_moves(position)))
        moves.append(game.format_move(move))
        position = game.play(position, move)
    body = state(client, moves)
    assert body["legal_moves"] == [game.format_move(m) for m in game.legal_moves(position)]
    assert body["view"] == {**game.view(position), **({"last": body["view"]["last"]}
                                                       if moves else {})}
    outcome = game.outcome(position)
    assert body["outcome"] == (None if outcome is None else {"winner": outcome.winner})


def test_heap_board_previews_each_move(client: TestClient, fake_games: None) -> None:
    body = state(client, ["3-1"], game="test-heaps")
    assert body["view"] == {"kind": "heaps", "heaps": [1, 2, 2]}
    assert body["previews"]["2-2"] == [1, 0, 2]
    assert set(body["previews"]) == set(body["legal_moves"])
    assert body["engines"][0] == "alphabeta" and {"player", "random"} <= set(body["engines"])
    assert body["legal_move_count"] == len(body["legal_moves"]) == 5


def test_chance_draws_are_moves_in_the_list(client: TestClient, fake_games: None) -> None:
    body = state(client, ["roll"], game="test-dice")
    assert body["to_move"] == "chance" and body["legal_moves"] == []
    assert [draw["move"] for draw in body["chance"]] == ["1", "2", "3"]
    assert sum(draw["probability"] for draw in body["chance"]) == pytest.approx(1)
    body = state(client, ["roll", "3", "roll", "2"], game="test-dice")
    assert body["movers"] == [0, "chance", 0, "chance"]
    assert body["outcome"] == {"winner": None}
    assert body["view"]["kind"] == "text" and "5" in body["text"]
    assert "alphabeta" not in body["engines"]


# -- POST /api/games/{name}/analyze ---------------------------------------------------------------
def test_analyze_finds_the_win_and_values_every_move(client: TestClient) -> None:
    response = client.post("/api/games/tictactoe/analyze",
                           json={"moves": X_WINS_NEXT, "analysis": True, "limit": {"time": 10}})
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["move"] == "c1" and result["value"] == WIN - 1
    assert result["description"] == "win in 1" and result["exact"] is True
    game = get_game("tictactoe")
    position = game.initial_state()
    for text in X_WINS_NEXT:
        position = game.play(position, game.parse_move(position, text))
    expected = alphabeta(game, position, analysis=True).move_values
    assert result["move_values"] == {game.format_move(m): v for m, v in expected.items()}
    assert result["nodes"] > 0 and result["engine"] == "alphabeta"
    assert result["pv"][0] == "c1"


def test_analyze_the_empty_board_is_a_draw(client: TestClient) -> None:
    result = client.post("/api/games/tictactoe/analyze", json={"limit": {"time": 20}}).json()
    assert result["value"] == 0 and result["exact"] is True and result["description"] == "draw"


def test_analyze_with_a_depth_limit(client: TestClient) -> None:
    result = client.post("/api/games/tictactoe/analyze",
                         json={"limit": {"time": 10, "depth": 2}}).json()
    assert result["depth"] == 2 and result["exact"] is False


def test_random_engine_plays_a_legal_move(client: TestClient) -> None:
    legal = state(client, ["b2"])["legal_moves"]
    for seed in range(3):
        result = client.post("/api/games/tictactoe/analyze",
                             json={"moves": ["b2"], "engine": "random", "seed": seed}).json()
        assert result["move"] in legal and result["engine"] == "random"


def test_mcts_engine_plays_a_legal_move(client: TestClient) -> None:
    assert "mcts" in state(client, ["b2"])["engines"]
    result = client.post("/api/games/tictactoe/analyze",
                         json={"moves": ["b2"], "engine": "mcts", "seed": 1,
                               "limit": {"time": 0.3}}).json()
    assert result["move"] in state(client, ["b2"])["legal_moves"]
    assert result["engine"] == "mcts"


def test_the_games_own_ai_takes_the_win(client: TestClient) -> None:
    result = client.post("/api/games/tictactoe/analyze",
                         json={"moves": X_WINS_NEXT, "engine": "ai", "level": "perfect"}).json()
    assert result["move"] == "c1" and result["engine"] == "player"  # "ai" is its other name


# -- POST /api/games/{name}/stream ----------------------------------------------------------------
def test_stream_sends_each_depth_then_the_answer(client: TestClient) -> None:
    response = client.post("/api/games/tictactoe/stream",
                           json={"moves": ["b2"], "limit": {"time": 20}})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    stream = events(response.text)
    kinds = [kind for kind, _ in stream]
    assert kinds == ["start"] + ["progress"] * (len(stream) - 2) + ["done"]
    assert stream[0][1]["search"] and stream[0][1]["engine"] == "alphabeta"
    depths = [data["depth"] for kind, data in stream if kind == "progress"]
    assert depths == list(range(1, len(depths) + 1))
    assert stream[-1][1] == stream[-2][1]  # the answer is the deepest result
    assert stream[-1][1]["exact"] and stream[-1][1]["value"] == 0


def test_stream_reports_an_error_in_the_search_as_an_event(client: TestClient) -> None:
    response = client.post("/api/games/tictactoe/stream",
                           json={"moves": ["b2"], "engine": "ai", "level": "expert"})
    assert response.status_code == 200
    [(start, _), (kind, data)] = events(response.text)
    assert start == "start"
    assert kind == "error" and "expert" in data["error"]


def test_analyze_reports_an_error_in_the_search_as_422(client: TestClient) -> None:
    message = error(client.post("/api/games/tictactoe/analyze",
                                json={"engine": "ai", "level": "expert"}), 422)
    assert "level" in message


# -- errors ---------------------------------------------------------------------------------------
BAD_REQUESTS = [
    # (path, body, status, words the error must contain)
    ("state", '{"moves": ["a1",', 400, "malformed JSON"),
    ("state", "[1, 2]", 422, "dictionary"),
    ("state", '{"moves": "a1 b2"}', 422, "moves"),
    ("state", '{"moves": [1, 2]}', 422, "moves.0"),
    ("state", '{"options": ["3x3"]}', 422, "options"),
    ("state", '{"moves": [], "colour": "red"}', 422, "colour"),
    ("state", '{"moves": ["a1", "a1"]}', 422, "move 2 (a1)"),
    ("state", '{"moves": ["z9"]}', 422, "move 1 (z9)"),
    ("state", '{"moves": ["b2", "' + "x" * 65 + '"]}', 422, "moves.1"),
    ("state", '{"options": {"size": "100x100"}}', 422, "out of range"),
    ("state", '{"options": {"size": "big"}}', 422, "size"),
    ("state", '{"options": {"colour": "red"}}', 422, "colour"),
    ("state", '{"options": {"k": true}}', 422, "k"),
    ("state", json.dumps({"moves": ["a1"] * 10}), 413, "at most 9"),
    ("analyze", '{"engine": "deep-thought"}', 422, "deep-thought"),
    ("analyze", '{"engine": 7}', 422, "engine"),
    ("analyze", '{"limit": {"time": 1000}}', 422, "limit.time"),
    ("analyze", '{"limit": {"time": -1}}', 422, "limit.time"),
    ("analyze", '{"limit": {"time": "long"}}', 422, "limit.time"),
    ("analyze", '{"limit": {"depth": 0}}', 422, "limit.depth"),
    ("analyze", '{"limit": {"plies": 3}}', 422, "plies"),
    ("analyze", '{"analysis": "yes please"}', 422, "analysis"),
    ("analyze", json.dumps({"moves": [*X_WINS_NEXT, "c1"]}), 422, "game is over"),
    ("analyze", '{"moves": ["a1", "a1"]}', 422, "move 2 (a1)"),
    ("stream", '{"moves": ["a1", "a1"]}', 422, "move 2 (a1)"),
    ("stream", '{"engine": "deep-thought"}', 422, "deep-thought"),
    ("stream", '{"moves": [', 400, "malformed JSON"),
]


@pytest.mark.parametrize(("endpoint", "body", "status", "words"), BAD_REQUESTS)
def test_bad_requests_get_a_4xx_naming_the_problem(client: TestClient, endpoint: str, body: str,
                                                   status: int, words: str) -> None:
    response = client.post(f"/api/games/tictactoe/{endpoint}", content=body,
                           headers={"content-type": "application/json"})
    assert words in error(response, status)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                               max_size=3),
    max_leaves=8)
MOVE_TEXT = st.sampled_from(["a1", "b2", "c3", "c1", "9", "0", "", " a2 "]) | st.text(max_size=4)
STATE_BODIES = st.fixed_dictionaries({}, optional={
    "moves": st.lists(MOVE_TEXT | st.integers(), max_size=10) | JSON,
    "options": st.dictionaries(st.sampled_from(["size", "k", "rule"]),
                               st.sampled_from(["3x3", "4x4", "2", "0", "x"]) | JSON,
                               max_size=2) | JSON,
})


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=STATE_BODIES)
def test_any_json_gets_an_answer_never_a_server_error(client: TestClient, body: dict) -> None:
    response = client.post("/api/games/tictactoe/state", json=body)
    assert response.status_code in (200, 400, 413, 422), response.text
    if response.status_code != 200:
        assert set(response.json()) == {"error"}


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(MOVE_TEXT, max_size=6),
       engine=st.sampled_from(["random", "alphabeta", "ai", "mcts", "nope"]) | JSON,
       limit=st.fixed_dictionaries({"time": st.sampled_from([0.05, 0.1, 0, -1, "x"])}) | JSON)
def test_any_search_request_gets_an_answer_never_a_server_error(client: TestClient, moves: list,
                                                                engine, limit) -> None:
    response = client.post("/api/games/tictactoe/analyze",
                           json={"moves": moves, "engine": engine, "limit": limit})
    assert response.status_code in (200, 400, 413, 422), response.text
    if response.status_code == 200:
        assert response.json()["move"] in state(client, moves)["legal_moves"]
    else:
        assert set(response.json()) == {"error"}


@pytest.mark.parametrize("endpoint", ["state", "analyze", "stream"])
def test_unknown_game_is_404(client: TestClient, endpoint: str) -> None:
    message = error(client.post(f"/api/games/checkers/{endpoint}", json={}), 404)
    assert "checkers" in message and "tictactoe" in message


def test_a_move_list_longer_than_any_game_is_refused(client: TestClient,
                                                     fake_games: None) -> None:
    # a game that declares no length: the server's own cap
    message = error(client.post("/api/games/test-heaps/state",
                                json={"moves": ["1-1"] * (MAX_MOVES + 1)}), 413)
    assert str(MAX_MOVES) in message
    error(client.post("/api/games/tictactoe/state", json={"moves": ["a1"] * 20_000}), 413)


def test_infinite_numbers_in_options_are_refused(client: TestClient) -> None:
    message = error(client.post("/api/games/tictactoe/state", content='{"options": {"k": NaN}}',
                                headers={"content-type": "application/json"}), 422)
    assert "options" in message


def test_a_huge_body_is_refused_before_parsing(client: TestClient) -> None:
    message = error(client.post("/api/games/tictactoe/state", content=b"[" * 200_000,
                                headers={"content-type": "application/json"}), 413)
    assert "bytes" in message


def test_alphabeta_refuses_one_player_and_chance_games(client: TestClient,
                                                       fake_games: None) -> None:
    message = error(client.post("/api/games/test-dice/analyze", json={"engine": "alphabeta"}),
                    422)
    assert "one-player" in message and "random" in message


def test_no_search_at_a_chance_node(client: TestClient, fake_games: None) -> None:
    message = error(client.post("/api/games/test-dice/analyze",
                                json={"moves": ["roll"], "engine": "random"}), 422)
    assert "chance" in message


def test_an_impossible_chance_draw_is_refused(client: TestClient, fake_games: None) -> None:
    message = error(client.post("/api/games/test-dice/state", json={"moves": ["roll", "7"]}),
                    422)
    assert "move 2 (7)" in message and "chance" in message


def test_unknown_paths_and_methods_answer_json(client: TestClient) -> None:
    assert error(client.get("/api/nothing-here"), 404)
    assert error(client.get("/api/games/tictactoe/state"), 405)


def test_the_server_keeps_serving_after_bad_input(client: TestClient) -> None:
    for body in ('{"moves": [', '{"moves": ["q"]}', "null"):
        client.post("/api/games/tictactoe/analyze", content=body,
                    headers={"content-type": "application/json"})
    result = client.post("/api/games/tictactoe/analyze",
                         json={"moves": X_WINS_NEXT, "limit": {"time": 10}}).json()
    assert result["move"] == "c1"


# -- the page and the API document ----------------------------------------------------------------
def test_openapi_document_lists_the_api(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{name}/state", "/api/games/{name}/analyze",
            "/api/games/{name}/stream"} <= set(paths)


def test_the_page_and_its_scripts_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "/static/app.js" in page.text
    for name in ("app.js", "api.js", "boards.js"):
        script = client.get(f"/static/{name}")
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "http://" not in page.text and "https://" not in page.text  # nothing from outside
    assert client.get("/docs").status_code == 404  # its page would load scripts from outside


# -- issue 12: the page in words, the strongest engines, values people read ----------------------
GAMES_WITH_AI = ["connect4", "gomoku", "2048", "nim", "kayles", "grundy-game"]


@pytest.mark.parametrize("game", GAMES_WITH_AI)
def test_the_default_engine_is_the_games_own_ai(client: TestClient, game: str) -> None:
    body = state(client, [], game=game)
    assert body["default_engine"] == "player"
    assert "player" in body["engines"] and "player" in body["opponents"]
    assert body["engine_help"]["player"].startswith("the game's own AI")
    assert len(body["engine_help"]["player"]) > len("the game's own AI, its strongest player")


def test_values_come_from_the_games_theory_where_search_has_no_heuristic(
        client: TestClient) -> None:
    assert state(client, [], game="nim")["value_engine"] == "auto"
    assert state(client, [], game="2048")["value_engine"] == "auto"
    assert state(client, [], game="tictactoe")["value_engine"] == "alphabeta"
    assert state(client, [], game="gomoku")["value_engine"] == "alphabeta"
    result = client.post("/api/games/kayles/analyze",
                         json={"engine": "analysis", "options": {"heaps": [4, 5]}}).json()
    assert set(result["move_outcomes"].values()) <= {"win", "loss"}, result
    assert len(result["move_outcomes"]) == len(state(client, [], {"heaps": [4, 5]},
                                                     game="kayles")["legal_moves"])


def test_every_game_has_rules_in_words_and_options_with_labels(client: TestClient) -> None:
    body = client.get("/api/games").json()
    for game in body["games"]:
        factory = game_spec(game["name"]).factory
        if not (isinstance(factory, str) and factory.startswith("yipan.games")):
            continue  # a game another test registered (a user's game may have no rules text)
        assert len(game["rules"]) > 60, game["name"]
        for option in game["options"]:
            assert option["label"], (game["name"], option["name"])
    games = {game["name"]: game for game in body["games"]}
    shown = [option["label"] for option in games["connect4"]["options"] if not option["hidden"]]
    assert shown == ["board size"]  # one size field, not size, width and height
    labels = {option["name"]: option["label"] for option in games["tictactoe"]["options"]}
    assert labels["k"] == "in a row to win"
    assert set(body["engine_help"]) == set(body["engines"])


def test_players_are_named_as_the_game_names_them(client: TestClient) -> None:
    assert state(client, [], game="gomoku")["player_names"] == ["black", "white"]
    assert state(client, [])["player_names"] == ["X", "O"]
    assert state(client, [], game="2048")["player_names"] == ["player"]


def test_2048_sends_its_score_and_coordinates(client: TestClient) -> None:
    body = state(client, ["2@c1", "2@a4", "left"], game="2048")
    assert body["figures"]["score"] == 0 and body["figures"]["max_tile"] == 2
    assert body["view"]["col_labels"] == ["a", "b", "c", "d"]
    assert body["view"]["row_labels"] == ["1", "2", "3", "4"]


def test_connect4_labels_its_columns_as_its_moves(client: TestClient) -> None:
    view = state(client, [], game="connect4")["view"]
    assert view["col_labels"] == [str(column) for column in range(1, 8)]


@pytest.mark.parametrize("heaps", ["3 4 5", "3,4,5", " 3, 4 5 "])
def test_heaps_are_typed_as_the_hint_says(client: TestClient, heaps: str) -> None:
    body = state(client, [], {"heaps": heaps}, game="nim")
    assert body["view"]["heaps"] == [3, 4, 5]


def test_splitting_heap_games_say_so_in_their_view(client: TestClient) -> None:
    assert state(client, [], game="kayles")["view"]["splits"] is True
    assert state(client, [], game="grundy-game")["view"]["splits"] is True
    assert state(client, [], game="nim")["view"]["splits"] is False


def test_stopping_a_search_that_is_not_running_is_404(client: TestClient) -> None:
    assert "no such search" in error(client.post("/api/searches/nothing/stop"), 404)
