"""The network's integer forward pass (written for the vectoriser) against the same arithmetic
in plain numpy int64, exactly, over shapes and values the vector code might trip on: widths
that are no multiple of a vector, accumulators beyond the clipping range, extreme weights."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.chess_family.nnue import (
    OUTPUT_SCALE,
    QA,
    QB,
    QB_SHIFT,
    QO,
    network_memory,
    output_layers,
)


def reference(accumulator: np.ndarray, side: int, arrays: dict[str, np.ndarray],
              bucket: int = 0) -> int:
    """The module docstring's formulas, one numpy line each (output ``bucket``'s set)."""
    size = arrays["l1_weights"].shape[0] // arrays["out_bias"].shape[0]
    rows = slice(bucket * size, (bucket + 1) * size)
    x = np.concatenate([accumulator[side], accumulator[1 - side]]).astype(np.int64)
    x = np.clip(x, 0, QA)
    sums = (arrays["l1_weights"][rows].astype(np.int64) @ x
            + arrays["l1_bias"][rows].astype(np.int64))
    hidden = np.clip((sums + QB // 2) >> QB_SHIFT, 0, QA)
    out = (int(hidden @ arrays["out_weights"][rows].astype(np.int64))
           + int(arrays["out_bias"][bucket]))
    return out * OUTPUT_SCALE // (QA * QO)


@settings(max_examples=60, deadline=None)
@given(width=st.integers(1, 70), hidden=st.integers(1, 40), side=st.integers(0, 1),
       buckets=st.integers(1, 8), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_forward_is_the_integer_arithmetic_exactly(width: int, hidden: int, side: int,
                                                   buckets: int, seed: int, data) -> None:
    rng = np.random.default_rng(seed)
    limit = 2 * QB  # training keeps hidden weights within +-2
    units = buckets * hidden
    arrays = {
        "ft_weights": np.zeros((1, width), np.int16),
        "ft_bias": np.zeros(width, np.int16),
        "l1_weights": rng.integers(-limit, limit + 1, (units, 2 * width)).astype(np.int16),
        "l1_bias": rng.integers(-QA * QB, QA * QB + 1, units).astype(np.int32),
        "out_weights": rng.integers(-4 * QO, 4 * QO + 1, units).astype(np.int32),
        "out_bias": rng.integers(-QA * QO, QA * QO + 1, buckets).astype(np.int32),
    }
    accumulator = rng.integers(-2 * QA, 2 * QA + 1, (2, width)).astype(np.int16)
    memory = network_memory(arrays)
    bucket = data.draw(st.integers(0, buckets - 1))
    got = output_layers(accumulator, side, memory["inputs"], memory["l1_weights"],
                        memory["l1_bias"], memory["out_weights"], memory["out_bias"], bucket)
    assert got == reference(accumulator, side, arrays, bucket)


def test_the_largest_sums_do_not_overflow() -> None:
    """Every input at QA and every weight at the bound: the int32 sums hold them."""
    width, hidden = 256, 4
    arrays = {
        "ft_weights": np.zeros((1, width), np.int16), "ft_bias": np.zeros(width, np.int16),
        "l1_weights": np.full((hidden, 2 * width), 2 * QB, np.int16),
        "l1_bias": np.zeros(hidden, np.int32),
        "out_weights": np.array([QO, -QO, 2 * QO, 1], np.int32),
        "out_bias": np.zeros(1, np.int32),
    }
    accumulator = np.full((2, width), 3 * QA, np.int16)
    memory = network_memory(arrays)
    got = output_layers(accumulator, 0, memory["inputs"], memory["l1_weights"],
                        memory["l1_bias"], memory["out_weights"], memory["out_bias"], 0)
    assert got == reference(accumulator, 0, arrays)
    assert got > 0  # every hidden unit saturates at QA: QO - QO + 2 QO + 1 of them, positive
