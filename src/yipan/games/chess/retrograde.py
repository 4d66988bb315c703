"""Endgame tables by retrograde analysis, in numba: distance to mate for every position of a
few pieces.

A table covers one material signature, its pieces listed in a fixed order (``kinds``,
``colours``: the white king, white's other pieces strongest first, the black king, black's).
A position is an index::

    index = side_to_move * 64**n + square_0 * 64**(n-1) + ... + square_(n-1)

(no symmetry is folded: a 4-piece table has 2 * 64**4 = 33.5 million entries, most of them
legal). Each entry is an int16 for the side to move::

    0        draw                                   d > 0   win, mate in d plies
    -(d+1)   loss, mated in d plies (-1: mated now) ILLEGAL  squares shared, pawn on a back
                                                            rank, the side not to move in check

The build, as the classic retrograde algorithm (Thompson, Stiller):

1. ``initialise``: every legal position is looked at once. Mate and stalemate are decided;
   a draw by insufficient material too. Moves that leave the table (captures, promotions)
   are valued from the smaller tables already built (``exits``); the moves that stay are
   counted (``counters``).
2. ``propagate``, ply by ply from 0: the predecessors of a position lost in n plies (found by
   un-moving the other side's pieces: pieces slide back to empty squares, pawns step back)
   are won in n + 1; each predecessor of a position won in n has one fewer move that does not
   lose, and when none is left it is lost in n + 1 (or later, if a move leaving the table
   loses more slowly). A position whose best exit wins is won at that distance unless the
   table finds a faster mate first.
3. Whatever is left undecided is a draw.

The fifty-move rule is not counted (distance to mate, as the classic tables); castling and
en passant never occur in them (at most one pawn a table).

The search probes the tables from numba (``probe``), packed by ``tablebase.pack``::

    lookup[material_key(row)]   the signature covering that material, or -1
    info[signature]             INFO_OFFSET    where its entries start in ``values``
                                INFO_PIECES    n, its pieces
                                INFO_MIRROR    1: the table is built with the colours the
                                               other way round (squares s ^ 56, side 1 - side)
                                INFO_KINDS + i, INFO_COLOURS + i
                                               the kind of table slot i and its colour on the
                                               board probed (two alike: the lower square first)
    values                      every packed table's entries, one after another
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import lowest_square, popcount
from .board import (
    BLACK,
    CASTLING,
    EP,
    HALFMOVE,
    KEY,
    KING,
    KING_ATTACKS,
    KNIGHT,
    KNIGHT_ATTACKS,
    MAX_MOVES,
    NO_SQUARE,
    PAWN,
    POSITION_SIZE,
    QUEEN,
    ROOK,
    SIDE,
    SQUARE_BIT,
    WHITE,
    bishop_attacks,
    generate,
    in_check,
    insufficient_material,
    rook_attacks,
)

ILLEGAL = -32768
UNKNOWN = 32767
NO_EXIT = -200_000  # exit ranks: a win in d plies 100000 - d, a draw 0, a loss -100000 + d
WIN_RANK = 100_000
MAX_PIECES = 4


@njit(cache=True)
def decode(index: int, count: int, squares: np.ndarray) -> int:
    """The squares of an index (into ``squares``), and the side to move."""
    for slot in range(count - 1, -1, -1):
        squares[slot] = index & 63
        index >>= 6
    return index


@njit(cache=True)
def encode(side: int, squares: np.ndarray, count: int) -> int:
    index = side
    for slot in range(count):
        index = (index << 6) | squares[slot]
    return index


@njit(cache=True)
def setup(row: np.ndarray, side: int, squares: np.ndarray, kinds: np.ndarray,
          colours: np.ndarray, count: int) -> bool:
    """Fill a position row; False when the squares do not make a legal position (two pieces
    on a square, a pawn on a back rank, the side not to move in check)."""
    for field in range(POSITION_SIZE):
        row[field] = 0
    for slot in range(count):
        bit = SQUARE_BIT[squares[slot]]
        if (row[WHITE] | row[BLACK]) & bit:
            return False
        if kinds[slot] == PAWN and (squares[slot] < 8 or squares[slot] >= 56):
            return False
        row[kinds[slot]] |= bit
        row[WHITE + colours[slot]] |= bit
    row[SIDE] = 1 - side
    if in_check(row):  # the side that is not to move may not be in check
        return False
    row[SIDE] = side
    row[CASTLING] = 0
    row[EP] = NO_SQUARE
    row[HALFMOVE] = 0
    row[KEY] = 0
    return True


@njit(cache=True)
def _exit_rank(sub_value: int) -> int:
    """The rank, for the side that moved, of a sub-table value of the side now to move."""
    if sub_value == ILLEGAL or sub_value == 0:  # noqa: PLR1714 - kernel code
        return 0
    if sub_value > 0:  # the opponent mates in d: we are mated in d + 1
        return -WIN_RANK + sub_value + 1
    return WIN_RANK - (-sub_value - 1 + 1)  # the opponent is mated in d: we mate in d + 1


@njit(cache=True)
def initialise(count: int, kinds: np.ndarray, colours: np.ndarray, values: np.ndarray,
               counters: np.ndarray, exit_ranks: np.ndarray, exit_of: np.ndarray,
               exit_offset: np.ndarray, exit_count: np.ndarray, exit_mirror: np.ndarray,
               exit_order: np.ndarray, subs: np.ndarray) -> None:
    """Step 1 of the build (module docstring): values, counters and exit ranks of every
    position. ``exit_of[captured + 1, promotion]`` names the exit of a move that captures
    piece slot ``captured`` (-1: none) and promotes to ``promotion`` (0: none); an exit's
    sub-table lies at ``exit_offset`` in ``subs`` (-1: a draw by insufficient material), has
    ``exit_count`` pieces taken from our slots ``exit_order[exit, :]``, and is mirrored
    (colours swapped, board flipped) when ``exit_mirror``."""
    squares = np.zeros(MAX_PIECES, dtype=np.int64)
    after = np.zeros(MAX_PIECES, dtype=np.int64)
    sub_squares = np.zeros(MAX_PIECES, dtype=np.int64)
    row = np.zeros(POSITION_SIZE, dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    for index in range(values.shape[0]):
        side = decode(index, count, squares)
        if not setup(row, side, squares, kinds, colours, count):
            values[index] = ILLEGAL
            continue
        if insufficient_material(row):
            values[index] = 0
            continue
        total = generate(row, moves, False, False)
        if total == 0:
            values[index] = -1 if in_check(row) else 0
            continue
        staying = 0
        best_exit = NO_EXIT
        for m in range(total):
            move = moves[m]
            origin = move & 63
            target = (move >> 6) & 63
            promotion = (move >> 12) & 7
            captured = -1
            for slot in range(count):
                after[slot] = squares[slot]
                if squares[slot] == target:
                    captured = slot
            if captured < 0 and promotion == 0:
                staying += 1
                continue
            for slot in range(count):
                if squares[slot] == origin:
                    after[slot] = target
            exit_id = exit_of[captured + 1, promotion]
            rank = 0
            if exit_offset[exit_id] >= 0:
                pieces = exit_count[exit_id]
                mirror = exit_mirror[exit_id]
                for slot in range(pieces):
                    square = after[exit_order[exit_id, slot]]
                    sub_squares[slot] = square ^ 56 if mirror else square
                sub_side = 1 - side
                if mirror:
                    sub_side = 1 - sub_side
                rank = _exit_rank(subs[exit_offset[exit_id]
                                       + encode(sub_side, sub_squares, pieces)])
            if rank > best_exit:
                best_exit = rank
        counters[index] = min(staying, 127)
        exit_ranks[index] = best_exit
        values[index] = UNKNOWN
        if staying == 0:  # every move leaves the table: its best exit decides
            if best_exit <= -WIN_RANK + 1000:
                values[index] = -(best_exit + WIN_RANK) - 1
            elif best_exit == 0:
                values[index] = 0


@njit(cache=True)
def _unmoves(side: int, squares: np.ndarray, kinds: np.ndarray, colours: np.ndarray,
             count: int, out: np.ndarray, scratch: np.ndarray, row: np.ndarray) -> int:
    """The indices of the positions one move earlier (the other side to move, one of its
    pieces back on a square it came from, no capture undone); returns how many."""
    mover = 1 - side
    occupied = 0
    for slot in range(count):
        occupied |= SQUARE_BIT[squares[slot]]
    found = 0
    for slot in range(count):
        if colours[slot] != mover:
            continue
        square = squares[slot]
        kind = kinds[slot]
        if kind == KING:
            sources = KING_ATTACKS[square]
        elif kind == KNIGHT:
            sources = KNIGHT_ATTACKS[square]
        elif kind == ROOK:
            sources = rook_attacks(square, occupied)
        elif kind == QUEEN:
            sources = rook_attacks(square, occupied) | bishop_attacks(square, occupied)
        elif kind == PAWN:
            back = -8 if mover == 0 else 8
            sources = 0
            one = square + back
            if 8 <= one < 56 and not occupied & SQUARE_BIT[one]:
                sources |= SQUARE_BIT[one]
                two = one + back
                start = 1 if mover == 0 else 6
                if two >> 3 == start and square >> 3 == (3 if mover == 0 else 4) \
                        and not occupied & SQUARE_BIT[two]:
                    sources |= SQUARE_BIT[two]
        else:
            sources = bishop_attacks(square, occupied)
        sources &= ~occupied
        while sources:
            source = lowest_square(sources)
            sources &= sources - 1
            for other in range(count):
                scratch[other] = squares[other]
            scratch[slot] = source
            if setup(row, mover, scratch, kinds, colours, count):
                out[found] = encode(mover, scratch, count)
                found += 1
    return found


@njit(cache=True)
def propagate(count: int, kinds: np.ndarray, colours: np.ndarray, values: np.ndarray,
              counters: np.ndarray, exit_ranks: np.ndarray) -> int:
    """Step 2 and 3 of the build (module docstring); returns the plies it went through."""
    squares = np.zeros(MAX_PIECES, dtype=np.int64)
    scratch = np.zeros(MAX_PIECES, dtype=np.int64)
    row = np.zeros(POSITION_SIZE, dtype=np.int64)
    earlier = np.zeros(512, dtype=np.int64)
    size = values.shape[0]
    last_pending = 0
    for index in range(size):
        if values[index] == UNKNOWN and exit_ranks[index] > 0:
            last_pending = max(last_pending, WIN_RANK - exit_ranks[index])
    ply = 0
    quiet_plies = 0
    while quiet_plies < 2 or ply <= last_pending:
        changed = False
        for index in range(size):  # exits that mate at this distance
            if values[index] == UNKNOWN and exit_ranks[index] == WIN_RANK - ply and ply > 0:
                values[index] = ply
                changed = True
        for index in range(size):
            value = values[index]
            if value == -(ply + 1):  # lost in ply: every predecessor wins in ply + 1
                side = decode(index, count, squares)
                found = _unmoves(side, squares, kinds, colours, count, earlier, scratch, row)
                for k in range(found):
                    before = earlier[k]
                    if values[before] == UNKNOWN:
                        values[before] = ply + 1
                        changed = True
            elif value == ply and ply > 0:  # won in ply: one fewer escape for each predecessor
                side = decode(index, count, squares)
                found = _unmoves(side, squares, kinds, colours, count, earlier, scratch, row)
                for k in range(found):
                    before = earlier[k]
                    if values[before] != UNKNOWN:
                        continue
                    counters[before] -= 1
                    if counters[before] == 0:
                        rank = exit_ranks[before]
                        if rank < 0:  # no exit, or every exit loses too
                            plies = ply + 1
                            if rank != NO_EXIT:
                                plies = max(plies, rank + WIN_RANK)
                            values[before] = -(plies + 1)
                            changed = True
        if changed:
            quiet_plies = 0
        else:
            quiet_plies += 1
        ply += 1
    for index in range(size):
        if values[index] == UNKNOWN:
            values[index] = 0
    return ply


# -- probing from the search (module docstring) -------------------------------------------------
INFO_OFFSET, INFO_PIECES, INFO_MIRROR, INFO_KINDS, INFO_COLOURS = 0, 1, 2, 3, 3 + MAX_PIECES
INFO_SIZE = 3 + 2 * MAX_PIECES
MATERIAL_KEYS = 3 ** 10  # 0 to 2 pieces of each kind but the king, of each colour


def material_key_of(white: str, black: str) -> int:
    """``material_key`` of a side's letters (``"KR"``, ``"K"``), as the kernel computes it."""
    key = 0
    for side in (white, black):
        for letter in "PNBRQ":  # PAWN..QUEEN
            key = key * 3 + side.count(letter)
    return key


