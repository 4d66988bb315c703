"""The network's input planes for Connect Four, against a plain reading of the board.

The planes are computed with line counts and matrix products for a batch at once; here each
one is computed again cell by cell with loops, the way a person would check a diagram."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.games.connect4 import features
from yipan.games.connect4.rules import ConnectFour

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def random_position(game: ConnectFour, rng: random.Random, plies: int):
    state = game.initial_state()
    for _ in range(plies):
        if game.outcome(state) is not None:
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


def grid(game: ConnectFour, state) -> list[list[int]]:
    """0 empty, 1 the side to move's stone, 2 the opponent's; row 0 at the top."""
    me = game.to_move(state)
    rows = []
    for row in range(game.height):
        line = []
        for col in range(game.width):
            owner = game.cell(state, row, col)
            line.append(0 if owner is None else 1 if owner == me else 2)
        rows.append(line)
    return rows


def lines_through(game: ConnectFour, row: int, col: int):
    """Every line of four through (row, col), as lists of cells."""
    for d_row, d_col in DIRECTIONS:
        for back in range(4):
            start = (row - back * d_row, col - back * d_col)
            cells = [(start[0] + k * d_row, start[1] + k * d_col) for k in range(4)]
            if all(0 <= r < game.height and 0 <= c < game.width for r, c in cells):
                yield cells


def expected_planes(game: ConnectFour, state) -> np.ndarray:
    g = grid(game, state)
    h, w = game.height, game.width
    out = np.zeros((features.PLANES, h, w), np.float32)

    def threat(side: int, r: int, c: int) -> bool:
        return g[r][c] == 0 and any(
            sum(g[a][b] == side for a, b in cells) == 3 for cells in lines_through(game, r, c))

    def playable(r: int, c: int) -> bool:
        return g[r][c] == 0 and (r == h - 1 or g[r + 1][c] != 0)

    for r in range(h):
        for c in range(w):
            out[0, r, c] = g[r][c] == 1
            out[1, r, c] = g[r][c] == 2
            out[2, r, c] = threat(1, r, c)
            out[3, r, c] = threat(2, r, c)
            out[4, r, c] = playable(r, c)
            out[5, r, c] = state.moves % 2 == 0
            out[6, r, c] = playable(r, c) and r > 0 and threat(2, r - 1, c)
            out[7, r, c] = playable(r, c) and r > 0 and threat(1, r - 1, c)
            lowest = not any(threat(1, below, c) or threat(2, below, c)
                             for below in range(r + 1, h))
            out[8, r, c] = threat(1, r, c) and lowest
            out[9, r, c] = threat(2, r, c) and lowest
            if g[r][c] == 0:
                for side, plane in ((1, 10), (2, 11)):
                    out[plane, r, c] = sum(
                        1 for cells in lines_through(game, r, c)
                        if sum(g[a][b] == side for a, b in cells) == 2
                        and sum(g[a][b] == 3 - side for a, b in cells) == 0) / 4
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 42),
       size=st.sampled_from([(7, 6), (5, 4), (6, 8)]))
def test_every_plane_matches_a_cell_by_cell_reading(seed: int, plies: int,
                                                     size: tuple[int, int]) -> None:
    game = ConnectFour(*size)
    state = random_position(game, random.Random(seed), plies)
    np.testing.assert_array_equal(game.encode(state), expected_planes(game, state))


def test_a_batch_encodes_as_its_positions_one_by_one() -> None:
    game = ConnectFour()
    rng = random.Random(7)
    states = [random_position(game, rng, rng.randint(0, 30)) for _ in range(20)]
    batch = game.encode_many(states)
    assert batch.shape == (20, *game.info.encoding)
    for state, planes in zip(states, batch, strict=True):
        np.testing.assert_array_equal(planes, game.encode(state))


def test_a_threat_is_a_winning_move_where_it_is_playable() -> None:
    """Plane 2 on a playable cell means playing that column wins; plane 6 on a playable cell
    means the opponent wins by answering in the same column."""
    game = ConnectFour()
    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        state = random_position(game, rng, rng.randint(6, 30))
        if game.outcome(state) is not None:
            continue
        planes = game.encode(state)
        for col in game.legal_moves(state):
            row = int(np.flatnonzero(planes[4, :, col])[0])
            assert bool(planes[2, row, col]) == game.is_winning_move(state, col)
            after = game.play(state, col)
            gives = game.outcome(after) is None and game.can_play(after, col) \
                and game.is_winning_move(after, col)
            if not game.is_winning_move(state, col):
                assert bool(planes[6, row, col]) == gives
            checked += 1
    assert checked > 500
