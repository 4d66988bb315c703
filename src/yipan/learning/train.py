"""Fitting a network to a Dataset, with JAX and optax (the ``[train]`` extra).

Why JAX: its CPU wheels (jax, jaxlib, optax: about 95 MB) install from the package index as
they are; PyTorch's default wheel bundles CUDA (gigabytes, no GPU here) and its CPU-only
build comes from a separate index. The trained weights are plain arrays, saved by
``network.save`` and read back by the numpy forward pass, so nothing else needs JAX.

The loss, per example: cross-entropy of the target policy against the network's policy over
the legal moves (illegal logits masked), plus the squared error of the value, plus
``weight_decay`` (AdamW). ``forward`` here is the numpy ``Network.forward`` written in
``jax.numpy``, layer for layer (a test holds them equal).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..core import YipanError
from .data import Dataset
from .network import Network

Progress = Callable[[int, int, float], None]
"""``progress(step, steps, loss)`` after each step of training."""


class MissingTrainingLibrary(YipanError, ImportError):
    """Training needs the ``[train]`` extra."""


def _jax() -> tuple[Any, Any, Any]:
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise MissingTrainingLibrary(
            'training needs JAX and optax: pip install "yipan[train]" (inference does '
            "not)") from None
    return jax, jnp, optax


def jax_forward(params: Mapping[str, Any], planes: Any, depth: int,
                conv_depth: int = 0) -> tuple[Any, Any]:
    """``Network.forward`` in jax.numpy (``planes``: (B, C, H, W))."""
    jax, jnp, _ = _jax()
    x = planes
    if conv_depth:
        x = jnp.transpose(planes, (0, 2, 3, 1))  # (B, H, W, C)
        for i in range(conv_depth):
            x = jax.lax.conv_general_dilated(x, params[f"conv.{i}.w"], (1, 1), "SAME",
                                             dimension_numbers=("NHWC", "HWIO", "NHWC"))
            x = jnp.maximum(x + params[f"conv.{i}.b"], 0.0)
    x = x.reshape(x.shape[0], -1)
    for i in range(depth):
        x = jnp.maximum(x @ params[f"trunk.{i}.w"] + params[f"trunk.{i}.b"], 0.0)
    logits = x @ params["policy.w"] + params["policy.b"]
    value = jnp.tanh(x @ params["value.w"] + params["value.b"])[:, 0]
    return logits, value


@dataclass(frozen=True, slots=True)
class Settings:
    epochs: int = 10
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    value_weight: float = 1.0
    decay_steps: int | None = None
    """None: a constant step size; else the step size follows a cosine from
    ``learning_rate`` down to 0 over this many steps, counted by the optimiser's own state
    (so a run resumed from a checkpoint goes on along the same curve)."""


@dataclass(frozen=True, slots=True)
class Report:
    steps: int
    seconds: float  # CPU time of the training steps (process time)
    loss: float  # mean loss of the last epoch
    policy_loss: float
    value_loss: float


def loss_terms(params: Mapping[str, Any], batch: Mapping[str, Any], depth: int,
               conv_depth: int = 0) -> Any:
    """(policy cross-entropy, value squared error), batch means."""
    jax, jnp, _ = _jax()
    logits, value = jax_forward(params, batch["planes"], depth, conv_depth)
    masked = jnp.where(batch["legal"], logits, -1e9)
    log_policy = jax.nn.log_softmax(masked, axis=-1)
    policy_loss = -jnp.sum(batch["policy"] * jnp.where(batch["legal"], log_policy, 0.0),
                           axis=-1).mean()
    value_loss = jnp.mean((value - batch["value"]) ** 2)
    return policy_loss, value_loss


OnEpoch = Callable[[int, Network, list[np.ndarray]], None]
"""``on_epoch(epoch, network, optimizer_state)`` after each pass: what a checkpoint keeps."""


def fit(network: Network, data: Dataset, settings: Settings, rng: np.random.Generator,
        progress: Progress | None = None, on_epoch: OnEpoch | None = None, *,
        optimizer_state: list[np.ndarray] | None = None, epoch_seed: int | None = None,
        first_epoch: int = 0) -> tuple[Network, Report]:
    """The network trained on ``data`` for ``settings.epochs`` passes (batches drawn by
    ``rng``); the weights as float32 numpy arrays again.

    To resume exactly where a checkpoint left off: ``optimizer_state`` (the arrays
    ``on_epoch`` was given: AdamW's step count and moments) and ``epoch_seed`` (then pass
    ``e`` draws its batches from ``default_rng([epoch_seed, e])``, counting passes from
    ``first_epoch``, so a resumed run draws what an uninterrupted one would have)."""
    jax, jnp, optax = _jax()
    depth, conv_depth = network.depth, network.conv_depth
    params = {name: jnp.asarray(array) for name, array in network.weights.items()}
    rate = settings.learning_rate if settings.decay_steps is None else \
        optax.cosine_decay_schedule(settings.learning_rate, settings.decay_steps)
    optimizer = optax.adamw(rate, weight_decay=settings.weight_decay)
    state = optimizer.init(params)
    if optimizer_state is not None:
        state = _restore(jax, jnp, state, optimizer_state)

    def loss(params: Any, batch: Any) -> Any:
        policy_loss, value_loss = loss_terms(params, batch, depth, conv_depth)
        return policy_loss + settings.value_weight * value_loss, (policy_loss, value_loss)

    @jax.jit
    def step(params: Any, state: Any, batch: Any) -> Any:
        (total, parts), grads = jax.value_and_grad(loss, has_aux=True)(params, batch)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, total, parts

    n = len(data)
    batch = min(settings.batch, n)
    per_epoch = max(1, n // batch)
    steps = settings.epochs * per_epoch
    start = time.process_time()
    done = 0
    sums = np.zeros(3)
    for epoch in range(settings.epochs):
        if epoch_seed is not None:
            order = np.random.default_rng([epoch_seed, first_epoch + epoch]).permutation(n)
        else:
            order = rng.permutation(n)
        sums[:] = 0
        for i in range(per_epoch):
            index = order[i * batch:(i + 1) * batch]
            arrays = {"planes": data.planes[index], "policy": data.policy[index],
                      "legal": data.legal[index], "value": data.value[index]}
            params, state, total, (policy_loss, value_loss) = step(params, state, arrays)
            done += 1
            sums += (float(total), float(policy_loss), float(value_loss))
            if progress is not None:
                progress(done, steps, float(total))
        if on_epoch is not None:
            leaves = [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(state)]
            on_epoch(epoch + 1, _as_network(network, params), leaves)
    means = sums / per_epoch
    trained = _as_network(network, params)
    return trained, Report(done, time.process_time() - start, *map(float, means))


class OptimizerStateMismatch(YipanError, ValueError):
    """Saved optimiser state that does not fit this network."""


def _restore(jax: Any, jnp: Any, fresh: Any, leaves: list[np.ndarray]) -> Any:
    """``leaves`` (saved by ``on_epoch``) in the structure of ``fresh``, checked."""
    expected, treedef = jax.tree_util.tree_flatten(fresh)
    if len(leaves) != len(expected) or any(
            np.shape(a) != np.shape(b) for a, b in zip(leaves, expected, strict=True)):
        raise OptimizerStateMismatch("the saved optimiser state does not fit this network")
    return jax.tree_util.tree_unflatten(treedef, [
        jnp.asarray(a, dtype=np.asarray(b).dtype) for a, b in zip(leaves, expected,
                                                                  strict=True)])


def _as_network(network: Network, params: Mapping[str, Any]) -> Network:
    return replace(network, weights={name: np.asarray(array, np.float32)
                                     for name, array in params.items()})


def measure(network: Network, data: Dataset) -> dict[str, float]:
    """On ``data``: how often the network's top legal move has target weight (an optimal
    move, for solver labels), how often its value has the target's sign (draws: within
    1/3 of 0), and the mean squared value error. Numpy only."""
    logits, value = network.forward(data.planes)
    masked = np.where(data.legal, logits, -np.inf)
    top = masked.argmax(axis=1)
    hits = data.policy[np.arange(len(data)), top] > 0
    target = data.value
    sign_right = np.where(target > 0.5, value > 1 / 3,
                          np.where(target < -0.5, value < -1 / 3, np.abs(value) <= 1 / 3))
    return {"policy_top1": float(hits.mean()), "value_sign": float(sign_right.mean()),
            "value_mse": float(np.mean((value - target) ** 2))}
