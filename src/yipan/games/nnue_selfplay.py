"""Training positions for an efficiently updatable network: the engine's own games, labelled
by its own search.

A *unit* is ``games`` self-play games drawn from ``random.Random(f"{seed}:{unit}")`` (so a unit
is a pure function of its job and may run on any process): each game starts with the game's
opening (``NnueGame.opening``: up to ``random_plies`` uniformly random moves, a few to a dozen:
varied openings), then the engine plays itself, every move searched to ``depth`` plies (or
``nodes``, when given). The score of
that search labels the position it was made from (centipawns for the side to move), and the
game's result labels every position of the game (for the side to move: 1 won, 0 drawn, -1
lost); training blends the two.

Only quiet positions are kept (the side to move not in check, and its best move neither a
capture nor a promotion: ``NnueGame.noisy_move``): a static evaluation cannot see a pending
exchange, and labels the search settled by one only teach it noise. Games are adjudicated
(the result is then the search's): a score beyond ``ADJUDICATE`` for ``ADJUDICATE_PLIES``
plies in a row wins, and a game longer than ``MAX_GAME_PLIES`` is drawn.

A unit's positions are one ``Positions`` of arrays (saved as ``data-NNNN.npz`` by the
pipeline)::

    rows     (N, row size) int64   the kernel position rows (``NnueGame.row_size``)
    scores   (N,) int32            the search's score, side to move, clipped to +-SCORE_CLIP
    results  (N,) int8             the game's result for the side to move: 1, 0, -1
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..chess_family.scores import MATE_BOUND
from ..core import Limit
from .nnue_games import nnue_game

SCORE_CLIP = 3_000  # centipawns: beyond it a position is won whatever its exact value
ADJUDICATE = 1_000  # centipawns held for ADJUDICATE_PLIES plies: the game is decided
ADJUDICATE_PLIES = 8
MAX_GAME_PLIES = 300


@dataclass(frozen=True)
class Positions:
    rows: np.ndarray
    scores: np.ndarray
    results: np.ndarray

    def __len__(self) -> int:
        return int(self.scores.shape[0])

    @staticmethod
    def join(parts: list[Positions], row_size: int) -> Positions:
        if not parts:
            return Positions(np.zeros((0, row_size), np.int64), np.zeros(0, np.int32),
                             np.zeros(0, np.int8))
        return Positions(np.concatenate([p.rows for p in parts]),
                         np.concatenate([p.scores for p in parts]),
                         np.concatenate([p.results for p in parts]))


def family_engine(game_name: str) -> tuple[Any, Any]:
    """A fresh engine for ``game_name`` (its hand-set evaluation, no endgame tables) and the
    game's rules."""
    engine = nnue_game(game_name).engine()
    return engine, engine.game


def play_unit(game_name: str, seed: int, unit: int, games: int, random_plies: int,
              depth: int, nodes: int, network_path: str | None = None) -> Positions:
    """The labelled positions of one unit's games (module docstring). With
    ``network_path``, the engine searches with that network (the next round's labels)."""
    rng = random.Random(f"{seed}:{unit}")
    engine, rules = family_engine(game_name)
    if network_path is not None:
        engine.use_network(network_path)
    limit = Limit(depth=depth) if nodes <= 0 else Limit(nodes=nodes)
    parts: list[Positions] = []
    for _ in range(games):
        parts.append(_one_game(game_name, engine, rules, rng, random_plies, limit))
    return Positions.join(parts, engine.ctx.stack.shape[1])


def _one_game(game_name: str, engine: Any, rules: Any, rng: random.Random,
              random_plies: int, limit: Limit) -> Positions:
    entry = nnue_game(game_name)
    state = entry.opening(rules, rng, random_plies)
    engine.clear()
    rows: list[np.ndarray] = []
    scores: list[int] = []
    sides: list[int] = []
    result_for_white = 0
    decided = 0
    for _ in range(MAX_GAME_PLIES):
        outcome = rules.outcome(state)
        if outcome is not None:
            result_for_white = outcome.result_for(0)
            break
        found = engine.think(state, limit)
        row = engine.to_row(state)
        side = rules.to_move(state)
        score = int(found.score)
        if abs(score) < MATE_BOUND and not rules.kernel.is_check(state) \
                and not entry.noisy_move(row, found.move):
            rows.append(row.copy())
            scores.append(max(-SCORE_CLIP, min(SCORE_CLIP, score)))
            sides.append(side)
        decided = decided + 1 if abs(score) >= ADJUDICATE else 0
        if decided >= ADJUDICATE_PLIES or abs(score) >= MATE_BOUND:
            winner_is_mover = score > 0
            result_for_white = 1 if winner_is_mover == (side == 0) else -1
            break
        state = rules.play(state, found.move)
    results = [result_for_white if side == 0 else -result_for_white for side in sides]
    size = engine.ctx.stack.shape[1]
    return Positions(np.array(rows, np.int64).reshape(-1, size), np.array(scores, np.int32),
                     np.array(results, np.int8))
