"""Gomoku for networks: its planes, and positions labelled by the engine."""

from __future__ import annotations

import random

import numpy as np

from yipan.core import replay
from yipan.games.gomoku.labels import engine_dataset, symmetries
from yipan.games.gomoku.rules import Gomoku
from yipan.learning.data import example


def test_the_planes_are_the_side_to_moves_stones_then_the_opponents():
    game = Gomoku(15)
    state = replay(game, ["h8", "a1", "o15"])[-1]  # white to move
    planes = game.encode(state)
    assert planes.shape == (2, 15, 15)
    # planes are (row from the top, column): a1 is the bottom-left corner, o15 the top-right
    assert [tuple(map(int, xy)) for xy in np.argwhere(planes[0])] == [(14, 0)]  # a1: white
    assert [tuple(map(int, xy)) for xy in np.argwhere(planes[1])] == [(0, 14), (7, 7)]


def test_eight_symmetries_move_the_stones_and_the_move_together():
    game = Gomoku(9)
    state = replay(game, ["b1", "e5", "c1"])[-1]
    move = game.parse_move(state, "d2")
    rows = symmetries(game, example(game, state, {move: 1.0}, 0.5))
    assert len(rows) == 8
    images = {row[0].tobytes() for row in rows}
    assert len(images) == 8  # no two the same: the position has no symmetry of its own
    for planes, policy, legal, value in rows:
        y, x = divmod(int(policy.argmax()), 9)
        assert value == 0.5 and legal[policy.argmax()]
        assert planes[:, y, x].sum() == 0  # the move's point is empty in every image
        assert planes[0].sum() == 1 and planes[1].sum() == 2  # (white to move: one stone)
        # the move stands to the lone white stone (e5; d2: three rows, one column) as before
        wy, wx = np.argwhere(planes[0])[0]
        assert sorted((abs(int(wy) - y), abs(int(wx) - x))) == [1, 3]


def test_engine_labels_are_its_moves_and_the_games_results():
    game = Gomoku(15)
    data = engine_dataset(game, 6, random.Random(5))
    assert len(data) == 6 * 8
    assert set(np.unique(data.value)) <= {-1.0, 0.0, 1.0}
    for planes, policy, legal in zip(data.planes, data.policy, data.legal, strict=True):
        move = int(policy.argmax())
        assert policy[move] == 1.0 and policy.sum() == 1.0
        assert legal[move] and planes[:, move // 15, move % 15].sum() == 0
    # positions of one game, one after another: the side to move alternates, so the
    # result for the side to move changes sign (a decided game)
    firsts = data.value[::8]
    if firsts[0] != 0:
        assert all(firsts[i] == -firsts[i + 1] for i in range(len(firsts) - 1))
