"""The engine's search, in numba: principal variation search with the usual refinements.

``search(ctx, ply, depth, alpha, beta, null_allowed)`` is negamax over ``ctx.stack[ply]``
(scores for the side to move there), fail-soft::

    v = search(..., alpha, beta)
    v <= alpha: the true value is at most v;  v >= beta: at least v;  else v is exact
    (for the tree the pruning rules leave: null move and reductions make it a guess)

At ``depth <= 0`` it is the quiescence search: the side to move may stand pat on the static
evaluation or try captures, most valuable victim first (least valuable attacker among
equals), with delta pruning; in check, every evasion. Above it, in order:

- repetition, judged as the rules judge it (``yipan.games.xiangqi``) but at the first
  repeat within the game or the search's path: a side that gave check with every move of
  the cycle while the other did not loses (``PERPETUAL``, a big score below the mates), any
  other cycle is a draw (0); 120 plies without a capture draw; mate-distance pruning;
- the transposition table (``ctx.table``, one 64-bit key and one 64-bit entry a slot,
  replaced when deeper or from an older search); its move is tried first;
- a check extension (a side in check searches one ply deeper);
- reverse futility (a static evaluation far above beta at low depth returns) and the null
  move (pass; if a search reduced by R = 3 + depth / 6 still fails high, so does this
  node), guarded: never in check, and only while the side to move keeps a rook, horse or
  cannon (in endings of advisors, elephants and soldiers zugzwang is common);
- moves ordered: table move, captures by MVV-LVA, killer moves, history counts;
- late move reductions (quiet moves after the first few searched shallower by
  log(depth) * log(index) / 2.25, searched again at full depth when they beat alpha), and
  principal variation search (a null window after the first move);
- futility and late-move pruning of quiet moves at the last plies of non-PV nodes.

A side without a legal move has lost (``-MATE + ply``): xiangqi has no stalemate draw.
Mates are ``MATE - ply``, stored in the table relative to the node. The search stops when
``ctx.control[STOP]`` becomes 1 (the node budget, or another thread: the kernel runs
without the GIL). It is the only recursive kernel and is called from Python only.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit

from ...native_struct import ArrayStruct, array_struct
from .board import (
    CANNON,
    HORSE,
    KEY,
    MAX_MOVES,
    POSITION_SIZE,
    QUIET,
    ROOK,
    SIDE,
    SQUARES,
    generate,
    in_check,
    make_move,
    make_null_move,
)
from .evaluation import DEFAULT_WEIGHTS, ORDER_VALUE, evaluate

MATE = 30_000
MATE_BOUND = MATE - 1_000  # scores beyond are mates
PERPETUAL = 20_000  # a perpetual checker's loss, below the mates
INFINITE = 32_000
MAX_PLY = 120
MAX_HISTORY = 1_024  # game positions remembered for repetitions (since the last capture)
QUIET_LIMIT = 120

# control: counters and switches shared with the driver
NODES, MAX_NODES, STOP, SELDEPTH, HISTORY_LENGTH, BEST_MOVE, BEST_SCORE, TT_HITS, \
    GENERATION, ROOT_MOVES_SEARCHED = range(10)
CONTROL_SIZE = 16

# table entry bits: move 0-13, score + 32768 in 17-32, depth 33-39, bound 40-41, age 42-49
EXACT, LOWER, UPPER = 1, 2, 3
SCORE_SHIFT, DEPTH_SHIFT, BOUND_SHIFT, AGE_SHIFT = 17, 33, 40, 42

TABLE_MOVE_KEY = 1 << 30
CAPTURE_KEY = 1 << 28
KILLER_KEY = 1 << 26
HISTORY_CAP = 1 << 20

FUTILITY_MARGIN = 120
REVERSE_FUTILITY_MARGIN = 90
DELTA_MARGIN = 200

ContextArrays = namedtuple("ContextArrays", [
    "stack", "moves", "keys_of_moves", "table_keys", "table_entries", "killers", "history",
    "pv", "pv_length", "path_keys", "path_checks", "control", "reductions", "banned",
    "weights",
])


class Context(ArrayStruct):
    """The search's working memory as the kernels take it: its arrays in one struct."""


