"""The numba board against the plain rules on random games (hypothesis), and the playouts'
and patterns' contracts."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.games import go as go_package
from yipan.games.go import board as kernel
from yipan.games.go.engine import PATTERNS
from yipan.games.go.patterns import PATTERNS as PICTURES
from yipan.games.go.patterns import code_at, orientations
from yipan.games.go.playout import heavy_playouts, light_playouts
from yipan.games.go.rules import PASS, Go

MASK = (1 << 64) - 1


def padded(game: Go, move: int) -> int:
    if move == PASS:
        return kernel.PASS
    row, col = divmod(move, game.size)
    return (row + 1) * (game.size + 2) + col + 1


def check_same(game: Go, b: np.ndarray, state) -> None:
    for point, bit in enumerate(game.bits):
        want = kernel.BLACK if state.black >> bit & 1 else \
            kernel.WHITE if state.white >> bit & 1 else kernel.EMPTY
        assert b[kernel.COLOUR, padded(game, point)] == want
    assert int(b[kernel.META, kernel.M_KEY]) & MASK == state.key
    assert b[kernel.META, kernel.M_EMPTY] == game.points - (state.black | state.white).bit_count()
    assert b[kernel.META, kernel.M_CAPTURED_BY_BLACK] == state.black_prisoners
    assert b[kernel.META, kernel.M_CAPTURED_BY_WHITE] == state.white_prisoners


@settings(max_examples=25, deadline=None)
@given(size=st.sampled_from([5, 6, 7, 9]), seed=st.integers(0, 2**32))
def test_the_kernel_board_follows_the_rules_through_random_games(size, seed):
    game = Go(size, komi=0.5)
    rng = random.Random(seed)
    b = kernel.new_board(size)
    state = game.initial_state()
    for _ in range(4 * game.points):
        if game.outcome(state) is not None:
            break
        colour = kernel.BLACK if state.to_move == 0 else kernel.WHITE
        legal = set(game.legal_moves(state))
        kernel_legal = {p for p in range(game.points)
                        if kernel.is_legal(b, padded(game, p), colour)}
        assert legal - {PASS} <= kernel_legal
        for p in kernel_legal - legal:  # the kernel knows simple ko only
            assert game._after(state, p) is not None, "the kernel allowed a suicide"
        for p in rng.sample(sorted(legal - {PASS}), min(4, len(legal) - 1)):
            after = game._after(state, p)
            libs = kernel.liberties_after(b, padded(game, p), colour, 3)
            own = after[0]
            group = game.flood(1 << game.bits[p], own)
            real = (game.dilate(group) & game.full & ~(after[0] | after[1])).bit_count()
            assert libs == (3 if after[2] else min(3, real))
        move = rng.choice(sorted(legal))
        captured = kernel.play(b, padded(game, move), colour)
        before = state
        state = game.play(state, move)
        assert captured == (before.black | before.white).bit_count() + (move != PASS) \
            - (state.black | state.white).bit_count()
        check_same(game, b, state)
    assert kernel.area_score(b, game.komi) == game.score(state)


def test_eyes_and_atari():
    game = Go(5)
    b = kernel.new_board(5)

    def at(text: str) -> int:
        return padded(game, game.parse_move(None, text))

    for text in ("A4", "B5", "D5"):
        kernel.play(b, at(text), kernel.BLACK)
    assert kernel.is_eye(b, at("A5"), kernel.BLACK)
    assert not kernel.is_eye(b, at("A5"), kernel.WHITE)
    kernel.play(b, at("C5"), kernel.WHITE)  # between B5 and D5: one liberty, C4
    head = b[kernel.HEAD, at("C5")]
    assert kernel.in_atari(b, head) and kernel.atari_point(b, head) == at("C4")
    assert kernel.liberties_after(b, at("C4"), kernel.BLACK, 2) == 2  # captures
    kernel.play(b, at("C3"), kernel.BLACK)
    kernel.play(b, at("B3"), kernel.WHITE)
    assert kernel.liberties_after(b, at("C4"), kernel.WHITE, 3) == 2  # C5-C4: B4 and D4
    assert not kernel.is_legal(b, at("C5"), kernel.BLACK)  # taken


def test_playouts_end_and_count_their_moves():
    board = kernel.new_board(9)
    wins, moves, _ = light_playouts(board, 7.5, 50, 400, np.uint64(7))
    assert 0 <= wins <= 50 and 50 * 40 < moves <= 50 * 400
    wins, moves, _ = heavy_playouts(board, 7.5, PATTERNS, 50, 400, np.uint64(7))
    assert 0 <= wins <= 50 and 50 * 40 < moves <= 50 * 400


def test_pattern_table_is_closed_under_symmetry_and_colour():
    assert PATTERNS.sum() > 0 and not PATTERNS.flags.writeable
    hane = orientations(PICTURES[0])
    assert len(hane) == 8  # enclosing hane: symmetric under one mirror, so 4 x 2 colours
    game = Go(5)
    b = kernel.new_board(5)
    # the enclosing hane: X O X on the row above the move, from both colours' sides
    for text, colour in (("B4", kernel.BLACK), ("C4", kernel.WHITE), ("D4", kernel.BLACK)):
        kernel.play(b, padded(game, game.parse_move(None, text)), colour)
    assert PATTERNS[code_at(b, padded(game, game.parse_move(None, "C3")))]
    assert not PATTERNS[code_at(b, padded(game, game.parse_move(None, "A1")))]


def test_the_package_lists_every_file_with_a_kernel():
    package = Path(go_package.__file__).parent
    with_kernels = {path.name for path in package.glob("*.py") if "@njit" in path.read_text()}
    assert set(go_package.KERNEL_MODULES) == with_kernels
