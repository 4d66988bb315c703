"""A network as the searches use it: PUCT's evaluator (priors and value) and a heuristic for
alpha-beta.

The network's logits cover every move index (``Game.move_index``); the priors are the
softmax over the legal moves only. Values are for the side to move, in [-1, 1].
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from ..core import CapabilityError, Choice, Game, SearchResult, SearchStats
from .network import Network, check_fits

VALUE_SCALE = 10_000.0  # alpha-beta's heuristic units per unit of network value


def legal_softmax(logits: np.ndarray, indices: Sequence[int]) -> np.ndarray:
    """Probabilities over ``indices`` from the network's logits (the others masked out)."""
    chosen = logits[list(indices)].astype(np.float64)
    chosen -= chosen.max()
    weights = np.exp(chosen)
    return weights / weights.sum()


class NetworkEvaluator:
    """``evaluator(states) -> [(priors, value)]`` for PUCT; ``heuristic(state)`` for
    alpha-beta. Counts the states it evaluated (``evaluations``)."""

    def __init__(self, game: Game, network: Network) -> None:
        if game.info.encoding is None:
            raise CapabilityError(f"{game.info.name} has no encoding for networks")
        check_fits(network, game)
        self.game = game
        self.network = network
        self.evaluations = 0

    def __call__(self, states: Sequence[Any]) -> list[tuple[dict[Any, float], float]]:
        game = self.game
        logits, values = self.network.forward(game.encode_many(states))
        self.evaluations += len(states)
        answers = []
        for state, row, value in zip(states, logits, values, strict=True):
            moves = list(game.legal_moves(state))
            probabilities = legal_softmax(row, [game.move_index(state, m) for m in moves])
            answers.append((dict(zip(moves, probabilities.tolist(), strict=True)),
                            float(value)))
        return answers

    def policy_value(self, state: Any) -> tuple[dict[Any, float], float]:
        """The network's priors over the legal moves and its value, for one state."""
        return self([state])[0]

    def heuristic(self, state: Any) -> float:
        """The value in alpha-beta's heuristic units (``alphabeta(evaluate=...)``): the
        network's value times ``VALUE_SCALE``, for the side to move."""
        _, values = self.network.forward(self.game.encode(state))
        self.evaluations += 1
        return float(values[0]) * VALUE_SCALE


class NetworkPlayer:
    """Plays the network's most likely legal move, no search (``yipan play --ai net``)."""

    name = "network"

    def __init__(self, evaluator: NetworkEvaluator) -> None:
        self.evaluator = evaluator

    def choose(self, game: Game, state: Any) -> Choice:
        priors, value = self.evaluator.policy_value(state)
        move = max(priors, key=priors.__getitem__)
        result = SearchResult(move=move, value=value, pv=(move,),
                              move_values=MappingProxyType({move: value}), depth=1,
                              stats=SearchStats(nodes=1), scale="mean")
        return Choice(move, result)
