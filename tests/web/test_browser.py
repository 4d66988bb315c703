"""The page in a real headless Chromium: play by clicking, watch the AI answer.

Needs Debian's ``chromium`` and the ``playwright`` Python package (no browser download):
``apt-get install -y chromium`` and ``pip install playwright``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from yipan.core import list_games

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
WAIT = 60_000  # ms: generous, the machine may be busy; a wait only ends early on success

sync_api = pytest.importorskip("playwright.sync_api",
                               reason="browser tests need playwright (pip install playwright)")
if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def browser(live_server) -> Iterator:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser, live_server) -> Iterator:
    url, _ = live_server
    pages = []
    errors: list[str] = []

    def open_page(query: str, viewport: dict = LAPTOP):
        page = browser.new_page(viewport=viewport)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}/{query}")
        page.wait_for_selector("svg.board, pre.text-board", timeout=WAIT)
        pages.append(page)
        return page

    yield open_page
    for page in pages:
        page.close()
    assert errors == [], f"script errors on the page: {errors}"


def wait_for_turn(page) -> str:
    """Wait until it is the human's move or the game is over; return the status text."""
    page.wait_for_function(
        "() => { const s = document.getElementById('status');"
        " return s.className === 'over' || s.textContent.startsWith('Your move'); }",
        timeout=WAIT)
    return page.locator("#status").inner_text()


def url_moves(page) -> list[str]:
    query = parse_qs(urlparse(page.url).query)
    return query.get("moves", [""])[0].split()


def require_game(name: str) -> None:
    if name not in list_games():
        pytest.skip(f"the game {name!r} is not registered in this build (its issue lands it)")


@pytest.mark.parametrize(("first", "seed"), [("human", 1), ("ai", 2)])
def test_a_whole_tictactoe_game_by_clicking(open_page, live_server, tmp_path: Path, first: str,
                                            seed: int) -> None:
    """Random clicks against the AI until the game ends: the AI never loses."""
    url, _ = live_server
    rng = random.Random(seed)
    page = open_page(f"?game=tictactoe&first={first}&engine=alphabeta&level=1s")
    human = 0 if first == "human" else 1
    for _ in range(9):
        status = wait_for_turn(page)
        if page.locator("#status.over").count():
            break
        cells = page.locator("svg.board .cell.playable .hit")
        before = len(url_moves(page))
        cells.nth(rng.randrange(cells.count())).click()
        page.wait_for_function(f"() => new URLSearchParams(location.search).get('moves')"
                               f"?.split(' ').length > {before}", timeout=WAIT)
    status = wait_for_turn(page)
    page.screenshot(path=str(tmp_path / f"tictactoe-{first}.png"))
    assert page.locator("#status.over").count() == 1, status
    moves = url_moves(page)
    assert page.locator("#moves li").count() == len(moves)
    final = httpx.post(f"{url}/api/games/tictactoe/state", json={"moves": moves}).json()
    assert final["outcome"] is not None
    assert final["outcome"]["winner"] != human, f"the AI lost: {moves}"
    assert "you won" not in status
    stones = page.locator("svg.board .mark").count()
    assert stones == len(moves)
    assert page.locator("#t-depth").inner_text().isdigit()  # it showed its thinking


def test_move_values_are_drawn_on_the_board(open_page, tmp_path: Path) -> None:
    # X to move; c1 (row 0, column 2) wins at once, every other move lets O win or draw
    page = open_page("?game=tictactoe&moves=a1+a2+b1+b2&first=human&values=1")
    label = page.locator('.cell[data-row="0"][data-col="2"] text.value')
    label.wait_for(timeout=WAIT)
    page.wait_for_function("() => document.querySelectorAll('text.value').length === 5",
                           timeout=WAIT)
    assert label.text_content() == "W1"
    assert "win" in label.get_attribute("class")
    page.screenshot(path=str(tmp_path / "values.png"))


def test_undo_goes_back_to_the_last_human_move(open_page) -> None:
    page = open_page("?game=tictactoe&moves=b2+a1&first=human")
    wait_for_turn(page)
    page.click("#undo")
    page.wait_for_function("() => !new URLSearchParams(location.search).get('moves')",
                           timeout=WAIT)
    assert page.locator("#moves li").count() == 0
    assert page.locator("svg.board .mark").count() == 0


def test_the_page_fits_a_phone(open_page, tmp_path: Path) -> None:
    page = open_page("?game=tictactoe&moves=b2", viewport=PHONE)
    wait_for_turn(page)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    board = page.locator("svg.board").bounding_box()
    assert board["width"] <= PHONE["width"] and board["width"] >= PHONE["width"] * 0.8
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)


def winning_cells(page) -> set[tuple[int, int]]:
    cells = page.locator("svg.board .cell.winning")
    return {(int(cell.get_attribute("data-row")), int(cell.get_attribute("data-col")))
            for cell in cells.all()}


def test_tictactoe_the_winning_line_is_highlighted_and_coordinates_drawn(open_page) -> None:
    page = open_page("?game=tictactoe&moves=a1+a2+b1+b2+c1&first=human")
    page.wait_for_selector("#status.over", timeout=WAIT)
    assert winning_cells(page) == {(0, 0), (0, 1), (0, 2)}
    labels = page.locator("svg.board text.coord")
    assert [labels.nth(i).text_content() for i in range(labels.count())] == \
        ["a", "b", "c", "1", "2", "3"]


