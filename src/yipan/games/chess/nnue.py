"""Chess's features for the family's network (``yipan.chess_family.nnue``): 768 per
perspective and king bucket, piece kind x colour x square, each side seeing the board as
white sees it::

    white's perspective: feature = 768 * bucket + 384 * colour + 64 * kind + square
    black's perspective: feature = 768 * bucket + 384 * (1 - colour) + 64 * kind + (square ^ 56)
                         (its own pieces first, the board mirrored rank for rank)

A network has 768 rows (one bucket: the pieces alone) or 768 * KING_BUCKETS: then each
perspective reads the rows of the bucket its own king stands in, seen from its side, so a
piece's weight can depend on where the king it attacks or shelters is (which a sum of
piece-square weights cannot express)::

    rank 8  6 6 6 6 7 7 7 7     rank 1: a-c 0, d-e 1, f-h 2 (castled long, home, short)
    ...                         rank 2: a-c 3, d-e 4, f-h 5
    rank 3  6 6 6 6 7 7 7 7     ranks 3-8: queen's side 6, king's side 7 (the king out)
    rank 2  3 3 3 4 4 5 5 5
    rank 1  0 0 0 1 1 2 2 2     (mirrored a <-> h, bucket b becomes MIRRORED_BUCKET[b])

The accumulator of a ply follows its position by the difference of the two boards, piece
bitboard by piece bitboard (``board_changes``), not by decoding the move: castling, en passant
and promotion need no case of their own, and a change to how moves are encoded or made
(Chess960's castling) leaves the network untouched. A position whose king changes bucket is
made from each perspective's last sum in its bucket (``refresh_perspective``): every row that
side reads has changed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...chess_family.nnue import (
    add_feature,
    apply_changes,
    output_bucket,
    output_layers,
    sub_feature,
)
from .bits import lowest_square, popcount
from .board import EN_PASSANT, KING, SIDE, SQUARE_BIT, WHITE

FEATURES = 768  # per king bucket
KING_BUCKETS = 8
LAYOUTS = (1, KING_BUCKETS)  # the king buckets a chess network may have
MAX_PIECES_ON_BOARD = 32
# the context's fields ``network_value`` takes after the stack and the ply, in its order
# (no ft_bias: the buckets' cached sums start at it, and every accumulator is made from them)
VALUE_FIELDS = ("accumulators", "fresh", "changes", "counts", "inputs", "ft_weights",
                "l1_weights", "l1_bias", "out_weights", "out_bias", "bucket_accumulators",
                "bucket_boards")


def _bucket_of(square: int) -> int:
    rank, file = square >> 3, square & 7
    if rank <= 1:
        return 3 * rank + (0 if file <= 2 else 1 if file <= 4 else 2)
    return 6 if file <= 3 else 7


BUCKET_OF_SQUARE = np.array([_bucket_of(square) for square in range(64)], np.int64)
# a bucket's mirror: the bucket of the mirror of any of its squares
MIRRORED_BUCKET = np.array([_bucket_of(list(BUCKET_OF_SQUARE).index(bucket) ^ 7)
                            for bucket in range(KING_BUCKETS)], np.int64)


def buckets_of(rows: int) -> int:
    """The king buckets of a network with ``rows`` first-layer rows (a ValueError if chess has
    no such layout)."""
    if rows % FEATURES or rows // FEATURES not in LAYOUTS:
        raise ValueError(f"a chess network has {' or '.join(str(FEATURES * n) for n in LAYOUTS)}"
                         f" feature rows, not {rows}")
    return rows // FEATURES


@njit(cache=True, inline="always")
def feature(perspective: int, colour: int, kind: int, square: int, bucket: int) -> int:
    if perspective == 0:
        return FEATURES * bucket + 384 * colour + 64 * kind + square
    return FEATURES * bucket + 384 * (1 - colour) + 64 * kind + (square ^ 56)


@njit(cache=True, inline="always")
def king_bucket(position: np.ndarray, perspective: int, buckets: int) -> int:
    """The bucket of ``perspective``'s own king, seen from its side (0 with one bucket)."""
    if buckets == 1:
        return 0
    square = lowest_square(position[KING] & position[WHITE + perspective])
    return BUCKET_OF_SQUARE[square if perspective == 0 else square ^ 56]


