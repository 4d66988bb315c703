"""Chinese chess on a mailbox, in numba: move tables, legal move generation, make-move, perft.

Squares are numbered ``9 * rank + file``; rank 0 is red's back rank, file 0 is ICCS file
``a`` (red's left, black's right)::

    9 | 81 82 83 84 85 86 87 88 89      black's palace: files d-f, ranks 7-9
    8 | 72 .. .. .. .. .. .. .. 80
    7 | 63 .. .. .. .. .. .. .. 71
    6 | 54 .. .. .. .. .. .. .. 62
    5 | 45 .. .. .. .. .. .. .. 53      ~~~ the river: between ranks 4 and 5 ~~~
    4 | 36 .. .. .. .. .. .. .. 44
    3 | 27 .. .. .. .. .. .. .. 35
    2 | 18 .. .. .. .. .. .. .. 26
    1 |  9 .. .. .. .. .. .. .. 17
    0 |  0  1  2  3  4  5  6  7  8      red's palace: files d-f, ranks 0-2
        a  b  c  d  e  f  g  h  i

A position is one row of int64 (``POSITION_SIZE``), copied and changed by ``make_move``
(copy-make: the search keeps one row per ply)::

    0..89        the piece on each square: 0 empty, colour * 8 + kind (kind 1..7:
                 KING ADVISOR ELEPHANT HORSE ROOK CANNON PAWN; colour 0 red, 1 black)
    SIDE (90)    0 red to move, 1 black
    KEY (91)     the Zobrist key of squares and side
    KINGS (92, 93) the square of red's and black's general
    QUIET (94)   plies since the last capture (the sixty-move rule; repetitions look back
                 no further)

A move is an int, ``from | to << 7`` (0 is no move: a piece never moves onto its own square).
Every piece's targets come from tables computed once in Python (no bounds checks in the
kernels): rays for rooks and cannons, the horse's targets each with its leg, the elephant's
with its eye, the palace moves of generals and advisors, the soldier's steps per colour.
``generate`` makes each pseudo-legal move on the row, asks whether its own general is then
attacked (or faces the other on an open file), and takes it back.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# -- pieces, fields, moves -------------------------------------------------------------------
KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = 1, 2, 3, 4, 5, 6, 7
BLACK_PIECE = 8  # black's pieces are kind + 8
SIDE, KEY, KINGS, QUIET = 90, 91, 92, 94
POSITION_SIZE = 96
MAX_MOVES = 128  # a xiangqi position has at most about 120 legal moves
SQUARES = 90
FEN_LETTERS = " kabnrcp"  # kind -> FEN letter (black lower case, red upper case)


def encode_move(origin: int, target: int) -> int:
    return origin | (target << 7)


@njit(cache=True, inline="always")
def move_from(move: int) -> int:
    return move & 127


@njit(cache=True, inline="always")
def move_to(move: int) -> int:
    return (move >> 7) & 127


# -- tables ------------------------------------------------------------------------------------
def _inside(rank: int, file: int) -> bool:
    return 0 <= rank < 10 and 0 <= file < 9


def _in_palace(colour: int, rank: int, file: int) -> bool:
    ranks = (0, 1, 2) if colour == 0 else (7, 8, 9)
    return rank in ranks and 3 <= file <= 5


def _own_half(colour: int, rank: int) -> bool:
    return rank <= 4 if colour == 0 else rank >= 5


def _tables() -> dict[str, np.ndarray]:
    rays = np.zeros((SQUARES, 4, 9), dtype=np.int64)
    ray_length = np.zeros((SQUARES, 4), dtype=np.int64)
    horse = np.zeros((SQUARES, 8), dtype=np.int64)
    horse_leg = np.zeros((SQUARES, 8), dtype=np.int64)
    horse_count = np.zeros(SQUARES, dtype=np.int64)
    horse_from = np.zeros((SQUARES, 8), dtype=np.int64)  # horses that attack this square
    horse_from_leg = np.zeros((SQUARES, 8), dtype=np.int64)
    horse_from_count = np.zeros(SQUARES, dtype=np.int64)
    elephant = np.zeros((2, SQUARES, 4), dtype=np.int64)
    elephant_eye = np.zeros((2, SQUARES, 4), dtype=np.int64)
    elephant_count = np.zeros((2, SQUARES), dtype=np.int64)
    advisor = np.zeros((2, SQUARES, 4), dtype=np.int64)
    advisor_count = np.zeros((2, SQUARES), dtype=np.int64)
    king = np.zeros((2, SQUARES, 4), dtype=np.int64)
    king_count = np.zeros((2, SQUARES), dtype=np.int64)
    pawn = np.zeros((2, SQUARES, 3), dtype=np.int64)
    pawn_count = np.zeros((2, SQUARES), dtype=np.int64)
    pawn_from = np.zeros((2, SQUARES, 3), dtype=np.int64)  # soldiers of a colour attacking it
    pawn_from_count = np.zeros((2, SQUARES), dtype=np.int64)
    directions = ((1, 0), (-1, 0), (0, 1), (0, -1))  # north south east west
    for square in range(SQUARES):
        rank, file = divmod(square, 9)
        for index, (dr, df) in enumerate(directions):
            r, f = rank + dr, file + df
            while _inside(r, f):
                rays[square, index, ray_length[square, index]] = 9 * r + f
                ray_length[square, index] += 1
                r, f = r + dr, f + df
        for dr, df in ((2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (-1, 2), (1, -2), (-1, -2)):
            r, f = rank + dr, file + df
            if not _inside(r, f):
                continue
            leg = 9 * (rank + dr // 2) + file if abs(dr) == 2 else 9 * rank + file + df // 2
            horse[square, horse_count[square]] = 9 * r + f
            horse_leg[square, horse_count[square]] = leg
            horse_count[square] += 1
            # so the horse here attacks (r, f), blocked by the same leg (next to the horse)
            target = 9 * r + f
            horse_from[target, horse_from_count[target]] = square
            horse_from_leg[target, horse_from_count[target]] = leg
            horse_from_count[target] += 1
        for colour in (0, 1):
            for dr, df in ((2, 2), (2, -2), (-2, 2), (-2, -2)):
                r, f = rank + dr, file + df
                if _inside(r, f) and _own_half(colour, r) and _own_half(colour, rank):
                    elephant[colour, square, elephant_count[colour, square]] = 9 * r + f
                    elephant_eye[colour, square, elephant_count[colour, square]] = \
                        9 * (rank + dr // 2) + file + df // 2
                    elephant_count[colour, square] += 1
            for dr, df in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                r, f = rank + dr, file + df
                if _in_palace(colour, r, f) and _in_palace(colour, rank, file):
                    advisor[colour, square, advisor_count[colour, square]] = 9 * r + f
                    advisor_count[colour, square] += 1
            for dr, df in directions:
                r, f = rank + dr, file + df
                if _in_palace(colour, r, f) and _in_palace(colour, rank, file):
                    king[colour, square, king_count[colour, square]] = 9 * r + f
                    king_count[colour, square] += 1
            forward = 1 if colour == 0 else -1
            steps = [(forward, 0)]
            if not _own_half(colour, rank):
                steps += [(0, 1), (0, -1)]
            for dr, df in steps:
                r, f = rank + dr, file + df
                if _inside(r, f):
                    target = 9 * r + f
                    pawn[colour, square, pawn_count[colour, square]] = target
                    pawn_count[colour, square] += 1
                    pawn_from[colour, target, pawn_from_count[colour, target]] = square
                    pawn_from_count[colour, target] += 1
    return dict(rays=rays, ray_length=ray_length, horse=horse, horse_leg=horse_leg,
                horse_count=horse_count, horse_from=horse_from, horse_from_leg=horse_from_leg,
                horse_from_count=horse_from_count, elephant=elephant,
                elephant_eye=elephant_eye, elephant_count=elephant_count, advisor=advisor,
                advisor_count=advisor_count, king=king, king_count=king_count, pawn=pawn,
                pawn_count=pawn_count, pawn_from=pawn_from, pawn_from_count=pawn_from_count)


_T = _tables()
RAYS, RAY_LENGTH = _T["rays"], _T["ray_length"]
HORSE_TARGETS, HORSE_LEG, HORSE_COUNT = _T["horse"], _T["horse_leg"], _T["horse_count"]
HORSE_FROM, HORSE_FROM_LEG, HORSE_FROM_COUNT = (_T["horse_from"], _T["horse_from_leg"],
                                                _T["horse_from_count"])
ELEPHANT_TO, ELEPHANT_EYE, ELEPHANT_COUNT = (_T["elephant"], _T["elephant_eye"],
                                             _T["elephant_count"])
ADVISOR_TO, ADVISOR_COUNT = _T["advisor"], _T["advisor_count"]
KING_TO, KING_COUNT = _T["king"], _T["king_count"]
PAWN_TO, PAWN_COUNT = _T["pawn"], _T["pawn_count"]
PAWN_FROM, PAWN_FROM_COUNT = _T["pawn_from"], _T["pawn_from_count"]
del _T

# Zobrist keys: a fixed stream (the same keys in every process: keys are kept in states)
_KEYS = np.random.Generator(np.random.PCG64(0x5A4E5131)).integers(
    -(1 << 63), (1 << 63) - 1, size=16 * SQUARES + 1, dtype=np.int64)
PIECE_KEYS = _KEYS[:16 * SQUARES].reshape(16, SQUARES).copy()
SIDE_KEY = int(_KEYS[16 * SQUARES])


# -- setting up ------------------------------------------------------------------------------
@njit(cache=True)
def finish_setup(position: np.ndarray) -> None:
    """Fill in the kings' squares and the key from the squares and the side to move."""
    key = 0
    position[KINGS] = -1
    position[KINGS + 1] = -1
    for square in range(SQUARES):
        piece = position[square]
        if piece:
            key ^= PIECE_KEYS[piece, square]
            if piece & 7 == KING:
                position[KINGS + (piece >> 3)] = square
    if position[SIDE]:
        key ^= SIDE_KEY
    position[KEY] = key