@array_struct(Context, ContextArrays._fields)
@njit(cache=True)
def _context_struct(arrays: ContextArrays) -> Context:
    return Context(*arrays)


def _reduction_table() -> np.ndarray:
    table = np.zeros((64, 64), dtype=np.int64)
    for depth in range(1, 64):
        for index in range(1, 64):
            table[depth, index] = int(0.75 + math.log(depth) * math.log(index) / 2.25)
    return table


def new_context(table_megabytes: int, weights: np.ndarray | None = None) -> Context:
    """Working memory for one engine: the table takes ``table_megabytes`` (16 bytes a slot,
    a power of two slots), the rest well under 1 MB. ``banned`` lists root moves not to play
    (UCCI's banmoves), ended by 0; ``weights`` the evaluation's (default: its own)."""
    slots = 1 << 10
    while slots * 2 * 16 <= table_megabytes * (1 << 20):
        slots *= 2
    return Context.of(ContextArrays(
        stack=np.zeros((MAX_PLY + 2, POSITION_SIZE), dtype=np.int64),
        moves=np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64),
        keys_of_moves=np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64),
        table_keys=np.zeros(slots, dtype=np.int64),
        table_entries=np.zeros(slots, dtype=np.int64),
        killers=np.zeros((MAX_PLY + 2, 2), dtype=np.int64),
        history=np.zeros((2, SQUARES, SQUARES), dtype=np.int64),
        pv=np.zeros((MAX_PLY + 2, MAX_PLY + 2), dtype=np.int64),
        pv_length=np.zeros(MAX_PLY + 2, dtype=np.int64),
        path_keys=np.zeros(MAX_HISTORY + MAX_PLY + 2, dtype=np.int64),
        path_checks=np.zeros(MAX_HISTORY + MAX_PLY + 2, dtype=np.int64),
        control=np.zeros(CONTROL_SIZE, dtype=np.int64),
        reductions=_reduction_table(),
        banned=np.zeros(MAX_MOVES + 1, dtype=np.int64),
        weights=(DEFAULT_WEIGHTS if weights is None else weights).astype(np.int64).copy(),
    ))


# -- the transposition table -----------------------------------------------------------------------
@njit(cache=True, inline="always")
def _to_table(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True, inline="always")
def _from_table(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True)
def store(ctx: Context, key: int, move: int, score: int, depth: int, bound: int,
          ply: int) -> None:
    slot = key & (ctx.table_keys.shape[0] - 1)
    entry = ctx.table_entries[slot]
    age = ctx.control[GENERATION] & 255
    if ctx.table_keys[slot] == key:
        if move == 0:
            move = entry & 0x1FFFF
    elif entry != 0 and ((entry >> AGE_SHIFT) & 255) == age \
            and ((entry >> DEPTH_SHIFT) & 127) > depth + 2:
        return
    ctx.table_keys[slot] = key
    ctx.table_entries[slot] = (move | ((_to_table(score, ply) + 32768) << SCORE_SHIFT)
                               | (max(depth, 0) << DEPTH_SHIFT) | (bound << BOUND_SHIFT)
                               | (age << AGE_SHIFT))


# -- move ordering ---------------------------------------------------------------------------------
@njit(cache=True)
def _order(ctx: Context, ply: int, count: int, table_move: int) -> None:
    position = ctx.stack[ply]
    moves = ctx.moves[ply]
    keys = ctx.keys_of_moves[ply]
    side = position[SIDE]
    for index in range(count):
        move = moves[index]
        origin = move & 127
        target = (move >> 7) & 127
        if move == table_move:
            keys[index] = TABLE_MOVE_KEY
        elif position[target]:
            keys[index] = CAPTURE_KEY + 10 * ORDER_VALUE[position[target]] \
                - ORDER_VALUE[position[origin]] // 10
        elif move == ctx.killers[ply, 0]:
            keys[index] = KILLER_KEY + 1
        elif move == ctx.killers[ply, 1]:
            keys[index] = KILLER_KEY
        else:
            keys[index] = ctx.history[side, origin, target]


