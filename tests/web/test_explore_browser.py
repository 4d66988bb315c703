"""The search explorer (/explore) in a real headless Chromium: every algorithm's tree, stepping,
folding, the position of a node, two algorithms side by side, and a user's own game.

Needs Debian's ``chromium`` and the ``playwright`` Python package (no browser download), as the
rest of the browser suite; axe-core (``axe-playwright-python``) checks each page when present.
"""

from __future__ import annotations

import re
import socket
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from yipan import plugins
from yipan.core import registry

from .conftest import CHROMIUM, WAIT, opened_pages

LAPTOP = {"width": 1366, "height": 900}

pytest.importorskip("playwright.sync_api",
                    reason="browser tests need playwright (the test extra)")
if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)",
                allow_module_level=True)
uvicorn = pytest.importorskip("uvicorn", reason="the web tests need the web extra (uvicorn)")


@contextmanager
def spawned_server() -> Iterator[str]:
    """A server whose search workers are spawned, so they import this tree's code and see the
    test's sys.path and environment (a forkserver started earlier in the session would not)."""
    from yipan.web import create_app

    app = create_app(max_running=2, start_method="spawn")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with spawned_server() as url:
        yield url


@pytest.fixture
def explore(browser, server) -> Iterator:
    """``explore(query)``: the page at /explore?query, once its trees are drawn; the test
    fails if the page had a script error or logged one."""
    def trees_drawn(trees: int):
        return lambda page: page.wait_for_function(
            f"() => document.querySelectorAll('ul[role=tree]').length === {trees}",
            timeout=WAIT)

    with opened_pages(browser, console_errors=True) as open_one:
        yield lambda query, base=server, trees=1: open_one(f"{base}/explore?{query}", LAPTOP,
                                                            trees_drawn(trees))


def no_axe_violations(page) -> None:
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        return
    results = Axe().run(page)
    violations = {v["id"]: [node["target"] for node in v["nodes"]][:3]
                  for v in results.response["violations"]}
    assert violations == {}


def tree(page, pane: int = 0):
    return page.locator("ul[role=tree]").nth(pane)


def row_texts(page, pane: int = 0) -> list[str]:
    return tree(page, pane).locator("li[role=treeitem]:visible > .row").all_inner_texts()


def explained(server: str, game: str, body: dict) -> dict:
    response = httpx.post(f"{server}/api/games/{game}/explain", json=body, timeout=120)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize(("query", "words"), [
    ("game=tictactoe&moves=a1+b2&algorithm=minimax&depth=3", ["MAX", "MIN", "horizon"]),
    ("game=tictactoe&moves=a1+b2&algorithm=alphabeta&depth=5", ["α", "β", "cut-off"]),
    ("game=tictactoe&moves=a1&algorithm=alphabeta-tt&depth=6&without=symmetry",
     ["α", "β"]),
    ("game=tictactoe&moves=a1+b2&algorithm=mcts&iterations=100&seed=1", ["visits", "ucb",
                                                                          "mean"]),
    ("game=tictactoe&moves=a1+b2+c3&algorithm=mcts-solver&iterations=300&seed=1",
     ["visits", "proven"]),
    ("game=2048&moves=2@a1+2@b1&algorithm=expectimax&depth=2", ["chance", "p 0.", "MAX"]),
    ("game=nim&o.heaps=2+3&algorithm=grundy", ["mex{", "options", "known"]),
])
def test_every_algorithm_draws_its_tree_in_its_own_terms(explore, query: str,
                                                         words: list[str]) -> None:
    page = explore(query)
    page.locator("button", has_text="Unfold all").first.click()
    text = " ".join(row_texts(page))
    for word in words:
        assert word in text, word
    no_axe_violations(page)


