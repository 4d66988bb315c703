"""The pattern board against the rules: the threats it reads from its tables (fives, fours,
open fours, open threes, renju's forbidden points) are what the rules (``Gomoku.has_five``,
``Gomoku.five_cells``, ``RenjuBoard``) say of the stones, under every rule, on random
positions and on positions built around a line."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.games.gomoku import Gomoku, Stones
from yipan.games.gomoku.board import (
    EMPTY,
    L_DOUBLE_THREE,
    L_FIVE,
    L_FORBIDDEN,
    L_FOUR,
    L_FOUR_THREE,
    L_NONE,
    L_OPEN_FOUR,
    L_THREE,
    Board,
    initialise,
    new_board,
    place,
    remove,
)
from yipan.games.gomoku.patterns import FOUR, FOUR_FOUR, OPEN_FOUR, OPEN_THREE, OVERLINE
from yipan.games.gomoku.renju import BLACK, RenjuBoard
from yipan.games.gomoku.renju import EMPTY as NO_STONE
from yipan.games.gomoku.rules import RULES

SIZE = 9
LINES = ((1, 0), (0, 1), (1, 1), (1, -1))


def random_stones(rng: random.Random, game: Gomoku, count: int, crowded: bool
                  ) -> dict[tuple[int, int], int]:
    """``count`` stones (alternately black and white) with no five on the board; ``crowded``
    keeps them in the middle five by five, else one line through the centre holds half of
    them (where fours and fives are made, also against the edge)."""
    stones: dict[tuple[int, int], int] = {}
    centre = SIZE // 2
    dx, dy = rng.choice(LINES)
    for _ in range(count * 4):
        if len(stones) >= count:
            break
        if crowded:
            x, y = rng.randint(centre - 2, centre + 2), rng.randint(centre - 2, centre + 2)
        elif len(stones) % 2 == 0:
            k = rng.randint(-centre, centre)
            x, y = centre + k * dx, centre + k * dy
        else:
            x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        if not (0 <= x < SIZE and 0 <= y < SIZE) or (x, y) in stones:
            continue
        stones[(x, y)] = len(stones) % 2
        if game.outcome(state_of(game, stones)) is not None:
            del stones[(x, y)]
    return stones


def state_of(game: Gomoku, stones: dict[tuple[int, int], int]) -> Stones:
    bits = [0, 0]
    for (x, y), colour in stones.items():
        bits[colour] |= 1 << game.bit(game.point(x, y))
    return Stones(bits[0], bits[1])


def board_of(rule: str, stones: dict[tuple[int, int], int]) -> Board:
    board = new_board(SIZE, rule)
    for (x, y), colour in stones.items():
        place(board, cell_of(board, x, y), colour)
    return board


def cell_of(board: Board, x: int, y: int) -> int:
    return int(board.points[y * SIZE + x])


def wins_with(game: Gomoku, state: Stones, colour: int, *points: int) -> bool:
    """Whether ``colour`` has a five that wins by the rule once stones are on ``points``."""
    added = sum(1 << game.bit(p) for p in points)
    mine, theirs = (state.black, state.white) if colour == 0 else (state.white, state.black)
    return game.has_five(mine | added, colour, theirs)


def five_points_after(game: Gomoku, state: Stones, colour: int, x: int, y: int,
                      empty: set[tuple[int, int]]) -> int:
    """How many empty points make a winning five for ``colour`` once it has played (x, y):
    every such five passes through (x, y) when none was there before, so the points lie on
    the four lines through it, at most four steps away."""
    count = 0
    for dx, dy in LINES:
        for k in (-4, -3, -2, -1, 1, 2, 3, 4):
            r = (x + k * dx, y + k * dy)
            if r in empty and wins_with(game, state, colour, game.point(x, y), game.point(*r)):
                count += 1
    return count


positions = st.tuples(st.sampled_from(RULES), st.integers(0, 2**32 - 1), st.integers(4, 30),
                      st.booleans())


@settings(max_examples=60, deadline=None)
@given(positions)
def test_fives_and_fours_on_the_board_are_the_rules_fives(position):
    """For each colour and empty point: the board's five is the rules' winning five there;
    and (no five point standing before) its four, four-three and open four are one, one and
    two or more points that then make a winning five by the rules (renju's black: away from
    the points it marks forbidden, which the next test checks)."""
    rule, seed, count, crowded = position
    game = Gomoku(SIZE, rule)
    stones = random_stones(random.Random(seed), game, count, crowded)
    state = state_of(game, stones)
    board = board_of(rule, stones)
    empty = {(x, y) for x in range(SIZE) for y in range(SIZE)} - set(stones)
    for colour in (0, 1):
        no_five_point = board.level_count[colour, L_FIVE] == 0
        for x, y in empty:
            level = int(board.level[colour, cell_of(board, x, y)])
            assert (level == L_FIVE) == wins_with(game, state, colour, game.point(x, y)), \
                (rule, colour, (x, y), stones)
            if not no_five_point or level in (L_FIVE, L_FORBIDDEN):
                continue
            points = five_points_after(game, state, colour, x, y, empty)
            expected = "none" if points == 0 else "one" if points == 1 else "two or more"
            found = ("one" if level in (L_FOUR, L_FOUR_THREE)
                     else "two or more" if level == L_OPEN_FOUR else "none")
            assert found == expected, (rule, colour, (x, y), level, stones)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(6, 30), st.booleans())
def test_renju_forbidden_points_on_the_board_hold_the_rules_ones(seed, count, crowded):
    """Under renju: every point the rules forbid to black is marked forbidden on the board;
    and a point marked for an overline or for two fours is forbidden by the rules (a mark
    for two open threes may be more than the rules say: the board's threes do not ask
    whether their own completing point is forbidden). White has no forbidden point."""
    game = Gomoku(SIZE, "renju")
    stones = random_stones(random.Random(seed), game, count, crowded)
    state = state_of(game, stones)
    board = board_of("renju", stones)
    referee = game.renju_board(state)
    for y in range(SIZE):
        for x in range(SIZE):
            cell = cell_of(board, x, y)
            if board.cells[cell] != EMPTY:
                continue
            assert board.level[1, cell] != L_FORBIDDEN
            forbidden = referee.forbidden(x, y) is not None
            marked = board.level[0, cell] == L_FORBIDDEN
            if forbidden:
                assert marked, ((x, y), stones)
            shapes = [int(s) for s in board.shapes[0, cell]]
            fours = sum(2 if s == FOUR_FOUR else 1 for s in shapes
                        if s in (FOUR, OPEN_FOUR, FOUR_FOUR))
            if marked and (OVERLINE in shapes or fours >= 2):
                assert forbidden, ((x, y), shapes, stones)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RULES), st.integers(0, 2**32 - 1))
def test_stones_placed_and_taken_back_in_any_order_leave_the_board_of_the_stones(rule, seed):
    """Stones placed, the last taken back (by the undo log) or any one taken back (by the
    tables), in a random mix: the board then equals the board built from scratch from the
    stones left."""
    rng = random.Random(seed)
    board = new_board(SIZE, rule)
    cells = [int(c) for c in board.points]
    on_board: list[tuple[int, int]] = []
    for _ in range(rng.randint(1, 120)):
        roll = rng.random()
        if not on_board or roll < 0.55:
            cell = rng.choice([c for c in cells if board.cells[c] == EMPTY])
            colour = rng.randrange(2)
            place(board, cell, colour)
            on_board.append((cell, colour))
        elif roll < 0.9:
            remove(board, on_board.pop()[0])
        else:
            remove(board, on_board.pop(rng.randrange(len(on_board)))[0])
    scratch = new_board(SIZE, rule)
    for cell, colour in on_board:
        scratch.cells[cell] = colour + 1
    initialise(scratch)
    for name in ("keys", "shapes", "level", "level_count", "value", "total"):
        assert np.array_equal(getattr(board, name), getattr(scratch, name)), name


def open_three_by_the_rules(game: Gomoku, stones: dict[tuple[int, int], int], colour: int,
                            x: int, y: int, dx: int, dy: int) -> bool:
    """Whether a stone of ``colour`` on the empty (x, y) makes an open three along (dx, dy),
    read from the rules' winning fives (``Gomoku.five_cells``) of the stones on that line
    alone: the stone makes no five and no four through (x, y) there, and one more stone on
    the line makes an open four through it (two or more points then complete a winning five
    through it). Renju's black is ``open_three_for_renju_black``."""
    line = [(x + k * dx, y + k * dy) for k in range(-SIZE, SIZE + 1)]
    line = [(a, b) for a, b in line if 0 <= a < SIZE and 0 <= b < SIZE]
    near = [r for r in line if max(abs(r[0] - x), abs(r[1] - y)) <= 4 and r != (x, y)]
    if sum(stones.get(r) == colour for r in near) < 2:
        return False  # a five through (x, y) needs two of its stones there already
    bit = {r: 1 << game.bit(game.point(*r)) for r in line}
    mine = sum(bit[r] for r in line if stones.get(r) == colour) | bit[(x, y)]
    theirs = sum(bit[r] for r in line if stones.get(r) == 1 - colour)
    empty = [r for r in near if r not in stones]

    def five_through(own: int) -> bool:
        state = Stones(own, theirs) if colour == 0 else Stones(theirs, own)
        return bool(game.five_cells(state, colour) & bit[(x, y)])

    if five_through(mine) or any(five_through(mine | bit[r]) for r in empty):
        return False  # a five or a four, not a three
    return any(sum(five_through(mine | bit[p] | bit[r]) for r in empty if r != p) >= 2
               for p in empty)


