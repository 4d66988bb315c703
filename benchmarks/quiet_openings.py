"""Openings varied without giving material away: what the self-play and ladder benchmarks
share (``family_selfplay.py``, ``xiangqi.py``)."""

from __future__ import annotations

import random
from typing import Any


def random_quiet_moves(game: Any, state: Any, plies: int, rng: random.Random) -> list[int]:
    """Up to ``plies`` random legal moves from ``state`` that take nothing (so that neither
    side starts a piece down), fewer when a position has none."""
    moves = []
    for _ in range(plies):
        quiet = [m for m in game.legal_moves(state) if not _captures(game, state, m)]
        if not quiet:
            break
        move = rng.choice(quiet)
        moves.append(move)
        state = game.play(state, move)
    return moves


def _captures(game: Any, state: Any, move: int) -> bool:
    """Whether ``move`` takes a piece (the material count changes)."""
    return _material(game, game.play(state, move)) != _material(game, state)


def _material(game: Any, state: Any) -> int:
    return sum(1 for ch in game.fen(state).split()[0] if ch.isalpha())