def test_alphabeta_beside_minimax_counts_what_the_cutoffs_saved(explore, server,
                                                                tmp_path: Path) -> None:
    body = {"moves": ["a1", "b2"], "depth": 7}
    minimax = explained(server, "tictactoe", {**body, "algorithm": "minimax"})
    alphabeta = explained(server, "tictactoe", {**body, "algorithm": "alphabeta"})
    page = explore("game=tictactoe&moves=a1+b2&algorithm=alphabeta&depth=7&compare=minimax",
                   trees=2)
    saved = minimax["nodes"] - alphabeta["nodes"]
    comparison = page.locator("#comparison-text").inner_text()
    assert f"alphabeta searched {alphabeta['nodes']:,} nodes" in comparison
    assert f"minimax {minimax['nodes']:,} nodes" in comparison
    assert f"saved {saved:,} nodes" in comparison
    assert "Both value the position" in comparison
    assert f"{alphabeta['nodes']:,} nodes searched" in page.locator(".summary").nth(0).inner_text()
    # the root's children: cut-offs marked, the moves they never looked at struck through
    cut = tree(page, 0).locator("li[aria-level='2']").filter(has=page.locator(".cutoff"))
    assert cut.count() >= 1
    assert cut.first.locator(":scope > .row s.pruned-move").count() >= 1
    assert tree(page, 1).locator(".cutoff").count() == 0
    page.screenshot(path=str(tmp_path / "explore-compare.png"), full_page=True)
    no_axe_violations(page)
    # stepping one tree steps the other to the same count, until told not to
    steps = page.locator(".step")
    page.locator("button", has_text="Start").first.click()
    page.locator("button", has_text="Forward").first.click()
    page.locator("button", has_text="Forward").first.click()
    assert steps.nth(0).inner_text().startswith(f"Node 2 of {alphabeta['nodes']:,}")
    assert steps.nth(1).inner_text().startswith(f"Node 2 of {min(minimax['nodes'], 5000):,}")
    page.locator("#together").uncheck()
    page.locator("button", has_text="Forward").first.click()
    assert steps.nth(0).inner_text().startswith("Node 3 of")
    assert steps.nth(1).inner_text().startswith("Node 2 of")


def test_stepping_forward_and_back_in_the_order_searched(explore) -> None:
    page = explore("game=tictactoe&moves=a1+b2&algorithm=alphabeta&depth=3")
    steps = page.locator(".step").first
    assert re.match(r"Node (\d+) of \1:", steps.inner_text())  # the whole search at first
    page.locator("button", has_text="Start").first.click()
    assert steps.inner_text().startswith("Before the first node")
    assert tree(page).locator("li[role=treeitem]:visible").count() == 0
    page.locator("button", has_text="Forward").first.click()
    page.locator("button", has_text="Forward").first.click()
    assert steps.inner_text().startswith("Node 2 of")
    current = tree(page).locator("li.current")
    assert current.get_attribute("data-index") == "1"  # the root's first child, entered second
    assert "…" in current.locator(":scope > .row .value").inner_text()  # not valued yet
    assert tree(page).locator("li[role=treeitem]:visible").count() == 2
    page.keyboard.press(".")  # the key steps too
    assert tree(page).locator("li.current").get_attribute("data-index") == "2"
    page.keyboard.press(",")
    page.locator("button", has_text="Back").first.click()
    assert tree(page).locator("li.current").get_attribute("data-index") == "0"
    page.locator("button", has_text="End").first.click()
    assert re.match(r"Node (\d+) of \1:", steps.inner_text())


def test_folding_and_unfolding_by_keyboard_and_click(explore) -> None:
    page = explore("game=tictactoe&moves=a1+b2&algorithm=minimax&depth=2")
    root = tree(page).locator("li[aria-level='1']")
    assert root.get_attribute("aria-expanded") == "true"
    children = tree(page).locator("li[aria-level='2']")
    assert children.count() == 7
    root.focus()
    page.keyboard.press("ArrowLeft")
    assert root.get_attribute("aria-expanded") == "false"
    assert children.count() == 0
    assert "below" in root.locator(":scope > .row .folded").inner_text()
    page.keyboard.press("ArrowRight")
    assert children.count() == 7
    page.keyboard.press("ArrowRight")  # into the first child
    page.keyboard.press("ArrowRight")  # unfold it
    first = children.first
    assert first.get_attribute("aria-expanded") == "true"
    assert first.locator("li[aria-level='3']").count() == 6
    assert page.evaluate("document.activeElement.getAttribute('aria-level')") == "2"
    first.locator(":scope > .row .twisty").click()  # a click on the arrow folds it again
    assert first.get_attribute("aria-expanded") == "false"
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.index") == str(
        children.nth(1).get_attribute("data-index"))
    page.keyboard.press("Enter")  # the search stepped to this node
    assert tree(page).locator("li.current").get_attribute("data-index") == children.nth(
        1).get_attribute("data-index")


def test_a_node_shows_its_position_on_hover_and_focus(explore) -> None:
    page = explore("game=tictactoe&moves=a1+b2&algorithm=minimax&depth=2")
    child = tree(page).locator("li[aria-level='2']").nth(2)
    move = child.locator(":scope > .row .move").inner_text()
    child.locator(":scope > .row").hover()
    page.wait_for_function(f"() => document.getElementById('preview-path').textContent"
                           f".endsWith('{move}')", timeout=WAIT)
    page.wait_for_function("() => document.querySelectorAll('#preview-board svg .mark')"
                           ".length === 3", timeout=WAIT)
    assert "MIN" in page.locator("#preview-node").inner_text()
    page.mouse.move(0, 0)  # off the tree, so that only the focus chooses the node
    tree(page).locator("li[aria-level='1']").focus()
    page.wait_for_function("() => document.querySelectorAll('#preview-board svg .mark')"
                           ".length === 2", timeout=WAIT)