@njit(cache=True, inline="always")
def _pick(ctx: Context, ply: int, start: int, count: int) -> int:
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
def _has_attackers(position: np.ndarray) -> bool:
    """Whether the side to move keeps a rook, horse or cannon (the null move's guard)."""
    own = position[SIDE] * 8
    for square in range(SQUARES):
        piece = position[square] - own
        if piece == ROOK or piece == HORSE or piece == CANNON:  # noqa: SIM109 - kernel code
            return True
    return False


@njit(cache=True)
def repetition_score(ctx: Context, ply: int) -> int:
    """At a repeated position: the score for its side to move (``PERPETUAL`` or its
    negation for a perpetual check, 0 for a draw), or 1 when the position is not a repeat.
    Looks back through the game and the path, every second entry (same side to move),
    no further than the last capture."""
    keys = ctx.path_keys
    checks = ctx.path_checks
    here = ctx.control[HISTORY_LENGTH] + ply
    key = keys[here]
    oldest = max(0, here - ctx.stack[ply, QUIET])
    index = here - 2
    while index >= oldest:
        if keys[index] == key:
            # positions index+1 .. here: those at here, here-2, ... follow the opponent's
            # moves; those at here-1, here-3, ... follow ours
            opponent_checks = True
            mover_checks = True
            for at in range(index + 1, here + 1):
                if (here - at) % 2 == 0:
                    if checks[at] == 0:
                        opponent_checks = False
                elif checks[at] == 0:
                    mover_checks = False
            if opponent_checks and not mover_checks:
                return PERPETUAL
            if mover_checks and not opponent_checks:
                return -PERPETUAL
            return 0
        index -= 2
    return 1


