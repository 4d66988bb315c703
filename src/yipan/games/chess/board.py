"""Chess on bitboards, in numba: attack tables, legal move generation, make-move, perft.

Squares are numbered as python-chess numbers them (little-endian rank-file), square =
8 * rank + file, and bit ``s`` of a bitboard is square ``s``::

    8 | 56 57 58 59 60 61 62 63        a bitboard is an int64: bit 63 (h8) is its sign bit,
    7 | 48 49 50 51 52 53 54 55        so a right shift is masked after it and
    6 | 40 41 42 43 44 45 46 47        wrap-around arithmetic is that of unsigned words
    5 | 32 33 34 35 36 37 38 39
    4 | 24 25 26 27 28 29 30 31        north = +8, south = -8, east = +1, west = -1
    3 | 16 17 18 19 20 21 22 23
    2 |  8  9 10 11 12 13 14 15        the vertical mirror (rank r <-> 7 - r) is a byte
    1 |  0  1  2  3  4  5  6  7        swap, and square s <-> s ^ 56
        a  b  c  d  e  f  g  h

A position is one row of int64 (``POSITION_SIZE``), copied and changed by ``make_move``
(copy-make: the search keeps one row per ply, no undo)::

    PAWN..KING (0..5)  the squares of each kind of piece, both colours
    WHITE, BLACK (6, 7) the squares of each colour's pieces
    SIDE (8)           0 white to move, 1 black
    CASTLING (9)       rights: 1 white king side (K), 2 white queen side (Q), 4 k, 8 q;
                       Chess960 layouts add bits 4-16 (``CHESS960`` below), so the usual
                       layout keeps the values 0-15 and the fast paths made for it
    EP (10)            the en-passant target square when an en-passant capture is legal
                       (as python-chess's FEN and repetition rules count it), else NO_SQUARE
    HALFMOVE (11)      plies since the last capture or pawn move (the fifty-move rule)
    KEY (12)           the Zobrist key of the above (pieces, side, castling, en passant)

A move is an int: bits 0-5 the from-square, 6-11 the to-square, 12-14 the promotion piece
(0 none, else KNIGHT..QUEEN), 15-16 its kind (NORMAL, CASTLE, EN_PASSANT, DOUBLE_PUSH).
Castling in the usual layout is the king's two-square move (e1g1); in a Chess960 layout it
is the king taking its own rook (``CASTLE_960``: to-square the rook's, promotion field KING),
so that every castling names its rook and no castling shares its squares with a king move.
Moves are legal by construction: ``generate`` resolves checks and pins itself (pinned pieces
keep to the line through their king, an en-passant capture is tried on the board), so no
move is made and taken back to test it.

Sliding attacks are magic-free: files and both diagonals by hyperbola quintessence (``o - s``
sets the squares up to the first blocker above the slider; the same on the byte-swapped
board gives those below), ranks by a table of the 64 occupancies of a rank's inner six squares.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import byte_swap, lowest_square, popcount

# -- pieces, colours, fields of a position -----------------------------------------------------
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 0, 1, 2, 3, 4, 5
WHITE, BLACK = 6, 7  # fields; a colour c (0 white, 1 black) has its pieces in field WHITE + c
SIDE, CASTLING, EP, HALFMOVE, KEY = 8, 9, 10, 11, 12
POSITION_SIZE = 13
NO_SQUARE = 64
PIECE_LETTERS = "pnbrqk"

# castling rights
WHITE_KING_SIDE, WHITE_QUEEN_SIDE, BLACK_KING_SIDE, BLACK_QUEEN_SIDE = 1, 2, 4, 8

# Chess960 castling: the CASTLING field of a layout other than the usual one (a king off the
# e-file, or a rook with a right off the a- or h-file)::
#
#     bits 0-3    the rights, as in the usual layout (K: the rook on the king's h-side)
#     bit 4       CHESS960: set while a right left is off the usual layout (a move that
#                 leaves only the usual layout's rights clears the field to those 4 bits)
#     bits 5-16   the file of each right's rook, 3 bits a right in the order K Q k q
#                 (0 once that right is lost, so that equal rights give equal values)
#
# The king of a side with rights stands on its home square (moving it loses them), so its
# square is read from the board.
CHESS960 = 16
ROOK_FILE_SHIFT = 5

# moves
NORMAL, CASTLE, EN_PASSANT, DOUBLE_PUSH = 0, 1, 2, 3
CASTLE_960 = (KING << 12) | (CASTLE << 15)  # a king-takes-own-rook castling move's marks
MAX_MOVES = 256  # more than the 218 of the richest known position


def encode_move(origin: int, target: int, promotion: int = 0, kind: int = NORMAL) -> int:
    return origin | (target << 6) | (promotion << 12) | (kind << 15)


@njit(cache=True, inline="always")
def move_from(move: int) -> int:
    return move & 63


@njit(cache=True, inline="always")
def move_to(move: int) -> int:
    return (move >> 6) & 63


@njit(cache=True, inline="always")
def move_promotion(move: int) -> int:
    return (move >> 12) & 7


@njit(cache=True, inline="always")
def move_kind(move: int) -> int:
    return (move >> 15) & 3


# -- tables (built once at import, read-only: numba compiles them in as constants) --------------
def _bit(square: int) -> int:
    return 1 << square


def _signed(bits: int) -> int:
    """An unsigned 64-bit board as the int64 the kernels hold."""
    bits &= (1 << 64) - 1
    return bits - (1 << 64) if bits >> 63 else bits


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _steps(square: int, deltas: list[tuple[int, int]]) -> int:
    file, rank = square % 8, square // 8
    bits = 0
    for df, dr in deltas:
        if _on_board(file + df, rank + dr):
            bits |= _bit(8 * (rank + dr) + file + df)
    return bits


def _ray(square: int, df: int, dr: int) -> list[int]:
    file, rank = square % 8, square // 8
    out = []
    file, rank = file + df, rank + dr
    while _on_board(file, rank):
        out.append(8 * rank + file)
        file, rank = file + df, rank + dr
    return out


KNIGHT_DELTAS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING_DELTAS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ROOK_DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRECTIONS = [(1, 1), (-1, -1), (1, -1), (-1, 1)]


def _table(values: list[int]) -> np.ndarray:
    return np.array([_signed(v) for v in values], dtype=np.int64)


SQUARE_BIT = _table([_bit(s) for s in range(64)])
KNIGHT_ATTACKS = _table([_steps(s, KNIGHT_DELTAS) for s in range(64)])
KING_ATTACKS = _table([_steps(s, KING_DELTAS) for s in range(64)])
PAWN_ATTACKS = np.stack([_table([_steps(s, [(-1, 1), (1, 1)]) for s in range(64)]),
                         _table([_steps(s, [(-1, -1), (1, -1)]) for s in range(64)])])
"""PAWN_ATTACKS[c, s]: the squares a pawn of colour c on s attacks."""


def _line_mask(square: int, df: int, dr: int) -> int:
    """The squares on the line through ``square`` in direction (df, dr), itself excluded."""
    return sum(_bit(s) for s in _ray(square, df, dr) + _ray(square, -df, -dr))


FILE_MASK = _table([_line_mask(s, 0, 1) for s in range(64)])
DIAGONAL_MASK = _table([_line_mask(s, 1, 1) for s in range(64)])
ANTI_DIAGONAL_MASK = _table([_line_mask(s, 1, -1) for s in range(64)])


def _rank_attacks() -> np.ndarray:
    """RANK_ATTACKS[file, inner]: the squares of rank 1 a rook on ``file`` attacks when the
    inner squares b..g are occupied as the six bits of ``inner`` say."""
    table = np.zeros((8, 64), dtype=np.int64)
    for file in range(8):
        for inner in range(64):
            occupied = inner << 1
            bits = 0
            for step in (1, -1):
                f = file + step
                while 0 <= f < 8:
                    bits |= 1 << f
                    if occupied & (1 << f):
                        break
                    f += step
            table[file, inner] = bits
    return table


RANK_ATTACKS = _rank_attacks()


def _between_and_line() -> tuple[np.ndarray, np.ndarray]:
    """BETWEEN[a, b]: the squares strictly between two squares on a line (0 if none);
    LINE[a, b]: the whole line through both (0 if they share none)."""
    between = np.zeros((64, 64), dtype=np.int64)
    line = np.zeros((64, 64), dtype=np.int64)
    for a in range(64):
        for df, dr in ROOK_DIRECTIONS + BISHOP_DIRECTIONS:
            ray = _ray(a, df, dr)
            full = _bit(a) | sum(_bit(s) for s in ray + _ray(a, -df, -dr))
            passed = 0
            for b in ray:
                between[a, b] = _signed(passed)
                line[a, b] = _signed(full)
                passed |= _bit(b)
    return between, line


BETWEEN, LINE = _between_and_line()


def _castling_masks() -> np.ndarray:
    """CASTLING_KEPT[s]: the rights kept when a move starts or ends on s (a king or rook
    that moves, a rook captured at home)."""
    kept = np.full(64, 15, dtype=np.int64)
    kept[4] = 15 & ~(WHITE_KING_SIDE | WHITE_QUEEN_SIDE)
    kept[60] = 15 & ~(BLACK_KING_SIDE | BLACK_QUEEN_SIDE)
    kept[7] = 15 & ~WHITE_KING_SIDE
    kept[0] = 15 & ~WHITE_QUEEN_SIDE
    kept[63] = 15 & ~BLACK_KING_SIDE
    kept[56] = 15 & ~BLACK_QUEEN_SIDE
    return kept


CASTLING_KEPT = _castling_masks()


def _zobrist() -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray]:
    """Random keys from a fixed splitmix64 stream: pieces[colour, kind, square], castling
    rights (one per 4-bit value), en-passant files, the side to move, and then (drawn after
    the others, which stay as they were) the Chess960 layouts' rook files[right, file] with
    the ``CHESS960`` bit's key at [4, 0]."""
    state = 0x9E3779B97F4A7C15
    mask = (1 << 64) - 1

    def draw() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return _signed(z ^ (z >> 31))

    pieces = np.array([[[draw() for _ in range(64)] for _ in range(6)] for _ in range(2)],
                      dtype=np.int64)
    castling = np.array([draw() for _ in range(16)], dtype=np.int64)
    files = np.array([draw() for _ in range(8)], dtype=np.int64)
    side = draw()
    rook_files = np.array([[draw() for _ in range(8)] for _ in range(5)], dtype=np.int64)
    return pieces, castling, files, side, rook_files


