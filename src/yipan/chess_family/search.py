"""The numba pieces every chess-family search kernel is built from (a game's ``search.py``
writes its node, the rules and pruning only it knows, over these).

The search's working memory is a struct of arrays (``native_struct``) that each game declares
with the fields of ``search_memory`` and its own after them; the kernels here read only the
shared fields, so one function serves every game's struct (numba compiles it once for each).

The control block, shared with the driver (``engine.py``): counters and switches by slot::

    NODES MAX_NODES STOP SELDEPTH HISTORY_LENGTH BEST_MOVE BEST_SCORE TT_HITS GENERATION
    ROOT_MOVES_SEARCHED TB_HITS | a game's own from FIRST_GAME_SLOT (chess: QUIET_CHECKS)

The transposition table: one 64-bit key and one 64-bit entry a slot (a power of two slots)::

    entry bits   0-16 move | 17-32 score + 32768 | 33-39 depth | 40-41 bound | 42-49 age

replaced when deeper or from an older search (``GENERATION``); mates stored relative to the
node, so that the same entry serves at any ply.

Every helper a node calls on its hot path is inlined (``inline="always"``): the node compiles
as if written in one piece. Move ordering stays in each game's kernel, whole: it is the hottest
loop of the search, and a shared helper for its five lines of killers and history slows it
(``benchmarks/chess_family.py`` measures it).
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import Any

import numpy as np
from numba import njit

from .scores import MATE, MATE_BOUND

MAX_PLY = 120
MAX_HISTORY = 1_024  # game positions remembered for repetitions (since the last capture)

NODES, MAX_NODES, STOP, SELDEPTH, HISTORY_LENGTH, BEST_MOVE, BEST_SCORE, TT_HITS, \
    GENERATION, ROOT_MOVES_SEARCHED, TB_HITS = range(11)
FIRST_GAME_SLOT = 11
CONTROL_SIZE = 16

EXACT, LOWER, UPPER = 1, 2, 3
SCORE_SHIFT, DEPTH_SHIFT, BOUND_SHIFT, AGE_SHIFT = 17, 33, 40, 42
MOVE_MASK = 0x1FFFF
NO_SCORE = -(1 << 40)  # ``probe``: the entry does not settle the node

# move ordering keys (higher first)
TABLE_MOVE_KEY = 1 << 30
CAPTURE_KEY = 1 << 28
KILLER_KEY = 1 << 26
HISTORY_MAX = 1 << 14  # ``nudge_history`` keeps a count within +-this (below KILLER_KEY)
QUIET_TRIED = -(1 << 40)  # the spent ordering key of a quiet move searched at a node
HISTORY_REDUCTION_STEP = 8192  # a late move's reduction moves by one ply per this of history

FUTILITY_MARGIN = 120  # a quiet move at depth d is pruned when eval + d * this <= alpha
REVERSE_FUTILITY_MARGIN = 90  # a node at depth d returns when eval - d * this >= beta
DELTA_MARGIN = 200  # quiescence: a capture that cannot lift the score to alpha is skipped

SEARCH_MEMORY = ("stack", "moves", "keys_of_moves", "table_keys", "table_entries", "killers",
                 "history", "pv", "pv_length", "path_keys", "control", "reductions")
"""The fields every family context begins with (``search_memory`` makes them)."""


def context_arrays(module: str, *own: str) -> Any:
    """A game's namedtuple of its context's arrays (``ContextArrays`` of ``module``): the
    family's fields, then the game's ``own``."""
    return namedtuple("ContextArrays", [*SEARCH_MEMORY, *own], module=module)


def reduction_table() -> np.ndarray:
    """Late-move reductions by depth and move index: log(depth) * log(index) / 2.25."""
    table = np.zeros((64, 64), dtype=np.int64)
    for depth in range(1, 64):
        for index in range(1, 64):
            table[depth, index] = int(0.75 + math.log(depth) * math.log(index) / 2.25)
    return table


def search_memory(table_megabytes: int, position_size: int, max_moves: int,
                  squares: int) -> dict[str, np.ndarray]:
    """The shared fields of a context: the table takes ``table_megabytes`` (16 bytes a slot,
    a power of two slots); history counts by side, origin and target square."""
    slots = 1 << 10
    while slots * 2 * 16 <= table_megabytes * (1 << 20):
        slots *= 2
    return {
        "stack": np.zeros((MAX_PLY + 2, position_size), dtype=np.int64),
        "moves": np.zeros((MAX_PLY + 2, max_moves), dtype=np.int64),
        "keys_of_moves": np.zeros((MAX_PLY + 2, max_moves), dtype=np.int64),
        "table_keys": np.zeros(slots, dtype=np.int64),
        "table_entries": np.zeros(slots, dtype=np.int64),
        "killers": np.zeros((MAX_PLY + 2, 2), dtype=np.int64),
        "history": np.zeros((2, squares, squares), dtype=np.int64),
        "pv": np.zeros((MAX_PLY + 2, MAX_PLY + 2), dtype=np.int64),
        "pv_length": np.zeros(MAX_PLY + 2, dtype=np.int64),
        "path_keys": np.zeros(MAX_HISTORY + MAX_PLY + 2, dtype=np.int64),
        "control": np.zeros(CONTROL_SIZE, dtype=np.int64),
        "reductions": reduction_table(),
    }


# -- entering a node -------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def enter(ctx: Any, ply: int) -> bool:
    """Count the node; False when the search must stop now: a stop was asked (by the node
    budget, spent here, or by another thread: the kernel runs without the GIL)."""
    control = ctx.control
    ctx.pv_length[ply] = ply
    if control[STOP]:
        return False
    control[NODES] += 1
    if control[NODES] >= control[MAX_NODES]:
        control[STOP] = 1
        return False
    if ply > control[SELDEPTH]:
        control[SELDEPTH] = ply
    return True


# -- the transposition table -----------------------------------------------------------------------
@njit(cache=True, inline="always")
def to_table(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True, inline="always")
def from_table(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True, inline="always")
def probe(ctx: Any, key: int, ply: int, depth: int, alpha: int, beta: int,
          pv_node: bool) -> tuple[int, int]:
    """(the table's move for this position or 0, its score when the entry settles the node
    or ``NO_SCORE``): deep enough, a bound on the right side, never at the root or on the
    principal variation."""
    slot = key & (ctx.table_keys.shape[0] - 1)
    if ctx.table_keys[slot] != key:
        return 0, NO_SCORE
    entry = ctx.table_entries[slot]
    table_move = entry & MOVE_MASK
    entry_depth = (entry >> DEPTH_SHIFT) & 127
    bound = (entry >> BOUND_SHIFT) & 3
    score = from_table(((entry >> SCORE_SHIFT) & 0xFFFF) - 32768, ply)
    ctx.control[TT_HITS] += 1
    usable = not pv_node and ply > 0 and entry_depth >= max(depth, 0)
    if usable and (bound == EXACT or (bound == LOWER and score >= beta)
                   or (bound == UPPER and score <= alpha)):
        return table_move, score
    return table_move, NO_SCORE


@njit(cache=True)
def store(ctx: Any, key: int, move: int, score: int, depth: int, bound: int,
          ply: int) -> None:
    slot = key & (ctx.table_keys.shape[0] - 1)
    entry = ctx.table_entries[slot]
    age = ctx.control[GENERATION] & 255
    if ctx.table_keys[slot] == key:
        if move == 0:
            move = entry & MOVE_MASK  # keep the move a shallower search found
    elif entry != 0 and ((entry >> AGE_SHIFT) & 255) == age \
            and ((entry >> DEPTH_SHIFT) & 127) > depth + 2:
        return  # a deeper entry of this search stays
    ctx.table_keys[slot] = key
    ctx.table_entries[slot] = (move | ((to_table(score, ply) + 32768) << SCORE_SHIFT)
                               | (max(depth, 0) << DEPTH_SHIFT) | (bound << BOUND_SHIFT)
                               | (age << AGE_SHIFT))


@njit(cache=True, inline="always")
def bound_of(best: int, original_alpha: int, beta: int) -> int:
    """What a node's best score is of its true value, for the table (fail-soft)."""
    return LOWER if best >= beta else EXACT if best > original_alpha else UPPER