# -- attacks ---------------------------------------------------------------------------------
@njit(cache=True)
def attacked(position: np.ndarray, square: int, by: int) -> bool:
    """Whether colour ``by`` attacks ``square`` with a rook, cannon, horse, soldier, or its
    general along an open file (the flying general: so a general facing the other is in
    check). Advisors and elephants never reach the other side's general, so they are not
    looked at: this answers for the squares a general may stand on."""
    enemy = by * 8
    for direction in range(4):
        length = RAY_LENGTH[square, direction]
        index = 0
        while index < length:
            piece = position[RAYS[square, direction, index]]
            index += 1
            if piece:
                if piece == enemy + ROOK or piece == enemy + KING:
                    return True
                break
        while index < length:  # past the screen: a cannon
            piece = position[RAYS[square, direction, index]]
            index += 1
            if piece:
                if piece == enemy + CANNON:
                    return True
                break
    for index in range(HORSE_FROM_COUNT[square]):
        if position[HORSE_FROM[square, index]] == enemy + HORSE \
                and position[HORSE_FROM_LEG[square, index]] == 0:
            return True
    for index in range(PAWN_FROM_COUNT[by, square]):
        if position[PAWN_FROM[by, square, index]] == enemy + PAWN:
            return True
    return False


@njit(cache=True)
def in_check(position: np.ndarray) -> bool:
    """Whether the side to move's general is attacked (or faces the other)."""
    side = position[SIDE]
    return attacked(position, position[KINGS + side], 1 - side)


