"""An efficiently updatable network (NNUE) in numba: the family's integer kernels, for any game
whose position is a set of (piece, square) features.

The network, from each side's point of view (``perspective`` 0: the side of the first player,
1: the other; a game numbers its features so that each perspective sees the board as if it
were the first player)::

    features (F, one-hot, per perspective)
      -> accumulator[p] = ft_bias + sum of ft_weights[f] over the features f of perspective p
                                                    (H int16 per perspective, scale QA)
      -> x = [crelu(acc[side to move]), crelu(acc[other])]        (2H, each 0..QA)
      -> h = crelu((l1_weights[s] @ x + l1_bias[s]) >> QB_SHIFT)   (D, each 0..QA)
      -> out = out_weights[s] . h + out_bias[s]                    (scale QA * QO)
      -> centipawns = out * OUTPUT_SCALE / (QA * QO)

The layers after the first come in S output buckets (S = 1: one set), and a position reads
those of the bucket of the number of pieces on the board, both kings counted
(``output_bucket``): an endgame is valued by weights of its own, while the first layer, which
needs many positions to learn, stays shared. The S sets are stored one after another, set s
in rows ``s * D .. s * D + D - 1`` of ``l1_weights``, ``l1_bias`` and ``out_weights``
(``out_bias`` has S entries), so a network of one bucket is the network without them.

``crelu`` clips to 0..QA (QA stands for 1.0). The first layer is a sum over the pieces, so a
move changes it by a few columns: the search keeps one accumulator per ply and makes the one
below from the one above by adding the columns of the features that appeared and subtracting
those that went (``update``), lazily: only a node that evaluates asks (``accumulator_at``), and
a node's own is marked stale when the node is entered (``invalidate``). The root's is made
from scratch (``refresh``).

Quantisation (``yipan.games.nnue_fit`` exports it): first-layer weights and biases times
QA as int16; hidden weights times QB (2 ** QB_SHIFT) as int16 (training keeps them within
+-2), hidden biases times QA * QB as int32; output weights times QO, its bias times QA * QO
(finer than QB: an output weight's rounding counts for every centipawn). The hidden sums are
int32: at most 2H * QA * 2 QB = 2^26 for H = 256, no overflow.

A context that uses a network holds these arrays (``NETWORK_FIELDS``; none: ``ft_weights`` has
no rows, and the game's hand-set evaluation runs instead)::

    ft_weights (F, H) int16   ft_bias (H,) int16
    l1_weights (S * D, 2H) int16  l1_bias (S * D,) int32
    out_weights (S * D,) int32    out_bias (S,) int32
    accumulators (MAX_PLY + 2, 2, H) int16   fresh (MAX_PLY + 2,) int64 (1: up to date)
    scratch: changes (2, 2, 32) int64, the features a move adds [0] and removes [1], and
    counts (2, 2) int64, how many; inputs (2H + 2D,) int16: the first layer clipped (2H),
    then the D hidden sums as int32
    bucket_accumulators (2, MAX_BUCKETS, H) int16, bucket_boards (2, MAX_BUCKETS, 8) int64:
    for a game with king buckets, each perspective's last accumulator in each bucket and the
    board it was the sum for (empty at first: the bias alone), so that a king entering a
    bucket costs the pieces moved since it was last there, not all of them
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from .search import MAX_PLY

QA = 255
QB_SHIFT = 8
QB = 1 << QB_SHIFT
QO = 1 << 10
OUTPUT_SCALE = 400  # centipawns of one unit of the float network's output
MAX_CHANGES = 32  # features one move adds (or removes) per perspective: chess needs 3

NETWORK_FIELDS = ("ft_weights", "ft_bias", "l1_weights", "l1_bias", "out_weights", "out_bias",
                  "accumulators", "fresh", "changes", "counts", "inputs",
                  "bucket_accumulators", "bucket_boards")
MAX_BUCKETS = 8  # king buckets a game's features may have (chess: 8)
BOARD_FIELDS = 8  # the position fields a bucket's cached board keeps (chess: 6 kinds, 2 colours)
MAX_PIECES = 32  # on a board at most (chess and xiangqi alike): the output buckets' range


def network_memory(arrays: dict[str, np.ndarray] | None, hidden: int = 1) -> dict[str, Any]:
    """The context fields of ``NETWORK_FIELDS`` for a network's quantised arrays (None: an
    empty network, the hand-set evaluation)."""
    if arrays is None:
        arrays = {"ft_weights": np.zeros((0, hidden), np.int16),
                  "ft_bias": np.zeros(hidden, np.int16),
                  "l1_weights": np.zeros((1, 2 * hidden), np.int16),
                  "l1_bias": np.zeros(1, np.int32),
                  "out_weights": np.zeros(1, np.int32), "out_bias": np.zeros(1, np.int32)}
    width = arrays["ft_bias"].shape[0]
    return {**{name: np.ascontiguousarray(arrays[name]) for name in NETWORK_FIELDS[:6]},
            "accumulators": np.zeros((MAX_PLY + 2, 2, width), np.int16),
            "fresh": np.zeros(MAX_PLY + 2, np.int64),
            "changes": np.zeros((2, 2, MAX_CHANGES), np.int64),
            "counts": np.zeros((2, 2), np.int64),
            "inputs": np.zeros(2 * width + 2 * arrays["l1_bias"].shape[0], np.int16),
            "bucket_accumulators": np.tile(np.asarray(arrays["ft_bias"], np.int16),
                                           (2, MAX_BUCKETS, 1)),
            "bucket_boards": np.zeros((2, MAX_BUCKETS, BOARD_FIELDS), np.int64)}


@njit(cache=True, inline="always")
def add_feature(accumulator: np.ndarray, weights: np.ndarray, feature: int) -> None:
    row = weights[feature]
    for i in range(accumulator.shape[0]):
        accumulator[i] += row[i]


@njit(cache=True, inline="always")
def sub_feature(accumulator: np.ndarray, weights: np.ndarray, feature: int) -> None:
    row = weights[feature]
    for i in range(accumulator.shape[0]):
        accumulator[i] -= row[i]


@njit(cache=True, inline="always")
def apply_changes(parent: np.ndarray, child: np.ndarray, weights: np.ndarray,
                  changes: np.ndarray, added: np.ndarray, removed: np.ndarray) -> None:
    """``child[p] := parent[p] + columns added - columns removed`` for both perspectives
    (``changes[0, p, :added[p]]`` and ``changes[1, p, :removed[p]]``). A quiet move (one in,
    one out) and a capture (one in, two out) are one pass over the columns each.

    Indexed in two dimensions rather than through per-perspective slices, and inlined with
    ``forward`` into the game's ``network_value``: a slice is a new array header at every
    call, and a call passes a dozen of them (benchmarks/nnue.py kernel measures both)."""
    width = parent.shape[1]
    for perspective in range(2):
        ins = added[perspective]
        outs = removed[perspective]
        if ins == 1 and outs <= 2:
            plus = changes[0, perspective, 0]
            minus = changes[1, perspective, 0]
            if outs == 1:
                for i in range(width):
                    child[perspective, i] = (parent[perspective, i] + weights[plus, i]
                                             - weights[minus, i])
            else:
                taken = changes[1, perspective, 1]
                for i in range(width):
                    child[perspective, i] = (parent[perspective, i] + weights[plus, i]
                                             - weights[minus, i] - weights[taken, i])
            continue
        for i in range(width):
            child[perspective, i] = parent[perspective, i]
        for k in range(ins):
            feature = changes[0, perspective, k]
            for i in range(width):
                child[perspective, i] += weights[feature, i]
        for k in range(outs):
            feature = changes[1, perspective, k]
            for i in range(width):
                child[perspective, i] -= weights[feature, i]


@njit(cache=True, inline="always")
def output_bucket(pieces: int, buckets: int) -> int:
    """The output bucket of a position with ``pieces`` on the board (kings too): the range
    2..MAX_PIECES cut into ``buckets`` parts of nearly equal width (8: 2-4, 5-8, ... 29-32).
    ``nnue_fit`` computes the same from the features."""
    bucket = (pieces - 1) * buckets // MAX_PIECES
    return bucket if bucket < buckets else buckets - 1


@njit(cache=True, inline="always")
def forward(accumulator: np.ndarray, side: int, inputs: np.ndarray, l1_weights: np.ndarray,
            l1_bias: np.ndarray, out_weights: np.ndarray, out_bias: np.ndarray) -> int:
    """The network's value in centipawns for ``side`` (to move) from its accumulator
    (``inputs``: int16 scratch, ``network_memory``'s).

    Written for LLVM's vectoriser: the clipping as conditional expressions (numba's ``min``
    and ``max`` keep a loop scalar), and the hidden sums as int16 x int16 products added in
    int32 (one multiply-add instruction for many pairs); benchmarks/nnue.py speed measures
    what it buys."""
    width = accumulator.shape[1]
    # the side to move's half first, each written through a slice of its own: an index
    # ``width + i``, not known to be >= 0, would keep the loop scalar
    for half in range(2):
        source = accumulator[side ^ half]
        into = inputs[half * width:(half + 1) * width]
        for i in range(width):
            value = source[i]
            value = value if value > 0 else 0
            into[i] = value if value < QA else QA
    clipped = inputs[:2 * width]
    sums = inputs[2 * width:].view(np.int32)
    for j in range(l1_weights.shape[0]):
        weights = l1_weights[j]
        total = np.int32(0)
        for i in range(2 * width):
            total += np.int32(clipped[i]) * np.int32(weights[i])
        sums[j] = total  # stored as int32 (no sum overflows it): LLVM then adds in int32
    out = np.int64(out_bias[0])
    for j in range(l1_weights.shape[0]):
        hidden = int((np.int64(sums[j]) + np.int64(l1_bias[j]) + QB // 2) >> QB_SHIFT)  # rounded
        hidden = hidden if hidden > 0 else 0
        hidden = hidden if hidden < QA else QA
        out += hidden * np.int64(out_weights[j])
    return int(out * OUTPUT_SCALE // (QA * QO))


@njit(cache=True, inline="always")
def output_layers(accumulator: np.ndarray, side: int, inputs: np.ndarray,
                  l1_weights: np.ndarray, l1_bias: np.ndarray, out_weights: np.ndarray,
                  out_bias: np.ndarray, bucket: int) -> int:
    """``forward`` through the layers of output ``bucket``: the arrays as they are for a
    network of one set (``forward`` compiled as before buckets existed: a view here, even
    one never taken, costs the one-set network a few percent of its nodes), else views of
    the bucket's set."""
    if out_bias.shape[0] == 1:
        return forward(accumulator, side, inputs, l1_weights, l1_bias, out_weights, out_bias)
    size = l1_weights.shape[0] // out_bias.shape[0]
    first = bucket * size
    return forward(accumulator, side, inputs, l1_weights[first:first + size],
                   l1_bias[first:first + size], out_weights[first:first + size],
                   out_bias[bucket:bucket + 1])
