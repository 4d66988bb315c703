"""Connect Four positions labelled by the solver, for training and measuring networks.

How positions are drawn (``sample_games``): a game starts with ``opening`` uniformly random
moves (``opening`` drawn from 0..MIN_PLY); from ply ``MIN_PLY`` on, every position is solved
(every column's exact score, ``Solver.analyze``) and the next move is an optimal one with
probability ``OPTIMAL_SHARE``, else a random legal move, to the end of the game. So the
positions are those of imperfect play that keeps the game alive, not of random play only
(whose positions are mostly decided at once). Positions before ``MIN_PLY`` are not labelled:
their solves take seconds each (ply 8: about 3 s; ply 10: 0.3 s; ply 12 on: under 0.1 s).

Each label: the value is the sign of the best score (+1 win, 0 draw, -1 loss for the side to
move); the policy is shared equally by the optimal columns (those of the best score).
``mirror`` doubles a set by the board's left-right symmetry.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ...learning.data import Dataset, example, from_examples
from .rules import ConnectFour, Position

MIN_PLY = 10
OPTIMAL_SHARE = 0.6


@dataclass(frozen=True, slots=True)
class Labelled:
    """A position and every legal column's exact score (the solver's convention)."""

    position: Position
    scores: dict[int, int]

    @property
    def best(self) -> int:
        return max(self.scores.values())

    @property
    def optimal(self) -> list[int]:
        return [col for col, score in self.scores.items() if score == self.best]

    @property
    def value(self) -> int:
        return (self.best > 0) - (self.best < 0)


def sample_games(game: ConnectFour, rng: random.Random, min_ply: int = MIN_PLY,
                 max_ply: int | None = None) -> Iterator[Labelled]:
    """Labelled positions, game after game, for ever (module docstring)."""
    from .book import make_solver

    solver = make_solver(game.width, game.height)
    while True:
        state = game.initial_state()
        for _ in range(rng.randint(0, min_ply)):
            if game.outcome(state) is not None:
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        while game.outcome(state) is None and (max_ply is None or state.moves <= max_ply):
            if state.moves < min_ply:
                state = game.play(state, rng.choice(game.legal_moves(state)))
                continue
            solver.reset()
            scores = solver.analyze(state)
            labelled = Labelled(state, {col: int(s) for col, s in scores.items()
                                        if s is not None})
            yield labelled
            moves = labelled.optimal if rng.random() < OPTIMAL_SHARE \
                else game.legal_moves(state)
            state = game.play(state, rng.choice(moves))


def labelled_positions(game: ConnectFour, count: int, rng: random.Random, *,
                       min_ply: int = MIN_PLY, max_ply: int | None = None,
                       progress: Callable[[int], None] | None = None) -> list[Labelled]:
    """``count`` distinct labelled positions (mirror images count as one)."""
    seen: set[int] = set()
    found: list[Labelled] = []
    for labelled in sample_games(game, rng, min_ply, max_ply):
        key = game.key(labelled.position)
        if key in seen:
            continue
        seen.add(key)
        found.append(labelled)
        if progress is not None:
            progress(len(found))
        if len(found) >= count:
            return found
    return found  # pragma: no cover - the sampler never ends


def to_dataset(game: ConnectFour, labelled: list[Labelled], mirror: bool = True) -> Dataset:
    rows = []
    for item in labelled:
        rows.append(example(game, item.position, {c: 1.0 for c in item.optimal}, item.value))
        if mirror:
            image = game.symmetries(item.position)[1]
            flipped = {game.width - 1 - c: 1.0 for c in item.optimal}
            rows.append(example(game, image, flipped, item.value))
    return from_examples(game, rows)


def solver_dataset(game: ConnectFour, count: int, rng: random.Random, *,
                   progress: Callable[[int], None] | None = None) -> Dataset:
    """``count`` solver-labelled positions and their mirror images (``2 * count`` examples)."""
    return to_dataset(game, labelled_positions(game, count, rng, progress=progress))
