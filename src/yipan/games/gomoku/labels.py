"""Gomoku positions labelled by the engine, for training networks (``yipan train gomoku``).

Gomoku has no solver here, so the engine is the teacher: positions come from games the
engine plays against itself, each after ``OPENING`` stones placed at random near the centre;
at every later position the engine thinks for ``NODES`` nodes, and its move is the target
policy. The target value is the game's result for the side to move (+1 win, 0 draw, -1
loss), as in self-play: the engine's own values are not comparable across its steps (a
block it is forced into has no value; a game still open after ``MAX_PLIES`` counts as a
draw, rare at this board size). One move in ``EXPLORE`` is a random point near the
stones instead of the engine's, so the games do not repeat. A square board is the same
turned and mirrored: each position is added in its eight symmetries.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ...learning.data import Dataset, example, from_examples
from .rules import Gomoku, Stones

if TYPE_CHECKING:
    from .engine import Engine

OPENING = 4  # random stones near the centre before the engine plays
OPENING_SPAN = 3  # ... within this many points of the centre
NODES = 5_000  # the engine's budget per labelled position
EXPLORE = 10  # one move in EXPLORE is a random point near the stones
MAX_PLIES = 80  # a game stops being labelled after this many plies


def engine_dataset(game: Gomoku, count: int, rng: random.Random, *,
                   progress: Callable[[int], None] | None = None) -> Dataset:
    """``count`` engine-labelled positions, each in its eight symmetries (module doc)."""
    from .engine import Engine

    engine = Engine(game.size, game.rule, memory_bytes=1 << 22)
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]] = []
    labelled = 0
    while labelled < count:
        positions, result_for_black = _one_game(game, engine, rng, count - labelled)
        for state, move in positions:
            black_to_move = game.to_move(state) == 0
            value = result_for_black if black_to_move else -result_for_black
            rows.extend(symmetries(game, example(game, state, {move: 1.0}, value)))
            labelled += 1
            if progress is not None:
                progress(labelled)
    return from_examples(game, rows)


def _one_game(game: Gomoku, engine: Engine, rng: random.Random, wanted: int
              ) -> tuple[list[tuple[Stones, int]], float]:
    """(position, the engine's move) pairs of one game, and its result for black."""
    state = game.initial_state()
    engine.reset()
    for point in random_opening(game, rng):
        engine.play(point)
        state = game.play(state, point)
    positions: list[tuple[Stones, int]] = []
    while game.outcome(state) is None and len(engine.moves) < MAX_PLIES:
        move = engine.think(seconds=None, nodes=NODES).move
        if len(positions) < wanted:  # (played on to the end, for the result)
            positions.append((state, move))
        if rng.randrange(EXPLORE) == 0:
            move = rng.choice(near_points(game, state, engine))
        engine.play(move)
        state = game.play(state, move)
    outcome = game.outcome(state)
    if outcome is None or outcome.winner is None:
        return positions, 0.0
    return positions, 1.0 if outcome.winner == 0 else -1.0


def random_opening(game: Gomoku, rng: random.Random) -> list[int]:
    """``OPENING`` distinct points drawn near the centre, in the order they are played."""
    centre, points = game.size // 2, list[int]()
    while len(points) < OPENING:
        point = game.point(centre + rng.randint(-OPENING_SPAN, OPENING_SPAN),
                           centre + rng.randint(-OPENING_SPAN, OPENING_SPAN))
        if point not in points:
            points.append(point)
    return points


def near_points(game: Gomoku, state: Stones, engine: Engine) -> list[int]:
    """Legal points within two points of a stone (the candidates a player looks at: the
    engine's board counts the stones around each cell)."""
    legal = sorted(game.legal_moves(state))
    return [p for p in legal if engine.board.near[engine.cell(p)] > 0] or legal


def symmetries(game: Gomoku, row: tuple[np.ndarray, np.ndarray, np.ndarray, float]
               ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]:
    """An example turned by 0-3 quarter turns, each also mirrored: eight examples."""
    planes, policy, legal, value = row
    size = game.size
    out = []
    for flip in (False, True):
        p = planes[:, :, ::-1] if flip else planes
        pol = policy.reshape(size, size)[:, ::-1] if flip else policy.reshape(size, size)
        leg = legal.reshape(size, size)[:, ::-1] if flip else legal.reshape(size, size)
        for turns in range(4):
            out.append((np.ascontiguousarray(np.rot90(p, turns, axes=(1, 2))),
                        np.rot90(pol, turns).reshape(-1).copy(),
                        np.rot90(leg, turns).reshape(-1).copy(), value))
    return out
