"""Chess's features for the family's network (``yipan.chess_family.nnue``): 768 per
perspective, piece kind x colour x square, each side seeing the board as white sees it::

    white's perspective: feature = 384 * colour + 64 * kind + square
    black's perspective: feature = 384 * (1 - colour) + 64 * kind + (square ^ 56)
                         (its own pieces first, the board mirrored rank for rank)

The accumulator of a ply follows its position by the difference of the two boards, piece
bitboard by piece bitboard (``board_changes``), not by decoding the move: castling, en passant
and promotion need no case of their own, and a change to how moves are encoded or made
(Chess960's castling) leaves the network untouched.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...chess_family.nnue import add_feature, apply_changes, forward
from .bits import lowest_square
from .board import EN_PASSANT, SIDE, SQUARE_BIT, WHITE

FEATURES = 768
MAX_PIECES_ON_BOARD = 32


@njit(cache=True, inline="always")
def feature(perspective: int, colour: int, kind: int, square: int) -> int:
    if perspective == 0:
        return 384 * colour + 64 * kind + square
    return 384 * (1 - colour) + 64 * kind + (square ^ 56)


@njit(cache=True)
def refresh(position: np.ndarray, accumulator: np.ndarray, weights: np.ndarray,
            bias: np.ndarray) -> None:
    """The accumulator of ``position`` from scratch (the root's)."""
    for perspective in range(2):
        into = accumulator[perspective]
        for i in range(into.shape[0]):
            into[i] = bias[i]
        for colour in range(2):
            for kind in range(6):
                pieces = position[kind] & position[WHITE + colour]
                while pieces:
                    square = lowest_square(pieces)
                    pieces &= pieces - 1
                    add_feature(into, weights, feature(perspective, colour, kind, square))


@njit(cache=True, inline="always")
def board_changes(parent: np.ndarray, child: np.ndarray, changes: np.ndarray,
                  counts: np.ndarray) -> None:
    """The features ``child`` has that ``parent`` has not (``changes[0, p, :counts[0, p]]``)
    and those it lost (``changes[1, p, :counts[1, p]]``), for both perspectives."""
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
                            feature(perspective, colour, kind, square)
                        counts[way, perspective] += 1


@njit(cache=True)
def network_value(stack: np.ndarray, ply: int, accumulators: np.ndarray, fresh: np.ndarray,
                  changes: np.ndarray, counts: np.ndarray, inputs: np.ndarray,
                  ft_weights: np.ndarray, ft_bias: np.ndarray,
                  l1_weights: np.ndarray, l1_bias: np.ndarray, out_weights: np.ndarray,
                  out_bias: np.ndarray) -> int:
    """The network's value of ``stack[ply]`` for the side to move: its accumulator brought up
    to date from the nearest fresh one above it on the path (or the root's, made anew)."""
    source = ply
    while source > 0 and fresh[source] == 0:
        source -= 1
    if fresh[source] == 0:
        refresh(stack[source], accumulators[source], ft_weights, ft_bias)
        fresh[source] = 1
    for level in range(source + 1, ply + 1):
        board_changes(stack[level - 1], stack[level], changes, counts)
        apply_changes(accumulators[level - 1], accumulators[level], ft_weights, changes,
                      counts[0], counts[1])
        fresh[level] = 1
    return forward(accumulators[ply], stack[ply, SIDE], inputs, l1_weights, l1_bias, out_weights,
                   out_bias)


def evaluate_with(arrays: dict[str, np.ndarray], row: np.ndarray) -> int:
    """The network's value of one position row, from scratch (tests, the Python side)."""
    from ...chess_family.nnue import network_memory

    memory = network_memory(arrays)
    stack = np.zeros((1, row.shape[0]), np.int64)
    stack[0] = row
    return int(network_value(stack, 0, memory["accumulators"], memory["fresh"],
                             memory["changes"], memory["counts"], memory["inputs"],
                             memory["ft_weights"], memory["ft_bias"],
                             memory["l1_weights"], memory["l1_bias"], memory["out_weights"],
                             memory["out_bias"]))


# -- for training (numpy) ----------------------------------------------------------------------
def active_features(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each position row: the features of the side to move's perspective and of the
    other's, as two (N, 32) int32 arrays padded with FEATURES (a zero column in training)."""
    count = rows.shape[0]
    mine = np.full((count, MAX_PIECES_ON_BOARD), FEATURES, np.int32)
    theirs = np.full((count, MAX_PIECES_ON_BOARD), FEATURES, np.int32)
    filled = np.zeros(count, np.int64)
    side = rows[:, SIDE].astype(np.int64)
    shifts = np.arange(64, dtype=np.uint64)
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
            white_view = 384 * colour + 64 * kind + square
            black_view = 384 * (1 - colour) + 64 * kind + (square ^ 56)
            to_move = side[position_index]
            mine[position_index, column] = np.where(to_move == 0, white_view, black_view)
            theirs[position_index, column] = np.where(to_move == 0, black_view, white_view)
            filled += np.bincount(position_index, minlength=count)
    return mine, theirs


def mirrored_features(features: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """``active_features``'s rows chosen (a bool per row) with the files mirrored (a <-> h):
    the same position but for castling rights, which the features do not see."""
    flipped = np.where(features < FEATURES, features ^ 7, features)
    return np.where(chosen[:, None], flipped, features)


def noisy_move(row: np.ndarray, move: int) -> bool:
    """Whether ``move`` captures (en passant too) or promotes."""
    target = (move >> 6) & 63
    enemy = int(row[WHITE + 1 - int(row[SIDE])])
    return bool(enemy & int(SQUARE_BIT[target])) or (move >> 15) & 3 == EN_PASSANT \
        or (move >> 12) & 7 != 0

