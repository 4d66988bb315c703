"""The engine's search, in numba: principal variation search with the usual refinements.

``search(ctx, ply, depth, alpha, beta, null_allowed)`` is negamax over ``ctx.stack[ply]``
(scores for the side to move there). Its contract, as for any fail-soft alpha-beta::

    v = search(..., alpha, beta)
    v <= alpha: the true value is at most v;  v >= beta: at least v;  else v is exact
    (for the tree the pruning rules leave: null move and reductions make it a guess)

At ``depth <= 0`` it is the quiescence search: the side to move may stand pat on the static
evaluation or try captures and queen promotions whose static exchange (SEE) does not lose
material; in check, every evasion. At its first ply (``depth == 0``; the later ones are
searched at -1) it also tries the quiet moves that give check directly and do not hang the
piece (SEE), when ``control[QUIET_CHECKS]`` is on (the engine leaves it off: on Win-at-Chess
it found the short mates and forks a capture-only horizon misses at small node budgets, and
cost more than it gained at larger ones). Above it, in order:

- draws by the fifty-move rule, repetition (once within the search is enough) and
  insufficient material; mate-distance pruning;
- the endgame tables (``ctx.tb_values``, ``tb_lookup``, ``tb_info``: ``retrograde.probe``),
  below the root, in the main search and the quiescence search alike: a position they cover
  returns its exact value (a mate in d plies at ply p is ``MATE - p - d``, a draw 0), so
  mates are played out in the fewest moves (the tables ignore the fifty-move rule);
- the transposition table (``yipan.chess_family.search``); its move is tried first;
- a check extension (a side in check searches one ply deeper);
- reverse futility (a static evaluation far above beta at low depth returns) and the null
  move (pass; if a search reduced by R = 3 + depth / 6 still fails high, so does this node);
- moves ordered: table move, captures by SEE and MVV-LVA, killer moves, history counts
  (up for a quiet move that cuts off, down for the quiet moves searched before it there);
- late move reductions (quiet moves after the first few searched shallower by
  log(depth) * log(index) / 2.25, up to two plies less or more by their history (never more on the
  principal variation), searched again at full depth when they beat alpha), and
  principal variation search (a null window after the first move);
- futility and late-move pruning of quiet moves at the last plies of non-PV nodes.

Mates are ``MATE - ply`` (mate in ``ply`` plies from the root); the driver
(``chess_family.engine``) converts them to yipan's ``WIN - ply``. The pieces every family
search shares (the control block, the table, picking moves, reductions, the principal
variation) are ``yipan.chess_family.search``'s; the search stops when ``control[STOP]``
becomes 1 (every node reads it) and the driver discards what a stopped search returns.

It is the only recursive kernel and is called from Python only (see ``board.perft``).
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
    FIRST_GAME_SLOT,
    HISTORY_LENGTH,
    KILLER_KEY,
    MAX_PLY,
    NO_SCORE,
    QUIET_TRIED,
    ROOT_MOVES_SEARCHED,
    STOP,
    TABLE_MOVE_KEY,
    TB_HITS,
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
from .bits import lowest_square, popcount
from .board import (
    BISHOP,
    BLACK,
    EN_PASSANT,
    HALFMOVE,
    KEY,
    KING,
    KING_ATTACKS,
    KNIGHT,
    KNIGHT_ATTACKS,
    MAX_MOVES,
    PAWN,
    PAWN_ATTACKS,
    POSITION_SIZE,
    QUEEN,
    ROOK,
    SIDE,
    SQUARE_BIT,
    WHITE,
    bishop_attacks,
    checkers_of,
    generate,
    insufficient_material,
    make_move,
    make_null_move,
    piece_on,
    rook_attacks,
)
from .evaluation import SEE_VALUE, evaluate
from .nnue import network_value
from .retrograde import ILLEGAL, INFO_SIZE, MATERIAL_KEYS, MAX_PIECES, UNKNOWN
from .retrograde import probe as probe_tables

QUIET_CHECKS = FIRST_GAME_SLOT  # control: quiescence's first ply tries quiet checks (1) or not

GOOD_CAPTURE_KEY = CAPTURE_KEY
BAD_CAPTURE_KEY = -(1 << 20)

ContextArrays = context_arrays(__name__, "scratch", "tb_values", "tb_lookup", "tb_info",
                               "check_squares", "banned", *NETWORK_FIELDS)


class Context(ArrayStruct):
    """The search's working memory as the kernels take it: its arrays in one struct."""