@njit(cache=True)
def refresh_perspective(position: np.ndarray, into: np.ndarray, weights: np.ndarray,
                        perspective: int, cached: np.ndarray, boards: np.ndarray) -> None:
    """One perspective's accumulator of ``position`` without its parent's: the one this
    perspective last had in its king's bucket (``cached``, the sum for ``boards``) brought up
    to the position by the pieces that differ, kept for next time. A king moved back and
    forth, as the search does, finds its bucket's sum a move or two away."""
    bucket = king_bucket(position, perspective, weights.shape[0] // FEATURES)
    total = cached[perspective, bucket]
    seen = boards[perspective, bucket]
    for colour in range(2):
        for kind in range(6):
            before = seen[kind] & seen[WHITE + colour]
            after = position[kind] & position[WHITE + colour]
            added = after & ~before
            while added:
                square = lowest_square(added)
                added &= added - 1
                add_feature(total, weights, feature(perspective, colour, kind, square, bucket))
            removed = before & ~after
            while removed:
                square = lowest_square(removed)
                removed &= removed - 1
                sub_feature(total, weights, feature(perspective, colour, kind, square, bucket))
    for field in range(WHITE + 2):
        seen[field] = position[field]
    for i in range(into.shape[0]):
        into[i] = total[i]


@njit(cache=True)
def refresh(position: np.ndarray, accumulator: np.ndarray, weights: np.ndarray,
            cached: np.ndarray, boards: np.ndarray) -> None:
    """The accumulator of ``position`` without a parent's (the root's)."""
    for perspective in range(2):
        refresh_perspective(position, accumulator[perspective], weights, perspective, cached,
                            boards)


@njit(cache=True, inline="always")
def board_changes(parent: np.ndarray, child: np.ndarray, changes: np.ndarray,
                  counts: np.ndarray, white_bucket: int, black_bucket: int) -> None:
    """The features ``child`` has that ``parent`` has not (``changes[0, p, :counts[0, p]]``)
    and those it lost (``changes[1, p, :counts[1, p]]``), for both perspectives, in the
    buckets given (the child's kings')."""
    counts[:] = 0
    for colour in range(2):
        for kind in range(6):
            before = parent[kind] & parent[WHITE + colour]
            after = child[kind] & child[WHITE + colour]
            if before == after:
                continue
            for way in range(2):  # 0: added, 1: removed
                bits = (after & ~before) if way == 0 else (before & ~after)
                while bits:
                    square = lowest_square(bits)
                    bits &= bits - 1
                    for perspective in range(2):
                        changes[way, perspective, counts[way, perspective]] = \
                            feature(perspective, colour, kind, square,
                                    white_bucket if perspective == 0 else black_bucket)
                        counts[way, perspective] += 1


@njit(cache=True)
def network_value(stack: np.ndarray, ply: int, accumulators: np.ndarray, fresh: np.ndarray,
                  changes: np.ndarray, counts: np.ndarray, inputs: np.ndarray,
                  ft_weights: np.ndarray,
                  l1_weights: np.ndarray, l1_bias: np.ndarray, out_weights: np.ndarray,
                  out_bias: np.ndarray, bucket_accumulators: np.ndarray,
                  bucket_boards: np.ndarray) -> int:
    """The network's value of ``stack[ply]`` for the side to move: its accumulator brought up
    to date from the nearest fresh one above it on the path (or the root's, made anew)."""
    source = ply
    while source > 0 and fresh[source] == 0:
        source -= 1
    if fresh[source] == 0:
        refresh(stack[source], accumulators[source], ft_weights, bucket_accumulators,
                bucket_boards)
        fresh[source] = 1
    # a network without buckets runs a loop of its own: a refresh in the loop, even one never
    # taken, keeps LLVM from compiling the update as tightly (benchmarks/nnue.py kernel)
    if ft_weights.shape[0] == FEATURES:
        for level in range(source + 1, ply + 1):
            board_changes(stack[level - 1], stack[level], changes, counts, 0, 0)
            apply_changes(accumulators[level - 1], accumulators[level], ft_weights, changes,
                          counts[0], counts[1])
            fresh[level] = 1
    else:
        buckets = ft_weights.shape[0] // FEATURES
        for level in range(source + 1, ply + 1):
            parent, child = stack[level - 1], stack[level]
            white_bucket = king_bucket(child, 0, buckets)
            black_bucket = king_bucket(child, 1, buckets)
            if white_bucket == king_bucket(parent, 0, buckets) and \
                    black_bucket == king_bucket(parent, 1, buckets):
                board_changes(parent, child, changes, counts, white_bucket, black_bucket)
                apply_changes(accumulators[level - 1], accumulators[level], ft_weights, changes,
                              counts[0], counts[1])
            else:  # a king changed bucket: both sides from their buckets' last sums
                refresh(child, accumulators[level], ft_weights, bucket_accumulators,
                        bucket_boards)
            fresh[level] = 1
    bucket = 0
    if out_bias.shape[0] > 1:
        bucket = output_bucket(popcount(stack[ply, WHITE] | stack[ply, WHITE + 1]),
                               out_bias.shape[0])
    return output_layers(accumulators[ply], stack[ply, SIDE], inputs, l1_weights, l1_bias,
                         out_weights, out_bias, bucket)


def evaluate_with(arrays: dict[str, np.ndarray], row: np.ndarray) -> int:
    """The network's value of one position row, from scratch (tests, the Python side)."""
    from ...chess_family.nnue import network_memory

    memory = network_memory(arrays)
    stack = np.zeros((1, row.shape[0]), np.int64)
    stack[0] = row
    return int(network_value(stack, 0, *(memory[name] for name in VALUE_FIELDS)))


# -- for training (numpy) ----------------------------------------------------------------------
def active_features(rows: np.ndarray, buckets: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """For each position row: the features of the side to move's perspective and of the
    other's (in the bucket of that side's king when ``buckets`` > 1), as two (N, 32) int32
    arrays padded with FEATURES * buckets (a zero column in training)."""
    count = rows.shape[0]
    padding = FEATURES * buckets
    mine = np.full((count, MAX_PIECES_ON_BOARD), padding, np.int32)
    theirs = np.full((count, MAX_PIECES_ON_BOARD), padding, np.int32)
    filled = np.zeros(count, np.int64)
    side = rows[:, SIDE].astype(np.int64)
    shifts = np.arange(64, dtype=np.uint64)
    offsets = np.zeros((count, 2), np.int64)  # per row: each colour's bucket rows start
    if buckets > 1:
        for colour in range(2):
            kings = (rows[:, KING] & rows[:, WHITE + colour]).view(np.uint64)
            squares = np.argmax(((kings[:, None] >> shifts[None, :]) & np.uint64(1)) > 0, axis=1)
            offsets[:, colour] = FEATURES * BUCKET_OF_SQUARE[squares ^ (56 * colour)]
    for colour in range(2):
        for kind in range(6):
            boards = (rows[:, kind] & rows[:, WHITE + colour]).view(np.uint64)
            bits = ((boards[:, None] >> shifts[None, :]) & np.uint64(1)).astype(bool)
            position_index, square = np.nonzero(bits)
            if position_index.size == 0:
                continue
            # the k-th piece of a row goes to column filled + its rank among this kind's
            order = np.arange(position_index.size) - np.searchsorted(position_index,
                                                                     position_index)
            column = filled[position_index] + order
            white_view = offsets[position_index, 0] + 384 * colour + 64 * kind + square
            black_view = (offsets[position_index, 1] + 384 * (1 - colour) + 64 * kind
                          + (square ^ 56))
            to_move = side[position_index]
            mine[position_index, column] = np.where(to_move == 0, white_view, black_view)
            theirs[position_index, column] = np.where(to_move == 0, black_view, white_view)
            filled += np.bincount(position_index, minlength=count)
    return mine, theirs


def mirrored_features(features: np.ndarray, chosen: np.ndarray, buckets: int = 1) -> np.ndarray:
    """``active_features``'s rows chosen (a bool per row) with the files mirrored (a <-> h),
    the king's bucket with them: the same position but for castling rights, which the
    features do not see."""
    padding = FEATURES * buckets
    bucket, piece = np.divmod(features, FEATURES)
    if buckets > 1:
        bucket = MIRRORED_BUCKET[np.minimum(bucket, KING_BUCKETS - 1)]
    flipped = np.where(features < padding, FEATURES * bucket + (piece ^ 7), features)
    return np.where(chosen[:, None], flipped, features)


def noisy_move(row: np.ndarray, move: int) -> bool:
    """Whether ``move`` captures (en passant too) or promotes."""
    target = (move >> 6) & 63
    enemy = int(row[WHITE + 1 - int(row[SIDE])])
    return bool(enemy & int(SQUARE_BIT[target])) or (move >> 15) & 3 == EN_PASSANT \
        or (move >> 12) & 7 != 0

