"""The boards a player meets in the first hour, in a real headless Chromium: chess pieces drawn
as shapes (no font), the last move, SAN and pawns, drag and drop, the promotion chooser on its
square; renju's forbidden points and Gomoku's rows numbered from the bottom; xiangqi's values in
pawns from Red's side; Go's line numbers clear of its candidates' circles; the AI's thinking in
view on a laptop; no sideways scroll on a phone; no accessibility violation on any page; chess,
xiangqi and Go played from the keyboard.

Needs Debian's ``chromium`` and the ``playwright`` Python package, as ``test_browser.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import CHROMIUM, WAIT, board_drawn, opened_pages, url_moves, wait_for_turn

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CHESS_GLYPHS = "♔♕♖♗♘♙♚♛♜♝♞♟"
SAN = re.compile(r"^([KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?|O-O(-O)?)[+#]?$")
PAWNS = re.compile(r"^[+-]\d+\.\d\d$|^mate in \d+ for (White|Black)$|^draw$")

pytest.importorskip("playwright.sync_api",
                    reason="browser tests need playwright (the test extra)")
if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)",
                allow_module_level=True)


@pytest.fixture
def open_page(browser, live_server) -> Iterator:
    url, _ = live_server
    with opened_pages(browser) as open_one:
        yield lambda query, viewport=LAPTOP, wait="svg.board, pre.text-board": open_one(
            f"{url}/{query}", viewport, board_drawn(wait))


def wait_for_moves(page, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#moves li').length >= {count}",
                           timeout=WAIT)


def game_names(live_server) -> list[str]:
    url, _ = live_server
    return [game["name"] for game in httpx.get(f"{url}/api/games").json()["games"]]


# -- chess ---------------------------------------------------------------------------------------
def test_chess_pieces_are_drawn_shapes_and_the_last_move_is_marked(open_page,
                                                                    tmp_path: Path) -> None:
    # the AI played e4 as White; the person (Black) is to move
    page = open_page("?game=chess&first=ai&engine=ai&level=0.3s&moves=e2e4")
    wait_for_turn(page)
    board = page.locator("svg.board.chess")
    assert board.locator("g.piece").count() == 32
    assert board.locator("g.piece path").count() >= 32  # every piece has a shape
    assert board.locator("text.piece").count() == 0
    assert not any(glyph in board.inner_html() for glyph in CHESS_GLYPHS)
    assert board.locator('[data-square="e1"] g.piece').get_attribute("data-piece") == "K"
    assert board.locator('[data-square="e8"] g.piece').get_attribute("data-piece") == "k"
    # the white king light, the black king dark, whatever fonts the machine has
    white = board.locator('[data-square="e1"] g.piece path').first.get_attribute("fill")
    black = board.locator('[data-square="e8"] g.piece path').first.get_attribute("fill")
    assert white.lower() == "#fdfaf3" and black.lower() == "#2b2723"
    marked = {cell.get_attribute("data-square")
              for cell in board.locator(".square.last-move").all()}
    assert marked == {"e2", "e4"}
    assert page.locator("#moves li").all_inner_texts() == ["e4"]  # SAN, not e2e4
    page.screenshot(path=str(tmp_path / "chess-pieces.png"))


def drag(page, source, target) -> None:
    start, end = source.bounding_box(), target.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    for step in range(1, 6):
        page.mouse.move(start["x"] + start["width"] / 2
                        + (end["x"] - start["x"]) * step / 5,
                        start["y"] + start["height"] / 2 + (end["y"] - start["y"]) * step / 5)
    page.mouse.up()


def test_chess_a_piece_dragged_plays_and_the_ai_speaks_san_and_pawns(open_page) -> None:
    page = open_page("?game=chess&first=human&engine=ai&level=1s")
    wait_for_turn(page)
    drag(page, page.locator('svg.board [data-square="g1"]'),
         page.locator('svg.board [data-square="f3"]'))
    page.wait_for_function("() => new URLSearchParams(location.search).get('moves')",
                           timeout=WAIT)
    assert url_moves(page)[0] == "g1f3"
    page.wait_for_function("() => document.querySelectorAll('#t-log li').length >= 1",
                           timeout=WAIT)
    value = page.locator("#t-value").inner_text()
    assert PAWNS.match(value), value
    assert "heuristic" not in page.locator("#thinking").inner_text()
    wait_for_moves(page, 2)
    wait_for_turn(page)
    names = page.locator("#moves li").all_inner_texts()
    assert names[0] == "Nf3" and SAN.match(names[1]), names
    line = page.locator("#t-pv").inner_text().split()
    assert line and all(SAN.match(move) for move in line), line
    assert PAWNS.match(page.locator("#t-value").inner_text())


def test_chess_a_drag_off_the_board_or_to_an_illegal_square_plays_nothing(open_page) -> None:
    page = open_page("?game=chess&first=human&engine=ai&level=0.3s")
    wait_for_turn(page)
    drag(page, page.locator('svg.board [data-square="e2"]'),
         page.locator('svg.board [data-square="e5"]'))
    page.wait_for_timeout(300)
    assert url_moves(page) == []
    assert page.locator("svg.board.chess g.piece").count() == 32
    assert page.locator('svg.board [data-square="e2"] g.piece').count() == 1


def test_chess_promotion_is_chosen_on_the_square_and_the_board_keeps_its_size(
        open_page, tmp_path: Path) -> None:
    page = open_page("?game=chess&o.fen=4k3%2F1P6%2F8%2F8%2F8%2F8%2F8%2F4K2R+w+K+-+0+1"
                     "&first=human&engine=ai&level=0.3s")
    wait_for_turn(page)
    board_before = page.locator("svg.board.chess").bounding_box()
    page.locator('svg.board [data-square="b7"]').click()
    page.locator('svg.board [data-square="b8"]').click()
    chooser = page.locator(".promotion")
    chooser.wait_for(timeout=WAIT)
    assert chooser.locator("button").count() == 4
    assert chooser.locator("button svg g.piece").count() == 4
    page.screenshot(path=str(tmp_path / "chess-promotion-overlay.png"))
    square = page.locator('svg.board [data-square="b8"]').bounding_box()
    box = chooser.bounding_box()
    assert page.locator("svg.board.chess").bounding_box() == board_before
    # one square wide, four high, from b8 downwards: over the b-file, inside the board
    assert abs(box["x"] - square["x"]) < 2 and abs(box["width"] - square["width"]) < 2
    assert abs(box["y"] - square["y"]) < 2
    assert box["height"] <= 4 * square["height"] + 2
    page.locator('.promotion button[data-move="b7b8n"]').click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('moves')",
                           timeout=WAIT)
    assert url_moves(page)[0] == "b7b8n"
    assert page.locator(".promotion").count() == 0


# -- renju ---------------------------------------------------------------------------------------
RENJU = "?game=gomoku&o.rule=renju&first=human&engine=random&moves="
# Black g8 h8 (a row) and i10 i9 (a column); White far away: i8 would make two open threes
DOUBLE_THREE = "g8+a1+h8+a3+i10+a5+i9+a7"


def test_renju_forbidden_points_are_marked_and_a_click_says_why(open_page, live_server,
                                                                tmp_path: Path) -> None:
    url, _ = live_server
    state = httpx.post(f"{url}/api/games/gomoku/state",
                       json={"moves": DOUBLE_THREE.split("+"),
                             "options": {"rule": "renju"}}).json()
    forbidden = state["view"]["forbidden"]
    assert forbidden and all(reason == "double three" for *_, reason in forbidden)
    page = open_page(RENJU + DOUBLE_THREE)
    wait_for_turn(page)
    cells = page.locator("svg.board .cell.forbidden")
    assert cells.count() == len(forbidden)
    assert page.locator("svg.board .forbidden-mark").count() == len(forbidden)
    row, col, _ = forbidden[0]
    cell = page.locator(f'svg.board .cell[data-row="{row}"][data-col="{col}"]')
    assert "forbidden for Black: double three" in cell.get_attribute("aria-label")
    cell.locator(".hit").click()
    page.wait_for_function("() => document.getElementById('notice').textContent.length > 0",
                           timeout=WAIT)
    assert "double three" in page.locator("#notice").inner_text()
    assert url_moves(page) == DOUBLE_THREE.split("+")  # nothing played
    page.screenshot(path=str(tmp_path / "renju.png"))


def test_no_forbidden_marks_outside_renju_or_for_white(open_page) -> None:
    page = open_page("?game=gomoku&first=human&engine=random&moves=" + DOUBLE_THREE)
    wait_for_turn(page)
    assert page.locator("svg.board .forbidden-mark").count() == 0


def test_gomoku_rows_are_numbered_from_the_bottom_as_in_renju(open_page) -> None:
    page = open_page("?game=gomoku&first=human&engine=random")
    wait_for_turn(page)
    board = page.locator("svg.board")
    rows = board.locator(".coordinates .coord").all_text_contents()[15:]  # after a..o
    assert rows == [str(n) for n in range(15, 0, -1)]  # 15 at the top, 1 at the bottom
    corner = board.locator('.cell[data-row="14"][data-col="0"]')  # the bottom-left corner
    assert corner.get_attribute("data-move") == "a1"
    assert corner.get_attribute("aria-label").startswith("a1,")
    corner.locator(".hit").click()
    wait_for_moves(page, 2)
    assert url_moves(page)[0] == "a1"
    assert page.locator("#moves li").first.inner_text() == "a1"


# -- xiangqi ---------------------------------------------------------------------------------------
PAWNS_RED = re.compile(r"^[+-]\d+\.\d\d$|^mate in \d+ for (Red|Black)$|^draw$")


def test_xiangqi_values_are_pawns_from_reds_side(open_page) -> None:
    page = open_page("?game=xiangqi&first=ai&engine=ai&level=1s")
    page.wait_for_function("() => document.querySelectorAll('#t-log li').length >= 1",
                           timeout=WAIT)
    assert PAWNS_RED.match(page.locator("#t-value").inner_text())
    log = page.locator("#t-log li").all_inner_texts()
    assert all(PAWNS_RED.match(row.split("  ")[2]) for row in log), log
    assert "heuristic" not in page.locator("#thinking").inner_text()
    # the same value reads the other way round when Black is to move; a mate names the winner
    words = page.evaluate("""async () => {
        const { valueWords, WIN } = await import("/static/boards.js");
        const at = (to_move) => ({ view: { kind: "xiangqi" }, to_move });
        return [valueWords(at(0), { value: 35 }), valueWords(at(1), { value: 35 }),
                valueWords(at(1), { value: -120 }), valueWords(at(1), { value: WIN - 3 }),
                valueWords(at(0), { value: -(WIN - 4) })];
    }""")
    assert words == ["+0.35", "-0.35", "+1.20", "mate in 2 for Black", "mate in 2 for Black"]


# -- Go ------------------------------------------------------------------------------------------
GO_OVERLAY = """async ({ best, pv }) => {
    const { drawBoard } = await import("/static/boards.js");
    const response = await fetch("/api/games/go/state", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ moves: [], options: { size: "9" } }) });
    const position = await response.json();
    const holder = document.createElement("div");
    holder.id = "overlay-test";
    holder.style.width = "600px";
    document.body.prepend(holder);
    drawBoard(holder, position, { marks: null, pv, canMove: false, onMove() {},
                                  thinking: { extra: { best_moves: best } } });
    const box = (node) => { const b = node.getBBox(); return [b.x, b.y, b.width, b.height]; };
    const circles = [...holder.querySelectorAll("circle.candidate")].map((c) =>
        [c.closest("[data-move]").dataset.move, +c.getAttribute("cx"), +c.getAttribute("cy"),
         +c.getAttribute("r")]);
    const numbers = [...holder.querySelectorAll("text.pv-number")].map((t) =>
        [t.closest("[data-move]").dataset.move, t.textContent, box(t)]);
    const texts = [...holder.querySelectorAll("text.win-rate, text.visits")].map(box);
    return { circles, numbers, texts };
}"""


def disc_meets_box(cx: float, cy: float, r: float, box: list[float]) -> bool:
    x, y, width, height = box
    nearest_x, nearest_y = min(max(cx, x), x + width), min(max(cy, y), y + height)
    return (nearest_x - cx) ** 2 + (nearest_y - cy) ** 2 < r * r


def boxes_meet(a: list[float], b: list[float]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_go_line_numbers_never_hide_under_or_cover_candidate_circles(open_page,
                                                                     tmp_path: Path) -> None:
    """The AI's line runs through its own candidates (its first move always, and here its
    third) and beside others: every number of the line shows once, clear of every candidate's
    circle and figures."""
    page = open_page("?game=go&o.size=9&first=human&engine=random")
    wait_for_turn(page)
    best = [{"move": move, "visits": visits, "win_rate": rate} for move, visits, rate in
            [("C4", 856, 0.5), ("C3", 381, 0.51), ("F4", 229, 0.48), ("D5", 137, 0.48),
             ("E7", 296, 0.5), ("C5", 149, 0.48), ("D6", 127, 0.45), ("D8", 166, 0.48)]]
    pv = ["C4", "D5", "D4", "E4", "C3", "D3", "E3"]  # 1, 2 and 5 on candidates
    drawn = page.evaluate(GO_OVERLAY, {"best": best, "pv": pv})
    page.locator("#overlay-test").screenshot(path=str(tmp_path / "go-overlay.png"))
    assert sorted(move for move, *_ in drawn["circles"]) == sorted(e["move"] for e in best)
    numbers = {move: text for move, text, _ in drawn["numbers"]}
    assert numbers == {move: str(i + 1) for i, move in enumerate(pv[:6])}  # each once
    for move, _, label in drawn["numbers"]:
        for other, cx, cy, r in drawn["circles"]:
            assert not disc_meets_box(cx, cy, r, label), (move, other)
        assert not any(boxes_meet(label, text) for text in drawn["texts"]), move


# -- layout --------------------------------------------------------------------------------------
def test_the_ai_thinking_is_in_view_on_a_laptop_for_every_game(open_page, live_server) -> None:
    for game in game_names(live_server):
        page = open_page(f"?game={game}&first=human")
        page.wait_for_function("() => document.getElementById('status').textContent"
                               " !== 'Loading…'", timeout=WAIT)
        for part in ("#thinking h2", "#t-depth", "#t-value", "#t-pv"):
            box = page.locator(part).bounding_box()
            assert box is not None, (game, part)
            assert box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"], (game, part)
            assert box["x"] + box["width"] <= LAPTOP["width"], (game, part)
        page.close()


@pytest.mark.parametrize("query", [
    "?game=chess&first=human&moves=e2e4+e7e5+g1f3+b8c6+f1b5+a7a6+b5a4+g8f6",
    "?game=xiangqi&first=ai&moves=h2e2",
])
def test_no_sideways_scroll_on_a_phone(open_page, query: str, tmp_path: Path) -> None:
    page = open_page(query, viewport=PHONE)
    wait_for_turn(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)


@pytest.mark.parametrize("query", [
    "?game=xiangqi&first=human&engine=random",  # the a-file pieces beside the rank numbers
    "?game=go&o.size=5&first=human&engine=random&moves=a1+e5+a5+e1+c1+c5+a3+e3",  # edges
    "?game=gomoku&o.size=9&first=human&engine=random&moves=a1+i9+a9+i1+e1+a5",
])
def test_coordinates_are_clear_of_every_piece(open_page, query: str) -> None:
    """No coordinate label overlaps a piece or a stone, even on the board's edge points."""
    page = open_page(query)
    wait_for_turn(page)
    found = page.evaluate("""() => {
        const boxes = (selector) => [...document.querySelectorAll(selector)].map((element) =>
            [element.textContent, element.getBoundingClientRect()]);
        const coords = boxes("svg.board .coord");
        const pieces = boxes("svg.board .piece, svg.board .stone");
        const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
            && a.top < b.bottom - 1 && b.top < a.bottom - 1;
        return {coords: coords.length, pieces: pieces.length,
                overlaps: coords.flatMap(([label, box]) =>
                    pieces.filter(([, piece]) => meet(box, piece)).map(() => label))};
    }""")
    assert found["coords"] and found["pieces"] >= 6, found
    assert found["overlaps"] == [], found