# -- the search ------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def search(ctx: Context, ply: int, depth: int, alpha: int, beta: int,
           null_allowed: int) -> int:
    """Negamax principal variation search (module docstring); ``null_allowed`` is 1 or 0.

    Every argument of a recursive call is a typed int64, never a literal (numba would
    compile a literal-typed variant, which its cache then fails to link)."""
    control = ctx.control
    YES = np.int64(1)  # noqa: N806 - typed flags for the recursive calls (docstring)
    NO = np.int64(0)  # noqa: N806
    ctx.pv_length[ply] = ply
    if control[STOP]:
        return 0
    control[NODES] += 1
    if control[NODES] >= control[MAX_NODES]:
        control[STOP] = 1
        return 0
    if ply > control[SELDEPTH]:
        control[SELDEPTH] = ply
    position = ctx.stack[ply]
    here = control[HISTORY_LENGTH] + ply
    ctx.path_keys[here] = position[KEY]
    checked = in_check(position)
    ctx.path_checks[here] = 1 if checked else 0
    pv_node = beta - alpha > 1
    quiescence = depth <= 0

    if ply > 0:
        repeated = repetition_score(ctx, ply)
        if repeated != 1:
            return repeated
        if position[QUIET] >= QUIET_LIMIT:
            return 0
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
    if ply >= MAX_PLY:
        return evaluate(position, ctx.weights)
    if checked and not quiescence:
        depth += 1

    key = position[KEY]
    slot = key & (ctx.table_keys.shape[0] - 1)
    table_move = 0
    if ctx.table_keys[slot] == key:
        entry = ctx.table_entries[slot]
        table_move = entry & 0x1FFFF
        entry_depth = (entry >> DEPTH_SHIFT) & 127
        bound = (entry >> BOUND_SHIFT) & 3
        score = _from_table(((entry >> SCORE_SHIFT) & 0xFFFF) - 32768, ply)
        control[TT_HITS] += 1
        usable = not pv_node and ply > 0 and entry_depth >= max(depth, 0)
        if usable and (bound == EXACT or (bound == LOWER and score >= beta)
                       or (bound == UPPER and score <= alpha)):
            return score

    child = ctx.stack[ply + 1]
    best = -INFINITE
    static = -INFINITE
    if not checked:
        static = evaluate(position, ctx.weights)
    if quiescence:
        if not checked:
            if static >= beta:
                return static
            if static > alpha:
                alpha = static
            best = static
    elif not checked and not pv_node and ply > 0:
        if depth <= 6 and static - REVERSE_FUTILITY_MARGIN * depth >= beta \
                and abs(beta) < MATE_BOUND:
            return static
        if null_allowed and depth >= 3 and static >= beta and _has_attackers(position):
            reduction = 3 + depth // 6
            make_null_move(position, child)
            score = -search(ctx, ply + 1, depth - 1 - reduction, -beta, -beta + 1, NO)
            if control[STOP]:
                return 0
            if score >= beta:
                return beta if score > MATE_BOUND else score

    count = generate(position, ctx.moves[ply], quiescence and not checked)
    _order(ctx, ply, count, table_move)
    original_alpha = alpha
    best_move = 0
    searched = 0
    side = position[SIDE]
    for index in range(count):
        move = _pick(ctx, ply, index, count)
        if ply == 0:
            banned = False
            at = 0
            while ctx.banned[at] != 0:
                if ctx.banned[at] == move:
                    banned = True
                at += 1
            if banned:
                continue
        origin = move & 127
        target = (move >> 7) & 127
        victim = position[target]
        quiet = victim == 0
        if quiescence and not checked and static + ORDER_VALUE[victim] + DELTA_MARGIN <= alpha:
            continue  # delta pruning: even winning the piece is not enough
        make_move(position, child, move)
        gives_check = in_check(child)
        if not quiescence and not pv_node and not checked and quiet and not gives_check \
                and searched > 0 and abs(alpha) < MATE_BOUND:
            if depth <= 3 and static + FUTILITY_MARGIN * depth <= alpha:
                continue
            if depth <= 3 and searched >= 4 + 4 * depth * depth:
                continue
        searched += 1
        if quiescence:
            score = -search(ctx, ply + 1, np.int64(0), -beta, -alpha, YES)
        elif searched == 1:
            score = -search(ctx, ply + 1, depth - 1, -beta, -alpha, YES)
        else:
            reduction = 0
            if depth >= 3 and quiet and not checked and not gives_check and searched > 3:
                reduction = ctx.reductions[min(depth, 63), min(searched, 63)]
                if pv_node:
                    reduction -= 1
                if move == ctx.killers[ply, 0] or move == ctx.killers[ply, 1]:
                    reduction -= 1
                reduction = max(0, min(reduction, depth - 2))
            score = -search(ctx, ply + 1, depth - 1 - reduction, -alpha - 1, -alpha, YES)
            if score > alpha and reduction > 0:
                score = -search(ctx, ply + 1, depth - 1, -alpha - 1, -alpha, YES)
            if score > alpha and score < beta:
                score = -search(ctx, ply + 1, depth - 1, -beta, -alpha, YES)
        if control[STOP]:
            return 0
        if ply == 0:
            control[ROOT_MOVES_SEARCHED] += 1
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                best_move = move
                pv = ctx.pv
                pv[ply, ply] = move
                length = ctx.pv_length[ply + 1]
                for later in range(ply + 1, length):
                    pv[ply, later] = pv[ply + 1, later]
                ctx.pv_length[ply] = max(length, ply + 1)
                if ply == 0:
                    control[BEST_MOVE] = move
                    control[BEST_SCORE] = score
                if score >= beta:
                    if quiet and not quiescence:
                        if ctx.killers[ply, 0] != move:
                            ctx.killers[ply, 1] = ctx.killers[ply, 0]
                            ctx.killers[ply, 0] = move
                        bonus = ctx.history[side, origin, target] + depth * depth
                        ctx.history[side, origin, target] = min(bonus, HISTORY_CAP)
                    break

    if searched == 0:
        if quiescence and not checked:
            return best
        if count == 0:
            return -MATE + ply  # no legal move: lost, in check or not
        return best if best > -INFINITE else alpha
    bound = LOWER if best >= beta else EXACT if best > original_alpha else UPPER
    store(ctx, key, best_move, best, depth if not quiescence else 0, bound, ply)
    return best
