"""MCTS: the solver's proofs, play against the perfect player, tree reuse, root parallelism."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import WIN, CapabilityError, Limit, get_game
from yipan.games.connect4 import ConnectFour
from yipan.search import alphabeta
from yipan.search.mcts import MCTSPlayer, Tree, mcts


def test_the_solver_proves_tictactoe_a_draw():
    game = get_game("tictactoe")
    result = mcts(game, game.initial_state(), limit=Limit(nodes=200_000),
                  rng=random.Random(1), solver=True)
    assert result.exact
    assert result.value == 0
    assert result.stats.nodes < 200_000  # it stopped because the root was proven
    final = game.initial_state()
    for move in result.pv:  # the principal variation holds the draw to the end
        final = game.play(final, move)
    assert game.outcome(final) is not None and game.outcome(final).winner is None


def test_the_solver_finds_a_forced_win_with_its_length():
    game = get_game("tictactoe")
    state = game.initial_state()
    for square in ("a1", "b1", "b2", "c1"):  # X: a1 b2; O: b1 c1; X to move wins at c3
        state = game.play(state, game.parse_move(state, square))
    result = mcts(game, state, limit=Limit(nodes=20_000), rng=random.Random(2), solver=True)
    assert result.exact
    assert result.value == alphabeta(game, state).value == WIN - 1
    assert game.format_move(result.move) == "c3"
    assert result.pv == (result.move,)


def late_positions(count: int, stones: int, seed: int):
    """Unfinished Connect Four positions after ``stones`` random moves."""
    game = ConnectFour()
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(stones):
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        if game.outcome(state) is None:
            found.append(state)
    return game, found


def test_the_solver_agrees_with_alphabeta_on_late_connect_four_positions():
    game, positions = late_positions(count=4, stones=32, seed=7)
    for index, state in enumerate(positions):
        exact = alphabeta(game, state)
        result = mcts(game, state, limit=Limit(nodes=100_000), rng=random.Random(index),
                      solver=True)
        assert result.exact
        assert result.value == exact.value


@pytest.mark.parametrize("mcts_side", [0, 1])
def test_seeded_mcts_never_loses_tictactoe_to_the_perfect_player(mcts_side):
    game = get_game("tictactoe")
    player = MCTSPlayer(Limit(nodes=3000), random.Random(10 + mcts_side))
    state = game.initial_state()
    while game.outcome(state) is None:
        if game.to_move(state) == mcts_side:
            move = player.choose(game, state).move
        else:
            move = alphabeta(game, state).move
        state = game.play(state, move)
    assert game.outcome(state).winner in (None, mcts_side)


def test_the_tree_is_reused_after_a_reply():
    game = get_game("tictactoe")
    tree = Tree()
    state = game.initial_state()
    first = mcts(game, state, limit=Limit(nodes=500), rng=random.Random(3), tree=tree)
    assert first.stats.reused == 0
    reply = next(iter(game.legal_moves(game.play(state, first.move))))
    later = game.play(game.play(state, first.move), reply)
    second = mcts(game, later, limit=Limit(nodes=500), rng=random.Random(3), tree=tree)
    assert second.stats.reused > 0
    assert sum(second.stats.visits.values()) == second.stats.reused + 500 - 1


def test_visits_and_values_describe_the_root():
    game = ConnectFour()
    result = mcts(game, game.initial_state(), limit=Limit(nodes=700), rng=random.Random(4))
    assert result.stats.nodes == 700
    assert sum(result.stats.visits.values()) == 700
    assert set(result.stats.visits) == set(range(7)) == set(result.move_values)
    assert result.move == max(result.stats.visits, key=result.stats.visits.get)
    assert all(-1 <= v <= 1 for v in result.move_values.values())
    assert result.pv[0] == result.move


def test_root_parallelism_adds_up_the_workers_statistics():
    game = ConnectFour()
    result = mcts(game, game.initial_state(), limit=Limit(nodes=300), rng=random.Random(5),
                  workers=2)
    assert result.stats.workers == 2
    assert result.stats.nodes == 600
    assert sum(result.stats.visits.values()) == 600


def test_the_same_seed_gives_the_same_search():
    game = ConnectFour()
    a, b = (mcts(game, game.initial_state(), limit=Limit(nodes=400), rng=random.Random(6))
            for _ in range(2))
    assert a.stats.visits == b.stats.visits


def test_mcts_plays_2048_through_its_chance_nodes():
    game = get_game("2048")
    state = game.start(random.Random(8))
    result = mcts(game, state, limit=Limit(nodes=60), rng=random.Random(8))
    assert result.move in game.legal_moves(state)
    assert sum(result.stats.visits.values()) == 60


def test_a_limit_is_required_and_the_solver_refuses_chance():
    game = get_game("tictactoe")
    with pytest.raises(ValueError):
        mcts(game, game.initial_state(), limit=Limit(), rng=random.Random(0))
    g2048 = get_game("2048")
    with pytest.raises(CapabilityError):  # the start waits for its first tiles
        mcts(g2048, g2048.initial_state(), limit=Limit(nodes=5), rng=random.Random(0))
    with pytest.raises(ValueError):
        mcts(g2048, g2048.start(random.Random(0)), limit=Limit(nodes=5), rng=random.Random(0),
             solver=True)


def test_yipan_solve_proves_the_draw_with_the_mcts_solver(capsys):
    import json

    from yipan.cli.main import main

    status = main(["solve", "tictactoe", "--algorithm", "mcts-solver", "--json",
                   "--iterations", "100000", "--seed", "1"])
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert report["value"] == 0 and report["exact"] and report["description"] == "draw"


@settings(max_examples=12, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=3, max_value=6))
def test_the_solver_gives_alphabetas_exact_value_on_tictactoe_positions(rng, plies):
    game = get_game("tictactoe")
    state = game.initial_state()
    for _ in range(plies):
        if game.outcome(state) is not None:
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    result = mcts(game, state, limit=Limit(nodes=50_000), rng=random.Random(0), solver=True)
    exact = alphabeta(game, state, analysis=True)
    assert result.exact
    assert result.value == exact.value
    if result.move is not None:
        assert exact.move_values[result.move] == exact.value
