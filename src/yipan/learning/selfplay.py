"""Self-play, the AlphaZero way: PUCT with the network plays itself; its visit counts become
the policy targets and the game's result the value targets.

Each move: a PUCT search of ``simulations`` from the position (Dirichlet noise mixed into the
root's priors, from an injected numpy Generator), the move drawn with temperature 1 (in
proportion to the visits) for the first ``temperature_moves`` plies, the most visited after.
The tree below the move played is kept for the next search.

``match`` plays two networks against each other (PUCT, no noise; the first ``opening``
plies at temperature 1 so that the games differ), sides alternating; ``gate`` keeps the new
network only if it scores at least ``threshold`` of the points (a win 1, a draw 1/2).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import Game, Limit
from ..search.puct import PUCT, Noise, choose_move, visits_of
from .data import Dataset, example, from_examples
from .evaluate import NetworkEvaluator
from .network import Network


@dataclass(frozen=True, slots=True)
class SelfPlay:
    simulations: int = 100
    temperature_moves: int = 8
    noise_fraction: float = 0.25
    batch: int = 8

    def alpha(self, game: Game) -> float:
        """Dirichlet alpha: about 10 / the number of moves (AlphaZero's rule of thumb)."""
        return 10.0 / max(game.info.actions or 10, 1)


def self_play(game: Game, network: Network, games: int, settings: SelfPlay,
              rng: random.Random, noise_rng: np.random.Generator,
              progress: Callable[[int], None] | None = None) -> Dataset:
    """The examples of ``games`` games of the network against itself."""
    evaluator = NetworkEvaluator(game, network)
    rows = []
    for number in range(games):
        search = PUCT(game, evaluator, batch=settings.batch,
                      noise=Noise(noise_rng, settings.alpha(game), settings.noise_fraction))
        state = game.initial_state()
        record: list[tuple[Any, dict[Any, int]]] = []
        ply = 0
        while game.outcome(state) is None:
            result = search.run(state, Limit(nodes=settings.simulations))
            visits = visits_of(result)
            record.append((state, visits))
            temperature = 1.0 if ply < settings.temperature_moves else 0.0
            state = game.play(state, choose_move(visits, temperature, rng))
            search.advance(state)
            ply += 1
        outcome = game.outcome(state)
        assert outcome is not None
        for position, visits in record:
            targets = {move: float(n) for move, n in visits.items()}
            rows.append(example(game, position, targets,
                                outcome.result_for(game.to_move(position))))
        if progress is not None:
            progress(number + 1)
    return from_examples(game, rows)


UNIT_GAMES = 4  # self-play games a unit of work (one process, one cluster task)


def self_play_unit(game: Game, network: Network, games: int, settings: SelfPlay,
                   seed: str) -> Dataset:
    """``games`` games of self-play as a unit of work: plain data in (the seed names its random
    choices), examples out, so the same unit gives the same examples wherever it runs."""
    return self_play(game, network, games, settings, random.Random(seed),
                     np.random.default_rng(list(seed.encode())))


def match(game: Game, first: Network, second: Network, games: int, simulations: int,
          rng: random.Random, opening: int = 2) -> float:
    """The share of the points ``first`` scores against ``second`` (sides alternating)."""
    points = 0.0
    for number in range(games):
        nets = (first, second) if number % 2 == 0 else (second, first)
        searches = [PUCT(game, NetworkEvaluator(game, net)) for net in nets]
        state = game.initial_state()
        ply = 0
        while game.outcome(state) is None:
            search = searches[game.to_move(state)]
            result = search.run(state, Limit(nodes=simulations))
            temperature = 1.0 if ply < opening else 0.0
            state = game.play(state, choose_move(visits_of(result), temperature, rng))
            for each in searches:
                each.advance(state)
            ply += 1
        outcome = game.outcome(state)
        assert outcome is not None
        points += (outcome.result_for(number % 2) + 1) / 2
    return points / games


@dataclass
class ReplayBuffer:
    """The most recent ``capacity`` examples of self-play."""

    capacity: int
    data: Dataset | None = None

    def add(self, new: Dataset) -> None:
        joined = new if self.data is None else Dataset.join([self.data, new])
        self.data = joined.take(slice(max(0, len(joined) - self.capacity), None))
