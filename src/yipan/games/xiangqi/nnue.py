"""Xiangqi's features for the family's network (``yipan.chess_family.nnue``): 1,260 per
perspective, piece kind x colour x square (7 x 2 x 90), each side seeing the board as red
sees it::

    red's perspective:   feature = 630 * colour + 90 * (kind - 1) + square
    black's perspective: feature = 630 * (1 - colour) + 90 * (kind - 1) + flip(square)
                         (its own pieces first, the board turned rank for rank:
                          flip(9 * rank + file) = 9 * (9 - rank) + file)

Not king-relative (as Stockfish's HalfKP is): the general never leaves its palace's nine
squares, so the piece-square features already see most of what a king bucket would, at a
ninth of the first layer's rows to learn from the few positions self-play gives.

The accumulator of a ply follows its position by the difference of the two mailbox rows
(``board_changes``: the squares whose piece changed; a move changes two, a null move none),
as chess's follows its bitboards, without decoding the move.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...chess_family.nnue import (
    add_feature,
    apply_changes,
    output_bucket,
    output_layers,
)
from .board import SIDE, SQUARES

FEATURES = 1_260
LAYOUTS = (1,)  # the king buckets a xiangqi network may have: none
# the context's fields ``network_value`` takes after the stack and the ply, in its order
VALUE_FIELDS = ("accumulators", "fresh", "changes", "counts", "inputs", "ft_weights", "ft_bias",
                "l1_weights", "l1_bias", "out_weights", "out_bias")
COLOUR_SPAN = 630  # 7 kinds x 90 squares
MAX_PIECES_ON_BOARD = 32


@njit(cache=True, inline="always")
def _flip(square: int) -> int:
    rank = square // 9
    return 9 * (9 - rank) + (square - 9 * rank)


@njit(cache=True, inline="always")
def feature(perspective: int, piece: int, square: int) -> int:
    """The feature of ``piece`` (colour * 8 + kind) on ``square`` for ``perspective``."""
    colour = piece >> 3
    kind = piece & 7
    if perspective == 0:
        return COLOUR_SPAN * colour + 90 * (kind - 1) + square
    return COLOUR_SPAN * (1 - colour) + 90 * (kind - 1) + _flip(square)


@njit(cache=True)
def refresh(position: np.ndarray, accumulator: np.ndarray, weights: np.ndarray,
            bias: np.ndarray) -> None:
    """The accumulator of ``position`` from scratch (the root's)."""
    for perspective in range(2):
        into = accumulator[perspective]
        for i in range(into.shape[0]):
            into[i] = bias[i]
        for square in range(SQUARES):
            piece = position[square]
            if piece != 0:
                add_feature(into, weights, feature(perspective, piece, square))


@njit(cache=True, inline="always")
def board_changes(parent: np.ndarray, child: np.ndarray, changes: np.ndarray,
                  counts: np.ndarray) -> None:
    """The features ``child`` has that ``parent`` has not (``changes[0, p, :counts[0, p]]``)
    and those it lost (``changes[1, p, :counts[1, p]]``), for both perspectives."""
    counts[:] = 0
    for square in range(SQUARES):
        before = parent[square]
        after = child[square]
        if before == after:
            continue
        for perspective in range(2):
            if after != 0:
                changes[0, perspective, counts[0, perspective]] = \
                    feature(perspective, after, square)
                counts[0, perspective] += 1
            if before != 0:
                changes[1, perspective, counts[1, perspective]] = \
                    feature(perspective, before, square)
                counts[1, perspective] += 1


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
    bucket = 0
    if out_bias.shape[0] > 1:
        pieces = 0
        for square in range(SQUARES):
            pieces += stack[ply, square] != 0
        bucket = output_bucket(pieces, out_bias.shape[0])
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
_SQUARE = np.arange(SQUARES)
_FLIPPED = 9 * (9 - _SQUARE // 9) + _SQUARE % 9
_MIRRORED = 9 * (_SQUARE // 9) + 8 - _SQUARE % 9  # file a <-> file i


def _one_layout(buckets: int) -> None:
    if buckets != 1:
        raise ValueError(f"xiangqi's features have no king buckets (asked for {buckets})")


def active_features(rows: np.ndarray, buckets: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """For each position row: the features of the side to move's perspective and of the
    other's, as two (N, 32) int32 arrays padded with FEATURES (a zero column in training).
    Xiangqi's features have one layout (``buckets`` 1)."""
    _one_layout(buckets)
    count = rows.shape[0]
    mine = np.full((count, MAX_PIECES_ON_BOARD), FEATURES, np.int32)
    theirs = np.full((count, MAX_PIECES_ON_BOARD), FEATURES, np.int32)
    board = rows[:, :SQUARES]
    position_index, square = np.nonzero(board)  # row-major: each row's pieces in a run
    if position_index.size == 0:
        return mine, theirs
    piece = board[position_index, square]
    colour, kind = piece >> 3, (piece & 7) - 1
    column = np.arange(position_index.size) - np.searchsorted(position_index, position_index)
    red_view = COLOUR_SPAN * colour + 90 * kind + square
    black_view = COLOUR_SPAN * (1 - colour) + 90 * kind + _FLIPPED[square]
    to_move = rows[position_index, SIDE]
    mine[position_index, column] = np.where(to_move == 0, red_view, black_view)
    theirs[position_index, column] = np.where(to_move == 0, black_view, red_view)
    return mine, theirs


def mirrored_features(features: np.ndarray, chosen: np.ndarray, buckets: int = 1) -> np.ndarray:
    """``active_features``'s rows chosen (a bool per row) with the files mirrored (a <-> i):
    the same position by the rules, so the same value."""
    _one_layout(buckets)
    real = features < FEATURES
    base = features - features % SQUARES
    flipped = np.where(real, base + _MIRRORED[np.where(real, features % SQUARES, 0)], features)
    return np.where(chosen[:, None], flipped, features)


def noisy_move(row: np.ndarray, move: int) -> bool:
    """Whether ``move`` captures (xiangqi has no promotion)."""
    return bool(row[(move >> 7) & 127] != 0)
