"""The page in a real headless Chromium: play by clicking, watch the AI answer.

Needs Debian's ``chromium`` and the ``playwright`` Python package (no browser download):
``apt-get install -y chromium`` and ``pip install playwright``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import CHROMIUM, WAIT, board_drawn, opened_pages, url_moves, wait_for_turn

LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}

pytest.importorskip("playwright.sync_api",
                    reason="browser tests need playwright (the test extra)")
if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)",
                allow_module_level=True)


@pytest.fixture
def open_page(browser, live_server) -> Iterator:
    url, _ = live_server
    with opened_pages(browser) as open_one:
        yield lambda query, viewport=LAPTOP: open_one(f"{url}/{query}", viewport,
                                                      board_drawn())


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
    # black on f8..j8 (row 7 from the top, columns 5 to 9); white scattered on row 14 (row 1
    # from the top)
    page = open_page("?game=gomoku&moves=f8+a14+g8+c14+h8+e14+i8+g14+j8&first=human")
    page.wait_for_selector("#status.over", timeout=WAIT)
    assert winning_cells(page) == {(7, col) for col in range(5, 10)}
    assert page.locator("svg.board .win-ring").count() == 5
    assert page.locator("svg.board .stone").count() == 9
    assert page.locator("svg.board text.coord").count() == 15 + 15
    page.screenshot(path=str(tmp_path / "gomoku-five.png"))


def test_connect4_the_ai_answers_a_move(open_page, tmp_path: Path) -> None:
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


# -- issue 12: the page for a new player ---------------------------------------------------------
CONTRAST = """
() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => v / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
                            return (x + 0.05) / (y + 0.05); };
  const problems = [];
  // SVG text against the shape drawn beneath its centre
  for (const text of document.querySelectorAll("svg.board text, svg.scale text")) {
    const box = text.getBoundingClientRect();
    if (!box.width) continue;
    const under = document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2)
      .find((node) => node !== text && node instanceof SVGGeometryElement
            && rgb(getComputedStyle(node).fill).length >= 3
            && (rgb(getComputedStyle(node).fill)[3] ?? 1) > 0.5);
    if (!under) continue;
    const r = ratio(rgb(getComputedStyle(text).fill), rgb(getComputedStyle(under).fill));
    const what = `${text.textContent} on ${under.getAttribute("class")}`;
    if (r < 4.5) problems.push(`${what}: ${r.toFixed(2)}`);
  }
  // borders of inputs and buttons against the card they sit on (3:1 for controls)
  for (const control of document.querySelectorAll("input, select, button:not(:disabled)")) {
    if (!control.offsetParent || getComputedStyle(control).borderStyle === "none") continue;
    let back = control.parentElement;
    const clear = (node) => (rgb(getComputedStyle(node).backgroundColor)[3] ?? 1) === 0;
    while (back && clear(back)) back = back.parentElement;
    const border = rgb(getComputedStyle(control).borderTopColor);
    if (!back || border.length < 3 || getComputedStyle(control).borderTopWidth === "0px") continue;
    const r = ratio(border, rgb(getComputedStyle(back).backgroundColor));
    const what = control.id || control.name || control.textContent;
    if (r < 3) problems.push(`border of ${what}: ${r.toFixed(2)}`);
  }
  return problems;
}
"""
TILE_CONTRAST = """
async () => {
  const boards = await import("/static/boards.js");
  const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const lum = (c) => c.map((v) => v / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  return boards.TILE_COLOURS.slice(1).map((tile, i) => {
    const [a, b] = [lum(hex(tile)), lum(hex(boards.tileTextColour(i + 1)))].sort((p, q) => q - p);
    return (a + 0.05) / (b + 0.05);
  });
}
"""


def moves_in_list(page) -> int:
    return page.locator("#moves li").count()


def wait_for_moves(page, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#moves li').length === {count}",
                           timeout=WAIT)


def test_connect4_setup_in_words_and_the_ai_by_default(open_page) -> None:
    page = open_page("?game=connect4")
    wait_for_turn(page)
    assert page.locator("#engine").input_value() == "player"  # the game's own AI, its strongest
    assert "engine=player" in page.url
    assert "solver" in page.locator("#engine-help").inner_text()
    fields = page.locator("#options input, #options select")
    assert fields.count() == 1  # one size field, not size, width and height
    assert "board size" in page.locator("#options").inner_text()
    assert "disc" in page.locator("#rules-text").inner_text()
    labels = page.locator("svg.board text.coord")
    assert [labels.nth(i).text_content() for i in range(labels.count())] == list("1234567")
    assert "Your move (Red)" in page.locator("#status").inner_text()  # its colours, not X and O


def test_the_last_move_is_marked_without_hiding_the_winning_line(open_page) -> None:
    page = open_page("?game=tictactoe&moves=a1+a2+b1+b2+c1&first=human")
    page.wait_for_selector("#status.over", timeout=WAIT)
    fills = page.evaluate("() => [...document.querySelectorAll('.cell.winning .hit')]"
                          ".map((hit) => getComputedStyle(hit).fill)")
    assert len(fills) == 3 and len(set(fills)) == 1, fills  # c1, the last move, tinted as well
    assert fills[0] not in ("none", "transparent", "rgba(0, 0, 0, 0)")
    last = page.locator('.cell.last[data-row="0"][data-col="2"]')
    assert last.locator(".last-mark").count() == 1
    assert "the last move" in last.get_attribute("aria-label")
    assert "winning line" in last.get_attribute("aria-label")


def test_gomoku_values_are_a_colour_scale_and_players_are_colours(open_page,
                                                                  tmp_path: Path) -> None:
    page = open_page("?game=gomoku&moves=h8+h9+i8+i9&first=human&engine=ai&values=1")
    wait_for_turn(page)
    assert "Black" in page.locator("#status").inner_text()
    page.wait_for_function("() => document.querySelectorAll('svg.board circle.estimate')"
                           ".length > 100", timeout=WAIT)
    numbers = page.evaluate(r"""() => [...document.querySelectorAll('svg.board text')]
        .map((t) => t.textContent).filter((t) => /^[+-]?\d+$/.test(t) && t.length > 2)""")
    assert numbers == []  # no wall of four-digit numbers: a scale of colours
    levels = page.evaluate("() => new Set([...document.querySelectorAll('svg.board "
                           "circle.estimate')].map((c) => c.getAttribute('class'))).size")
    assert levels >= 3
    legend = page.locator("#legend").inner_text()
    assert "worst" in legend and "best" in legend
    cell = page.locator('.cell[data-row="8"][data-col="7"]')  # h7: rows count from the bottom
    assert "h7" in cell.get_attribute("aria-label")
    assert "estimate" in cell.get_attribute("aria-label")
    page.screenshot(path=str(tmp_path / "gomoku-values.png"))


def test_proven_values_read_w_and_l_with_a_legend(open_page) -> None:
    page = open_page("?game=tictactoe&moves=a1+a2+b1+b2&first=human&values=1")
    page.wait_for_function("() => document.querySelectorAll('svg.board text.value').length"
                           " === 5", timeout=WAIT)
    texts = page.locator("svg.board text.value").all_text_contents()
    assert "W1" in texts and all(text[0] in "WL=" for text in texts), texts
    assert "forced win" in page.locator("#legend").inner_text()


def test_the_game_ai_thinks_aloud_and_moves_now(open_page) -> None:
    # the AI plays second on a 7x7 board (no book: a long solve early in the game) and has
    # 10 s; Move now makes it answer at once
    page = open_page("?game=connect4&o.size=7x7&first=human&engine=ai&level=perfect-10s"
                     "&moves=4+4+3")
    page.locator("#move-now").wait_for(state="visible", timeout=WAIT)
    page.wait_for_timeout(500)
    page.click("#move-now")
    wait_for_moves(page, 4)
    assert "stopped" in page.locator("#think-state").inner_text()
    assert float(page.locator("#t-time").inner_text().split()[0]) < 8  # not its 10 s


def test_chess_ai_thinks_aloud_on_the_page_and_moves_now(open_page) -> None:
    """Chess's AI, like every engine, shows its search as it goes and answers "Move now" with
    its best so far: a depth in the thinking panel before its move, and the move long before
    its 10 s are up."""
    page = open_page("?game=chess&first=human&engine=ai&level=perfect-10s&moves=e2e4")
    assert page.locator("#engine").input_value() == "player"  # the page's old name for it
    page.wait_for_function("() => document.querySelectorAll('#t-log li').length >= 1",
                           timeout=WAIT)
    assert len(url_moves(page)) == 1  # thinking aloud, and not yet moved
    assert page.locator("#t-depth").inner_text() != "–"
    page.click("#move-now")
    wait_for_moves(page, 2)
    assert "stopped" in page.locator("#think-state").inner_text()
    limit = 10  # seconds: the level perfect-10s
    assert float(page.locator("#t-time").inner_text().split()[0]) < limit


def test_a_keyboard_only_game(open_page) -> None:
    """Tab into the board, walk it with the arrow keys, play with Enter: a whole game of
    tic-tac-toe without the mouse."""
    page = open_page("?game=tictactoe&first=human&engine=ai")
    wait_for_turn(page)
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => Boolean(document.activeElement.closest('svg.board'))"):
            break
    focused = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert focused == "a1, empty"
    for _ in range(5):
        if page.locator("#status.over").count():
            break
        row, col = page.evaluate("() => [document.activeElement.dataset.row,"
                                 " document.activeElement.dataset.col].map(Number)")
        target = page.locator("svg.board .cell.playable").first
        to_row = int(target.get_attribute("data-row"))
        to_col = int(target.get_attribute("data-col"))
        for key, steps in (("ArrowDown", to_row - row), ("ArrowUp", row - to_row),
                           ("ArrowRight", to_col - col), ("ArrowLeft", col - to_col)):
            for _ in range(max(0, steps)):
                page.keyboard.press(key)
        before = len(url_moves(page))
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => (new URLSearchParams(location.search).get('moves') ?? '')"
                               f".split(' ').filter(Boolean).length > {before}", timeout=WAIT)
        wait_for_turn(page)
        assert page.evaluate("() => Boolean(document.activeElement.closest('svg.board'))")
    assert page.locator("#status.over").count() == 1
    assert "you won" not in page.locator("#status").inner_text()  # the AI is perfect


@pytest.mark.parametrize(("query", "keys", "move"), [
    ("?game=connect4&first=human&engine=random", ["ArrowRight"] * 3, "4"),
    ("?game=nim&o.heaps=3+4+5&first=human&engine=random", ["ArrowDown", "ArrowRight"], "2:3"),
    # pin, gap, pin, gap, pin: the third pin knocked down
    ("?game=kayles&o.heaps=5&first=human&engine=random", ["ArrowRight"] * 4, "1:1=2+2"),
])
def test_keyboard_play_on_other_boards(open_page, query: str, keys: list[str], move: str) -> None:
    page = open_page(query)
    wait_for_turn(page)
    page.locator("svg.board [data-key][tabindex='0']").focus()
    for key in keys:
        page.keyboard.press(key)
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('moves')",
                           timeout=WAIT)
    assert url_moves(page)[0] == move


@pytest.mark.parametrize("query", [
    "?game=gomoku&first=human&engine=random",
    "?game=gomoku&o.rule=renju&first=human&engine=random",
    *(f"?game={name}&first=human&engine=random" for name in
      ("bash", "subtraction", "wythoff", "grundy-game", "octal", "dawsons-kayles")),
    *(f"?game={name}&first=human&engine=random" for name in
      ("kuhn", "leduc", "liars-dice", "pushfold")),
])
def test_every_other_board_is_played_from_the_keyboard(open_page, query: str) -> None:
    """The boards the tests above do not walk: a cell or a heap is reached by Tab and the
    arrow keys (a card game's actions are buttons, reached by Tab), and Enter plays the move
    the focused item names."""
    page = open_page(query)
    wait_for_turn(page)
    before = len(url_moves(page))
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("() => Boolean(document.activeElement.closest("
                         "'svg.board [data-move], #move-buttons [data-move]'))"):
            break
    else:
        raise AssertionError(f"no move of {query} is reached with Tab")
    if page.evaluate("() => Boolean(document.activeElement.closest('svg.board'))"):
        page.keyboard.press("ArrowRight")
    move = page.evaluate("() => document.activeElement.closest('[data-move]')"
                         "?.getAttribute('data-move')")
    assert move, "the focused item names no move"
    page.keyboard.press("Enter")
    page.wait_for_function("(n) => (new URLSearchParams(location.search).get('moves') ?? '')"
                           ".split(' ').filter(Boolean).length > n", arg=before, timeout=WAIT)
    assert url_moves(page)[before] == move


@pytest.mark.parametrize(("game", "heaps", "target", "move"), [
    ("kayles", "5", ".token[data-heap='0'][data-index='2']", "1:1=2+2"),  # knock down pin 3
    ("kayles", "5", ".gap[data-heap='0']", "1:2"),  # pins 1 and 2: one row of 3 left
    ("grundy-game", "7", ".token[data-heap='0'][data-index='3']", "1=3+4"),  # split at pin 4
])
def test_rows_of_pins_are_played_by_clicking(open_page, game: str, heaps: str, target: str,
                                             move: str) -> None:
    page = open_page(f"?game={game}&o.heaps={heaps}&first=human&engine=random")
    wait_for_turn(page)
    page.locator(f"svg.board {target}").first.click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('moves')",
                           timeout=WAIT)
    assert url_moves(page)[0] == move


def test_heaps_are_typed_as_the_hint_says(open_page) -> None:
    page = open_page("?game=nim&first=human")
    wait_for_turn(page)
    field = page.locator("#options input[name='heaps']")
    assert "3 4 5" in page.locator("#options").inner_text() + field.get_attribute("placeholder")
    field.fill("2 6")
    field.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('svg.board .heap').length === 2",
                           timeout=WAIT)
    assert page.locator("#status.error").count() == 0
    assert page.locator("svg.board .token").count() == 8


def test_an_unknown_game_in_the_url_says_so(open_page) -> None:
    page = open_page("?game=checkers&moves=e4")
    wait_for_turn(page)
    assert "checkers" in page.locator("#notice").inner_text()
    assert page.locator("svg.board .cell").count() == 9  # and a game to play meanwhile


def test_browser_back_steps_back_through_your_moves(open_page) -> None:
    page = open_page("?game=tictactoe&first=human&engine=ai")
    wait_for_turn(page)
    page.locator('svg.board .cell[data-row="1"][data-col="1"] .hit').click()
    wait_for_moves(page, 2)  # b2 and the AI's answer
    wait_for_turn(page)
    page.go_back()
    wait_for_moves(page, 0)
    assert url_moves(page) == [""] or url_moves(page) == []
    page.go_forward()
    wait_for_moves(page, 2)
    assert url_moves(page)[0] == "b2"


def test_2048_shows_its_score_and_undo_keeps_the_opening_tiles(open_page) -> None:
    page = open_page("?game=2048&first=human")
    wait_for_turn(page)
    assert "Score: 0" in page.locator("#figures").inner_text()
    assert page.locator("#undo").is_disabled()  # nothing of yours to take back
    opening = url_moves(page)
    assert len(opening) == 2
    for key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        if page.locator("#move-buttons button").filter(has_text=key[5:].lower()).count():
            page.keyboard.press(key)
            break
    wait_for_moves(page, 4)
    wait_for_turn(page)
    page.click("#undo")
    wait_for_moves(page, 2)
    assert url_moves(page) == opening
    labels = page.locator("svg.board text.coord").all_text_contents()
    assert labels == ["a", "b", "c", "d", "1", "2", "3", "4"]  # new tiles are written 2@c1
    assert page.evaluate(CONTRAST) == []
    assert min(page.evaluate(TILE_CONTRAST)) >= 4.5  # every tile's number, 2 to 4096


def test_the_mark_is_drawn_without_a_chinese_font(open_page) -> None:
    page = open_page("?game=tictactoe")
    mark = page.locator("header svg.mark")
    assert mark.locator("path").count() == 2
    assert mark.get_attribute("aria-label") == "弈盘"
    assert page.locator("header h1").inner_text().strip() == "yipan"  # no CJK text to render
    box = mark.bounding_box()
    assert box["width"] > 30 and box["height"] > 15


@pytest.mark.parametrize("query", [
    "?game=tictactoe&moves=a1+a2+b1+b2&first=human&values=1",
    "?game=gomoku&moves=h8+h9+i8+i9&first=human&engine=ai&values=1",
    "?game=connect4&moves=4+4+3&first=human&engine=random&values=1",
    "?game=kayles&o.heaps=4+5&first=human&values=1",
])
def test_text_contrast_is_at_least_4_5_to_1(open_page, query: str) -> None:
    """Every text on the page against what it is drawn on: axe's colour-contrast rule for the
    page's text (when axe is installed), a measurement of each board text, and the borders
    of controls (3:1). (2048's tiles: in the 2048 test.)"""
    page = open_page(query)
    wait_for_turn(page)
    if "values=1" in query:
        page.wait_for_selector("#legend .legend-item", timeout=WAIT)
    assert page.evaluate(CONTRAST) == []
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        return
    results = Axe().run(page, options={"runOnly": {"type": "rule", "values": [
        "color-contrast", "button-name", "label", "select-name", "image-alt", "aria-roles",
        "aria-required-attr", "aria-valid-attr", "aria-valid-attr-value", "document-title",
        "html-has-lang", "svg-img-alt"]}})
    violations = {v["id"]: [node["target"] for node in v["nodes"]][:3]
                  for v in results.response["violations"]}
    assert violations == {}
def test_chess_a_click_on_a_piece_shows_its_moves_and_a_second_plays(open_page,
                                                                      tmp_path: Path) -> None:
    page = open_page("?game=chess&first=human&engine=ai&level=0.2s")
    wait_for_turn(page)
    assert page.locator("svg.board.chess g.piece").count() == 32
    assert page.locator("svg.board.chess text.coord").count() == 16
    page.locator('svg.board [data-square="e2"]').click()
    assert page.locator("svg.board .target").count() == 2  # e3 and e4
    page.locator('svg.board [data-square="e4"]').click()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2",
                           timeout=WAIT)
    wait_for_turn(page)
    assert page.locator("svg.board.chess g.piece").count() == 32
    page.screenshot(path=str(tmp_path / "chess.png"))


def test_chess_check_and_promotion_choice(open_page, tmp_path: Path) -> None:
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
    assert url_moves(page)[0] == "b7b8q"  # the queen (it checks on b8; the AI's reply ends
    # the check at once, so the mark is shown below where it lasts)
    page.screenshot(path=str(tmp_path / "chess-promotion.png"))
    # the human's king in check from the start (the rook on a1): marked until the human moves
    checked = open_page("?game=chess&o.fen=4k3%2F8%2F8%2F8%2F8%2F8%2F8%2Fr3K3+w+-+-+0+1"
                        "&first=human&engine=ai&level=0.2s")
    wait_for_turn(checked)
    checked.wait_for_selector('svg.board .check', timeout=WAIT)
    assert checked.locator("svg.board .check").count() == 1
def test_xiangqi_points_river_palaces_and_a_move_by_clicks(open_page, tmp_path: Path) -> None:
    page = open_page("?game=xiangqi&first=human&engine=ai&level=0.2s")
    wait_for_turn(page)
    assert page.locator("svg.board.xiangqi circle.piece").count() == 32
    assert page.locator("svg.board.xiangqi .coord").count() == 19  # 9 files, 10 ranks
    assert page.locator("svg.board.xiangqi .river text").count() == 2
    assert page.locator("svg.board.xiangqi text.glyph").count() == 32  # 帅, or K without the font
    page.locator('svg.board [data-square="h2"]').click()
    # the cannon: h1, h3-h6, the jump onto h9, and along rank 2 from c2 to i2
    assert page.locator("svg.board .target").count() == 12
    page.locator('svg.board [data-square="e2"]').click()
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 2",
                           timeout=WAIT)
    wait_for_turn(page)
    assert url_moves(page)[0] == "h2e2"
    page.screenshot(path=str(tmp_path / "xiangqi.png"))


def test_xiangqi_a_game_to_checkmate_on_the_board(open_page) -> None:
    page = open_page("?game=xiangqi&o.fen=3k5%2FR8%2F9%2F9%2F9%2F9%2F9%2F9%2F9%2F4K3R+w"
                     "&first=human&engine=ai&level=0.2s")
    wait_for_turn(page)
    page.locator('svg.board [data-square="i0"]').click()
    page.locator('svg.board [data-square="i9"]').click()
    assert "over" in page.locator("#status").get_attribute("class", timeout=WAIT) or \
        wait_for_turn(page)
    page.wait_for_selector("#status.over", timeout=WAIT)
    assert page.locator("svg.board .target").count() == 0


# -- Go: stones by clicks on the crossings, the AI's win rate and candidates as it thinks, the
# pass button, captures, and each side's area once the game is over ---------------------------
def test_a_go_game_by_clicks_and_passes(open_page, live_server, tmp_path: Path) -> None:
    url, _ = live_server
    page = open_page("?game=go&o.size=5&o.komi=0.5&first=human&engine=ai&level=easy")
    wait_for_turn(page)
    assert page.locator("svg.board.go line").count() == 10  # 5 + 5 lines
    assert page.locator("svg.board.go .coord").count() == 20  # letters and numbers, both sides
    page.locator('svg.board.go .cell[data-row="2"][data-col="2"] .hit').click()  # C3
    page.wait_for_function("() => new URLSearchParams(location.search).get('moves')"
                           "?.split(' ').length >= 2", timeout=WAIT)
    wait_for_turn(page)
    assert url_moves(page)[0] == "C3"
    assert page.locator("svg.board.go .stone").count() == 2
    assert page.locator("svg.board.go .last-move").count() == 1
    assert "captures: black 0, white 0" in page.locator("#move-buttons").inner_text()
    # passing until the game ends: the AI passes back once it has nothing better to do
    for _ in range(30):
        if page.locator("#status.over").count():
            break
        before = len(url_moves(page))
        page.locator('#move-buttons button[data-move="pass"]').click()
        page.wait_for_function(f"() => new URLSearchParams(location.search).get('moves')"
                               f"?.split(' ').length > {before}", timeout=WAIT)
        wait_for_turn(page)
    page.screenshot(path=str(tmp_path / "go-end.png"))
    assert page.locator("#status.over").count() == 1
    final = httpx.post(f"{url}/api/games/go/state",
                       json={"moves": url_moves(page), "options": {"size": "5", "komi": "0.5"}})
    view = final.json()["view"]
    assert final.json()["outcome"] is not None
    owned = sum(owner is not None for row in view["territory"] for owner in row)
    assert page.locator("svg.board.go .territory").count() == owned
    assert f"result {view['result']}" in page.locator("#move-buttons").inner_text()


def test_the_ai_shows_its_win_rate_and_candidates_while_it_thinks(open_page) -> None:
    page = open_page("?game=go&o.size=9&first=ai&engine=ai&level=perfect")
    page.wait_for_selector("svg.board.go .candidate", timeout=WAIT)
    page.wait_for_selector("#move-buttons .go-win-rate", timeout=WAIT)
    assert "% (" in page.locator("#move-buttons .go-win-rate").inner_text()
    assert "% expected score" in page.locator("#t-value").inner_text()  # MCTS's mean, in words
    wait_for_turn(page)
    assert page.locator("svg.board.go .stone").count() == 1


def test_connect4_puct_shows_the_networks_value_and_policy(open_page, tmp_path: Path) -> None:
    from yipan.engines import has_network
    from yipan.games.connect4 import ConnectFour

    assert has_network(ConnectFour()), "the Connect Four network is shipped in src/yipan/data"
    page = open_page("?game=connect4&first=ai&engine=puct&level=0.3s")
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 1",
                           timeout=WAIT)
    page.wait_for_function("() => !document.getElementById('t-network').hidden", timeout=WAIT)
    assert page.locator("#t-policy .heat").count() == 7  # one per column
    value = float(page.locator("#t-net-value").get_attribute("value") or "nan")
    assert -1 <= value <= 1
    page.screenshot(path=str(tmp_path / "connect4-puct.png"))