@njit(cache=True, inline="always")
def is_banned(ctx: Any, move: int) -> bool:
    """Whether a root move is one of ``ctx.banned`` (ended by 0)."""
    at = 0
    while ctx.banned[at] != 0:
        if ctx.banned[at] == move:
            return True
        at += 1
    return False


# -- moves: their order, pruning and reductions ----------------------------------------------------
@njit(cache=True, inline="always")
def pick(ctx: Any, ply: int, start: int, count: int) -> int:
    """Bring the best remaining move to ``start`` (selection sort, one step) and return it."""
    moves = ctx.moves[ply]
    keys = ctx.keys_of_moves[ply]
    best = start
    for index in range(start + 1, count):
        if keys[index] > keys[best]:
            best = index
    if best != start:
        moves[start], moves[best] = moves[best], moves[start]
        keys[start], keys[best] = keys[best], keys[start]
    return moves[start]


@njit(cache=True, inline="always")
def reverse_futile(depth: int, static: int, beta: int) -> bool:
    """Far above beta with few plies left: the node returns its static evaluation."""
    return depth <= 6 and static - REVERSE_FUTILITY_MARGIN * depth >= beta \
        and abs(beta) < MATE_BOUND


@njit(cache=True, inline="always")
def futile(depth: int, static: int, alpha: int, searched: int) -> bool:
    """A quiet move at the last plies that cannot lift the score to alpha (futility), or
    comes after enough others (late-move pruning)."""
    if depth > 3 or abs(alpha) >= MATE_BOUND:
        return False
    return static + FUTILITY_MARGIN * depth <= alpha or searched >= 4 + 4 * depth * depth