# -- move generation -------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _add(position: np.ndarray, out: np.ndarray, count: int, origin: int, target: int,
         side: int, captures_only: bool) -> int:
    """Append a pseudo-legal move when it is legal (its own general not attacked after it)."""
    victim = position[target]
    if captures_only and victim == 0:
        return count
    piece = position[origin]
    position[target] = piece
    position[origin] = 0
    king = target if piece & 7 == KING else position[KINGS + side]
    legal = not attacked(position, king, 1 - side)
    position[origin] = piece
    position[target] = victim
    if legal:
        out[count] = origin | (target << 7)
        count += 1
    return count


@njit(cache=True)
def generate(position: np.ndarray, out: np.ndarray, captures_only: bool) -> int:
    """Write the legal moves (only captures when asked) to ``out``; return how many."""
    side = position[SIDE]
    own = side * 8
    count = 0
    for origin in range(SQUARES):
        piece = position[origin]
        if piece == 0 or (piece >> 3) != side:
            continue
        kind = piece - own
        if kind == ROOK or kind == CANNON:  # noqa: SIM109 - kernel code
            for direction in range(4):
                length = RAY_LENGTH[origin, direction]
                index = 0
                while index < length:
                    target = RAYS[origin, direction, index]
                    index += 1
                    occupant = position[target]
                    if occupant == 0:
                        if not captures_only:
                            count = _add(position, out, count, origin, target, side, False)
                        continue
                    if kind == ROOK:
                        if (occupant >> 3) != side:
                            count = _add(position, out, count, origin, target, side, False)
                        break
                    while index < length:  # the cannon's screen is passed: its capture
                        target = RAYS[origin, direction, index]
                        index += 1
                        occupant = position[target]
                        if occupant:
                            if (occupant >> 3) != side:
                                count = _add(position, out, count, origin, target, side,
                                             False)
                            break
                    break
        elif kind == HORSE:
            for index in range(HORSE_COUNT[origin]):
                target = HORSE_TARGETS[origin, index]
                occupant = position[target]
                if position[HORSE_LEG[origin, index]] == 0 and \
                        (occupant == 0 or (occupant >> 3) != side):
                    count = _add(position, out, count, origin, target, side, captures_only)
        elif kind == PAWN:
            for index in range(PAWN_COUNT[side, origin]):
                target = PAWN_TO[side, origin, index]
                occupant = position[target]
                if occupant == 0 or (occupant >> 3) != side:
                    count = _add(position, out, count, origin, target, side, captures_only)
        elif kind == ELEPHANT:
            for index in range(ELEPHANT_COUNT[side, origin]):
                target = ELEPHANT_TO[side, origin, index]
                occupant = position[target]
                if position[ELEPHANT_EYE[side, origin, index]] == 0 and \
                        (occupant == 0 or (occupant >> 3) != side):
                    count = _add(position, out, count, origin, target, side, captures_only)
        elif kind == ADVISOR:
            for index in range(ADVISOR_COUNT[side, origin]):
                target = ADVISOR_TO[side, origin, index]
                occupant = position[target]
                if occupant == 0 or (occupant >> 3) != side:
                    count = _add(position, out, count, origin, target, side, captures_only)
        else:  # the general
            for index in range(KING_COUNT[side, origin]):
                target = KING_TO[side, origin, index]
                occupant = position[target]
                if occupant == 0 or (occupant >> 3) != side:
                    count = _add(position, out, count, origin, target, side, captures_only)
    return count


