"""The engine's search, in numba: principal variation search with the usual refinements.

``search(ctx, ply, depth, alpha, beta, null_allowed)`` is negamax over ``ctx.stack[ply]``
(scores for the side to move there), fail-soft::

    v = search(..., alpha, beta)
    v <= alpha: the true value is at most v;  v >= beta: at least v;  else v is exact
    (for the tree the pruning rules leave: null move and reductions make it a guess)

The static evaluation (``static_value``) is the hand-set one (``evaluation``), or a network's
(``nnue``) when the context holds one: each node marks its ply's accumulator stale on entry,
and one that evaluates brings it up to date from the nearest fresh one above it.

At ``depth <= 0`` it is the quiescence search: the side to move may stand pat on the static
evaluation or try captures, most valuable victim first (least valuable attacker among
equals), with delta pruning; in check, every evasion. Above it, in order:

- repetition, judged as the rules judge it (``yipan.games.xiangqi``) but at the first
  repeat within the game or the search's path: a side that gave check with every move of
  the cycle while the other did not loses (``PERPETUAL``, a big score below the mates), any
  other cycle is a draw (0); 120 plies without a capture draw; mate-distance pruning;
- the transposition table (``yipan.chess_family.search``); its move is tried first;
- a check extension (a side in check searches one ply deeper);
- reverse futility (a static evaluation far above beta at low depth returns) and the null
  move (pass; if a search reduced by R = 3 + depth / 6 still fails high, so does this
  node), guarded: never in check, and only while the side to move keeps a rook, horse or
  cannon (in endings of advisors, elephants and soldiers zugzwang is common);
- moves ordered: table move, captures by MVV-LVA, killer moves, history counts
  (up for a quiet move that cuts off, down for the quiet moves searched before it there);
- late move reductions (quiet moves after the first few searched shallower by
  log(depth) * log(index) / 2.25, up to two plies less or more by their history (never more on the
  principal variation), searched again at full depth when they beat alpha), and
  principal variation search (a null window after the first move);
- futility and late-move pruning of quiet moves at the last plies of non-PV nodes.

A side without a legal move has lost (``-MATE + ply``): xiangqi has no stalemate draw.
Mates are ``MATE - ply``. The pieces every family search shares (the control block, the
table, picking moves, reductions, the principal variation) are
``yipan.chess_family.search``'s; the search stops when ``control[STOP]`` becomes 1. It is
the only recursive kernel and is called from Python only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ...chess_family.nnue import NETWORK_FIELDS, network_memory
from ...chess_family.scores import INFINITE, MATE, MATE_BOUND
from ...chess_family.search import (
    CAPTURE_KEY,
    DELTA_MARGIN,
    HISTORY_LENGTH,
    KILLER_KEY,
    MAX_HISTORY,
    MAX_PLY,
    NO_SCORE,
    QUIET_TRIED,
    ROOT_MOVES_SEARCHED,
    STOP,
    TABLE_MOVE_KEY,
    bound_of,
    context_arrays,
    enter,
    futile,
    is_banned,
    late_reduction,
    mated,
    new_best,
    pick,
    probe,
    reverse_futile,
    reward_quiet,
    search_memory,
    store,
)
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
from .nnue import network_value

PERPETUAL = 20_000  # a perpetual checker's loss, below the mates
QUIET_LIMIT = 120

ContextArrays = context_arrays(__name__, "path_checks", "banned", "weights", *NETWORK_FIELDS)


class Context(ArrayStruct):
    """The search's working memory as the kernels take it: its arrays in one struct."""


@array_struct(Context, ContextArrays._fields)
@njit(cache=True)
def _context_struct(arrays: Any) -> Context:
    return Context(*arrays)


def new_context(table_megabytes: int, weights: np.ndarray | None = None) -> Context:
    """Working memory for one engine: the table takes ``table_megabytes``, the rest well
    under 1 MB. ``banned`` lists root moves not to play (UCCI's banmoves), ended by 0;
    ``weights`` the evaluation's (default: its own); no network (the hand-set evaluation)
    until the engine packs one (``with_network``)."""
    return Context.of(ContextArrays(
        **search_memory(table_megabytes, POSITION_SIZE, MAX_MOVES, SQUARES),
        path_checks=np.zeros(MAX_HISTORY + MAX_PLY + 2, dtype=np.int64),
        banned=np.zeros(MAX_MOVES + 1, dtype=np.int64),
        weights=(DEFAULT_WEIGHTS if weights is None else weights).astype(np.int64).copy(),
        **network_memory(None),
    ))