def test_gomoku_the_winning_five_is_highlighted(open_page, tmp_path: Path) -> None:
    require_game("gomoku")
    # black on f8..j8 (row 7 from the top, columns 5 to 9); white scattered on row 14
    page = open_page("?game=gomoku&moves=f8+a14+g8+c14+h8+e14+i8+g14+j8&first=human")
    page.wait_for_selector("#status.over", timeout=WAIT)
    assert winning_cells(page) == {(7, col) for col in range(5, 10)}
    assert page.locator("svg.board .win-ring").count() == 5
    assert page.locator("svg.board .stone").count() == 9
    assert page.locator("svg.board text.coord").count() == 15 + 15
    page.screenshot(path=str(tmp_path / "gomoku-five.png"))


def test_connect4_the_ai_answers_a_move(open_page, tmp_path: Path) -> None:
    require_game("connect4")
    page = open_page("?game=connect4&first=human&engine=alphabeta&level=0.3s")
    wait_for_turn(page)
    columns = page.locator("svg.board .column.playable")
    columns.nth(columns.count() // 2).click()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2",
                           timeout=WAIT)
    wait_for_turn(page)
    assert page.locator("svg.board .disc").count() == 2
    columns = page.locator("svg.board .column.playable")
    columns.nth(0).click()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 4",
                           timeout=WAIT)
    assert page.locator("svg.board .disc").count() == 4
    page.screenshot(path=str(tmp_path / "connect4.png"))


def test_nim_a_click_on_a_token_takes_it_and_those_after_it(open_page, tmp_path: Path) -> None:
    require_game("nim")
    page = open_page("?game=nim&first=human&engine=alphabeta&level=0.3s")
    wait_for_turn(page)
    tokens_before = page.locator("svg.board .token").count()
    page.locator("svg.board .token.playable").last.click()  # the last token of the last heap
    page.wait_for_function("() => document.querySelectorAll('#moves li').length >= 1",
                           timeout=WAIT)
    wait_for_turn(page)
    assert page.locator("svg.board .token").count() < tokens_before
    page.screenshot(path=str(tmp_path / "nim.png"))


def test_2048_tiles_are_drawn_and_arrow_keys_play(open_page, tmp_path: Path) -> None:
    require_game("2048")
    page = open_page("?game=2048&first=human")
    wait_for_turn(page)  # the two starting tiles are chance draws, played by the page
    assert page.locator("svg.board.tiles .tile-text").count() == 2
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        if page.locator("#move-buttons button").filter(has_text=key[5:].lower()).count():
            page.keyboard.press(key)
            break
    # the move, then a new tile (a chance draw) in the move list
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 4",
                           timeout=WAIT)
    assert page.locator("#moves li.chance").count() == 3
    page.screenshot(path=str(tmp_path / "2048.png"))


@pytest.mark.parametrize(("query", "words"), [
    ("?game=tictactoe&moves=b2+b2", "move 2 (b2)"),
    ("?game=tictactoe&o.size=99x99", "out of range"),
])
def test_a_bad_url_shows_the_error_and_a_fresh_board(open_page, query: str, words: str) -> None:
    page = open_page(query)
    page.wait_for_selector("#status.error", timeout=WAIT)
    assert words in page.locator("#status").inner_text()
    assert page.locator("svg.board .cell").count() == 9
    assert page.locator("svg.board .cell.playable").count() == 9  # and play can start


def test_chess_a_click_on_a_piece_shows_its_moves_and_a_second_plays(open_page,
                                                                      tmp_path: Path) -> None:
    require_game("chess")
    page = open_page("?game=chess&first=human&engine=ai&level=0.2s")
    wait_for_turn(page)
    assert page.locator("svg.board.chess text.piece").count() == 32
    assert page.locator("svg.board.chess text.coord").count() == 16
    page.locator('svg.board [data-square="e2"]').click()
    assert page.locator("svg.board .target").count() == 2  # e3 and e4
    page.locator('svg.board [data-square="e4"]').click()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2",
                           timeout=WAIT)
    wait_for_turn(page)
    assert page.locator("svg.board.chess text.piece").count() == 32
    page.screenshot(path=str(tmp_path / "chess.png"))


def test_chess_check_and_promotion_choice(open_page, tmp_path: Path) -> None:
    require_game("chess")
    page = open_page("?game=chess&o.fen=4k3%2F1P6%2F8%2F8%2F8%2F8%2F8%2F4K2R+w+K+-+0+1"
                     "&first=human&engine=ai&level=0.2s")
    wait_for_turn(page)
    page.locator('svg.board [data-square="b7"]').click()
    page.locator('svg.board [data-square="b8"]').click()
    buttons = page.locator(".promotion button")
    assert buttons.count() == 4
    page.locator('.promotion button[data-move="b7b8q"]').click()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length >= 1",
                           timeout=WAIT)
    page.wait_for_selector("svg.board .check", timeout=WAIT)  # the queen checks on b8
    page.screenshot(path=str(tmp_path / "chess-promotion.png"))