@njit(cache=True, inline="always")
def _copy(position: np.ndarray, child: np.ndarray) -> None:
    """``child[:] = position`` as a loop: numba's slice assignment compiles a shape check and
    its error message, two seconds of every machine's first run, for rows always alike."""
    for index in range(POSITION_SIZE):
        child[index] = position[index]


@njit(cache=True)
def make_move(position: np.ndarray, child: np.ndarray, move: int) -> None:
    """``child`` = the position after ``move`` (legal, unchecked)."""
    _copy(position, child)
    origin = move & 127
    target = (move >> 7) & 127
    piece = position[origin]
    victim = position[target]
    key = position[KEY] ^ SIDE_KEY ^ PIECE_KEYS[piece, origin] ^ PIECE_KEYS[piece, target]
    if victim:
        key ^= PIECE_KEYS[victim, target]
        child[QUIET] = 0
    else:
        child[QUIET] = position[QUIET] + 1
    child[target] = piece
    child[origin] = 0
    if piece & 7 == KING:
        child[KINGS + (piece >> 3)] = target
    child[SIDE] = 1 - position[SIDE]
    child[KEY] = key


@njit(cache=True)
def make_null_move(position: np.ndarray, child: np.ndarray) -> None:
    _copy(position, child)
    child[SIDE] = 1 - position[SIDE]
    child[KEY] = position[KEY] ^ SIDE_KEY
    child[QUIET] = position[QUIET] + 1


@njit(cache=True)
def perft(stack: np.ndarray, moves: np.ndarray, ply: int, depth: int) -> int:
    """The leaves ``depth`` plies below ``stack[ply]`` (bulk counting at the last ply);
    ``stack`` and ``moves`` have a row per ply. A side without a move has lost: its line
    ends there. Called from Python only: numba's cache cannot link a recursive kernel into
    another kernel, so recursive kernels are entry points (as in chess)."""
    position = stack[ply]
    count = generate(position, moves[ply], np.bool_(False))  # (the one compiled version)
    if depth == 1:
        return count
    total = 0
    for index in range(count):
        make_move(position, stack[ply + 1], moves[ply, index])
        total += perft(stack, moves, ply + 1, depth - 1)
    return total
