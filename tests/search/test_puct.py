"""PUCT: with uniform priors and random-playout values it behaves as UCT; with a network it
searches; batches, noise and temperature do what they say."""

from __future__ import annotations

import random

import numpy as np
import pytest

from yipan.core import CapabilityError, Limit, replay
from yipan.games.connect4 import ConnectFour
from yipan.games.tictactoe import TicTacToe
from yipan.search import alphabeta
from yipan.search.mcts import mcts
from yipan.search.puct import PUCT, Noise, PUCTPlayer, choose_move, puct, rollout_evaluator

# positions where one move is forced (the only move that does not lose, or the only win)
FORCED = [
    ("a1 a2 b1 b2", "c1"),  # X wins at once
    ("a1 b2 b1", "c1"),  # O must block
    ("b2 a1 c3 a3", "a2"),  # X wins at once on the left column
    ("a1 b2 c3", None),  # O must take an edge: corners lose (several right answers)
]


@pytest.mark.parametrize("moves, answer", FORCED)
def test_with_uniform_priors_and_rollouts_puct_chooses_as_uct_and_alphabeta(moves, answer):
    game = TicTacToe()
    state = replay(game, moves.split())[-1]
    exact = dict(alphabeta(game, state, analysis=True).move_values)
    best = max(exact.values())
    right = {m for m, v in exact.items() if v == best}
    if answer is not None:
        assert right == {game.parse_move(state, answer)}
    for seed in range(3):
        ours = puct(game, state, rollout_evaluator(game, random.Random(seed)),
                    limit=Limit(nodes=1500), batch=1)
        uct = mcts(game, state, limit=Limit(nodes=1500), rng=random.Random(seed))
        assert ours.move in right and uct.move in right
        # the same shape: most visits go to the right moves in both
        for result in (ours, uct):
            visits = result.stats.visits
            share = sum(visits[m] for m in right) / sum(visits.values())
            assert share > 0.5, (seed, visits)


def test_values_are_for_the_side_to_move_and_a_won_position_is_seen_as_won():
    game = TicTacToe()
    state = replay(game, ["a1", "a2", "b1", "b2"])[-1]  # X to move wins at c1
    result = puct(game, state, rollout_evaluator(game, random.Random(0)),
                  limit=Limit(nodes=300))
    assert result.move == game.parse_move(state, "c1")
    assert result.value == 1.0  # every visit of c1 ends the game won
    assert result.stats.nodes == 300
    assert sum(result.stats.visits.values()) == 300


@pytest.mark.parametrize("batch", [1, 4, 16])
def test_batches_spend_exactly_the_simulations_asked(batch):
    game = ConnectFour()
    calls = []
    uniform = rollout_evaluator(game, random.Random(1))

    def counting(states):
        calls.append(len(states))
        return uniform(states)

    search = PUCT(game, counting, batch=batch)
    result = search.run(game.position("4444"), Limit(nodes=200))
    assert sum(result.stats.visits.values()) == 200
    assert max(calls) <= batch
    assert search.evaluations == sum(calls)
    root = search.root
    assert root is not None and root.visits == 200  # no virtual loss left behind
    stack = [root]
    while stack:
        node = stack.pop()
        assert not node.pending
        assert node.visits == 0 or abs(node.total) <= node.visits + 1e-9
        stack.extend(node.children.values())


def test_root_noise_changes_priors_by_the_injected_generator_only():
    game = TicTacToe()
    state = game.initial_state()

    def priors_with(seed):
        search = PUCT(game, rollout_evaluator(game, random.Random(0)),
                      noise=Noise(np.random.default_rng(seed), alpha=0.3, fraction=0.25))
        search.run(state, Limit(nodes=1))
        return search.priors()

    first, again, other = priors_with(5), priors_with(5), priors_with(6)
    assert first == again and first != other
    assert abs(sum(first.values()) - 1) < 1e-9
    assert all(p >= 0.75 / 9 - 1e-12 for p in first.values())  # (1 - eps) of uniform at least


def test_temperature_zero_takes_the_most_visited_and_one_follows_the_visits():
    rng = random.Random(3)
    visits = {"a": 10, "b": 30, "c": 0}
    assert choose_move(visits, 0, rng) == "b"
    drawn = [choose_move(visits, 1.0, rng) for _ in range(2000)]
    assert drawn.count("c") == 0
    assert 0.68 < drawn.count("b") / 2000 < 0.82


def test_the_player_keeps_its_tree_and_refuses_games_it_cannot_search():
    game = ConnectFour()
    player = PUCTPlayer(rollout_evaluator(game, random.Random(2)), Limit(nodes=100))
    state = game.initial_state()
    first = player.choose(game, state)
    reply = game.play(game.play(state, first.move), 3)
    second = player.choose(game, reply)
    assert game.is_legal(reply, second.move)
    with pytest.raises(CapabilityError):
        PUCT(__import__("yipan").get_game("2048"), rollout_evaluator(game, random.Random(0)))