@njit(cache=True)
def material_key(row: np.ndarray) -> int:
    """A number for the pieces on the board (how many of each kind and colour, kings aside),
    -1 when some kind has three or more."""
    key = 0
    for colour in range(2):
        own = row[WHITE + colour]
        for kind in range(PAWN, KING):
            count = popcount(row[kind] & own)
            if count > 2:
                return -1
            key = key * 3 + count
    return key


@njit(cache=True)
def probe(row: np.ndarray, values: np.ndarray, lookup: np.ndarray, info: np.ndarray) -> int:
    """The packed tables' value for the side to move (the layout above), UNKNOWN when none
    covers the position (other material, castling rights, an en-passant square)."""
    if row[CASTLING] != 0 or row[EP] != NO_SQUARE:
        return UNKNOWN
    key = material_key(row)
    if key < 0:
        return UNKNOWN
    signature = lookup[key]
    if signature < 0:
        return UNKNOWN
    count = info[signature, INFO_PIECES]
    mirror = info[signature, INFO_MIRROR]
    flip = 56 if mirror else 0
    index = row[SIDE] ^ mirror
    taken = 0
    for slot in range(count):
        bits = row[info[signature, INFO_KINDS + slot]] \
            & row[WHITE + info[signature, INFO_COLOURS + slot]] & ~taken
        if bits == 0:
            return UNKNOWN
        bit = bits & -bits
        taken |= bit
        index = (index << 6) | (lowest_square(bit) ^ flip)
    return values[info[signature, INFO_OFFSET] + index]