def test_every_select_shows_its_whole_choice(open_page) -> None:
    """The setup's selects are wide enough for the longest choice (none cut to "strongest
    (3 s")."""
    for query in ("?game=chess", "?game=connect4", "?game=go", "?game=gomoku"):
        page = open_page(query)
        cut = page.evaluate("""() => [...document.querySelectorAll("select")].flatMap((select) => {
            const probe = document.createElement("span");
            probe.style.font = getComputedStyle(select).font;
            probe.style.position = "absolute"; probe.style.whiteSpace = "nowrap";
            document.body.append(probe);
            const widest = Math.max(...[...select.options].map((option) => {
                probe.textContent = option.textContent; return probe.offsetWidth; }));
            probe.remove();
            const room = select.clientWidth - 24;  // the arrow and the padding
            return select.offsetParent && widest > room ? [[select.id, widest, room]] : [];
        })""")
        assert cut == [], (query, cut)


def test_connect_four_calls_its_players_red_and_yellow(open_page) -> None:
    page = open_page("?game=connect4&first=human&engine=random")
    wait_for_turn(page)
    assert "Your move (Red)" in page.locator("#status").inner_text()


# -- accessibility -------------------------------------------------------------------------------
def axe_violations(page) -> dict:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return {v["id"]: [node["target"] for node in v["nodes"]][:3]
            for v in results.response["violations"]}


