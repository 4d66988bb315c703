"""Chess's hooks: the engine as the AI and as ``yipan analyze chess``, perft by the numba
counter, and the kernels prepared before any clock starts.

``analyze`` reports the engine's search in the shared schema; ``extra`` carries ``san``
(the best move in SAN), ``pv_san`` (the main line in SAN), ``fen``, ``score_cp`` (centipawns
for the side to move, or null for a mate) and ``tablebase`` (the endgame table's verdict when
one covers the position: ``{"table": "KRK", "outcome": "win", "moves_to_mate": 12}``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core import GameHooks
from . import board as kernel
from .rules import Chess, Position, legal_moves_of, to_row


def perft(game: Chess, state: Position, depth: int) -> dict[int, int]:
    """The leaves below each legal move, counted by the numba kernel (bulk at the last ply).

    This is chess programs' perft: move sequences under the rules of movement, ended by
    checkmate and stalemate only. The draws the Game declares by rule (fifty moves,
    repetition, insufficient material) do not end a line here, so on trees that reach one the
    count exceeds ``yipan.search.perft``'s over the Game protocol."""
    if depth == 0:
        return {}
    stack = np.zeros((depth + 1, kernel.POSITION_SIZE), dtype=np.int64)
    moves = np.zeros((depth + 1, kernel.MAX_MOVES), dtype=np.int64)
    root = to_row(state)
    counts = {}
    for move in legal_moves_of(state):
        if depth == 1:
            counts[move] = 1
            continue
        kernel.make_move(root, stack[1], move)
        counts[move] = int(kernel.perft(stack, moves, 1, depth - 1))
    return counts


def prepare() -> None:
    """Compile (or load) the kernels: perft and the search, each on a small task."""
    game = Chess()
    perft(game, game.initial_state(), 2)


HOOKS: Any = GameHooks(perft=perft, prepare=prepare)