def test_mcts_steps_one_iteration_at_a_time_along_its_path(explore, server) -> None:
    data = explained(server, "tictactoe", {"moves": ["a1", "b2"], "algorithm": "mcts",
                                           "iterations": 60, "seed": 4})
    page = explore("game=tictactoe&moves=a1+b2&algorithm=mcts&iterations=60&seed=4")
    root_row = tree(page).locator("li[aria-level='1'] > .row")
    assert "visits 60" in root_row.inner_text()
    page.locator("button", has_text="Start").first.click()
    page.locator("button", has_text="Forward").first.click()
    steps = page.locator(".step").first.inner_text()
    assert steps.startswith("Iteration 1 of 60: down ")
    assert "visits 1" in root_row.inner_text()
    first_path = data["iteration_paths"][0]["path"]
    on_path = tree(page).locator("li.on-path")
    assert sorted(int(i) for i in on_path.evaluate_all("els => els.map(e => e.dataset.index)")
                  ) == sorted(first_path)
    assert tree(page).locator("li[aria-level='2']:visible").count() == 1  # one node grown
    slider = page.locator("input[type=range]").first
    slider.fill("30")
    assert "visits 30" in root_row.inner_text()
    page.locator("button", has_text="End").first.click()
    # each child's figures at the end are the server's: visits, mean and UCB1
    for index, child in enumerate(data["root"]["children"][:3]):
        row = tree(page).locator("li[aria-level='2'] > .row").nth(index).inner_text()
        assert f"visits {child['visits']}" in row
        assert f"ucb {child['ucb']:.3f}" in row


def test_a_bad_request_says_why(explore) -> None:
    page = explore("game=tictactoe&algorithm=grundy", trees=0)
    page.wait_for_function("() => document.getElementById('message').textContent.length > 0"
                           " && !document.getElementById('message').textContent"
                           ".startsWith('Searching')", timeout=WAIT)
    assert "impartial" in page.locator("#message").inner_text()


def test_the_game_page_links_to_the_explorer_for_its_position(browser, server) -> None:
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{server}/?game=tictactoe&moves=a1+b2&first=human")
    page.wait_for_selector("svg.board", timeout=WAIT)
    page.click("#explore-link")
    page.wait_for_selector("ul[role=tree]", timeout=WAIT)
    assert "game=tictactoe" in page.url and "moves=a1+b2" in page.url
    assert page.locator("#algorithm").input_value() == "alphabeta"
    assert page.locator("#compare").input_value() == "minimax"
    page.close()


OWN_GAME = '''
    """A game of the user's own, for the explorer: take 1 or 2 stones, the last one wins."""
    from yipan import Game, GameInfo, GameSpec, Outcome, register_game


    class Stones(Game):
        info = GameInfo(name="{name}", title="Stones of my own")

        def initial_state(self):
            return (6, 0)

        def to_move(self, s):
            return s[1]

        def legal_moves(self, s):
            return [n for n in (1, 2) if n <= s[0]]

        def play(self, s, m):
            return (s[0] - m, 1 - s[1])

        def outcome(self, s):
            return Outcome(1 - s[1]) if s[0] == 0 else None


    register_game(GameSpec(name="{name}", title="Stones of my own", factory=Stones))
'''


def test_a_users_own_game_from_games_from(browser, tmp_path: Path, monkeypatch) -> None:
    """The module ``--games-from`` names is imported by the server and by its workers
    (``yipan --games-from`` passes it to them through $YIPAN_GAMES, as here)."""
    name = "explorestones"
    (tmp_path / f"{name}_games.py").write_text(textwrap.dedent(OWN_GAME).replace(
        "{name}", name))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("YIPAN_GAMES", f"{name}_games")
    # the game leaves the registry with the test (later tests list every game)
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(plugins, "_loaded", set(plugins._loaded))
    errors: list[str] = []
    with spawned_server() as url:
        page = browser.new_page(viewport=LAPTOP)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}/explore?game={name}&algorithm=minimax&depth=6&compare=alphabeta")
        page.wait_for_function("() => document.querySelectorAll('ul[role=tree]').length === 2",
                               timeout=WAIT)
        # 6 stones: a multiple of 3, lost for the side to move whatever it does
        assert "value loss in" in page.locator(".summary").nth(0).inner_text()
        minimax = explained(url, name, {"algorithm": "minimax", "depth": 6})
        assert f"minimax searched {minimax['nodes']:,} nodes" in page.locator(
            "#comparison-text").inner_text()
        tree(page).locator("li[aria-level='2'] > .row").first.hover()
        page.wait_for_function("() => document.querySelector('#preview-board')"
                               ".textContent.length > 0", timeout=WAIT)
        page.close()
    assert errors == []