def test_no_accessibility_violation_on_any_page(open_page, live_server) -> None:
    """axe-core on every game's page and on the push/fold page: no violation of any impact."""
    pytest.importorskip("axe_playwright_python", reason="needs axe-playwright-python")
    found = {}
    for game in game_names(live_server):
        page = open_page(f"?game={game}&first=human")
        wait_for_turn(page)
        found[game] = axe_violations(page)
        page.close()
    page = open_page("pushfold", wait="#push-grid svg")
    found["pushfold"] = axe_violations(page)
    assert {name: v for name, v in found.items() if v} == {}


# -- the keyboard --------------------------------------------------------------------------------
def tab_to_board(page) -> None:
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => Boolean(document.activeElement.closest('svg.board'))"):
            return
    raise AssertionError("Tab never reached the board")


def focused(page) -> str:
    return page.evaluate("() => document.activeElement.getAttribute('data-key')")


def walk_to(page, row: int, col: int) -> None:
    at = page.evaluate("() => [document.activeElement.dataset.row,"
                       " document.activeElement.dataset.col].map(Number)")
    for key, steps in (("ArrowDown", row - at[0]), ("ArrowUp", at[0] - row),
                       ("ArrowRight", col - at[1]), ("ArrowLeft", at[1] - col)):
        for _ in range(max(0, steps)):
            page.keyboard.press(key)


