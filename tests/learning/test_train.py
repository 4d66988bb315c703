"""Training: a network fitted a few seconds on tic-tac-toe's exact labels plays perfectly."""

from __future__ import annotations

from dataclasses import replace

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


@pytest.mark.parametrize("decay", [False, True])
def test_a_resumed_fit_trains_as_an_uninterrupted_one(decay):
    """Two passes in one go, or one pass, a checkpoint (weights and AdamW's state), and one
    more: the same weights, with a constant step size or a decaying one (its step count is
    in the optimiser's state). Without the optimiser's state the second pass goes
    elsewhere."""
    game = TicTacToe()
    data = exhaustive(game)
    start = network_for(game, (32,), np.random.default_rng(3))
    one = Settings(epochs=1, batch=256, learning_rate=3e-3,
                   decay_steps=2 * (len(data) // 256) if decay else None)
    whole, _ = fit(start, data, replace(one, epochs=2), np.random.default_rng(0), epoch_seed=7)
    kept = []
    fit(start, data, one, np.random.default_rng(0), epoch_seed=7,
        on_epoch=lambda epoch, net, state: kept.append((net, state)))
    net, state = kept[-1]
    resumed, _ = fit(net, data, one, np.random.default_rng(0), epoch_seed=7, first_epoch=1,
                     optimizer_state=state)
    fresh, _ = fit(net, data, one, np.random.default_rng(0), epoch_seed=7, first_epoch=1)
    if decay:  # (and the decay is not a constant step size under another name)
        constant, _ = fit(start, data, replace(one, epochs=2, decay_steps=None),
                          np.random.default_rng(0), epoch_seed=7)
        assert not np.allclose(constant.weights["policy.w"], whole.weights["policy.w"])
    for name, weights in whole.weights.items():
        np.testing.assert_allclose(resumed.weights[name], weights, rtol=1e-5, atol=1e-6)
    assert any(not np.allclose(fresh.weights[name], weights, rtol=1e-5, atol=1e-6)
               for name, weights in whole.weights.items())


def test_saved_optimizer_state_must_fit_the_network():
    from yipan.learning.train import OptimizerStateMismatch

    game = TicTacToe()
    data = exhaustive(game)
    kept = []
    small = network_for(game, (16,), np.random.default_rng(0))
    fit(small, data, Settings(epochs=1, batch=512), np.random.default_rng(0),
        on_epoch=lambda epoch, net, state: kept.append(state))
    other = network_for(game, (32,), np.random.default_rng(0))
    with pytest.raises(OptimizerStateMismatch):
        fit(other, data, Settings(epochs=1, batch=512), np.random.default_rng(0),
            optimizer_state=kept[-1])


def test_the_checkpointed_optimizer_state_is_taken_only_for_its_pass(tmp_path):
    from yipan.learning.pipeline import CheckpointMismatch, load_arrays, save_arrays

    path = tmp_path / "optimizer.npz"
    arrays = [np.arange(3.0), np.ones((2, 2), np.float32), np.array(5)]
    save_arrays(path, arrays, epoch=4)
    loaded = load_arrays(path, 4)
    assert loaded is not None and len(loaded) == 3
    for a, b in zip(loaded, arrays, strict=True):
        np.testing.assert_array_equal(a, b)
    assert load_arrays(path, 3) is None  # (a run stopped between the network and the state)
    assert load_arrays(tmp_path / "none.npz", 4) is None
    path.write_bytes(b"PK\x03\x04 damaged")
    with pytest.raises(CheckpointMismatch):
        load_arrays(path, 4)