ZOBRIST_PIECE, ZOBRIST_CASTLING, ZOBRIST_EP_FILE, ZOBRIST_SIDE, ZOBRIST_ROOK_FILE = _zobrist()

LIGHT_SQUARES = _signed(0x55AA55AA55AA55AA)  # b1, d1, ... (a1 is dark)
PROMOTION_RANKS = _signed(0xFF | (0xFF << 56))


# -- attacks ---------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def line_attacks(square: int, occupied: int, mask: int) -> int:
    """Hyperbola quintessence along a file or diagonal ``mask`` (``square`` excluded)."""
    forward = occupied & mask
    reverse = byte_swap(forward)
    forward -= SQUARE_BIT[square]
    reverse -= SQUARE_BIT[square ^ 56]
    return (forward ^ byte_swap(reverse)) & mask


@njit(cache=True, inline="always")
def rank_attacks(square: int, occupied: int) -> int:
    shift = square & 56
    inner = (occupied >> (shift + 1)) & 63
    return RANK_ATTACKS[square & 7, inner] << shift


@njit(cache=True, inline="always")
def bishop_attacks(square: int, occupied: int) -> int:
    return (line_attacks(square, occupied, DIAGONAL_MASK[square])
            | line_attacks(square, occupied, ANTI_DIAGONAL_MASK[square]))


