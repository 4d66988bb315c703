"""Training: a network fitted a few seconds on tic-tac-toe's exact labels plays perfectly."""

from __future__ import annotations

import numpy as np
import pytest

from yipan.games.tictactoe import TicTacToe
from yipan.learning.data import exhaustive
from yipan.learning.evaluate import NetworkEvaluator
from yipan.learning.network import network_for
from yipan.learning.train import Settings, fit, measure
from yipan.search import alphabeta

pytest.importorskip("jax", reason="training needs JAX and optax (the [train] extra)")


def exact_values(game, state, cache):
    """Each legal move's exact value, by alpha-beta to the end (the referee)."""
    key = state
    if key not in cache:
        cache[key] = dict(alphabeta(game, state, analysis=True).move_values)
    return cache[key]


def greedy(evaluator, state):
    priors, _ = evaluator.policy_value(state)
    return max(priors, key=priors.__getitem__)


def test_a_network_trained_on_exact_labels_plays_tictactoe_perfectly():
    game = TicTacToe()
    data = exhaustive(game)
    assert len(data) == 4520  # the non-final positions reachable from the start
    net = network_for(game, (128, 128), np.random.default_rng(0))
    untrained = measure(net, data)
    net, report = fit(net, data, Settings(epochs=100, batch=128, learning_rate=2e-3,
                                          weight_decay=0.0),
                      np.random.default_rng(1))
    trained = measure(net, data)
    assert report.steps == 100 * (4520 // 128)
    assert trained["policy_top1"] > untrained["policy_top1"]
    assert trained["policy_top1"] > 0.97
    evaluator = NetworkEvaluator(game, net)
    cache: dict = {}
    # the network, moving greedily, against every reply of the opponent, from both sides:
    # each of its moves keeps the position's game value (win, draw or loss; a win may take
    # longer than it must), so it never loses and wins all it can
    checked = 0
    for side in (0, 1):
        frontier = [game.initial_state()]
        while frontier:
            state = frontier.pop()
            if game.outcome(state) is not None:
                assert game.outcome(state).winner in (None, side)
                continue
            if game.to_move(state) == side:
                values = exact_values(game, state, cache)
                move = greedy(evaluator, state)
                best = max(values.values())
                assert np.sign(values[move]) == np.sign(best), game.render(state)
                checked += 1
                frontier.append(game.play(state, move))
            else:
                frontier.extend(game.play(state, m) for m in game.legal_moves(state))
    assert checked > 100
