"""The Connect Four playout kernels on the real rules: the rules against a plain grid, the
kernel's four-in-a-row test against ``rules.has_four``, playouts replayed through
``ConnectFour`` with the same random stream, the game's declared playout in the generic MCTS,
and the UCT in numba."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import Limit
from yipan.games.connect4 import ConnectFour, Position, rules
from yipan.games.connect4.playouts import has_four, random_playout
from yipan.games.connect4.uct import mcts_connect4
from yipan.native import seed_from
from yipan.search.mcts import mcts

GAME = ConnectFour()
MASK64 = (1 << 64) - 1
SIZES = [(7, 6), (4, 4), (5, 4), (6, 7), (8, 6), (9, 5)]


def reference_draw(state: int) -> tuple[int, int]:
    """One step of ``yipan.native``'s generator in plain Python (tests/test_native.py holds
    the kernel to the same recurrence)."""
    state ^= state >> 12
    state ^= (state << 25) & MASK64
    state ^= state >> 27
    return state, ((state * 0x2545F4914F6CDD1D) & MASK64) >> 32


def replayed(game: ConnectFour, state: Position, seed: int) -> tuple[int, int]:
    """What ``random_playout`` should return, played through the rules: each move is one draw
    scaled to the playable columns in increasing order (``random_below``)."""
    mover = game.to_move(state)
    while (outcome := game.outcome(state)) is None:
        columns = sorted(game.legal_moves(state))
        seed, draw = reference_draw(seed)
        state = game.play(state, columns[(draw * len(columns)) >> 32])
    return outcome.result_for(mover), seed


def random_position(game: ConnectFour, rng: random.Random, plies: int) -> Position:
    """A position after up to ``plies`` random moves, not finished."""
    state = game.initial_state()
    for _ in range(plies):
        after = game.play(state, rng.choice(game.legal_moves(state)))
        if game.outcome(after) is not None:
            break
        state = after
    return state


def grid_winner(columns: list[int]) -> int | None:
    """The winner of a move sequence on a plain 6x7 grid, checked cell by cell."""
    grid = [[None] * 7 for _ in range(6)]
    heights = [0] * 7
    for ply, col in enumerate(columns):
        grid[heights[col]][col] = ply % 2
        heights[col] += 1
    for r in range(6):
        for c in range(7):
            player = grid[r][c]
            if player is None:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= y < 6 and 0 <= x < 7 and grid[y][x] == player for y, x in cells):
                    return player
    return None


@settings(max_examples=80, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_bitboard_rules_find_the_same_wins_as_a_grid(rng):
    state, played = GAME.initial_state(), []
    while GAME.outcome(state) is None:
        move = rng.choice(GAME.legal_moves(state))
        state = GAME.play(state, move)
        played.append(move)
        outcome = GAME.outcome(state)
        assert (outcome.winner if outcome else None) == grid_winner(played)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(SIZES), st.randoms(use_true_random=False), st.integers(0, 60))
def test_the_kernels_four_test_is_the_rules(size, rng, plies):
    """Same arguments, same meaning: on the stones of either side of random positions, and on
    random sets of cells (sentinel bits left empty, as in every real bitboard)."""
    game = ConnectFour(*size)
    state = random_position(game, rng, plies)
    dense = rng.getrandbits(64) & game.geometry.board
    sparse = dense & rng.getrandbits(64) & rng.getrandbits(64)
    for stones in (state.current, state.current ^ state.mask, dense, sparse):
        assert has_four(stones, game.height) == rules.has_four(stones, game.height)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(SIZES), st.randoms(use_true_random=False), st.integers(0, 40),
       st.integers(1, MASK64))
def test_a_playout_is_the_rules_played_with_the_same_stream(size, rng, plies, seed):
    game = ConnectFour(*size)
    state = random_position(game, rng, plies)
    result, after = random_playout(*state, game.width, game.height, np.uint64(seed))
    assert (result, int(after)) == replayed(game, state, seed)
    if seed < 2**63:  # numba reads a Python int as an int64: the same stream
        assert random_playout(*state, game.width, game.height, seed) == (result, after)


def test_the_last_move_of_a_full_board():
    last = GAME.position("121212" "343434" "565656" "717171" "232323" "454545" "67676")
    assert GAME.outcome(last) is None and len(GAME.legal_moves(last)) == 1
    final = GAME.play(last, GAME.legal_moves(last)[0])
    expected = GAME.outcome(final).result_for(GAME.to_move(last))
    assert random_playout(*last, 7, 6, np.uint64(3))[0] == expected


def test_the_games_playout_gives_player_zeros_result():
    for moves in ("", "4", "445566", "4455667"):  # either side to move; the last one is over
        state = GAME.position(moves)
        for seed in range(20):
            value = GAME.playout(state, random.Random(seed))
            if GAME.outcome(state) is not None:
                assert value == GAME.outcome(state).result_for(0)
                continue
            result, _ = replayed(GAME, state, int(seed_from(random.Random(seed))))
            assert value == (result if GAME.to_move(state) == 0 else -result)


def test_the_generic_mcts_uses_the_declared_playout(monkeypatch):
    assert GAME.info.playout
    game = ConnectFour()
    calls = []

    def counted(state, rng):
        calls.append(state)
        return ConnectFour.playout(game, state, rng)

    monkeypatch.setattr(game, "playout", counted)
    result = mcts(game, game.initial_state(), limit=Limit(nodes=50), rng=random.Random(1))
    assert result.stats.nodes == 50 and len(calls) == 50


def test_numba_uct_takes_a_win_and_blocks_one_as_the_generic_mcts_does():
    # X holds columns 1-3 of the bottom row: X to move wins at 4; O to move must block at 4
    for moves, good in (("112233", {3}), ("11223", {3})):
        state = GAME.position(moves)
        fast = mcts_connect4(*state, limit=Limit(nodes=20_000), rng=random.Random(1))
        generic = mcts(GAME, state, limit=Limit(nodes=3000), rng=random.Random(1))
        assert fast.move in good and generic.move in good


def test_numba_uct_counts_and_repeats_itself():
    first, second = (mcts_connect4(0, 0, 0, limit=Limit(nodes=5000), rng=random.Random(7))
                     for _ in range(2))
    assert first.stats.nodes == 5000 == sum(first.stats.visits.values())
    assert first.stats.visits == second.stats.visits
    assert set(first.stats.visits) == set(range(7))


def test_numba_uct_on_other_board_sizes():
    for width, height in ((4, 4), (9, 6)):
        game = ConnectFour(width, height)
        result = mcts_connect4(*game.position("1"), limit=Limit(nodes=3000),
                               rng=random.Random(5), width=width, height=height)
        assert result.move in game.legal_moves(game.position("1"))
        assert sum(result.stats.visits.values()) == 3000


def test_time_limited_tree_search_runs_many_chunks_whatever_the_seed():
    """The generator's state crosses the numba boundary between chunks of iterations; a
    state with its top bit set once overflowed on the way back in."""
    for seed in range(12):
        result = mcts_connect4(0, 1 << 21, 1, limit=Limit(time=0.02), rng=random.Random(seed))
        assert result.move in range(7)
        assert result.stats.nodes >= 1