@njit(cache=True, inline="always")
def rook_attacks(square: int, occupied: int) -> int:
    return line_attacks(square, occupied, FILE_MASK[square]) | rank_attacks(square, occupied)


@njit(cache=True)
def attackers(position: np.ndarray, square: int, occupied: int, colour: int) -> int:
    """The pieces of ``colour`` that attack ``square`` with the board occupied as given."""
    queens = position[QUEEN]
    return ((PAWN_ATTACKS[1 - colour, square] & position[PAWN])
            | (KNIGHT_ATTACKS[square] & position[KNIGHT])
            | (KING_ATTACKS[square] & position[KING])
            | (bishop_attacks(square, occupied) & (position[BISHOP] | queens))
            | (rook_attacks(square, occupied) & (position[ROOK] | queens))) \
        & position[WHITE + colour]


@njit(cache=True)
def king_square(position: np.ndarray, colour: int) -> int:
    return lowest_square(position[KING] & position[WHITE + colour])


@njit(cache=True)
def checkers_of(position: np.ndarray) -> int:
    """The enemy pieces giving check to the side to move."""
    us = position[SIDE]
    occupied = position[WHITE] | position[BLACK]
    return attackers(position, king_square(position, us), occupied, 1 - us)


@njit(cache=True)
def in_check(position: np.ndarray) -> bool:
    return checkers_of(position) != 0


