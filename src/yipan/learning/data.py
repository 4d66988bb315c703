"""Training examples: encoded positions with a target policy and a target value.

A ``Dataset`` is four arrays of one length N::

    planes  (N, C, H, W) float32   Game.encode of each position
    policy  (N, A)       float32   the target distribution over move indices (sums to 1)
    legal   (N, A)       bool      which move indices are legal there (the loss masks others)
    value   (N,)         float32   the target value for the side to move, in [-1, 1]

Labels come from an exact solver (Connect Four's: ``games.connect4.labels``; any small game:
``exhaustive`` here, by memoised negamax: every optimal move shares the policy, the value is
the game's value) or from self-play (``selfplay``: visit counts and the final result).
Datasets are saved as plain ``.npz`` (no pickles), atomically.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core import Game
from ..core.files import write_atomically

FIELDS = ("planes", "policy", "legal", "value")


@dataclass(frozen=True)
class Dataset:
    planes: np.ndarray
    policy: np.ndarray
    legal: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return int(self.value.shape[0])

    def take(self, index: np.ndarray | slice) -> Dataset:
        return Dataset(self.planes[index], self.policy[index], self.legal[index],
                       self.value[index])

    @staticmethod
    def join(parts: Sequence[Dataset]) -> Dataset:
        parts = [part for part in parts if len(part)]
        return Dataset(*(np.concatenate([getattr(p, f) for p in parts]) for f in FIELDS))

    def save(self, path: str | Path) -> None:
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **{f: getattr(self, f) for f in FIELDS})
        write_atomically(path, buffer.getvalue())

    @staticmethod
    def load(path: str | Path) -> Dataset:
        with np.load(path, allow_pickle=False) as archive:
            return Dataset(*(archive[f] for f in FIELDS))


def empty(game: Game) -> Dataset:
    encoding, actions = game.info.encoding, game.info.actions
    assert encoding is not None and actions is not None
    return Dataset(np.zeros((0, *encoding), np.float32), np.zeros((0, actions), np.float32),
                   np.zeros((0, actions), bool), np.zeros(0, np.float32))


def example(game: Game, state: Any, targets: dict[Any, float], value: float
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """One example's arrays: ``targets`` maps moves to their share of the policy."""
    actions = game.info.actions
    assert actions is not None
    policy = np.zeros(actions, np.float32)
    legal = np.zeros(actions, bool)
    for move in game.legal_moves(state):
        index = game.move_index(state, move)
        legal[index] = True
        policy[index] = targets.get(move, 0.0)
    total = policy.sum()
    if total > 0:
        policy /= total
    return game.encode(state), policy, legal, float(value)


def from_examples(game: Game, rows: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray, float]]
                  ) -> Dataset:
    if not rows:
        return empty(game)
    return Dataset(np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]),
                   np.stack([r[2] for r in rows]), np.array([r[3] for r in rows], np.float32))


def exhaustive(game: Game, max_states: int = 100_000) -> Dataset:
    """Every position of a small game reachable from the start, with its exact value (+1,
    0, -1 for the side to move) and the optimal moves sharing the policy (memoised negamax
    over the whole tree; ``max_states`` guards against a game too large for it)."""
    values: dict[Any, int] = {}

    def value(state: Any) -> int:
        known = values.get(state)
        if known is not None:
            return known
        outcome = game.outcome(state)
        if outcome is not None:
            result = outcome.result_for(game.to_move(state))
        else:
            result = max(-value(game.play(state, m)) for m in game.legal_moves(state))
        if len(values) >= max_states:
            raise ValueError(f"{game.info.name} has more than {max_states} positions")
        values[state] = result
        return result

    value(game.initial_state())
    rows = []
    for state, result in values.items():
        if game.outcome(state) is not None:
            continue
        best = [m for m in game.legal_moves(state) if -values[game.play(state, m)] == result]
        rows.append(example(game, state, {m: 1.0 for m in best}, result))
    return from_examples(game, rows)
