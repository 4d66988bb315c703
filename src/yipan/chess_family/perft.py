"""Perft for a family game by its numba counter: the leaves below each legal move of the root,
as engines count them (move sequences under the rules of movement, ended only where a side
has no legal move: the draws a game declares by rule do not end a line, so on trees that
reach one the count exceeds ``yipan.search.perft``'s over the Game protocol)."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

import numpy as np


def divide(board: ModuleType, root: np.ndarray, moves: Sequence[int],
           depth: int) -> dict[int, int]:
    """The leaves below each of the root's legal ``moves``, counted by the game's numba
    counter (``board.perft(stack, moves, ply, depth)``, bulk at the last ply)."""
    if depth == 0:
        return {}
    stack = np.zeros((depth + 1, board.POSITION_SIZE), dtype=np.int64)
    buffers = np.zeros((depth + 1, board.MAX_MOVES), dtype=np.int64)
    counts = {}
    for move in moves:
        if depth == 1:
            counts[move] = 1
            continue
        board.make_move(root, stack[1], move)
        counts[move] = int(board.perft(stack, buffers, 1, depth - 1))
    return counts