@njit(cache=True)
def piece_on(position: np.ndarray, square: int) -> int:
    """The kind of piece on ``square`` (PAWN..KING), or -1 when it is empty."""
    bit = SQUARE_BIT[square]
    for kind in range(6):
        if position[kind] & bit:
            return kind
    return -1


# -- move generation -------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _emit(out: np.ndarray, count: int, origin: int, targets: int, kind: int,
          count_only: bool) -> int:
    """Append a move from ``origin`` to each target (or only count them)."""
    if count_only:
        return count + popcount(targets)
    while targets:
        target = lowest_square(targets)
        targets &= targets - 1
        out[count] = origin | (target << 6) | (kind << 15)
        count += 1
    return count


@njit(cache=True, inline="always")
def _emit_pawn(out: np.ndarray, count: int, origin: int, targets: int, kind: int,
               count_only: bool, captures_only: bool) -> int:
    """Pawn moves: four moves for each target on the last rank (queen first), one otherwise
    (with ``captures_only``, only the queen of a quiet promotion, and captures)."""
    promoting = targets & PROMOTION_RANKS
    plain = targets ^ promoting
    if count_only:
        return count + popcount(plain) + 4 * popcount(promoting)
    count = _emit(out, count, origin, plain, kind, False)
    while promoting:
        target = lowest_square(promoting)
        promoting &= promoting - 1
        base = origin | (target << 6)
        out[count] = base | (QUEEN << 12)
        count += 1
        if not captures_only:
            out[count] = base | (KNIGHT << 12)
            out[count + 1] = base | (ROOK << 12)
            out[count + 2] = base | (BISHOP << 12)
            count += 3
    return count



@njit(cache=True)
def _en_passant_is_legal(position: np.ndarray, origin: int, target: int) -> bool:
    """Whether the pawn on ``origin`` may take en passant on ``target``: the board after the
    capture leaves its king unattacked (a pawn pinned along a rank or diagonal may not)."""
    us = position[SIDE]
    them = 1 - us
    captured = target - 8 if us == 0 else target + 8
    occupied = (position[WHITE] | position[BLACK]) ^ SQUARE_BIT[origin] ^ SQUARE_BIT[captured]
    occupied |= SQUARE_BIT[target]
    king = king_square(position, us)
    enemy = position[WHITE + them]
    queens = position[QUEEN]
    hits = (bishop_attacks(king, occupied) & (position[BISHOP] | queens)) \
        | (rook_attacks(king, occupied) & (position[ROOK] | queens)) \
        | (KNIGHT_ATTACKS[king] & position[KNIGHT]) \
        | (PAWN_ATTACKS[us, king] & position[PAWN] & ~SQUARE_BIT[captured])
    return (hits & enemy) == 0


