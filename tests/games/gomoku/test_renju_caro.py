"""Renju and caro: in the Game, black's forbidden moves on constructed positions, caro's
blocked fives, and a property against a plain referee written from the definitions; in the
fast engine, its line shapes, its forbidden points, moves it never makes, the renju win it
finds, caro fives it does not count; the brain through its process.

Positions are drawn as rows of text (``x`` black, ``o`` white, ``.`` empty, ``*`` the point
asked about, which is empty), placed with their top-left corner at (3, 3) of a 15x15 board;
spare stones (to keep the counts alternating) go along the top and bottom edges, far away.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import IllegalMoveError
from yipan.games.gomoku import Gomoku, Stones
from yipan.games.gomoku.board import L_FIVE, L_FORBIDDEN
from yipan.games.gomoku.engine import Engine
from yipan.games.gomoku.patterns import (
    FIVE,
    FOUR,
    FOUR_FOUR,
    NONE,
    OPEN_FOUR,
    OPEN_THREE,
    OVERLINE,
    THREE,
    shape_of,
)
from yipan.games.gomoku.renju import RenjuBoard

SIZE = 15
CORNER = 3


def position(game: Gomoku, rows: list[str], *, black_to_move: bool = True
             ) -> tuple[Stones, int | None]:
    """The state drawn by ``rows`` and the point marked ``*`` (None if none)."""
    black, white, star = [], [], None
    for dy, row in enumerate(rows):
        for dx, ch in enumerate(row.replace(" ", "")):
            point = (CORNER + dx, CORNER + dy)
            if ch == "x":
                black.append(point)
            elif ch == "o":
                white.append(point)
            elif ch == "*":
                star = game.point(*point)
    # spare stones three points apart, on the bottom rows (white) or the top row (black):
    # far from the drawing, and no line of them is one move from a four
    white_spares = iter((x, SIZE - 1 - 2 * k) for k in range(3) for x in range(0, SIZE, 3))
    black_spares = iter((x, 2 * k) for k in range(2) for x in range(0, SIZE, 3))
    while len(white) < len(black) - (0 if black_to_move else 1):
        white.append(next(white_spares))
    while len(black) < len(white) + (0 if black_to_move else 1):
        black.append(next(black_spares))
    bits = [sum(1 << game.bit(game.point(x, y)) for x, y in stones) for stones in (black, white)]
    return Stones(*bits), star


RENJU = Gomoku(SIZE, "renju")

FORBIDDEN = {
    "double three": ([
        ". . . . . .",
        ". . . . x .",
        ". . . . x .",
        ". . x x * .",
        ". . . . . .",
    ], "double three"),
    "double four": ([
        ". . . . o .",
        ". . . . x .",
        ". . . . x .",
        ". . . . x .",
        "o x x x * .",
        ". . . . . .",
    ], "double four"),
    "four-four on one line": ([
        "x . x * x . x",
    ], "double four"),
    "overline": ([
        ". x x x * x x .",
    ], "overline"),
    "overline of seven": ([
        "x x x * x x x",
    ], "overline"),
}

ALLOWED = {
    "four-three": [
        ". . . . . .",
        ". . . . x .",
        ". . . . x .",
        "o x x x * .",
        ". . . . . .",
    ],
    "a single open three": [
        ". . x x * . .",
    ],
    # the row's three could only become a straight four at the point right of *, and black
    # may not play there (six in a column): a false three, so only the column's three counts
    "false three": [
        ". . . . . . .",
        ". . . . . x .",
        ". . . . x x .",
        ". . . . x x .",
        "o . x x * . .",
        ". . . . . x .",
        ". . . . . x .",
    ],
    # a line holding a four is no three as well: a four-three, not a double three
    "straight four and three": [
        ". . . . . .",
        ". . . . x .",
        ". . . . x .",
        ". . . . x .",
        ". . x x * .",
        ". . . . . .",
    ],
    "split four and three": [
        ". . . . . . .",
        ". . . . . x .",
        ". . . . . x .",
        ". x x x . * .",
    ],
}


@pytest.mark.parametrize("name", FORBIDDEN)
def test_forbidden_shapes_are_refused_to_black(name):
    rows, reason = FORBIDDEN[name]
    state, star = position(RENJU, rows)
    assert RENJU.outcome(state) is None
    assert RENJU.forbidden(state, star) == reason
    assert star not in RENJU.legal_moves(state)
    with pytest.raises(IllegalMoveError, match=f"forbidden to black under renju.*{reason}"):
        RENJU.play_checked(state, star)
    freestyle = Gomoku(SIZE, "freestyle")  # the same point is fine in gomoku
    assert star in freestyle.legal_moves(state)


def test_the_web_view_offers_no_forbidden_point():
    state, star = position(RENJU, FORBIDDEN["double three"][0])
    x, y = RENJU.xy(star)
    view = RENJU.view(state)
    assert view["move_at"][y][x] is None
    assert view["move_at"][y][x + 1] == RENJU.format_move(star + 1)
    assert Gomoku(SIZE, "freestyle").view(state)["move_at"][y][x] == RENJU.format_move(star)


@pytest.mark.parametrize("name", ALLOWED)
def test_shapes_that_are_allowed(name):
    state, star = position(RENJU, ALLOWED[name])
    assert RENJU.forbidden(state, star) is None
    assert star in RENJU.legal_moves(state)
    RENJU.play_checked(state, star)


def test_a_false_three_is_only_seen_by_looking_one_move_deeper():
    state, star = position(RENJU, ALLOWED["false three"])
    board = RENJU.renju_board(state)
    x, y = RENJU.xy(star)
    assert board.forbidden(x, y) is None
    assert board.forbidden_at(board.index(x, y), depth=1) == "double three"  # no recursion


def test_the_same_shapes_are_free_to_white():
    rows = [r.replace("x", "w").replace("o", "x").replace("w", "o")
            for r in FORBIDDEN["double three"][0]]
    state, star = position(RENJU, rows, black_to_move=False)
    assert RENJU.to_move(state) == 1
    assert star in RENJU.legal_moves(state)


def test_a_five_that_also_makes_a_double_four_wins_for_black():
    rows = [
        "o . . . o .",
        ". x . . x .",
        ". . x . x .",
        ". . . x x .",
        "x x x x * .",
        ". . . . . .",
    ]
    state, star = position(RENJU, rows)
    # the row makes exactly five; the column and the diagonal make fours at once
    assert RENJU.forbidden(state, star) is None
    after = RENJU.play_checked(state, star)
    assert RENJU.outcome(after).winner == 0
    assert RENJU.five_cells(after, 0).bit_count() == 5


def test_white_wins_with_an_overline_black_does_not():
    black_rows = ["x x x * x x"]
    state, star = position(RENJU, black_rows)
    assert RENJU.forbidden(state, star) == "overline"
    six = Stones(state.black | 1 << RENJU.bit(star), state.white)
    assert RENJU.outcome(six) is None  # (only reachable by play, which does not check)
    white_rows = ["o o o * o o"]
    state, star = position(RENJU, white_rows, black_to_move=False)
    after = RENJU.play_checked(state, star)
    assert RENJU.outcome(after).winner == 1
    assert RENJU.five_cells(after, 1).bit_count() == 6


# -- caro --------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["caro", "caro-exact"])
@pytest.mark.parametrize("rows, wins", [
    (["o x x x x * o"], False),  # blocked at both ends
    (["o x x x x * ."], True),  # one end open
    ([". x x x x * ."], True),
    (["o x x x x * x o"], False),  # six blocked at both ends
    ([". x x x x * x o"], None),  # six with one end open: wins only where overlines do
])
def test_caro_fives_blocked_at_both_ends_do_not_win(rule, rows, wins):
    game = Gomoku(SIZE, rule)
    state, star = position(game, rows)
    after = game.play_checked(state, star)
    expected = wins if wins is not None else rule == "caro"
    assert (game.outcome(after) is not None) == expected
    if expected:
        assert game.outcome(after).winner == 0


def test_the_edge_blocks_nothing_in_caro():
    game = Gomoku(SIZE, "caro")
    cells = [game.point(x, 6) for x in range(5)] + [game.point(5, 6)]
    black = sum(1 << game.bit(p) for p in cells[:4])
    white = (1 << game.bit(cells[5])) | (1 << game.bit(game.point(0, 14))) \
        | (1 << game.bit(game.point(2, 14))) | (1 << game.bit(game.point(4, 14)))
    state = Stones(black, white)
    after = game.play_checked(state, cells[4])  # a1..e1 of row 7, against the edge, o after
    assert game.outcome(after).winner == 0


# -- the property: legal moves against a referee written from the definitions --------------------


def referee_forbidden(black: set, white: set, size: int, p: tuple[int, int],
                      depth: int = 4) -> bool:
    """Renju's definitions read over windows of the line: a five is five black in a row with
    no black just outside; a four, a 5-window with four black and one empty point that would
    make such a five; a straight four, ``.xxxx.`` whose two ends each make one; a three, a
    point on the line that makes a straight four through ``p`` and is itself allowed."""
    black = black | {p}

    def cell(q):
        x, y = q
        if not (0 <= x < size and 0 <= y < size):
            return "edge"
        return "x" if q in black else "o" if q in white else "."

    def along(d, k):
        return (p[0] + d[0] * k, p[1] + d[1] * k)

    def exact_five_with(d, extra):
        """The windows of five through p, with ``extra`` black, that are exactly five."""
        found = 0
        for start in range(-4, 1):
            window = [along(d, start + i) for i in range(5)]
            outside = [along(d, start - 1), along(d, start + 5)]
            if all(q in black or q == extra for q in window) and \
                    all(cell(q) != "x" and q != extra for q in outside):
                found += 1
        return found > 0

    directions = [(1, 0), (0, 1), (1, 1), (1, -1)]
    line_points = {d: [along(d, k) for k in range(-5, 6) if k] for d in directions}
    if any(exact_five_with(d, None) for d in directions):
        return False
    for d in directions:
        run = 1
        for sign in (1, -1):
            k = sign
            while cell(along(d, k)) == "x":
                run += 1
                k += sign
        if run >= 6:
            return True

    def five_points(d, stones_extra=None):
        return {q for q in line_points[d] if cell(q) == "." and q != stones_extra
                and exact_five_with_extra(d, q, stones_extra)}

    def exact_five_with_extra(d, q, also):
        if also is None:
            return exact_five_with(d, q)
        black.add(also)
        try:
            return exact_five_with(d, q)
        finally:
            black.discard(also)

    def straight_four(d, also):
        """``.xxxx.`` through p with ``also`` added (and in it), both ends making exactly
        five."""
        for start in range(-3, 1):
            four = [along(d, start + i) for i in range(4)]
            ends = [along(d, start - 1), along(d, start + 4)]
            if (also is None or also in four) and all(q in black or q == also for q in four) and \
                    all(cell(q) == "." and q != also for q in ends) and \
                    all(exact_five_with_extra(d, q, also) for q in ends):
                return True
        return False

    fours = 0
    for d in directions:
        points = five_points(d)
        fours += 1 if len(points) == 2 and straight_four(d, None) else len(points)
    if fours >= 2:
        return True
    threes = 0
    for d in directions:
        if five_points(d):  # a line holding a four is no three
            continue
        for q in line_points[d]:
            if cell(q) == "." and straight_four(d, q) and (
                    depth <= 1 or not referee_forbidden(black, white, size, q, depth - 1)):
                threes += 1
                break
    return threes >= 2


@st.composite
def crowded_positions(draw):
    """Black to move on a 15x15 board, stones packed in the middle 7x7 (where shapes meet)."""
    points = [(x, y) for x in range(4, 11) for y in range(4, 11)]
    chosen = draw(st.lists(st.sampled_from(points), min_size=6, max_size=26, unique=True))
    black_count = len(chosen) // 2
    return set(chosen[:black_count]), set(chosen[black_count:2 * black_count])


@settings(max_examples=20, deadline=None)
@given(crowded_positions())
def test_legal_moves_never_hold_a_point_forbidden_to_black(stones):
    black, white = stones
    game = RENJU
    state = Stones(sum(1 << game.bit(game.point(x, y)) for x, y in black),
                   sum(1 << game.bit(game.point(x, y)) for x, y in white))
    if game.outcome(state) is not None:
        return
    legal = set(game.legal_moves(state))
    empty = [(x, y) for y in range(SIZE) for x in range(SIZE)
             if (x, y) not in black and (x, y) not in white]
    expected = {game.point(x, y) for x, y in empty
                if not referee_forbidden(set(black), white, SIZE, (x, y))}
    assert legal == expected


def test_the_board_and_the_referee_agree_on_the_drawn_positions():
    for rows, _ in FORBIDDEN.values():
        state, star = position(RENJU, rows)
        board: RenjuBoard = RENJU.renju_board(state)
        black = {RENJU.xy(p) for p in range(SIZE * SIZE)
                 if state.black >> RENJU.bit(p) & 1}
        white = {RENJU.xy(p) for p in range(SIZE * SIZE)
                 if state.white >> RENJU.bit(p) & 1}
        assert referee_forbidden(black, white, SIZE, RENJU.xy(star))
        assert board.forbidden(*RENJU.xy(star)) is not None


# -- the fast engine -------------------------------------------------------------------------------

SRC = Path(__file__).resolve().parents[3] / "src"
NODES = 20_000  # searches bounded by nodes: a busy machine changes nothing


@pytest.mark.parametrize("line, shape", [
    (".xx[.]x.", OPEN_FOUR),  # a straight four
    ("x.x[.]x.x", FOUR_FOUR),  # two fours on one line: forbidden to black
    (".x.xx[.].x", FOUR_FOUR),
    ("xx[.]xxx", OVERLINE),
    ("x.xx[.]..", FOUR),
    ("..xx[.]..", OPEN_THREE),
    (".xxxx[.].", FIVE),
    ("x.[.]xxx.x", NONE),  # either gap makes six
])
def test_renju_shapes_of_black(line, shape):
    assert shape_of(line, exact=True, renju=True) == shape


@pytest.mark.parametrize("line, caro, shape", [
    ("oxxxx[.]o", False, FIVE),
    ("oxxxx[.]o", True, NONE),  # a five blocked at both ends is nothing
    ("oxxxx[.].", True, FIVE),
    ("oxxx[.].o", False, FOUR),
    ("oxxx[.].o", True, NONE),  # its five would be blocked at both ends: no four
    ("oxxx[.]..", True, FOUR),
    ("oxx[.]..o", False, THREE),
    ("oxx[.]..o", True, NONE),
    ("#xxxx[.]o", True, FIVE),  # the edge blocks nothing in caro
    ("#xxx[.].o", True, FOUR),
    ("#xxx[.]o", True, NONE),  # no room for five
])
def test_caro_shapes(line, caro, shape):
    assert shape_of(line, caro=caro) == shape


def engine_at(rule: str, state: Stones) -> Engine:
    engine = Engine(SIZE, rule, memory_bytes=1 << 20)
    engine.set_state(state)
    return engine


@pytest.mark.parametrize("name", FORBIDDEN)
def test_the_board_marks_forbidden_points_for_black_only(name):
    game = Gomoku(SIZE, "renju")
    state, star = position(game, FORBIDDEN[name][0])
    engine = engine_at("renju", state)
    cell = engine.cell(star)
    assert engine.board.level[0, cell] == L_FORBIDDEN
    assert engine.board.level[1, cell] != L_FORBIDDEN
    assert engine_at("freestyle", state).board.level[0, cell] != L_FORBIDDEN


def test_the_engine_does_not_play_its_winning_four_four_under_renju():
    rows = ["x . x * x . x"]
    for rule in ("freestyle", "renju"):
        game = Gomoku(SIZE, rule)
        state, star = position(game, rows)
        engine = engine_at(rule, state)
        decision = engine.think(seconds=None, nodes=NODES)
        if rule == "freestyle":
            assert decision.move == star  # two fours: a win
        else:
            assert decision.move != star
            game.play_checked(state, decision.move)


@settings(max_examples=30, deadline=None)
@given(crowded_positions())
def test_every_point_the_rules_forbid_the_board_marks_forbidden(stones):
    """The engine's forbidden points (line shapes) hold all of the rules' (they may hold a
    few more: its threes do not ask whether their completing point is allowed)."""
    black, white = stones
    game = RENJU
    state = Stones(sum(1 << game.bit(game.point(x, y)) for x, y in black),
                   sum(1 << game.bit(game.point(x, y)) for x, y in white))
    if game.outcome(state) is not None:
        return
    legal = set(game.legal_moves(state))
    engine = engine_at("renju", state)
    for point in range(SIZE * SIZE):
        if engine.is_empty(point) and point not in legal:
            assert engine.board.level[0, engine.cell(point)] == L_FORBIDDEN


def white_four_onto_a_forbidden_point(rule: str) -> tuple[Engine, int, int]:
    """White to move: black's double-three point F (the drawing's ``*``) lies at the end of
    white's diagonal three, whose other end black holds; white's four there cannot be blocked
    under renju."""
    game = Gomoku(SIZE, rule)
    state, star = position(game, FORBIDDEN["double three"][0])
    fx, fy = game.xy(star)
    white = [(fx + k, fy + k) for k in (2, 3, 4)]
    black = [(fx + 5, fy + 5), (0, 0)]
    state = Stones(state.black | sum(1 << game.bit(game.point(x, y)) for x, y in black),
                   state.white | sum(1 << game.bit(game.point(x, y)) for x, y in white))
    assert game.to_move(state) == 1 and game.outcome(state) is None
    return engine_at(rule, state), game.point(fx + 1, fy + 1), star


def test_white_wins_by_a_four_whose_five_point_is_forbidden_to_black():
    engine, four, forbidden_point = white_four_onto_a_forbidden_point("renju")
    decision = engine.think(seconds=None, nodes=NODES)
    assert decision.reason == "VCF" and decision.move == four
    assert decision.threat is not None and decision.threat.line == (four,)
    engine.play(four)
    assert engine.board.level[0, engine.cell(forbidden_point)] == L_FORBIDDEN
    assert engine.think(seconds=None, nodes=NODES).result.value < 0  # black sees it is lost
    free, _, _ = white_four_onto_a_forbidden_point("freestyle")
    assert free.think(seconds=None, nodes=NODES).reason != "VCF"  # black could block there


def test_the_engine_sees_a_caro_five_against_the_edge():
    game = Gomoku(SIZE, "caro")
    black = [game.point(k, k) for k in range(1, 5)]  # a diagonal into the corner a1
    white = [game.point(5, 5), game.point(14, 0), game.point(11, 0), game.point(8, 0)]
    state = Stones(sum(1 << game.bit(p) for p in black), sum(1 << game.bit(p) for p in white))
    engine = engine_at("caro", state)
    corner = engine.cell(game.point(0, 0))
    assert engine.board.level[0, corner] == L_FIVE  # o at the far end, the edge at this one
    assert game.outcome(game.play_checked(state, game.point(0, 0))).winner == 0
    engine.side = 1
    assert engine.think(seconds=None, nodes=NODES).move == game.point(0, 0)  # white blocks


def test_a_caro_five_blocked_at_both_ends_is_no_threat_to_the_engine():
    for rule, fives in (("freestyle", 1), ("caro", 0), ("caro-exact", 0)):
        game = Gomoku(SIZE, rule)
        state, star = position(game, ["o x x x * . o"])
        engine = engine_at(rule, state)
        assert int(engine.board.level_count[0, L_FIVE]) == 0
        engine.play(star)  # black's four, o x x x x [.] o: its five is blocked at both ends
        assert int(engine.board.level_count[0, L_FIVE]) == fives


def test_engine_self_play_under_renju_never_makes_a_forbidden_move():
    """Twenty moves a side from seeded random openings, every black move through the rules
    (two games at least, and on until black has met a forbidden point)."""
    game = Gomoku(SIZE, "renju")
    rng = random.Random(7)
    forbidden_seen = 0
    for played in range(8):
        if played >= 2 and forbidden_seen:
            break
        state = game.initial_state()
        for _ in range(3):
            state = game.play_checked(state, rng.choice(
                [game.point(x, y) for x in range(5, 10) for y in range(5, 10)
                 if game.cell(state, x, y) is None]))
        engine = engine_at("renju", state)
        for _ in range(40):
            if game.outcome(state) is not None:
                break
            if game.to_move(state) == 0:
                forbidden_seen += len(game.legal_moves(state)) < bin(
                    game.full & ~(state.black | state.white)).count("1")
            decision = engine.think(seconds=None, nodes=3_000, max_depth=4)
            state = game.play_checked(state, decision.move)  # raises on a forbidden move
            engine.play(decision.move)
    assert forbidden_seen > 0  # black did meet forbidden points on the way


def brain_session(script: list[str]) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    process = subprocess.run(
        [sys.executable, "-m", "yipan.protocols.gomocup"], input="\n".join(script) + "\n",
        capture_output=True, text=True, env=env, timeout=300)
    assert process.returncode == 0, process.stderr
    # MESSAGE lines (a slow first START, the figures before each move) are for people
    return [line for line in process.stdout.splitlines() if not line.startswith("MESSAGE")]


def board_lines(game: Gomoku, state: Stones, brain_colour: int) -> list[str]:
    lines = ["BOARD"]
    for p in range(SIZE * SIZE):
        x, y = game.xy(p)
        owner = game.cell(state, x, y)
        if owner is not None:
            lines.append(f"{x},{y},{1 if owner == brain_colour else 2}")
    return [*lines, "DONE"]


def test_the_brain_plays_renju_and_caro_by_info_rule():
    renju = Gomoku(SIZE, "renju")
    four_four, star = position(renju, ["x . x * x . x"])
    sx, sy = renju.xy(star)
    caro = Gomoku(SIZE, "caro")
    # black (the brain) has two fours: the upper one's five would be blocked at both ends
    fours, _ = position(caro, ["o x x x x . o", ". . . . . . .", "o x x x x . ."])
    blocked, open_end = (CORNER + 5, CORNER), (CORNER + 5, CORNER + 2)
    script = ["START 15", "INFO timeout_turn 1000", "INFO rule 4",
              *board_lines(renju, four_four, 0), "RESTART", "INFO rule 0",
              *board_lines(renju, four_four, 0), "RESTART", "INFO rule 8",
              *board_lines(caro, fours, 0), "INFO rule 12", "END"]
    answers = brain_session(script)
    assert answers[0] == "OK"
    renju_move = tuple(int(v) for v in answers[1].split(","))
    assert renju_move != (sx, sy)
    renju.play_checked(four_four, renju.point(*renju_move))
    assert answers[2] == "OK"
    assert answers[3] == f"{sx},{sy}"  # freestyle: the four-four wins
    assert answers[4] == "OK"
    assert answers[5] == "{},{}".format(*open_end)  # caro: only the open-ended five wins
    assert blocked != open_end
    assert answers[6].startswith("ERROR") and "exclude" in answers[6]
    assert len(answers) == 7


def test_the_command_line_refuses_a_forbidden_move_in_one_line(capsys):
    from yipan.cli.main import main

    moves = ["f8", "a1", "g8", "c1", "h7", "e1", "h6", "g1"]  # black: h8 makes two threes
    assert main(["analyze", "gomoku", "--rule", "renju", *moves, "h8"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["yipan: error: move 9 (h8): h8 is forbidden to black under renju: it makes "
                   "a double three"]
    assert main(["analyze", "gomoku", "--rule", "freestyle", *moves, "h8",
                 "--nodes", "2000"]) == 0
