"""Xiangqi's rules: perft against the published counts and against a plain generator written
from the rules (``reference.py``) on random positions, the notations, and the repetition
rule on constructed perpetual checks."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import DRAW, IllegalMoveError, InvalidMoveError, Outcome
from yipan.games.xiangqi import Xiangqi
from yipan.games.xiangqi.hooks import perft
from yipan.games.xiangqi.notation import START_FEN

_spec = importlib.util.spec_from_file_location("xiangqi_reference",
                                               Path(__file__).with_name("reference.py"))
assert _spec is not None and _spec.loader is not None
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)

PUBLISHED = {1: 44, 2: 1_920, 3: 79_666, 4: 3_290_240}


@pytest.mark.parametrize("depth", sorted(PUBLISHED))
def test_perft_from_the_start_matches_the_published_counts(depth):
    game = Xiangqi()
    assert sum(perft(game, game.initial_state(), depth).values()) == PUBLISHED[depth]


def test_reference_generator_agrees_with_the_published_counts():
    board, side = reference.parse(START_FEN)
    assert reference.perft(board, side, 2) == PUBLISHED[2]


def random_position(game: Xiangqi, seed: int, plies: int):
    """A position some random plies from the start, captures preferred (to reach open
    boards, crossed soldiers and lone generals), or None when the game ended first."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        moves = game.legal_moves(state)
        if not moves:
            return None
        captures = [m for m in moves if state.squares[(m >> 7) & 127]]
        pool = captures if captures and rng.random() < 0.6 else moves
        state = game.play(state, rng.choice(pool))
    return state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_perft_matches_the_plain_generator_on_random_positions(seed, plies):
    game = Xiangqi()
    state = random_position(game, seed, plies)
    if state is None:
        return
    board, side = reference.parse(game.fen(state))
    expected = sorted(reference.iccs(m) for m in reference.legal(board, side))
    assert sorted(game.format_move(m) for m in game.legal_moves(state)
                  ) == expected or game.outcome(state) is not None
    counts = perft(game, state, 2)
    assert sorted(game.format_move(m) for m in counts) == expected
    assert sum(counts.values()) == reference.perft(board, side, 2)


def test_fen_round_trip_and_bad_fens():
    game = Xiangqi()
    assert game.fen(game.initial_state()).split()[:2] == START_FEN.split()
    with pytest.raises(Exception, match="10 ranks"):
        Xiangqi("rnbakabnr/9 w")
    with pytest.raises(Exception, match="general"):
        Xiangqi("9/9/9/9/9/9/9/9/9/4K4 w")


def test_traditional_and_iccs_notations_name_the_same_moves():
    game = Xiangqi()
    state = game.initial_state()
    cannon = game.parse_move(state, "h2e2")
    assert game.parse_move(state, "炮二平五") == cannon
    assert game.parse_move(state, "C2=5") == cannon
    assert game.parse_move(state, "C2.5") == cannon
    assert game.describe_move(state, cannon) == "炮二平五"
    assert game.wxf_move(state, cannon) == "C2=5"
    state = game.play(state, cannon)
    horse = game.parse_move(state, "马8进7")
    assert game.format_move(horse) == "h9g7"
    assert game.parse_move(state, "H8+7") == horse
    assert game.describe_move(state, horse) == "马8进7"
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "车1进5")  # black's a9 chariot: its own soldier on a6
    with pytest.raises(InvalidMoveError):
        game.parse_move(state, "hello")


def test_tandem_pieces_are_front_and_rear():
    game = Xiangqi("4k4/9/9/9/9/9/R8/9/R8/3K5 w")  # red chariots on a3 and a1
    state = game.initial_state()
    front = game.parse_move(state, "a3a4")
    assert game.describe_move(state, front) == "前车进一"
    assert game.wxf_move(state, front) == "R++1"
    assert game.parse_move(state, "前车进一") == front
    assert game.parse_move(state, "R++1") == front
    rear = game.parse_move(state, "后车平五")
    assert game.format_move(rear) == "a1e1"
    assert game.wxf_move(state, rear) == "R-=5"


def test_a_side_without_a_legal_move_loses_even_when_not_in_check():
    game = Xiangqi("3k5/2P1P4/9/9/9/9/9/9/9/5K3 b")
    state = game.initial_state()
    assert game.legal_moves(state) == []
    assert game.outcome(state) == Outcome(0)
    assert game.termination(state) == "no legal move (stalemate loses)"


def test_flying_general_moves_are_illegal():
    game = Xiangqi("4k4/9/9/9/9/9/9/9/R8/3K5 w")
    state = game.initial_state()
    # the king may not step onto the open e-file facing the other general
    assert game.parse_move(state, "d0e0") not in game.legal_moves(state)
    assert game.parse_move(state, "d0d1") in game.legal_moves(state)


# red checks on every move, black steps aside: the position after a0a9 (and a8a9) comes back
CHECKS = ["a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9"]


def play(game: Xiangqi, moves: list[str]):
    state = game.initial_state()
    for text in moves:
        assert game.outcome(state) is None
        state = game.play_checked(state, game.parse_move(state, text))
    return state


def test_perpetual_check_loses_on_the_third_occurrence():
    game = Xiangqi("4k4/9/9/9/9/9/9/9/9/R2K5 w")
    before = play(game, CHECKS[:8])
    assert game.outcome(before) is None
    after = play(game, CHECKS)  # the third occurrence
    assert game.outcome(after) == Outcome(1)  # red checked every move: black wins
    assert game.termination(after) == "perpetual check"


def test_repetition_without_perpetual_check_is_a_draw():
    game = Xiangqi("4k4/9/9/9/9/9/9/9/9/R2K5 w")
    shuffle = ["a0a1", "e9e8", "a1a0", "e8e9"]
    state = play(game, shuffle * 2)
    assert game.outcome(state) == DRAW
    assert game.termination(state) == "repetition"


def test_a_capture_clears_the_repetition_history():
    game = Xiangqi("4k4/9/9/9/9/9/9/9/p8/R2K5 w")
    state = play(game, ["a0a1"])
    assert state.history == () and state.quiet == 0


def test_perpetual_chase_of_an_unprotected_piece_loses():
    game = Xiangqi("3k5/9/8R/2n6/9/9/9/9/9/5K3 w")  # the chariot hunts the lone horse
    chase = ["i7i6", "c6e7", "i6i7", "e7c6"] * 2
    state = play(game, chase[:6])
    assert game.outcome(state) is None and state.chased is False  # the horse only flees
    assert game.play(state, game.parse_move(state, chase[6])).chased
    state = play(game, chase)
    assert game.outcome(state) == Outcome(1)
    assert game.termination(state) == "perpetual chase"


def test_attacking_a_protected_piece_again_and_again_is_no_chase():
    # the same dance, but a black chariot on c9 guards c6: only the threats to e7 chase, so
    # not every red move is a chase, and the repetition is a draw
    game = Xiangqi("2rk5/9/8R/2n6/9/9/9/9/9/5K3 w")
    state = play(game, ["i7i6", "c6e7", "i6i7", "e7c6"] * 2)
    assert game.outcome(state) == DRAW