@njit(cache=True)
def _castle_960(position: np.ndarray, out: np.ndarray, count: int, count_only: bool) -> int:
    """Append the Chess960 castling moves of the side to move (not in check) to the ``count``
    moves in ``out``. The king ends on the g- or c-file, its rook on the f- or d-file; every
    square either crosses or lands on is empty but for the two of them; the squares the king
    crosses are unattacked with the king lifted, and its landing square with the rook moved
    (python-chess's rule: a rook that shielded that square from the side no longer does)."""
    us = position[SIDE]
    them = 1 - us
    castling = position[CASTLING]
    home = 56 * us
    king = lowest_square(position[KING] & position[WHITE + us])
    occupied = position[WHITE] | position[BLACK]
    for side in range(2):  # 0 the h-side (K), 1 the a-side (Q)
        right = 2 * us + side
        if not castling & (1 << right):
            continue
        rook = home + ((castling >> (ROOK_FILE_SHIFT + 3 * right)) & 7)
        king_to = home + (2 if side else 6)
        rook_to = home + (3 if side else 5)
        king_path = BETWEEN[king, king_to]
        pieces = SQUARE_BIT[king] | SQUARE_BIT[rook]
        crossed = king_path | BETWEEN[rook, rook_to] | SQUARE_BIT[king_to] | SQUARE_BIT[rook_to]
        if (occupied ^ pieces) & crossed:
            continue
        lifted = occupied ^ SQUARE_BIT[king]
        safe = True
        while king_path:
            square = lowest_square(king_path)
            king_path &= king_path - 1
            if attackers(position, square, lifted, them):
                safe = False
                break
        if not safe or attackers(position, king_to, occupied ^ pieces ^ SQUARE_BIT[rook_to],
                                 them):
            continue
        if count_only:
            count += 1
        else:
            out[count] = king | (rook << 6) | CASTLE_960
            count += 1
    return count


