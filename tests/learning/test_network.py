"""The network file and the numpy forward pass: weights round-trip, damage is refused, and the
numpy pass equals the training library's on random inputs."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.games.connect4 import ConnectFour
from yipan.games.tictactoe import TicTacToe
from yipan.learning import network as nets
from yipan.learning.evaluate import NetworkEvaluator
from yipan.learning.network import CorruptNetworkError


def small_net(seed: int = 0, hidden=(16, 8)):
    return nets.network_for(TicTacToe(), hidden, np.random.default_rng(seed))


@pytest.mark.parametrize("conv", [(), (4, 2)])
def test_weights_round_trip_through_a_file(tmp_path, conv):
    net = nets.network_for(TicTacToe(), (16, 8), np.random.default_rng(0), conv)
    net = nets.Network(net.game, net.encoding, net.actions, net.weights, {"epochs": 3})
    path = tmp_path / "net.npz"
    nets.save(net, path)
    back = nets.load(path, TicTacToe())
    assert back.hidden == (16, 8) and back.conv == conv and back.notes == {"epochs": 3}
    assert set(back.weights) == set(net.weights)
    for name, array in net.weights.items():
        assert np.array_equal(back.weights[name], array)
    planes = np.random.default_rng(1).random((5, 2, 3, 3)).astype(np.float32)
    for mine, theirs in zip(net.forward(planes), back.forward(planes), strict=True):
        assert np.array_equal(mine, theirs)


def rewrite(data: bytes, change) -> bytes:
    """The archive with ``change(arrays)`` applied to its arrays (header included)."""
    with np.load(io.BytesIO(data)) as archive:
        arrays = {name: archive[name] for name in archive.files}
    change(arrays)
    out = io.BytesIO()
    np.savez(out, **arrays)
    return out.getvalue()


def header_edit(edit):
    def change(arrays):
        header = json.loads(arrays["header"].tobytes())
        edit(header)
        arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    return change


def poke(arrays):
    arrays["trunk.0.w"] = arrays["trunk.0.w"].copy()
    arrays["trunk.0.w"][0, 0] += 1.0


def wrong_shape(arrays):
    arrays["policy.b"] = np.zeros(4, np.float32)


def as_float64(arrays):
    arrays["value.b"] = arrays["value.b"].astype(np.float64)


def not_finite(arrays):
    arrays["value.b"] = np.array([np.nan], np.float32)


def missing(arrays):
    del arrays["value.w"]


@pytest.mark.parametrize("change, words", [
    (poke, "checksum mismatch"),
    (wrong_shape, "has shape (4,)"),
    (as_float64, "float64"),
    (not_finite, "not finite"),
    (missing, "do not match the header"),
    (header_edit(lambda h: h.update(hidden=[16, 9])), "has shape"),
    (header_edit(lambda h: h.update(conv=[4])), "do not match the header"),
    (header_edit(lambda h: h.update(version=99)), "header is damaged"),
    (header_edit(lambda h: h.pop("sha256")), "header is damaged"),
    (header_edit(lambda h: h.update(encoding=[2, 3, -3])), "header is damaged"),
])
def test_a_damaged_or_altered_file_is_refused_in_one_line(tmp_path, change, words):
    path = tmp_path / "net.npz"
    path.write_bytes(rewrite(nets.to_bytes(small_net()), change))
    with pytest.raises(CorruptNetworkError) as error:
        nets.load(path)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_a_cut_file_or_another_kind_of_file_is_refused(tmp_path):
    data = nets.to_bytes(small_net())
    for index, damaged in enumerate((data[: len(data) // 2], b"not a network", b"")):
        path = tmp_path / f"bad{index}.npz"
        path.write_bytes(damaged)
        with pytest.raises(CorruptNetworkError, match="not a yipan network file"):
            nets.load(path)
    with pytest.raises(CorruptNetworkError, match="cannot read"):
        nets.load(tmp_path / "absent.npz")
    pickled = io.BytesIO()
    # an object array needs pickle: refused
    with zipfile.ZipFile(pickled, "w") as archive, archive.open("header.npy", "w") as member:
        np.save(member, np.array([{"x": 1}], dtype=object), allow_pickle=True)
    (tmp_path / "pickle.npz").write_bytes(pickled.getvalue())
    with pytest.raises(CorruptNetworkError):
        nets.load(tmp_path / "pickle.npz")


def test_a_network_for_another_game_is_refused():
    data = nets.to_bytes(small_net())
    with pytest.raises(CorruptNetworkError, match="is for tictactoe"):
        nets.from_bytes(data, "net.npz", ConnectFour())
    with pytest.raises(CorruptNetworkError, match="is for tictactoe"):
        NetworkEvaluator(TicTacToe("4x4"), small_net())


def test_the_evaluator_gives_priors_over_the_legal_moves_only():
    game = TicTacToe()
    evaluator = NetworkEvaluator(game, small_net(3))
    state = game.play(game.play(game.initial_state(), 0), 5)
    priors, value = evaluator.policy_value(state)
    assert sorted(priors) == sorted(game.legal_moves(state))
    assert abs(sum(priors.values()) - 1) < 1e-9 and -1 <= value <= 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), batch=st.integers(1, 9),
       conv=st.sampled_from([(), (4,), (8, 3)]))
def test_the_numpy_forward_pass_equals_jax_on_random_inputs(seed, batch, conv):
    jnp = pytest.importorskip("jax.numpy", reason="JAX is the [train] extra")
    from yipan.learning.train import jax_forward

    rng = np.random.default_rng(seed)
    net = nets.network_for(ConnectFour(), (32, 16), rng, conv)
    assert net.conv == conv
    planes = rng.random((batch, *net.encoding)).astype(np.float32)
    logits, value = net.forward(planes)
    params = {name: jnp.asarray(a) for name, a in net.weights.items()}
    jax_logits, jax_value = jax_forward(params, jnp.asarray(planes), net.depth,
                                        net.conv_depth)
    assert logits.shape == (batch, 7) and value.shape == (batch,)
    assert np.allclose(logits, np.asarray(jax_logits), rtol=1e-5, atol=1e-5)
    assert np.allclose(value, np.asarray(jax_value), rtol=1e-5, atol=1e-5)


def test_the_networks_value_serves_alpha_beta_as_its_evaluation():
    from yipan.core import replay
    from yipan.search import alphabeta

    game = TicTacToe()
    evaluator = NetworkEvaluator(game, small_net(7))
    state = replay(game, ["a1", "b2"])[-1]
    result = alphabeta(game, state, depth=1, analysis=True, evaluate=evaluator.heuristic)
    children = {m: game.play(state, m) for m in game.legal_moves(state)}
    expected = {m: -evaluator.heuristic(child) for m, child in children.items()}
    # the side to move's view, negated (alpha-beta keeps whole heuristic units)
    assert result.move_values == pytest.approx(expected, abs=1)
    assert result.value == pytest.approx(max(expected.values()), abs=1)
    assert evaluator.evaluations > len(children)