@array_struct(Context, ContextArrays._fields)
@njit(cache=True)
def _context_struct(arrays: Any) -> Context:
    return Context(*arrays)


def new_context(table_megabytes: int) -> Context:
    """Working memory for one engine: the table takes ``table_megabytes``, the rest about
    1 MB; no endgame tables until the engine packs them in, and no network (the hand-set
    evaluation) until it packs one (``with_network``). ``banned`` lists root moves not
    to play (searchmoves, MultiPV's lines after the first), ended by 0."""
    return Context.of(ContextArrays(
        **search_memory(table_megabytes, POSITION_SIZE, MAX_MOVES, 64),
        scratch=np.zeros(64, dtype=np.int64),
        tb_values=np.zeros(1, dtype=np.int16),
        tb_lookup=np.full(MATERIAL_KEYS, -1, dtype=np.int64),
        tb_info=np.zeros((0, INFO_SIZE), dtype=np.int64),
        check_squares=np.zeros((MAX_PLY + 2, 6), dtype=np.int64),
        banned=np.zeros(MAX_MOVES + 1, dtype=np.int64),
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
        return evaluate(ctx.stack[ply], ctx.scratch)
    return network_value(ctx.stack, ply, ctx.accumulators, ctx.fresh, ctx.changes,
                         ctx.counts, ctx.inputs, ctx.ft_weights,
                         ctx.l1_weights, ctx.l1_bias, ctx.out_weights, ctx.out_bias,
                         ctx.bucket_accumulators, ctx.bucket_boards)


# -- static exchange evaluation -------------------------------------------------------------------
@njit(cache=True)
def see(position: np.ndarray, move: int, gains: np.ndarray) -> int:
    """The material the side to move wins by ``move`` and the best sequence of recaptures on
    its square (each side may stop when going on would lose), least valuable attacker first;
    ``gains`` is scratch (32 entries)."""
    origin = move & 63
    target = (move >> 6) & 63
    promotion = (move >> 12) & 7
    moving = piece_on(position, origin)
    if (move >> 15) & 3 == EN_PASSANT:
        gains[0] = SEE_VALUE[PAWN]
    else:
        victim = piece_on(position, target)
        gains[0] = SEE_VALUE[victim] if victim >= 0 else 0
    on_square = SEE_VALUE[moving]
    if promotion:
        gains[0] += SEE_VALUE[promotion] - SEE_VALUE[PAWN]
        on_square = SEE_VALUE[promotion]
    occupied = (position[WHITE] | position[BLACK]) ^ SQUARE_BIT[origin]
    diagonal = position[BISHOP] | position[QUEEN]
    straight = position[ROOK] | position[QUEEN]
    attackers = ((PAWN_ATTACKS[1, target] & position[PAWN] & position[WHITE])
                 | (PAWN_ATTACKS[0, target] & position[PAWN] & position[BLACK])
                 | (KNIGHT_ATTACKS[target] & position[KNIGHT])
                 | (KING_ATTACKS[target] & position[KING])
                 | (bishop_attacks(target, occupied) & diagonal)
                 | (rook_attacks(target, occupied) & straight)) & occupied
    side = 1 - position[SIDE]
    depth = 0
    while True:
        mine = attackers & position[WHITE + side]
        if mine == 0 or depth >= 30:
            break
        kind = PAWN
        while kind <= KING and mine & position[kind] == 0:
            kind += 1
        depth += 1
        gains[depth] = on_square - gains[depth - 1]
        if max(-gains[depth - 1], gains[depth]) < 0:
            break  # neither side wants to go on
        bit = mine & position[kind]
        bit &= -bit
        occupied ^= bit
        attackers ^= bit
        if kind == PAWN or kind == BISHOP or kind == QUEEN:  # noqa: SIM109 - kernel code
            attackers |= bishop_attacks(target, occupied) & diagonal & occupied
        if kind == ROOK or kind == QUEEN:  # noqa: SIM109
            attackers |= rook_attacks(target, occupied) & straight & occupied
        on_square = SEE_VALUE[kind]
        side = 1 - side
    while depth > 0:
        gains[depth - 1] = -max(-gains[depth - 1], gains[depth])
        depth -= 1
    return gains[0]


# -- move ordering ---------------------------------------------------------------------------------
@njit(cache=True)
def _order(ctx: Context, ply: int, count: int, table_move: int, quiescence: bool) -> None:
    """Give each generated move its ordering key (higher first): the table's move, captures
    and queen promotions by SEE then MVV-LVA, killers, history."""
    position = ctx.stack[ply]
    moves = ctx.moves[ply]
    keys = ctx.keys_of_moves[ply]
    enemy = position[WHITE + 1 - position[SIDE]]
    side = position[SIDE]
    for index in range(count):
        move = moves[index]
        target = (move >> 6) & 63
        if move == table_move:
            keys[index] = TABLE_MOVE_KEY
        elif enemy & SQUARE_BIT[target] or (move >> 15) & 3 == EN_PASSANT \
                or (move >> 12) & 7 == QUEEN:
            victim = piece_on(position, target)
            value = SEE_VALUE[victim] if victim >= 0 else SEE_VALUE[PAWN]
            attacker = piece_on(position, move & 63)
            mvv_lva = 10 * value - SEE_VALUE[attacker] // 10
            if see(position, move, ctx.scratch) >= 0:
                keys[index] = GOOD_CAPTURE_KEY + mvv_lva
            else:
                keys[index] = BAD_CAPTURE_KEY + mvv_lva
        elif quiescence:
            keys[index] = 0
        elif move == ctx.killers[ply, 0]:
            keys[index] = KILLER_KEY + 1
        elif move == ctx.killers[ply, 1]:
            keys[index] = KILLER_KEY
        else:
            keys[index] = ctx.history[side, move & 63, target]


@njit(cache=True, inline="always")
def _non_pawn_material(position: np.ndarray) -> int:
    own = position[WHITE + position[SIDE]]
    return (position[KNIGHT] | position[BISHOP] | position[ROOK] | position[QUEEN]) & own


@njit(cache=True)
def _is_repetition(ctx: Context, ply: int) -> bool:
    """Whether the position at ``ply`` occurred before, in the game or on the search's path,
    since the last capture or pawn move (same side to move: every second entry)."""
    keys = ctx.path_keys
    here = ctx.control[HISTORY_LENGTH] + ply
    key = keys[here]
    oldest = max(0, here - ctx.stack[ply, HALFMOVE])
    index = here - 2
    while index >= oldest:
        if keys[index] == key:
            return True
        index -= 2
    return False


@njit(cache=True)
def _check_squares(position: np.ndarray, out: np.ndarray) -> None:
    """``out[kind]``: the squares from which a piece of that kind of the side to move would
    attack the enemy king (direct checks; discovered ones are not looked for)."""
    them = 1 - position[SIDE]
    king = lowest_square(position[KING] & position[WHITE + them])
    occupied = position[WHITE] | position[BLACK]
    diagonal = bishop_attacks(king, occupied)
    straight = rook_attacks(king, occupied)
    out[PAWN] = PAWN_ATTACKS[them, king]
    out[KNIGHT] = KNIGHT_ATTACKS[king]
    out[BISHOP] = diagonal
    out[ROOK] = straight
    out[QUEEN] = diagonal | straight
    out[KING] = 0


@njit(cache=True, inline="always")
def _table_score(value: int, ply: int) -> int:
    """An endgame table's value at ``ply`` as a search score (exact: the table knows)."""
    if value > 0:  # mate in value plies from here
        return MATE - ply - value
    if value < 0:  # mated in -value - 1 plies
        return -MATE + ply - value - 1
    return 0


# -- the search ------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def search(ctx: Context, ply: int, depth: int, alpha: int, beta: int,
           null_allowed: int) -> int:
    """Negamax principal variation search (contract in the module docstring); ``null_allowed``
    is 1 or 0.

    Every argument of a recursive call is a typed int64, never a literal (``np.int64(0)``, not
    ``0``): numba would compile a literal-typed variant, which its cache then fails to link
    (a segmentation fault in the next process)."""
    control = ctx.control
    YES = np.int64(1)  # noqa: N806 - typed flags for the recursive calls (docstring)
    NO = np.int64(0)  # noqa: N806
    if not enter(ctx, ply):
        return 0
    position = ctx.stack[ply]
    ctx.fresh[ply] = 0  # a new position here: its network accumulator is stale
    ctx.path_keys[control[HISTORY_LENGTH] + ply] = position[KEY]
    pv_node = beta - alpha > 1
    quiescence = depth <= 0
    in_check = checkers_of(position) != 0

    if ply > 0:
        if (position[HALFMOVE] >= 100 and not in_check) or _is_repetition(ctx, ply) \
                or insufficient_material(position):
            return 0
        alpha = max(alpha, -MATE + ply)  # mate-distance pruning
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        if ctx.tb_info.shape[0] > 0 and popcount(position[WHITE] | position[BLACK]) <= MAX_PIECES:
            value = probe_tables(position, ctx.tb_values, ctx.tb_lookup, ctx.tb_info)
            if value != UNKNOWN and value != ILLEGAL:
                control[TB_HITS] += 1
                return _table_score(value, ply)
    if ply >= MAX_PLY:
        return static_value(ctx, ply)
    if in_check and not quiescence:
        depth += 1  # check extension

    key = position[KEY]
    table_move, settled = probe(ctx, key, ply, depth, alpha, beta, pv_node)
    if settled != NO_SCORE:
        return settled

    child = ctx.stack[ply + 1]
    best = -INFINITE
    static = -INFINITE
    if not in_check:
        static = static_value(ctx, ply)
    if quiescence:
        if not in_check:
            if static >= beta:
                return static  # stand pat
            alpha = max(alpha, static)
            best = static
    elif not in_check and not pv_node and ply > 0:
        if reverse_futile(depth, static, beta):
            return static
        # null move: pass, and see whether the opponent still cannot reach beta
        if null_allowed and depth >= 3 and static >= beta and _non_pawn_material(position):
            make_null_move(position, child)
            score = -search(ctx, ply + 1, depth - 4 - depth // 6, -beta, -beta + 1, NO)
            if control[STOP]:
                return 0
            if score >= beta:
                return beta if score > MATE_BOUND else score

    quiet_checks = quiescence and depth == 0 and not in_check and control[QUIET_CHECKS] != 0
    # (count_only typed bool, not a literal: the same compiled generator as Python's callers)
    count = generate(position, ctx.moves[ply], np.bool_(False),
                     quiescence and not quiet_checks)
    if quiet_checks:
        _check_squares(position, ctx.check_squares[ply])
    _order(ctx, ply, count, table_move, quiescence)
    original_alpha = alpha
    best_move = 0
    searched = 0
    side = position[SIDE]
    enemy = position[WHITE + 1 - side]
    for index in range(count):
        move = pick(ctx, ply, index, count)
        if ply == 0 and is_banned(ctx, move):
            continue
        target = (move >> 6) & 63
        capture = (enemy & SQUARE_BIT[target]) != 0 or (move >> 15) & 3 == EN_PASSANT
        quiet = not capture and (move >> 12) & 7 == 0
        if quiescence and not in_check:
            if ctx.keys_of_moves[ply, index] < GOOD_CAPTURE_KEY // 2:
                if not quiet_checks or ctx.keys_of_moves[ply, index] < 0:
                    break  # the rest lose material by SEE
                if not quiet or not ctx.check_squares[ply, piece_on(position, move & 63)] \
                        & SQUARE_BIT[target] or see(position, move, ctx.scratch) < 0:
                    continue  # a quiet move that does not check, or hangs the piece
            else:
                victim = piece_on(position, target)
                gain = SEE_VALUE[victim] if victim >= 0 else SEE_VALUE[PAWN]
                if (move >> 12) & 7 == 0 and static + gain + DELTA_MARGIN <= alpha:
                    continue  # delta pruning: even winning the piece is not enough
        make_move(position, child, move)
        gives_check = checkers_of(child) != 0
        ordinary = quiet and not gives_check and not in_check
        if ordinary and not quiescence and not pv_node and searched > 0 \
                and futile(depth, static, alpha, searched):
            continue
        searched += 1
        if quiescence:
            score = -search(ctx, ply + 1, np.int64(-1), -beta, -alpha, YES)
        elif searched == 1:
            score = -search(ctx, ply + 1, depth - 1, -beta, -alpha, YES)
        else:
            reduction = 0
            if ordinary and depth >= 3 and searched > 3:
                reduction = late_reduction(ctx, ply, depth, searched, move, pv_node,
                                           ctx.history[side, move & 63, target])
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
                        reward_quiet(ctx, ply, side, move, depth, index, 6)
                    break
        if quiet and not quiescence:
            ctx.keys_of_moves[ply, index] = QUIET_TRIED  # (``pick`` is past it)

    if searched == 0:
        if quiescence and not in_check:
            return best  # stand pat: no capture worth trying
        if count == 0:
            return mated(ply) if in_check else 0  # stalemate draws
        return best if best > -INFINITE else alpha  # every move pruned
    store(ctx, key, best_move, best, depth if not quiescence else 0,
          bound_of(best, original_alpha, beta), ply)
    return best


@njit(cache=True)
def static_exchange(position: np.ndarray, move: int) -> int:
    """``see`` for one move (tests and the Python side)."""
    return see(position, move, np.zeros(32, dtype=np.int64))
