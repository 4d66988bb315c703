"""The static evaluation, in numba: centipawns for the side to move.

Four terms, each red's minus black's:

- material and piece-square tables (``PST[piece, square]``, built below from a few rules so
  each number has a reason): a soldier is worth 30 before the river and 60-90 after it,
  most near the enemy palace and on the middle files, less on the last rank where it can only
  go sideways; horses gain on the middle files and near the enemy palace and lose on the
  edge; rooks on the enemy side and on open central files; cannons on the central file and
  their own back ranks; a general is best at home on the central file;
- mobility: the points a rook reaches (2 each) and the moves a horse has free of its leg
  (4 each; a hobbled horse is the commonest weakness in xiangqi);
- king safety: each missing advisor or elephant costs in proportion to the enemy's attackers
  across the river (rooks, horses and cannons, as a rook counts twice); a cannon facing the
  general on its file with one piece between (a loaded central cannon) costs 30;
- a small bonus for the side to move (tempo).

Material and tables are set by hand from the usual rules of thumb (rook 600, cannon 285,
horse 270, advisor and elephant 120, soldier 30/60+). The other weights (``DEFAULT_WEIGHTS``)
were checked by self-play (``benchmarks/xiangqi.py --only selfplay``: 20 games a variant,
openings played with both colours, 20,000 nodes a move): without mobility the engine scored
28%, with it doubled 40%; a missing-defender weight of 12 lost 7-13 to none at all, so it is 4
now (10-10 against none, 12.5-7.5 against 12); without the loaded-cannon term it scored 50%
(kept, as the palace's one direct threat).
Twenty games tell apart only large differences: a finer tuning needs many more.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import (
    ADVISOR,
    CANNON,
    ELEPHANT,
    HORSE,
    HORSE_COUNT,
    HORSE_LEG,
    HORSE_TARGETS,
    KING,
    KINGS,
    PAWN,
    RAY_LENGTH,
    RAYS,
    ROOK,
    SIDE,
    SQUARES,
)

MATERIAL = np.array([0, 0, 120, 120, 270, 600, 285, 30], dtype=np.int64)  # by kind
ORDER_VALUE = np.array([0, 5000, 120, 120, 270, 600, 285, 60, 0, 5000, 120, 120, 270, 600,
                        285, 60], dtype=np.int64)  # by piece, for move ordering
# the weights of the terms beyond material and tables, in one array so that a self-play match
# can try others without recompiling (``benchmarks/xiangqi.py --only selfplay``)
ROOK_MOBILITY, HORSE_MOBILITY, MISSING_DEFENDER, LOADED_CANNON, TEMPO = range(5)
WEIGHT_NAMES = ("rook mobility", "horse mobility", "missing defender", "loaded cannon", "tempo")
DEFAULT_WEIGHTS = np.array([2, 4, 4, 30, 10], dtype=np.int64)
# rook mobility: a point a rook reaches; horse mobility: a free move; missing defender: per
# missing advisor/elephant, per enemy attacker across the river; loaded cannon: its threat


def _red_table(kind: int) -> np.ndarray:
    """Red's value of a piece of ``kind`` on each square (material included)."""
    table = np.zeros(SQUARES, dtype=np.int64)
    for square in range(SQUARES):
        rank, file = divmod(square, 9)
        centre = 4 - abs(file - 4)  # 0 on the edge files .. 4 on the central file
        value = int(MATERIAL[kind])
        if kind == PAWN:
            if rank >= 5:
                value = 60 + 3 * centre + {5: 0, 6: 10, 7: 20, 8: 15, 9: -15}[rank]
                if rank in (6, 7, 8) and 3 <= file <= 5:
                    value += 10
            elif rank == 4 and file in (2, 4, 6):
                value += 5
        elif kind == HORSE:
            value += 4 * centre - (10 if file in (0, 8) else 0) - (8 if rank == 0 else 0)
            if 5 <= rank <= 8 and 2 <= file <= 6:
                value += 12
            if rank in (7, 8) and file in (3, 5):
                value += 10
        elif kind == ROOK:
            value += 8 if rank >= 5 else 0
            value += 6 if file in (3, 5) else 0
            value += 4 if rank in (6, 7) else 0
        elif kind == CANNON:
            value += 12 if file == 4 else 2 * centre
            value += 4 if rank in (0, 2) else 0
            value -= 6 if rank in (5, 6) else 0
        elif kind == KING:
            value -= 15 * rank + 6 * abs(file - 4)
        elif kind in (ADVISOR, ELEPHANT):
            value += 5 if file == 4 else 0
        table[square] = value
    return table


def _tables() -> np.ndarray:
    """PST[piece, square], red positive and black negative (black's mirrored by rank)."""
    pst = np.zeros((16, SQUARES), dtype=np.int64)
    for kind in range(1, 8):
        red = _red_table(kind)
        pst[kind] = red
        for square in range(SQUARES):
            rank, file = divmod(square, 9)
            pst[8 + kind, square] = -red[9 * (9 - rank) + file]
    return pst


PST = _tables()


@njit(cache=True)
def evaluate(position: np.ndarray, weights: np.ndarray) -> int:
    """Centipawns for the side to move (module docstring), under ``weights``
    (``DEFAULT_WEIGHTS``' layout)."""
    score = 0
    defenders = np.zeros(2, dtype=np.int64)
    attackers = np.zeros(2, dtype=np.int64)
    for square in range(SQUARES):
        piece = position[square]
        if piece == 0:
            continue
        score += PST[piece, square]
        colour = piece >> 3
        kind = piece & 7
        sign = 1 - 2 * colour
        if kind == ADVISOR or kind == ELEPHANT:  # noqa: SIM109 - kernel code
            defenders[colour] += 1
        elif kind == ROOK:
            reach = 0
            for direction in range(4):
                for index in range(RAY_LENGTH[square, direction]):
                    reach += 1
                    if position[RAYS[square, direction, index]]:
                        break
            score += sign * weights[ROOK_MOBILITY] * reach
            if (square // 9 >= 5) == (colour == 0):
                attackers[colour] += 2
        elif kind == HORSE:
            free = 0
            for index in range(HORSE_COUNT[square]):
                if position[HORSE_LEG[square, index]] == 0:
                    target = position[HORSE_TARGETS[square, index]]
                    if target == 0 or (target >> 3) != colour:
                        free += 1
            score += sign * weights[HORSE_MOBILITY] * free
            if (square // 9 >= 5) == (colour == 0):
                attackers[colour] += 1
        elif kind == CANNON and (square // 9 >= 5) == (colour == 0):
            attackers[colour] += 1
    for colour in range(2):
        sign = 1 - 2 * colour
        enemy = 1 - colour
        missing = 4 - defenders[colour]
        score -= sign * weights[MISSING_DEFENDER] * missing * attackers[enemy]
        king = position[KINGS + colour]
        # a loaded cannon: the enemy's cannon on the general's file, one piece between
        direction = 0 if colour == 0 else 1  # toward the enemy
        between = 0
        for index in range(RAY_LENGTH[king, direction]):
            piece = position[RAYS[king, direction, index]]
            if piece:
                if between == 1:
                    if piece == enemy * 8 + CANNON:
                        score -= sign * weights[LOADED_CANNON]
                    break
                between += 1
    if position[SIDE]:
        score = -score
    return score + weights[TEMPO]