@pytest.mark.parametrize(("query", "source", "target", "move"), [
    ("?game=chess&first=human&engine=ai&level=0.3s", (6, 4), (4, 4), "e2e4"),  # e2 to e4
    # the cannon on h2 (row 7, column 7) to e2
    ("?game=xiangqi&first=human&engine=ai&level=0.3s", (7, 7), (7, 4), "h2e2"),
])
def test_pieces_are_moved_from_the_keyboard(open_page, query: str, source: tuple[int, int],
                                            target: tuple[int, int], move: str) -> None:
    page = open_page(query)
    wait_for_turn(page)
    tab_to_board(page)
    walk_to(page, *source)
    page.keyboard.press("Enter")
    assert "selected" in page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    walk_to(page, *target)
    page.keyboard.press("Enter")
    wait_for_moves(page, 2)  # the move and the AI's answer
    assert url_moves(page)[0] == move
    wait_for_turn(page)
    assert page.evaluate("() => Boolean(document.activeElement.closest('svg.board'))")


def test_go_is_played_from_the_keyboard(open_page) -> None:
    page = open_page("?game=go&o.size=5&first=human&engine=ai&level=easy")
    wait_for_turn(page)
    tab_to_board(page)
    walk_to(page, 2, 2)
    assert focused(page) == "2,2"
    page.keyboard.press("Enter")
    wait_for_moves(page, 2)
    assert url_moves(page)[0] == "C3"
    wait_for_turn(page)