@njit(cache=True)
def generate(position: np.ndarray, out: np.ndarray, count_only: bool,
             captures_only: bool) -> int:
    """Write the legal moves into ``out`` and return how many; with ``count_only``, count
    them only (perft's last ply). With ``captures_only`` (quiescence search): captures,
    promotions to a queen and en-passant captures, but every legal move when in check."""
    us = position[SIDE]
    them = 1 - us
    own = position[WHITE + us]
    enemy = position[WHITE + them]
    occupied = own | enemy
    queens = position[QUEEN]
    king = lowest_square(position[KING] & own)
    checkers = attackers(position, king, occupied, them)
    if checkers:
        captures_only = False  # every evasion
    count = 0

    # the king: to squares no enemy attacks once it has left its own (x-ray through it)
    king_targets = KING_ATTACKS[king] & ~own
    if captures_only:
        king_targets &= enemy
    without_king = occupied ^ SQUARE_BIT[king]
    while king_targets:
        target = lowest_square(king_targets)
        king_targets &= king_targets - 1
        if attackers(position, target, without_king, them) == 0:
            if count_only:
                count += 1
            else:
                out[count] = king | (target << 6)
                count += 1
    if checkers & (checkers - 1):
        return count  # double check: only the king moves

    # the squares other pieces may move to: anywhere, or onto the checker or between
    allowed = ~own
    if checkers:
        allowed = checkers | BETWEEN[king, lowest_square(checkers)]
    if captures_only:
        allowed &= enemy

    # pinned pieces: own pieces alone between the king and an enemy slider (an x-ray)
    pinned = 0
    snipers = ((rook_attacks(king, enemy) & (position[ROOK] | queens))
               | (bishop_attacks(king, enemy) & (position[BISHOP] | queens))) & enemy
    while snipers:
        sniper = lowest_square(snipers)
        snipers &= snipers - 1
        between = BETWEEN[king, sniper] & occupied
        if between and (between & (between - 1)) == 0 and (between & own):
            pinned |= between

    # knights (a pinned knight never moves)
    pieces = position[KNIGHT] & own & ~pinned
    while pieces:
        origin = lowest_square(pieces)
        pieces &= pieces - 1
        count = _emit(out, count, origin, KNIGHT_ATTACKS[origin] & allowed, NORMAL, count_only)
    # bishops, rooks, queens
    pieces = (position[BISHOP] | position[ROOK] | queens) & own
    while pieces:
        origin = lowest_square(pieces)
        pieces &= pieces - 1
        bit = SQUARE_BIT[origin]
        targets = 0
        if bit & (position[BISHOP] | queens):
            targets |= bishop_attacks(origin, occupied)
        if bit & (position[ROOK] | queens):
            targets |= rook_attacks(origin, occupied)
        targets &= allowed
        if bit & pinned:
            targets &= LINE[king, origin]
        count = _emit(out, count, origin, targets, NORMAL, count_only)

    # pawns
    forward = 8 if us == 0 else -8
    start_rank = 1 if us == 0 else 6
    empty = ~occupied
    pieces = position[PAWN] & own
    ep = position[EP]
    while pieces:
        origin = lowest_square(pieces)
        pieces &= pieces - 1
        line = LINE[king, origin] if SQUARE_BIT[origin] & pinned else -1
        ahead = origin + forward
        pushes = SQUARE_BIT[ahead] & empty
        double = 0
        if pushes and origin >> 3 == start_rank and not captures_only:
            double = SQUARE_BIT[ahead + forward] & empty & allowed & line
        if captures_only:
            pushes &= PROMOTION_RANKS  # a quiet push only when it promotes
        else:
            pushes &= allowed
        targets = (pushes | (PAWN_ATTACKS[us, origin] & enemy & allowed)) & line
        count = _emit_pawn(out, count, origin, targets, NORMAL, count_only, captures_only)
        if double:
            count = _emit(out, count, origin, double, DOUBLE_PUSH, count_only)
        if ep != NO_SQUARE and PAWN_ATTACKS[us, origin] & SQUARE_BIT[ep] \
                and _en_passant_is_legal(position, origin, ep):
            count = _emit(out, count, origin, SQUARE_BIT[ep], EN_PASSANT, count_only)

    # castling: the king not in check, the squares between empty, those it crosses unattacked
    rights = position[CASTLING] >> (2 * us)
    if rights & 3 and not checkers and not captures_only:
        if position[CASTLING] & CHESS960:
            return _castle_960(position, out, count, count_only)
        home = 56 * us  # a1 or a8
        if rights & 1 and not occupied & (SQUARE_BIT[home + 5] | SQUARE_BIT[home + 6]) \
                and attackers(position, home + 5, occupied, them) == 0 \
                and attackers(position, home + 6, occupied, them) == 0:
            count = _emit(out, count, king, SQUARE_BIT[home + 6], CASTLE, count_only)
        if rights & 2 and not occupied & (SQUARE_BIT[home + 1] | SQUARE_BIT[home + 2]
                                          | SQUARE_BIT[home + 3]) \
                and attackers(position, home + 3, occupied, them) == 0 \
                and attackers(position, home + 2, occupied, them) == 0:
            count = _emit(out, count, king, SQUARE_BIT[home + 2], CASTLE, count_only)
    return count


# -- making moves ----------------------------------------------------------------------------------
@njit(cache=True)
def castling_key(castling: int) -> int:
    """The Zobrist key of a CASTLING value: the rights' key, and in a Chess960 layout the
    layout's key and each right's rook file."""
    key = ZOBRIST_CASTLING[castling & 15]
    if castling & CHESS960:
        key ^= ZOBRIST_ROOK_FILE[4, 0]
        for right in range(4):
            if castling & (1 << right):
                key ^= ZOBRIST_ROOK_FILE[right, (castling >> (ROOK_FILE_SHIFT + 3 * right)) & 7]
    return key


