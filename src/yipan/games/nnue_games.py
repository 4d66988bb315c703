"""The games that can train and play an efficiently updatable network (NNUE), one entry each:
what the training pipeline (``nnue_training``, ``nnue_selfplay``) and ``yipan train GAME
--nnue`` need of a game, so that none of them names a game.

An entry is a function that imports the game's modules and returns its ``NnueGame`` (the
imports wait until a game is asked for: the command line lists the games without compiling
any kernel). A game joins by giving its features (``yipan.games.GAME.nnue``: the kernel's
``network_value`` over the context's ``NETWORK_FIELDS``, ``evaluate_with``,
``active_features``, ``mirrored_features``, ``noisy_move``), an engine whose
``network_game`` is its name, and an entry here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

HASH_MB = 8  # the self-play engine's table: its searches are small


@dataclass(frozen=True)
class NnueGame:
    """One game's part of training and evaluating a network."""

    name: str
    features: int  # per perspective and king bucket (the first layer's rows: times buckets)
    layouts: tuple[int, ...]  # the king buckets the game's networks may have (1: none)
    row_size: int  # the kernel's position row
    # (rows, buckets) -> (the side to move's features, the other's), each (N, 32) padded
    # with features * buckets
    active_features: Callable[[np.ndarray, int], tuple[np.ndarray, np.ndarray]]
    # (features, rows chosen, buckets) -> the chosen rows seen in the game's mirror (the
    # same value)
    mirrored: Callable[[np.ndarray, np.ndarray, int], np.ndarray]
    evaluate_with: Callable[[dict[str, np.ndarray], np.ndarray], int]  # the kernel's value
    noisy_move: Callable[[np.ndarray, int], bool]  # the move takes a piece (or promotes)
    engine: Callable[[], Any]  # a fresh engine on the hand-set evaluation, no endgame tables
    opening: Callable[[Any, random.Random, int], Any]  # (rules, rng, random_plies) -> state


def random_opening(rules: Any, rng: random.Random, random_plies: int) -> Any:
    """The position after ``random_plies // 2``..``random_plies`` uniformly random moves
    from the start (at least one; drawn again if the game ended)."""
    while True:
        state = rules.initial_state()
        plies = rng.randint(max(1, random_plies // 2), max(1, random_plies))
        for _ in range(plies):
            moves = rules.legal_moves(state)
            if not moves or rules.outcome(state) is not None:
                break
            state = rules.play(state, rng.choice(moves))
        if rules.outcome(state) is None:
            return state


def _chess() -> NnueGame:
    from .chess import nnue
    from .chess.board import POSITION_SIZE
    from .chess.engine import Engine

    return NnueGame("chess", nnue.FEATURES, nnue.LAYOUTS, POSITION_SIZE, nnue.active_features,
                    nnue.mirrored_features, nnue.evaluate_with, nnue.noisy_move,
                    lambda: Engine(hash_mb=HASH_MB, tables=None), random_opening)


def _xiangqi() -> NnueGame:
    from .xiangqi import nnue
    from .xiangqi.board import POSITION_SIZE
    from .xiangqi.engine import Engine

    return NnueGame("xiangqi", nnue.FEATURES, nnue.LAYOUTS, POSITION_SIZE, nnue.active_features,
                    nnue.mirrored_features, nnue.evaluate_with, nnue.noisy_move,
                    lambda: Engine(hash_mb=HASH_MB), random_opening)


ENTRIES: dict[str, Callable[[], NnueGame]] = {"chess": _chess, "xiangqi": _xiangqi}
NNUE_GAMES = tuple(ENTRIES)


@cache
def nnue_game(name: str) -> NnueGame:
    """The entry of ``name`` (a ValueError for a game without networks)."""
    if name not in ENTRIES:
        raise ValueError(f"no evaluation network for {name} (games that have one: "
                         f"{', '.join(NNUE_GAMES)})")
    return ENTRIES[name]()