@njit(cache=True, inline="always")
def late_reduction(ctx: Any, ply: int, depth: int, searched: int, move: int,
                   pv_node: bool, history: int) -> int:
    """How much shallower a late quiet move is searched first (less on the principal
    variation, for a killer and for a move of good ``history``; more for a bad one), never
    below depth 1."""
    reduction = ctx.reductions[min(depth, 63), min(searched, 63)]
    by_history = history // HISTORY_REDUCTION_STEP
    reduction -= max(by_history, 0) if pv_node else by_history
    if pv_node:
        reduction -= 1
    if move == ctx.killers[ply, 0] or move == ctx.killers[ply, 1]:
        reduction -= 1
    return max(0, min(reduction, depth - 2))


# -- a move that raised alpha ----------------------------------------------------------------------
@njit(cache=True, inline="always")
def new_best(ctx: Any, ply: int, move: int, score: int) -> None:
    """The principal variation from ``ply`` becomes ``move`` and the child's; at the root the
    driver's best move so far (kept if a later depth is cut short)."""
    pv = ctx.pv
    pv[ply, ply] = move
    length = ctx.pv_length[ply + 1]
    for later in range(ply + 1, length):
        pv[ply, later] = pv[ply + 1, later]
    ctx.pv_length[ply] = max(length, ply + 1)
    if ply == 0:
        ctx.control[BEST_MOVE] = move
        ctx.control[BEST_SCORE] = score


@njit(cache=True, inline="always")
def history_bonus(depth: int) -> int:
    """How far a cut-off at ``depth`` moves a history count: depth², scaled, capped."""
    return min(32 * depth * depth, HISTORY_MAX // 4)


@njit(cache=True, inline="always")
def nudge_history(ctx: Any, side: int, origin: int, target: int, amount: int) -> None:
    """Move a history count by ``amount`` with gravity: the nearer the count is to
    ``HISTORY_MAX`` on the side it moves to, the less it moves, so counts stay bounded and a
    move that stops cutting off loses its rank within a few nodes rather than never."""
    value = ctx.history[side, origin, target]
    ctx.history[side, origin, target] = value + amount - value * abs(amount) // HISTORY_MAX


@njit(cache=True, inline="always")
def reward_quiet(ctx: Any, ply: int, side: int, move: int, depth: int, index: int,
                 square_bits: int) -> None:
    """A quiet move that cut off at the ``index``-th of its node's list: the first killer at
    this ply; its history up, and down by as much for the quiet moves searched before it there
    (their spent keys set to ``QUIET_TRIED``), ranked above it and not cutting off. A move's
    origin is its low ``square_bits`` bits, its target the next as many."""
    if ctx.killers[ply, 0] != move:
        ctx.killers[ply, 1] = ctx.killers[ply, 0]
        ctx.killers[ply, 0] = move
    mask = (1 << square_bits) - 1
    bonus = history_bonus(depth)
    nudge_history(ctx, side, move & mask, (move >> square_bits) & mask, bonus)
    moves = ctx.moves[ply]
    keys = ctx.keys_of_moves[ply]
    for earlier in range(index):
        if keys[earlier] == QUIET_TRIED:
            tried = moves[earlier]
            nudge_history(ctx, side, tried & mask, (tried >> square_bits) & mask, -bonus)


@njit(cache=True, inline="always")
def mated(ply: int) -> int:
    """The score of the side to move mated at ``ply``."""
    return -MATE + ply
