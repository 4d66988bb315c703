"""The Connect Four kernels: the bitboard rules against a plain grid, playouts, numba UCT."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import Limit
from yipan.games.connect4.playouts import ConnectFourRules, random_playout
from yipan.games.connect4.uct import mcts_connect4
from yipan.search.mcts import mcts

RULES = ConnectFourRules()


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
    state, played = RULES.initial_state(), []
    while RULES.outcome(state) is None:
        move = rng.choice(RULES.legal_moves(state))
        state = RULES.play(state, move)
        played.append(move)
        outcome = RULES.outcome(state)
        assert (outcome.winner if outcome else None) == grid_winner(played)


def test_a_playout_ends_with_a_result_the_position_allows():
    won = RULES.from_moves("445566")
    results = {random_playout(*won, 7, 6, np.uint64(seed))[0] for seed in range(1, 200)}
    assert results <= {-1, 0, 1} and len(results) > 1
    last = RULES.from_moves("121212" "343434" "565656" "717171" "232323" "454545" "67676")
    assert RULES.outcome(last) is None and len(RULES.legal_moves(last)) == 1
    final = RULES.play(last, RULES.legal_moves(last)[0])
    expected = RULES.outcome(final).result_for(RULES.to_move(last))
    assert random_playout(*last, 7, 6, np.uint64(3))[0] == expected


def test_numba_uct_takes_a_win_and_blocks_one_as_the_generic_mcts_does():
    # X holds columns 1-3 of the bottom row: X to move wins at 4; O to move must block at 4
    for moves, good in (("112233", {3}), ("11223", {3})):
        state = RULES.from_moves(moves)
        fast = mcts_connect4(*state, limit=Limit(nodes=20_000), rng=random.Random(1))
        generic = mcts(RULES, state, limit=Limit(nodes=3000), rng=random.Random(1))
        assert fast.move in good and generic.move in good


def test_numba_uct_counts_and_repeats_itself():
    first, second = (mcts_connect4(0, 0, 0, limit=Limit(nodes=5000), rng=random.Random(7))
                     for _ in range(2))
    assert first.stats.nodes == 5000 == sum(first.stats.visits.values())
    assert first.stats.visits == second.stats.visits
    assert set(first.stats.visits) == set(range(7))


def test_the_kernels_read_the_connect_four_game_of_the_registry():
    """Once ``yipan.games.connect4`` is registered: the same states, outcomes and moves."""
    import pytest

    from yipan.core import UnknownGameError, get_game

    try:
        game = get_game("connect4")
    except UnknownGameError:
        pytest.skip("the connect4 game is not registered in this build")
    rng = random.Random(11)
    for _ in range(20):
        state, mine = game.initial_state(), RULES.initial_state()
        while game.outcome(state) is None:
            assert tuple(state) == tuple(mine)
            assert set(game.legal_moves(state)) == set(RULES.legal_moves(mine))
            move = rng.choice(list(game.legal_moves(state)))
            state, mine = game.play(state, move), RULES.play(mine, move)
        assert game.outcome(state) == RULES.outcome(mine)
    fast = mcts_connect4(*game.initial_state(), limit=Limit(nodes=2000), rng=random.Random(2))
    assert fast.move in game.legal_moves(game.initial_state())


def test_time_limited_tree_search_runs_many_chunks_whatever_the_seed():
    """The generator's state crosses the numba boundary between chunks of iterations; a
    state with its top bit set once overflowed on the way back in."""
    import random

    from yipan.core import Limit
    from yipan.games.connect4.uct import mcts_connect4

    for seed in range(12):
        result = mcts_connect4(0, 1 << 21, 1, limit=Limit(time=0.02), rng=random.Random(seed))
        assert result.move in range(7)
        assert result.stats.nodes >= 1