def with_network(ctx: Context, arrays: dict[str, np.ndarray] | None) -> Context:
    """``ctx`` evaluating with a network's quantised arrays (None: the hand-set evaluation)."""
    return Context.of(ctx.arrays._replace(**network_memory(arrays)))


@njit(cache=True, inline="always")
def static_value(ctx: Context, ply: int) -> int:
    """The static evaluation of ``stack[ply]``: the network's when the context holds one,
    else the hand-set one."""
    if ctx.ft_weights.shape[0] == 0:
        return evaluate(ctx.stack[ply], ctx.weights)
    return network_value(ctx.stack, ply, ctx.accumulators, ctx.fresh, ctx.changes,
                         ctx.counts, ctx.inputs, ctx.ft_weights, ctx.ft_bias,
                         ctx.l1_weights, ctx.l1_bias, ctx.out_weights, ctx.out_bias)


# -- move ordering ---------------------------------------------------------------------------------
@njit(cache=True)
def _order(ctx: Context, ply: int, count: int, table_move: int) -> None:
    """Give each generated move its ordering key (higher first): the table's move, captures
    by MVV-LVA, killers, history."""
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
    if not enter(ctx, ply):
        return 0
    position = ctx.stack[ply]
    ctx.fresh[ply] = 0  # a new position here: its network accumulator is stale
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
        alpha = max(alpha, -MATE + ply)  # mate-distance pruning
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
    if ply >= MAX_PLY:
        return static_value(ctx, ply)
    if checked and not quiescence:
        depth += 1  # check extension

    key = position[KEY]
    table_move, settled = probe(ctx, key, ply, depth, alpha, beta, pv_node)
    if settled != NO_SCORE:
        return settled

    child = ctx.stack[ply + 1]
    best = -INFINITE
    static = -INFINITE
    if not checked:
        static = static_value(ctx, ply)
    if quiescence:
        if not checked:
            if static >= beta:
                return static  # stand pat
            alpha = max(alpha, static)
            best = static
    elif not checked and not pv_node and ply > 0:
        if reverse_futile(depth, static, beta):
            return static
        # null move, guarded against zugzwang (module docstring)
        if null_allowed and depth >= 3 and static >= beta and _has_attackers(position):
            make_null_move(position, child)
            score = -search(ctx, ply + 1, depth - 4 - depth // 6, -beta, -beta + 1, NO)
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
        move = pick(ctx, ply, index, count)
        if ply == 0 and is_banned(ctx, move):
            continue
        origin = move & 127
        target = (move >> 7) & 127
        victim = position[target]
        quiet = victim == 0
        if quiescence and not checked and static + ORDER_VALUE[victim] + DELTA_MARGIN <= alpha:
            continue  # delta pruning: even winning the piece is not enough
        make_move(position, child, move)
        gives_check = in_check(child)
        ordinary = quiet and not gives_check and not checked
        if ordinary and not quiescence and not pv_node and searched > 0 \
                and futile(depth, static, alpha, searched):
            continue
        searched += 1
        if quiescence:
            score = -search(ctx, ply + 1, np.int64(0), -beta, -alpha, YES)
        elif searched == 1:
            score = -search(ctx, ply + 1, depth - 1, -beta, -alpha, YES)
        else:
            reduction = 0
            if ordinary and depth >= 3 and searched > 3:
                reduction = late_reduction(ctx, ply, depth, searched, move, pv_node,
                                           ctx.history[side, origin, target])
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
                new_best(ctx, ply, move, score)
                if score >= beta:
                    if quiet and not quiescence:
                        reward_quiet(ctx, ply, side, move, depth, index, 7)
                    break
        if quiet and not quiescence:
            ctx.keys_of_moves[ply, index] = QUIET_TRIED  # (``pick`` is past it)

    if searched == 0:
        if quiescence and not checked:
            return best
        if count == 0:
            return mated(ply)  # no legal move: lost, in check or not
        return best if best > -INFINITE else alpha
    store(ctx, key, best_move, best, depth if not quiescence else 0,
          bound_of(best, original_alpha, beta), ply)
    return best