@njit(cache=True)
def castling_after_960(position: np.ndarray, castling: int, moving: int, origin: int,
                       destination: int) -> int:
    """A Chess960 layout's CASTLING value after a move in ``position``: the mover's rights go
    when its king moves, a right goes when a move starts or ends on its rook's square; a lost
    right's file is cleared, and when the rights left are the usual layout's (kings on e1 and
    e8, rooks on the a- and h-files), so is the layout: equal positions, equal values."""
    lost = 3 << (2 * position[SIDE]) if moving == KING else 0
    for right in range(4):
        if castling & (1 << right):
            rook = 56 * (right >> 1) + ((castling >> (ROOK_FILE_SHIFT + 3 * right)) & 7)
            if rook == origin or rook == destination:  # noqa: SIM109 - kernel code
                lost |= 1 << right
    usual = True
    for right in range(4):
        if lost & (1 << right):
            castling &= ~((1 << right) | (7 << (ROOK_FILE_SHIFT + 3 * right)))
        elif castling & (1 << right):
            colour = right >> 1
            file = (castling >> (ROOK_FILE_SHIFT + 3 * right)) & 7
            if lowest_square(position[KING] & position[WHITE + colour]) != 56 * colour + 4 \
                    or file != (0 if right & 1 else 7):
                usual = False
    if usual:
        return castling & 15
    return castling


@njit(cache=True, inline="always")
def _toggle(position: np.ndarray, colour: int, kind: int, square: int) -> None:
    """Put a piece on an empty square, or take it off (the key follows)."""
    bit = SQUARE_BIT[square]
    position[kind] ^= bit
    position[WHITE + colour] ^= bit
    position[KEY] ^= ZOBRIST_PIECE[colour, kind, square]


@njit(cache=True)
def _set_en_passant(position: np.ndarray, square: int) -> None:
    """After a double push: the target square counts (in the key and FEN) only when the side
    now to move can legally take there, as python-chess counts it for repetitions."""
    us = position[SIDE]
    candidates = PAWN_ATTACKS[1 - us, square] & position[PAWN] & position[WHITE + us]
    while candidates:
        origin = lowest_square(candidates)
        candidates &= candidates - 1
        if _en_passant_is_legal(position, origin, square):
            position[EP] = square
            position[KEY] ^= ZOBRIST_EP_FILE[square & 7]
            return


@njit(cache=True)
def make_move(source: np.ndarray, target: np.ndarray, move: int) -> None:
    """``target`` := the position ``source`` after the legal ``move`` (rows may not alias)."""
    for field in range(POSITION_SIZE):
        target[field] = source[field]
    us = source[SIDE]
    them = 1 - us
    origin = move & 63
    destination = (move >> 6) & 63
    promotion = (move >> 12) & 7
    kind = (move >> 15) & 3
    moving = piece_on(source, origin)
    if source[EP] != NO_SQUARE:
        target[KEY] ^= ZOBRIST_EP_FILE[source[EP] & 7]
        target[EP] = NO_SQUARE
    target[HALFMOVE] = 0 if moving == PAWN else source[HALFMOVE] + 1
    if source[WHITE + them] & SQUARE_BIT[destination]:
        _toggle(target, them, piece_on(source, destination), destination)
        target[HALFMOVE] = 0
    _toggle(target, us, moving, origin)
    _toggle(target, us, promotion if promotion else moving, destination)
    if kind == EN_PASSANT:
        _toggle(target, them, PAWN, destination - 8 if us == 0 else destination + 8)
    elif kind == CASTLE:
        home = 56 * us
        if promotion:  # CASTLE_960: the king took its own rook, promotion field KING
            _toggle(target, us, KING, destination)  # lift the king set on its rook's square
            _toggle(target, us, ROOK, destination)
            a_side = destination < origin
            _toggle(target, us, KING, home + (2 if a_side else 6))
            _toggle(target, us, ROOK, home + (3 if a_side else 5))
        elif destination == home + 6:
            _toggle(target, us, ROOK, home + 7)
            _toggle(target, us, ROOK, home + 5)
        else:
            _toggle(target, us, ROOK, home)
            _toggle(target, us, ROOK, home + 3)
    castling = source[CASTLING]
    if castling & CHESS960:
        rights = castling_after_960(source, castling, moving, origin, destination)
        if rights != castling:
            target[KEY] ^= castling_key(castling) ^ castling_key(rights)
            target[CASTLING] = rights
    elif castling:
        rights = castling & CASTLING_KEPT[origin] & CASTLING_KEPT[destination]
        if rights != castling:
            target[KEY] ^= ZOBRIST_CASTLING[castling] ^ ZOBRIST_CASTLING[rights]
            target[CASTLING] = rights
    target[SIDE] = them
    target[KEY] ^= ZOBRIST_SIDE
    if kind == DOUBLE_PUSH:
        _set_en_passant(target, (origin + destination) >> 1)


