"""Fitting an efficiently updatable network in float (JAX, the ``train`` extra), and its
quantised export (``yipan.chess_family.nnue`` draws the network and the integer scales).

The float network is the integer one with the scales divided out: the accumulator is
``ft_bias + sum of ft_weights rows`` clipped to 0..1, the hidden layer clipped to 0..1, and
the output ``y`` is in units of ``OUTPUT_SCALE`` centipawns. It is fitted to

    target = (1 - blend) * sigmoid(score / OUTPUT_SCALE) + blend * (result + 1) / 2

by the mean squared error of ``sigmoid(y)`` (a won position's evaluation matters less the
more it is won), with Adam.

A network with king buckets is trained factorised: each bucket's row of a piece on a square
is ``ft_factor[piece-square] + ft_weights[bucket, piece-square]``, so what a piece is worth
anywhere is learned from every position and each bucket learns only its difference (a
bucket's own rows see a few percent of the positions). The export adds them up
(``merged``): the integer network has no factor, and a round that starts from one splits
its rows into a factor again (``refactorised``).

With output buckets the layers after the first come in sets, one per bucket of the number of
pieces on the board (``yipan.chess_family.nnue.output_bucket``, counted here from the
features). A network given buckets starts with each set a copy of its one (``with_output_
buckets``), so it computes what it did, and each set then learns from its own positions.

The hidden weights are kept within what int16 at scale QB holds by a clip after each step,
so the export loses only the rounding.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..chess_family.nnue import MAX_PIECES, OUTPUT_SCALE, QA, QB, QO
from ..core import CapabilityError

HIDDEN_LIMIT = 2.0  # the hidden layer's weights stay within +-2 (the kernel's int32 sums)

Params = dict[str, Any]


@dataclass(frozen=True)
class Batch:
    mine: np.ndarray  # (B, 32) feature indices, padded with the feature count
    theirs: np.ndarray
    target: np.ndarray  # (B,) float32 in 0..1


def _jax() -> tuple[Any, Any, Any]:
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise CapabilityError("training a network needs JAX and optax: pip install -e "
                              "'.[train]'") from None
    return jax, jnp, optax


def targets(scores: np.ndarray, results: np.ndarray, blend: float) -> np.ndarray:
    win = 1.0 / (1.0 + np.exp(-scores.astype(np.float64) / OUTPUT_SCALE))
    return ((1.0 - blend) * win + blend * (results.astype(np.float64) + 1.0) / 2.0
            ).astype(np.float32)


def dequantise(arrays: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The float network of ``quantise``'s integers (each within half a step of the float
    network that made them)."""
    scales = {"ft_weights": QA, "ft_bias": QA, "l1_weights": QB, "l1_bias": QA * QB,
              "out_weights": QO, "out_bias": QA * QO}
    return {name: (arrays[name].astype(np.float64) / scale).astype(np.float32)
            for name, scale in scales.items()}


def initial_params(features: int, accumulator: int, hidden: int,
                   rng: np.random.Generator, buckets: int = 1,
                   output_buckets: int = 1) -> dict[str, np.ndarray]:
    """Fresh float weights: small first-layer columns (about 30 pieces add up), biases that
    keep the clipped units inside 0..1; with king buckets, in the factor (``bucketed``);
    with output buckets, the same set for each at first."""
    params = _initial_params(features, accumulator, hidden, rng)
    params = bucketed(params, buckets) if buckets > 1 else params
    return with_output_buckets(params, output_buckets) if output_buckets > 1 else params


def bucketed(params: Mapping[str, np.ndarray], buckets: int) -> dict[str, np.ndarray]:
    """``params`` (one bucket) with ``buckets`` king buckets, computing the same output:
    its first layer becomes the factor every bucket shares, and each bucket's own rows
    start at 0."""
    features, width = params["ft_weights"].shape
    return {**{name: np.asarray(value, np.float32) for name, value in params.items()},
            "ft_factor": np.asarray(params["ft_weights"], np.float32),
            "ft_weights": np.zeros((features * buckets, width), np.float32)}


