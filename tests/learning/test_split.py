"""Held-out examples of the training pipeline."""

from __future__ import annotations

import numpy as np

from yipan.learning.data import Dataset
from yipan.learning.pipeline import split


def test_a_positions_images_are_held_out_together():
    """Gomoku stores a position as its eight symmetries, Connect Four as a pair: a held-out
    share never splits them (an image trained on would flatter the held-out figures)."""
    positions = 400
    ids = np.repeat(np.arange(positions), 8).astype(np.float32)
    data = Dataset(np.zeros((len(ids), 1, 2, 2), np.float32),
                   np.zeros((len(ids), 4), np.float32), np.ones((len(ids), 4), bool), ids)
    train, held = split(data, seed=3)
    assert len(train) + len(held) == len(data) and len(held) == 8 * (positions // 20)
    assert not set(train.value.tolist()) & set(held.value.tolist())
    assert all((held.value == v).sum() == 8 for v in set(held.value.tolist()))
    again, _ = split(data, seed=4)
    assert not np.array_equal(again.value, train.value)  # the seed chooses which