@njit(cache=True)
def make_null_move(source: np.ndarray, target: np.ndarray) -> None:
    """``target`` := ``source`` with the turn passed (the search's null move)."""
    for field in range(POSITION_SIZE):
        target[field] = source[field]
    if source[EP] != NO_SQUARE:
        target[KEY] ^= ZOBRIST_EP_FILE[source[EP] & 7]
        target[EP] = NO_SQUARE
    target[SIDE] = 1 - source[SIDE]
    target[KEY] ^= ZOBRIST_SIDE
    target[HALFMOVE] = source[HALFMOVE] + 1


@njit(cache=True)
def compute_key(position: np.ndarray) -> int:
    """The Zobrist key of a position, from scratch (``make_move`` keeps it incrementally)."""
    key = 0
    for colour in range(2):
        for kind in range(6):
            pieces = position[kind] & position[WHITE + colour]
            while pieces:
                square = lowest_square(pieces)
                pieces &= pieces - 1
                key ^= ZOBRIST_PIECE[colour, kind, square]
    key ^= castling_key(position[CASTLING])
    if position[EP] != NO_SQUARE:
        key ^= ZOBRIST_EP_FILE[position[EP] & 7]
    if position[SIDE] == 1:
        key ^= ZOBRIST_SIDE
    return key


@njit(cache=True)
def finish_setup(position: np.ndarray, ep_candidate: int) -> None:
    """Complete a position read from FEN: keep its en-passant square only when the capture
    is legal, and compute its key."""
    position[EP] = NO_SQUARE
    position[KEY] = 0
    if ep_candidate != NO_SQUARE:
        _set_en_passant(position, ep_candidate)
    position[KEY] = compute_key(position)


@njit(cache=True)
def insufficient_material(position: np.ndarray) -> bool:
    """Neither side can ever mate (python-chess's rule): kings alone, plus a single knight,
    or plus bishops all on squares of one colour (any side's)."""
    if position[PAWN] | position[ROOK] | position[QUEEN]:
        return False
    minors = position[KNIGHT] | position[BISHOP]
    if popcount(minors) <= 1:
        return True
    if position[KNIGHT]:
        return False
    bishops = position[BISHOP]
    return (bishops & LIGHT_SQUARES) == 0 or (bishops & ~LIGHT_SQUARES) == 0


# -- perft -----------------------------------------------------------------------------------------
@njit(cache=True)
def perft(stack: np.ndarray, moves: np.ndarray, ply: int, depth: int) -> int:
    """The leaves ``depth`` plies below ``stack[ply]`` (depth >= 1), the last ply counted in
    bulk; ``stack`` and ``moves`` have a row per ply.

    Called from Python only: numba's cache cannot link a recursive kernel into another
    kernel (a cached caller fails with "unresolved symbol"), so recursive kernels here are
    entry points, and what they call does not recurse."""
    position = stack[ply]
    if depth == 1:
        return generate(position, moves[ply], True, False)
    count = generate(position, moves[ply], False, False)
    total = 0
    child = stack[ply + 1]
    for index in range(count):
        make_move(position, child, moves[ply, index])
        total += perft(stack, moves, ply + 1, depth - 1)
    return total