def refactorised(params: Mapping[str, np.ndarray], buckets: int) -> dict[str, np.ndarray]:
    """``params`` with ``buckets`` king buckets merged (an exported network's) split again
    into a factor and each bucket's own rows, computing the same output: the factor is the
    buckets' mean row of each piece-square, each bucket keeps its difference from it. A
    round that starts from a bucketed network so trains its buckets' rows at the bucket
    rate, as the round that made them did, rather than at the full one."""
    rows = np.asarray(params["ft_weights"], np.float32)
    features = rows.shape[0] // buckets
    stacked = rows.reshape(buckets, features, rows.shape[1])
    factor = stacked.mean(axis=0)
    return {**{name: np.asarray(value, np.float32) for name, value in params.items()},
            "ft_factor": factor.astype(np.float32),
            "ft_weights": (stacked - factor[None]).reshape(rows.shape).astype(np.float32)}


def merged(params: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``params`` without the factor: each bucket's rows with it added (what the kernel
    reads)."""
    if "ft_factor" not in params:
        return dict(params)
    factor = np.asarray(params["ft_factor"])
    rows = np.asarray(params["ft_weights"])
    buckets = rows.shape[0] // factor.shape[0]
    return {**{name: value for name, value in params.items() if name != "ft_factor"},
            "ft_weights": (rows.reshape(buckets, *factor.shape) + factor[None]
                           ).reshape(rows.shape).astype(np.float32)}


def _initial_params(features: int, accumulator: int, hidden: int,
                    rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {"ft_weights": (rng.standard_normal((features, accumulator)) * 0.05).astype(np.float32),
            "ft_bias": np.full(accumulator, 0.25, np.float32),
            "l1_weights": (rng.standard_normal((hidden, 2 * accumulator))
                           / np.sqrt(2 * accumulator)).astype(np.float32),
            "l1_bias": np.full(hidden, 0.1, np.float32),
            "out_weights": (rng.standard_normal(hidden) / np.sqrt(hidden)).astype(np.float32),
            "out_bias": np.zeros(1, np.float32)}


def widened(params: Mapping[str, np.ndarray], accumulator: int,
            rng: np.random.Generator) -> dict[str, np.ndarray]:
    """``params`` with the first layer grown to ``accumulator`` units a side, computing the
    same output: the new units start as ``initial_params`` makes them but the hidden layer
    reads them with weight 0, so nothing learned is lost and both sides of each new
    connection still get a gradient (all-zero units would never move)."""
    features, width = params["ft_weights"].shape
    added = accumulator - width
    if added < 0:
        raise ValueError(f"cannot narrow {width} units to {accumulator}")
    fresh = initial_params(features, added, params["l1_weights"].shape[0], rng)
    hidden = params["l1_weights"].shape[0]
    silent = np.zeros((hidden, added), np.float32)
    mine, theirs = params["l1_weights"][:, :width], params["l1_weights"][:, width:]
    return {**{name: np.asarray(value, np.float32) for name, value in params.items()},
            "ft_weights": np.concatenate([params["ft_weights"], fresh["ft_weights"]], axis=1),
            "ft_bias": np.concatenate([params["ft_bias"], fresh["ft_bias"]]),
            "l1_weights": np.concatenate([mine, silent, theirs, silent], axis=1)}


def with_output_buckets(params: Mapping[str, np.ndarray], buckets: int) -> dict[str, np.ndarray]:
    """``params`` (one output bucket) with ``buckets``, each a copy of it: the same output."""
    return {**{name: np.asarray(value, np.float32) for name, value in params.items()},
            **{name: np.tile(np.asarray(params[name], np.float32), (buckets,) + (1,) * (
                np.ndim(params[name]) - 1))
               for name in ("l1_weights", "l1_bias", "out_weights", "out_bias")}}


def output_buckets_of(mine: Any, padding: int, buckets: int, xp: Any = np) -> Any:
    """Each position's output bucket, from its pieces (the features that are not padding)."""
    pieces = (mine < padding).sum(axis=1)
    return xp.minimum((pieces - 1) * buckets // MAX_PIECES, buckets - 1)


def float_output(params: Any, mine: Any, theirs: Any, xp: Any = np) -> Any:
    """The float network's output ``y`` (units of OUTPUT_SCALE centipawns) of a batch;
    ``xp`` is numpy or jax.numpy."""
    rows = params["ft_weights"]
    if "ft_factor" in params:
        factor = params["ft_factor"]
        rows = (rows.reshape(rows.shape[0] // factor.shape[0], *factor.shape)
                + factor[None]).reshape(rows.shape)
    columns = xp.concatenate([rows, xp.zeros((1, rows.shape[1]), xp.float32)])
    first = xp.concatenate([columns[mine].sum(axis=1), columns[theirs].sum(axis=1)], axis=1)
    bias = xp.concatenate([params["ft_bias"], params["ft_bias"]])
    x = xp.clip(first + bias, 0.0, 1.0)
    buckets = params["out_bias"].shape[0]
    hidden = xp.clip(x @ params["l1_weights"].T + params["l1_bias"], 0.0, 1.0)
    if buckets == 1:
        return hidden @ params["out_weights"] + params["out_bias"][0]
    # every bucket's output, then each position's own: the sets are small beside the
    # first layer, and a gather per position would cost more than computing them all
    outputs = (hidden * params["out_weights"]).reshape(hidden.shape[0], buckets, -1).sum(axis=2)
    outputs = outputs + params["out_bias"]
    chosen = output_buckets_of(mine, rows.shape[0], buckets, xp)
    return xp.take_along_axis(outputs, chosen[:, None], axis=1)[:, 0]


class Trainer:
    """Adam over the float network, one batch a step; its state goes to and from numpy
    arrays (the checkpoint)."""

    def __init__(self, params: dict[str, np.ndarray], learning_rate: float,
                 optimizer_state: list[np.ndarray] | None = None,
                 final: tuple[int, float] | None = None,
                 slower: Mapping[str, float] | None = None) -> None:
        """``final``: from that step on, that learning rate (Adam's moments carry over);
        ``slower``: parameters whose steps are scaled down (by name: the factor)."""
        jax, jnp, optax = _jax()
        self.jax, self.jnp = jax, jnp
        schedule: Any = learning_rate
        if final is not None:
            schedule = optax.piecewise_constant_schedule(
                learning_rate, {final[0]: final[1] / learning_rate})
        self.optimizer = optax.adam(schedule)
        self.params = {name: jnp.asarray(value) for name, value in params.items()}
        state = self.optimizer.init(self.params)
        if optimizer_state is not None:
            leaves, tree = jax.tree_util.tree_flatten(state)
            if len(leaves) == len(optimizer_state):
                state = jax.tree_util.tree_unflatten(
                    tree, [jnp.asarray(a) for a in optimizer_state])
        self.state = state

        def loss(params: Any, mine: Any, theirs: Any, target: Any) -> Any:
            y = float_output(params, mine, theirs, jnp)
            return jnp.mean((jax.nn.sigmoid(y) - target) ** 2)

        def step(params: Any, state: Any, mine: Any, theirs: Any, target: Any) -> Any:
            value, grads = jax.value_and_grad(loss)(params, mine, theirs, target)
            updates, state = self.optimizer.update(grads, state, params)
            for name, scale in (slower or {}).items():
                updates[name] = updates[name] * scale
            params = optax.apply_updates(params, updates)
            params["l1_weights"] = jnp.clip(params["l1_weights"], -HIDDEN_LIMIT, HIDDEN_LIMIT)
            return params, state, value

        self._step = jax.jit(step)
        self._loss = jax.jit(loss)

    def step(self, batch: Batch) -> float:
        self.params, self.state, value = self._step(self.params, self.state, batch.mine,
                                                    batch.theirs, batch.target)
        return float(value)

    def loss(self, batch: Batch) -> float:
        return float(self._loss(self.params, batch.mine, batch.theirs, batch.target))

    def numpy_params(self) -> dict[str, np.ndarray]:
        return {name: np.asarray(value) for name, value in self.params.items()}

    def numpy_state(self) -> list[np.ndarray]:
        return [np.asarray(a) for a in self.jax.tree_util.tree_leaves(self.state)]


def quantise(params: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The integer arrays of the float network (``yipan.chess_family.nnue``'s scales)."""
    def rounded(values: np.ndarray, scale: float, dtype: Any) -> np.ndarray:
        info = np.iinfo(dtype)
        return np.clip(np.rint(values * scale), info.min, info.max).astype(dtype)

    return {"ft_weights": rounded(params["ft_weights"], QA, np.int16),
            "ft_bias": rounded(params["ft_bias"], QA, np.int16),
            "l1_weights": rounded(np.clip(params["l1_weights"], -HIDDEN_LIMIT, HIDDEN_LIMIT),
                                  QB, np.int16),
            "l1_bias": rounded(params["l1_bias"], QA * QB, np.int32),
            "out_weights": rounded(params["out_weights"], QO, np.int32),
            "out_bias": rounded(params["out_bias"], QA * QO, np.int32)}
