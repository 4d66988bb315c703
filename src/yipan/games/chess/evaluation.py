"""The engine's evaluation, in numba: a tapered sum of middlegame and endgame terms.

``evaluate(position)`` is in centipawns for the side to move. Each term is a pair (middlegame,
endgame) for white minus black; the pair is blended by the game phase (knights and bishops 1,
rooks 2, queens 4; 24 with all pieces on, 0 with none)::

    score = (mg * phase + eg * (24 - phase)) / 24

Terms: material and piece-square tables; mobility (squares a piece attacks that hold no own
piece and no enemy pawn attacks, counted from a typical number); pawn structure (doubled,
isolated, passed by rank); king safety (own pawns sheltering a castled king, weighted enemy
attacks on the squares around it); the bishop pair; rooks on open and half-open files; a
"mop-up" term that drives a bare king to the edge and the other king towards it (mates
without tables); and a small bonus for the side to move.

How the numbers were set: by hand, from common chess knowledge, and checked only by playing
(the benchmark's WAC score and matches). They are not tuned by any data fit; the tables are
written as formulas (centralisation, advance) so that a reader sees the intent.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import lowest_square, popcount
from .board import (
    BISHOP,
    BLACK,
    KING,
    KING_ATTACKS,
    KNIGHT,
    KNIGHT_ATTACKS,
    PAWN,
    PAWN_ATTACKS,
    QUEEN,
    ROOK,
    SIDE,
    WHITE,
    _signed,
    bishop_attacks,
    rook_attacks,
)

MATERIAL_MG = np.array([90, 320, 330, 460, 950, 0], dtype=np.int64)
MATERIAL_EG = np.array([120, 300, 320, 520, 960, 0], dtype=np.int64)
PHASE_WEIGHT = np.array([0, 1, 1, 2, 4, 0], dtype=np.int64)
FULL_PHASE = 24
SEE_VALUE = np.array([100, 320, 330, 500, 950, 20000], dtype=np.int64)
"""Piece values for exchanges (static exchange evaluation, capture ordering)."""

MOBILITY_MG = np.array([0, 4, 5, 2, 1, 0], dtype=np.int64)
MOBILITY_EG = np.array([0, 4, 5, 4, 2, 0], dtype=np.int64)
MOBILITY_TYPICAL = np.array([0, 4, 6, 7, 13, 0], dtype=np.int64)
PASSED_MG = np.array([0, 5, 10, 15, 30, 50, 80, 0], dtype=np.int64)  # by relative rank
PASSED_EG = np.array([0, 10, 20, 35, 60, 100, 150, 0], dtype=np.int64)
DOUBLED_MG, DOUBLED_EG = 10, 20
ISOLATED_MG, ISOLATED_EG = 10, 15
BISHOP_PAIR_MG, BISHOP_PAIR_EG = 30, 50
ROOK_OPEN_MG, ROOK_OPEN_EG = 25, 10
ROOK_HALF_OPEN_MG, ROOK_HALF_OPEN_EG = 12, 5
SHELTER_MG = 12  # per own pawn in the three files in front of a king on its first two ranks
KING_ZONE_WEIGHT = np.array([0, 2, 2, 3, 5, 0], dtype=np.int64)  # per attacked zone square
KING_DANGER_CAP = 400
TEMPO = 10


# -- piece-square tables, from white's side (black reads square ^ 56) --------------------------
def _centre_distance(square: int) -> int:
    """Manhattan distance to the centre in half-files: 1 (d4..e5) to 7 (a corner)."""
    file, rank = square % 8, square // 8
    return (abs(2 * file - 7) + abs(2 * rank - 7)) // 2


def _centre_ring(square: int) -> int:
    """Chebyshev rings round the centre: 0 (d4..e5) to 3 (the edge)."""
    file, rank = square % 8, square // 8
    return max(abs(2 * file - 7), abs(2 * rank - 7)) // 2


def _tables() -> tuple[np.ndarray, np.ndarray]:
    mg = np.zeros((6, 64), dtype=np.int64)
    eg = np.zeros((6, 64), dtype=np.int64)
    pawn_advance_mg = [0, 0, 2, 6, 12, 24, 45, 0]
    pawn_advance_eg = [0, 0, 5, 12, 25, 45, 75, 0]
    centre_files = [0, 0, 5, 10, 10, 5, 0, 0]
    king_home = [20, 30, 10, 0, 0, 10, 30, 20]
    king_second = [10, 10, -5, -10, -10, -5, 10, 10]
    for square in range(64):
        file, rank = square % 8, square // 8
        distance, ring = _centre_distance(square), _centre_ring(square)
        if 1 <= rank <= 6:
            mg[PAWN, square] = pawn_advance_mg[rank] + (centre_files[file] if 2 <= rank <= 4
                                                        else 0)
            eg[PAWN, square] = pawn_advance_eg[rank]
        mg[KNIGHT, square] = 24 - 7 * distance
        eg[KNIGHT, square] = 16 - 5 * distance
        mg[BISHOP, square] = 10 - 3 * distance
        eg[BISHOP, square] = 8 - 3 * distance
        mg[ROOK, square] = (20 if rank == 6 else 0) + (5 if file in (3, 4) else 0)
        eg[ROOK, square] = 10 if rank == 6 else 0
        mg[QUEEN, square] = 4 - distance
        eg[QUEEN, square] = 10 - 3 * distance
        mg[KING, square] = (king_home[file] if rank == 0 else king_second[file] if rank == 1
                            else max(-60, -20 - 10 * (rank - 2)))
        eg[KING, square] = 30 - 15 * ring
    return mg + MATERIAL_MG[:, None], eg + MATERIAL_EG[:, None]


PST_MG, PST_EG = _tables()


def _pawn_masks() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """FILES[f]; ADJACENT_FILES[f]; PASSED_SPAN[c, s]: the squares ahead of a pawn of colour
    c on s, on its file and the two beside it (no enemy pawn there: it is passed)."""
    files = [sum(1 << (8 * r + f) for r in range(8)) for f in range(8)]
    adjacent = [(files[f - 1] if f > 0 else 0) | (files[f + 1] if f < 7 else 0)
                for f in range(8)]
    span = np.zeros((2, 64), dtype=np.int64)
    for square in range(64):
        file, rank = square % 8, square // 8
        columns = files[file] | adjacent[file]
        ahead = sum(1 << (8 * r + f) for r in range(rank + 1, 8) for f in range(8))
        behind = sum(1 << (8 * r + f) for r in range(0, rank) for f in range(8))
        span[0, square] = _signed(columns & ahead)
        span[1, square] = _signed(columns & behind)
    return (np.array([_signed(b) for b in files], dtype=np.int64),
            np.array([_signed(b) for b in adjacent], dtype=np.int64), span)


FILES, ADJACENT_FILES, PASSED_SPAN = _pawn_masks()


def _shelter_masks() -> np.ndarray:
    """SHELTER[c, s]: for a king of colour c on s, the squares of the three files around it
    on the two ranks in front."""
    masks = np.zeros((2, 64), dtype=np.int64)
    for square in range(64):
        file, rank = square % 8, square // 8
        for colour, step in ((0, 1), (1, -1)):
            bits = 0
            for df in (-1, 0, 1):
                for dr in (1, 2):
                    f, r = file + df, rank + step * dr
                    if 0 <= f < 8 and 0 <= r < 8:
                        bits |= 1 << (8 * r + f)
            masks[colour, square] = _signed(bits)
    return masks


SHELTER = _shelter_masks()


@njit(cache=True, inline="always")
def _pawn_attack_span(pawns: int, colour: int) -> int:
    """Every square the given pawns of ``colour`` attack."""
    attacked = 0
    while pawns:
        square = lowest_square(pawns)
        pawns &= pawns - 1
        attacked |= PAWN_ATTACKS[colour, square]
    return attacked


@njit(cache=True)
def _side_terms(position: np.ndarray, colour: int, out: np.ndarray) -> None:
    """out[0], out[1], out[2] += this colour's middlegame, endgame and phase terms."""
    own = position[WHITE + colour]
    enemy = position[WHITE + 1 - colour]
    occupied = own | enemy
    flip = 56 * colour
    mg = 0
    eg = 0
    phase = 0
    own_pawns = position[PAWN] & own
    enemy_pawns = position[PAWN] & enemy
    unsafe = _pawn_attack_span(enemy_pawns, 1 - colour) | own
    enemy_king = lowest_square(position[KING] & enemy)
    zone = KING_ATTACKS[enemy_king]
    danger = 0
    attackers_of_king = 0
    for kind in range(6):
        pieces = position[kind] & own
        while pieces:
            square = lowest_square(pieces)
            pieces &= pieces - 1
            relative = square ^ flip
            mg += PST_MG[kind, relative]
            eg += PST_EG[kind, relative]
            phase += PHASE_WEIGHT[kind]
            if kind == PAWN or kind == KING:  # noqa: SIM109 - kernel code
                continue
            if kind == KNIGHT:
                attacks = KNIGHT_ATTACKS[square]
            elif kind == BISHOP:
                attacks = bishop_attacks(square, occupied)
            elif kind == ROOK:
                attacks = rook_attacks(square, occupied)
                file_pawns = FILES[square & 7] & position[PAWN]
                if file_pawns == 0:
                    mg += ROOK_OPEN_MG
                    eg += ROOK_OPEN_EG
                elif file_pawns & own == 0:
                    mg += ROOK_HALF_OPEN_MG
                    eg += ROOK_HALF_OPEN_EG
            else:
                attacks = bishop_attacks(square, occupied) | rook_attacks(square, occupied)
            reach = popcount(attacks & ~unsafe) - MOBILITY_TYPICAL[kind]
            mg += MOBILITY_MG[kind] * reach
            eg += MOBILITY_EG[kind] * reach
            near = popcount(attacks & zone)
            if near:
                attackers_of_king += 1
                danger += near * KING_ZONE_WEIGHT[kind]
    if attackers_of_king >= 2:
        mg += min(danger * danger * 3 // 2, KING_DANGER_CAP)

    # pawns: doubled, isolated, passed
    pawns = own_pawns
    while pawns:
        square = lowest_square(pawns)
        pawns &= pawns - 1
        file = square & 7
        if popcount(own_pawns & FILES[file]) > 1:
            mg -= DOUBLED_MG // 2  # each of the two pays half
            eg -= DOUBLED_EG // 2
        if own_pawns & ADJACENT_FILES[file] == 0:
            mg -= ISOLATED_MG
            eg -= ISOLATED_EG
        if enemy_pawns & PASSED_SPAN[colour, square] == 0:
            rank = (square >> 3) ^ (7 * colour)
            mg += PASSED_MG[rank]
            eg += PASSED_EG[rank]

    # the king's pawn shelter, while it stands on its first two ranks
    king = lowest_square(position[KING] & own)
    if ((king >> 3) ^ (7 * colour)) <= 1:
        mg += SHELTER_MG * popcount(SHELTER[colour, king] & own_pawns)

    if popcount(position[BISHOP] & own) >= 2:
        mg += BISHOP_PAIR_MG
        eg += BISHOP_PAIR_EG
    out[0] += mg
    out[1] += eg
    out[2] += phase


@njit(cache=True, inline="always")
def _ring(square: int) -> int:
    file, rank = square & 7, square >> 3
    return max(abs(2 * file - 7), abs(2 * rank - 7)) >> 1


@njit(cache=True)
def _mop_up(position: np.ndarray) -> int:
    """For white: when one side has a bare king and the other mating material, the bare king
    is driven to the edge and the strong king walks up to it."""
    white_alone = popcount(position[WHITE]) == 1
    black_alone = popcount(position[BLACK]) == 1
    if white_alone == black_alone:
        return 0
    strong = 1 if white_alone else 0
    strong_material = position[WHITE + strong] & ~position[KING]
    if strong_material & (position[ROOK] | position[QUEEN] | position[PAWN]) == 0 \
            and popcount(strong_material) < 2:
        return 0
    bare = lowest_square(position[KING] & position[WHITE + 1 - strong])
    king = lowest_square(position[KING] & position[WHITE + strong])
    distance = max(abs((bare & 7) - (king & 7)), abs((bare >> 3) - (king >> 3)))
    bonus = 40 * _ring(bare) + 10 * (7 - distance)
    return bonus if strong == 0 else -bonus


@njit(cache=True)
def evaluate(position: np.ndarray, terms: np.ndarray) -> int:
    """The position's value in centipawns for the side to move (``terms``: 3 scratch ints)."""
    terms[0] = 0
    terms[1] = 0
    terms[2] = 0
    # (literal colours on purpose: numba compiles a version for each, with the colour's
    # constants folded; the search ran 1-4% faster for 1.1 s more of a first run's compile)
    _side_terms(position, 0, terms)
    mg, eg, phase = terms[0], terms[1], terms[2]
    terms[0] = 0
    terms[1] = 0
    terms[2] = 0
    _side_terms(position, 1, terms)
    mg -= terms[0]
    eg -= terms[1]
    phase = min(phase + terms[2], FULL_PHASE)
    score = (mg * phase + eg * (FULL_PHASE - phase)) // FULL_PHASE + _mop_up(position)
    if position[SIDE] == 1:
        score = -score
    return score + TEMPO


def evaluate_state(row: np.ndarray) -> int:
    """``evaluate`` of one position row (the Game's heuristic)."""
    return int(evaluate(row, np.zeros(3, dtype=np.int64)))
