"""Perft: leaf counts checked against brute-force enumerations written here from the rules
(not against the games' own code), and the counting identities over every registered game."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import yipan
from yipan.core import CHANCE, game_spec, get_game, replay
from yipan.search.perft import branches, divide, perft


# -- a second way to count: breadth first over distinct positions ---------------------------------
def leaf_counts(start: Hashable, children: Callable[[Hashable], Iterable[Hashable]],
                depth: int) -> list[int]:
    """The number of move sequences of each length 0..depth from ``start``.

    Breadth first over *distinct* positions, each with the number of sequences that reach it
    (transpositions merged), so it shares neither its order nor its recursion with perft.
    """
    layer = Counter({start: 1})
    counts = [1]
    for _ in range(depth):
        following: Counter = Counter()
        for position, paths in layer.items():
            for child in children(position):
                following[child] += paths
        layer = following
        counts.append(sum(layer.values()))
    return counts


# tic-tac-toe on 3x3 from its rules: 9 cells, 8 lines, X first; a line of three ends the game
LINES_3X3 = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
             (2, 4, 6)]


def tictactoe_children(position: tuple[str, ...]) -> list[tuple[str, ...]]:
    board = position
    if any(board[a] != "." and board[a] == board[b] == board[c] for a, b, c in LINES_3X3):
        return []
    mark = "X" if board.count("X") == board.count("O") else "O"
    return [board[:i] + (mark,) + board[i + 1:] for i in range(9) if board[i] == "."]


def test_tictactoe_3x3_against_brute_force():
    game = get_game("tictactoe")
    expected = leaf_counts(tuple("." * 9), tictactoe_children, 10)
    # what the brute force must show on its own: no game ends before X's third mark (ply 5),
    # so depths 1..5 are 9, 9*8, ..., 9*8*7*6*5; nothing is left to play at ply 10
    assert expected[1:6] == [9, 72, 504, 3024, 15120]
    assert expected[10] == 0
    for depth, leaves in enumerate(expected):
        assert perft(game, game.initial_state(), depth) == leaves, depth


def test_tictactoe_finished_games_stop_the_count():
    # the brute force also yields the number of complete games, 255,168 (Schaefer's count):
    # each game ends at one ply p and is counted once, at depth p, as a leaf with no children
    finished = 0
    layer = Counter({tuple("." * 9): 1})
    for _ in range(9):
        following: Counter = Counter()
        for board, paths in layer.items():
            for child in tictactoe_children(board):
                following[child] += paths
                if not tictactoe_children(child):
                    finished += paths
        layer = following
    assert finished == 255_168
    game = get_game("tictactoe")
    won = replay(game, ["a1", "a2", "b1", "b2", "c1"])[-1]  # X's row on ply 5
    assert game.outcome(won) is not None
    assert perft(game, won, 0) == 1
    assert [perft(game, won, depth) for depth in (1, 2, 5)] == [0, 0, 0]
    assert divide(game, won, 3) == {}


# Connect Four from its rules: columns filled from the bottom, four in a row in any direction
def connect4_children(width: int, height: int):
    directions = ((1, 0), (0, 1), (1, 1), (1, -1))

    def four(columns: tuple[str, ...], col: int) -> bool:
        row = len(columns[col]) - 1
        mark = columns[col][row]

        def at(c: int, r: int) -> str | None:
            return columns[c][r] if 0 <= c < width and 0 <= r < len(columns[c]) else None

        for dc, dr in directions:
            run = 1
            for sign in (1, -1):
                step = 1
                while at(col + sign * step * dc, row + sign * step * dr) == mark:
                    run += 1
                    step += 1
            if run >= 4:
                return True
        return False

    def children(position: tuple) -> list[tuple]:
        columns, last = position  # last: the column just played (None at the start)
        if last is not None and four(columns, last):
            return []
        mark = "X" if sum(map(len, columns)) % 2 == 0 else "O"
        return [(columns[:c] + (columns[c] + mark,) + columns[c + 1:], c)
                for c in range(width) if len(columns[c]) < height]

    return children


def test_connect4_7x6_against_brute_force():
    game = get_game("connect4")
    children = connect4_children(7, 6)
    expected = leaf_counts(((("",) * 7), None), children, 7)
    # X's fourth stone is ply 7: no game ends sooner, so up to depth 7 only full columns cut
    # the tree (7**d until a column could take a 7th stone: the 7 sequences of one column)
    assert expected[1:7] == [7 ** d for d in range(1, 7)]
    assert expected[7] == 7 ** 7 - 7
    for depth, leaves in enumerate(expected):
        assert perft(game, game.initial_state(), depth) == leaves, depth


def test_connect4_games_won_on_ply_7_add_nothing_at_depth_8():
    # depth 8 is the first where a finished game drops out; counted below the first move d1
    # (one seventh of the tree) to keep the test quick
    game = get_game("connect4")
    children = connect4_children(7, 6)
    start = (("",) * 7, None)
    after_d = children(start)[3]
    expected = leaf_counts(after_d, children, 7)
    state = replay(game, ["4"])[-1]
    assert perft(game, state, 7) == expected[7]
    # ... and wins did end lines early: fewer leaves than if every position went on
    unstopped = leaf_counts(after_d, lambda p: children((p[0], None)), 7)
    assert expected[7] < unstopped[7]


@pytest.mark.parametrize("size", ["5x4", "4x4"])
def test_small_connect4_boards_against_brute_force(size):
    width, height = map(int, size.split("x"))
    game = get_game("connect4", size=size)
    expected = leaf_counts((("",) * width, None), connect4_children(width, height), 8)
    for depth, leaves in enumerate(expected):
        assert perft(game, game.initial_state(), depth) == leaves, depth


# Nim: take one or more tokens from one heap; over when every heap is empty
def nim_count(heaps: tuple[int, ...], depth: int, memo: dict | None = None) -> int:
    """Move sequences of exactly ``depth`` plies, counted directly (memoised on the heaps)."""
    memo = {} if memo is None else memo
    if depth == 0:
        return 1
    key = (heaps, depth)
    if key not in memo:
        memo[key] = sum(nim_count(heaps[:i] + (heaps[i] - take,) + heaps[i + 1:], depth - 1, memo)
                        for i in range(len(heaps)) for take in range(1, heaps[i] + 1))
    return memo[key]


@pytest.mark.parametrize("rule", ["normal", "misere"])
def test_nim_3_4_5_against_a_direct_count(rule):
    game = get_game("nim", heaps="3,4,5", rule=rule)
    assert nim_count((3, 4, 5), 1) == 12  # 3 + 4 + 5 ways to take
    for depth in range(0, 7):
        assert perft(game, game.initial_state(), depth) == nim_count((3, 4, 5), depth), depth
    # the longest game takes one token a ply: 12 plies, none has 13
    assert nim_count((3, 4, 5), 13) == 0
    assert perft(game, replay(game, ["1:2", "2:3", "3:4"])[-1], 4) == nim_count((1, 1, 1), 4) \
        == 0
    assert perft(game, replay(game, ["1:2", "2:3", "3:4"])[-1], 3) == 6  # 3! orders


def test_2048_counts_every_chance_outcome_as_a_branch():
    game = get_game("2048")
    start = game.initial_state()
    assert game.to_move(start) == CHANCE
    # a 2 or a 4 on each of 16 empty cells, then on each of the 15 left
    assert perft(game, start, 1) == 16 * 2
    assert perft(game, start, 2) == 32 * 30
    by_tile = divide(game, start, 2)
    assert len(by_tile) == 32 and set(by_tile.values()) == {30}
    # two tiles in a1 and b1 (a row's left end): up and left change nothing, so 2 moves;
    # after each, a tile on one of the 14 empty cells, 2 or 4
    state = replay(game, ["2@a1", "4@b1"])[-1]
    assert perft(game, state, 1) == 2
    assert perft(game, state, 2) == 2 * 14 * 2


def test_depth_is_checked():
    game = get_game("tictactoe")
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError):
            perft(game, game.initial_state(), bad)
        with pytest.raises(ValueError):
            divide(game, game.initial_state(), bad)


# -- the identities, over every registered game and its example options ----------------------
CONFIGS = [(name, options) for name in yipan.list_games()
           for options in ({}, *game_spec(name).examples)]


@st.composite
def positions(draw):
    """A registered game and a position reached by random moves and chance draws."""
    name, options = draw(st.sampled_from(CONFIGS))
    game = get_game(name, **options)
    rng = draw(st.randoms(use_true_random=False))
    state = game.initial_state()
    for _ in range(draw(st.integers(0, 12))):
        edges = branches(game, state)
        if not edges:
            break
        state = game.play(state, rng.choice(edges))
    return game, state


@settings(max_examples=80, deadline=None)
@given(positions(), st.integers(0, 2))
def test_perft_is_the_sum_of_divide_and_of_the_children(position, depth):
    game, state = position
    total = perft(game, state, depth)
    split = divide(game, state, depth)
    if depth == 0:
        assert total == 1 and split == {}
        return
    assert total == sum(split.values())
    assert list(split) == branches(game, state)
    assert total == sum(perft(game, game.play(state, edge), depth - 1)
                        for edge in branches(game, state))
    if game.outcome(state) is not None:
        assert total == 0 and split == {}


@pytest.mark.parametrize("name, options", CONFIGS)
def test_every_game_counts_its_first_ply(name, options):
    game = get_game(name, **options)
    rng = random.Random(11)
    state = game.initial_state()
    while game.to_move(state) == CHANCE:
        state = game.play(state, rng.choice(branches(game, state)))
    assert perft(game, state, 1) == len(game.legal_moves(state)) > 0
