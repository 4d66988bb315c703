"""Renju and caro in the Game: black's forbidden moves on constructed positions, caro's
blocked fives, and a property against a plain referee written from the definitions.

Positions are drawn as rows of text (``x`` black, ``o`` white, ``.`` empty, ``*`` the point
asked about, which is empty), placed with their top-left corner at (3, 3) of a 15x15 board;
white's spare stones (to keep the counts alternating) go along the bottom edge, far away.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import IllegalMoveError
from yipan.games.gomoku import Gomoku, Stones
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
    # spare stones, every other point of the bottom rows (white) or the top row (black)
    white_spares = iter((x, SIZE - 1 - 2 * k) for k in range(3) for x in range(0, SIZE, 2))
    black_spares = iter((x, 0) for x in range(0, SIZE, 2))
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
        """``.xxxx.`` through p with ``also`` added, both ends making exactly five."""
        for start in range(-3, 1):
            four = [along(d, start + i) for i in range(4)]
            ends = [along(d, start - 1), along(d, start + 4)]
            if all(q in black or q == also for q in four) and \
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


@settings(max_examples=60, deadline=None)
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
