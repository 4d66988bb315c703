"""2048: merge and spawn rules, the integer board against a plain grid, the kernels, the CLI."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.cli.main import main
from yipan.core import CHANCE, IllegalMoveError, get_game
from yipan.games.g2048 import kernel
from yipan.games.g2048.rules import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    State2048,
    board_from_rows,
    board_rows,
    row_tables,
    slide,
    slide_row_left,
)
from yipan.search.expectimax import expectimax

GAME = get_game("2048")


@pytest.mark.parametrize(("row", "after", "score"), [
    ([2, 2, 2, 2], [4, 4, 0, 0], 8),
    ([4, 2, 2, 0], [4, 4, 0, 0], 4),  # the new 4 does not merge again in the same move
    ([2, 2, 4, 0], [4, 4, 0, 0], 4),
    ([2, 0, 0, 2], [4, 0, 0, 0], 4),
    ([2, 4, 2, 4], [2, 4, 2, 4], 0),
    ([0, 0, 0, 8], [8, 0, 0, 0], 0),
    ([8, 8, 8, 0], [16, 8, 0, 0], 16),
])
def test_a_row_slides_and_merges_once(row, after, score):
    exponents = [v.bit_length() - 1 if v else 0 for v in row]
    slid, gained = slide_row_left(exponents)
    assert [1 << e if e else 0 for e in slid] == after
    assert gained == score


def grid_slide(rows: list[list[int]], move: int) -> tuple[list[list[int]], int]:
    """The rules on a plain grid of values: rotate the lines towards index 0, slide, rotate back."""
    lines = ([list(r) for r in rows] if move in (LEFT, RIGHT)
             else [[rows[r][c] for r in range(4)] for c in range(4)])
    towards_end = move in (RIGHT, DOWN)
    out, score = [], 0
    for line in lines:
        exps = [v.bit_length() - 1 if v else 0 for v in (line[::-1] if towards_end else line)]
        slid, gained = slide_row_left(exps)
        values = [1 << e if e else 0 for e in slid]
        out.append(values[::-1] if towards_end else values)
        score += gained
    if move in (UP, DOWN):
        out = [[out[c][r] for c in range(4)] for r in range(4)]
    return out, score


tiles = st.lists(st.sampled_from([0, 0, 0, 2, 4, 8, 16, 1024]), min_size=16, max_size=16)


@settings(max_examples=60, deadline=None)
@given(tiles, st.sampled_from([UP, DOWN, LEFT, RIGHT]))
def test_the_integer_board_moves_as_the_grid_does(cells, move):
    rows = [cells[4 * r: 4 * r + 4] for r in range(4)]
    board = board_from_rows(rows)
    assert board_rows(board) == rows
    after, score = slide(board, move)
    assert (board_rows(after), score) == grid_slide(rows, move)
    t = row_tables()
    assert kernel.slide(np.uint64(board), move, t.left, t.right, t.score_left,
                        t.score_right) == (after, score)


def test_moves_score_and_a_move_that_changes_nothing_is_illegal():
    board = board_from_rows([[2, 2, 4, 4], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    state = State2048(board, 10, 0)
    assert set(GAME.legal_moves(state)) == {DOWN, LEFT, RIGHT}
    with pytest.raises(IllegalMoveError):
        GAME.play_checked(state, UP)
    after = GAME.play(state, LEFT)
    assert board_rows(after.board)[0] == [4, 8, 0, 0]
    assert after.score == 10 + 4 + 8
    assert GAME.to_move(after) == CHANCE


def test_the_game_ends_when_no_move_changes_the_board():
    full = board_from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]])
    state = State2048(full, 0, 0)
    assert GAME.legal_moves(state) == []
    assert GAME.outcome(state) is not None
    assert GAME.evaluate(state) == 0


def test_a_game_starts_with_two_tiles_drawn_by_chance():
    state = GAME.initial_state()
    assert GAME.to_move(state) == CHANCE
    started = GAME.start(random.Random(1))
    assert sum(v > 0 for row in board_rows(started.board) for v in row) == 2
    assert GAME.to_move(started) == 0


def test_chance_outcomes_are_uniform_over_empty_cells_with_nine_twos_in_ten():
    board = board_from_rows([[2, 2, 2, 2], [2, 2, 0, 2], [2, 2, 2, 2], [0, 2, 0, 0]])
    outcomes = GAME.chance_outcomes(State2048(board, 0, 1))
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    assert len(outcomes) == 2 * 4
    assert all(p == pytest.approx(0.9 / 4 if o.exponent == 1 else 0.1 / 4) for o, p in outcomes)


@pytest.mark.parametrize("sampler", ["rules", "kernel"])
def test_spawns_follow_the_distribution(sampler):
    """20000 seeded draws on a board with 4 empty cells: every share within 4 standard errors."""
    board = board_from_rows([[2, 2, 2, 2], [2, 2, 0, 2], [2, 2, 2, 2], [0, 2, 0, 0]])
    rng = random.Random(12)
    draws = 20_000
    cells: dict[int, int] = {}
    fours = 0
    seed = np.uint64(rng.getrandbits(64) | 1)
    for _ in range(draws):
        if sampler == "rules":
            spawn = GAME.sample_spawn(State2048(board, 0, 1), rng)
            cell, exponent = spawn.cell, spawn.exponent
        else:
            # numba hands the uint64 state back as a Python int: pass it on as a uint64
            after, seed = kernel.spawn(np.uint64(board), np.uint64(seed))
            diff = int(after) ^ board
            cell = (diff.bit_length() - 1) // 4
            exponent = diff >> (4 * cell)
        cells[cell] = cells.get(cell, 0) + 1
        fours += exponent == 2
    assert set(cells) == {6, 12, 14, 15}
    for count in cells.values():
        assert abs(count / draws - 0.25) < 4 * (0.25 * 0.75 / draws) ** 0.5
    assert abs(fours / draws - 0.1) < 4 * (0.1 * 0.9 / draws) ** 0.5


def test_the_numba_expectimax_equals_the_generic_one():
    from yipan.games.g2048.player import Expectimax2048

    board = board_from_rows([[2, 4, 8, 16], [4, 8, 16, 2], [0, 2, 4, 0], [2, 0, 0, 4]])
    state = State2048(board, 0, 0)
    generic = expectimax(GAME, state, depth=2)
    values, depth, _, _ = Expectimax2048(depth=2, cutoff=0.0).move_values(board)
    assert depth == 2
    for move in range(4):
        if move in generic.move_values:
            assert values[move] / 10 == pytest.approx(generic.move_values[move])
        else:
            assert values[move] == -1


def test_the_view_is_tiles():
    state = State2048(board_from_rows([[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]]), 12, 0)
    assert GAME.view(state) == {"kind": "tiles", "rows": 4, "cols": 4, "score": 12,
                                "cells": [[2, 0, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 4]],
                                "col_labels": ["a", "b", "c", "d"],
                                "row_labels": ["1", "2", "3", "4"]}
    for move in GAME.legal_moves(state):
        assert GAME.parse_move(state, GAME.format_move(move)) == move
    assert GAME.parse_move(state, "d") == RIGHT


def test_watch_prints_one_json_object(capsys):
    assert main(["watch", "2048", "--seed", "5", "--json", "--max-moves", "30"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["moves"] == 30 and summary["result"] == "stopped"
    assert summary["score"] >= 0 and summary["max_tile"] >= 4
    assert summary["figures"] == {"score": summary["score"], "max_tile": summary["max_tile"]}


def test_watch_a_two_player_game_plays_both_sides(capsys):
    assert main(["watch", "tictactoe", "--seed", "2", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    # the perfect player on both sides: tic-tac-toe is a draw
    assert summary["result"] == "a draw" and summary["winner"] is None
    assert summary["moves"] == 9