@settings(max_examples=80, deadline=None)
@given(positions)
def test_open_threes_on_the_board_are_the_rules_open_threes(position):
    """For each colour, empty point and line: the board's shape there is an open three
    exactly when the rules say a stone there makes one (renju's black: a three of
    ``RenjuBoard``, whose straight four may need a forbidden point, as the board's threes do:
    so the board's threes are a superset of the threes renju counts against black); and the
    cell's level counts those lines (one three, a double three, a four-three; renju's black
    on two threes: forbidden, more often than the rules, which the forbidden-point test
    bounds from the other side)."""
    rule, seed, count, crowded = position
    game = Gomoku(SIZE, rule)
    stones = random_stones(random.Random(seed), game, count, crowded)
    board = board_of(rule, stones)
    referee = game.renju_board(state_of(game, stones)) if rule == "renju" else None
    for colour in (0, 1):
        for x, y in {(x, y) for x in range(SIZE) for y in range(SIZE)} - set(stones):
            cell = cell_of(board, x, y)
            threes = 0
            for d, (dx, dy) in enumerate(LINES):
                if referee is not None and colour == 0:
                    expected = open_three_for_renju_black(referee, x, y, d)
                else:
                    expected = open_three_by_the_rules(game, stones, colour, x, y, dx, dy)
                found = board.shapes[colour, cell, d] == OPEN_THREE
                assert found == expected, (rule, colour, (x, y), (dx, dy), stones)
                threes += expected
            level = int(board.level[colour, cell])
            if level in (L_NONE, L_THREE, L_DOUBLE_THREE):
                assert level == (L_NONE, L_THREE, L_DOUBLE_THREE)[min(threes, 2)], \
                    (rule, colour, (x, y), level, threes)
            elif level in (L_FOUR, L_FOUR_THREE):
                assert (level == L_FOUR_THREE) == (threes > 0), (rule, colour, (x, y), level)
            if referee is not None and colour == 0 and threes >= 2:
                assert level in (L_FIVE, L_FORBIDDEN), ((x, y), level, stones)


def open_three_for_renju_black(referee: RenjuBoard, x: int, y: int, d: int) -> bool:
    """Renju's three for black through the empty (x, y) along the ``d``-th line: points that
    make a straight four (forbidden or not: ``RenjuBoard.three_points``)."""
    point = referee.index(x, y)
    referee.cells[point] = BLACK
    try:
        return bool(referee.three_points(point, referee.steps[d]))
    finally:
        referee.cells[point] = NO_STONE
