"""The fast engine's alpha-beta: negamax with a Zobrist transposition table, killer and
history ordering and principal-variation windows, as a numba kernel.

It is a depth-limited search scored by a heuristic at the horizon, made strong by threats
that are decided before the horizon:

- a five of the side to move wins (``WIN - ply - 1``); two fives of the opponent lose;
- one five of the opponent must be blocked: that is the only move and it costs no depth,
  so chains of fours are read to their end even at the horizon; under renju, black cannot
  block on a forbidden point, so such a four wins for white;
- an open four (or a double four) of the side to move wins in three plies;
- against an opponent's open three, only the cells that stop it (where a stone of theirs
  would make a four; under caro also a cell beyond the end of their five-to-be, which
  leaves it blocked at both ends: ``board.caro_defences``) and one's own fours are
  searched; otherwise the candidates are the
  empty cells near stones, the best-valued first (the table's move, the killers, then
  attack + defence worth + history), at most ``BRANCH``; never a point forbidden to the
  side to move (renju's black: ``board.L_FORBIDDEN``);
- past the horizon (depth 0 and below, no five to block) the side to move may stand pat on
  the static value or play one of its fours (``generate_fours``; with ``stats[FOUR_RANGE]``
  only near its last stone), each answered by the forced block at no depth: a VCF is read
  in the search, at most ``stats[FOUR_PLIES]`` fours past the horizon (0, the default:
  none; it gained nothing measurable in self-play at a fixed node budget, the root's VCF
  and VCT searches and ``evaluate``'s four-three and double-three tempo catching most of
  what it reads).

Late move reductions: a quiet move (no three or four of either side at its cell) from the
fourth of a list on is searched first with a null window one ply shallower (two from the
ninth, at depth four or more), and again at full depth if it beats alpha; ``stats[LMR] = 0``
turns them off (the tests compare the kernel with the plain search that way).

Reverse futility pruning: within three plies of the horizon, where the opponent has nothing
that would punish a pass (no five to block, no open three, no four-three or double three to
make), a static value ``stats[FUTILITY]`` a ply above beta is returned as it stands: a
side this far ahead with nothing to answer is assumed to keep beta with its best move. It won in
self-play at a fixed node budget; a null move on top of it did not, so there is none
(``benchmarks/gomoku_selfplay.py``; the figures are in docs/performance.md).

Contract (fail-soft, values from the side to move): ``v <= alpha`` an upper bound,
``v >= beta`` a lower bound, else exact. A set ``stats[ABORTED]`` means the result is void.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core import HEURISTIC_LIMIT, WIN
from ...native import insert_key
from .board import (
    CARO,
    EMPTY,
    L_DOUBLE_THREE,
    L_FIVE,
    L_FORBIDDEN,
    L_FOUR,
    L_FOUR_THREE,
    L_OPEN_FOUR,
    L_THREE,
    MOVING_WORTH,
    PAD,
    SIZE,
    STONES,
    WIDTH,
    Board,
    caro_defences,
    evaluate,
    find_level,
    place,
    remove,
)
from .context import (
    ABORTED,
    BEST_MOVE,
    BEST_VALUE,
    BRANCH,
    CUTOFFS,
    FOUR_PLIES,
    FOUR_RANGE,
    FUTILITY,
    LMR,
    MAX_MOVES,
    MAX_NODES,
    MAX_PLY,
    NODES,
    ROOT_BRANCH,
    TT_HITS,
    Context,
    out_of_budget,
)
from .patterns import FOUR

INFINITY = 1 << 30
LMR_FROM = 3  # the first moves of a list are searched to full depth
LMR_DEEPER_FROM = 8  # from here on, two plies less
EXACT, LOWER, UPPER = 0, 1, 2


@njit(cache=True)
def to_table(value: int, ply: int) -> int:
    if value > HEURISTIC_LIMIT:
        return value + ply
    if value < -HEURISTIC_LIMIT:
        return value - ply
    return value


@njit(cache=True)
def from_table(value: int, ply: int) -> int:
    if value > HEURISTIC_LIMIT:
        return value - ply
    if value < -HEURISTIC_LIMIT:
        return value + ply
    return value


@njit(cache=True)
def tt_entry(value: int, depth: int, flag: int, move: int) -> np.int64:
    """A table slot's second word: the value (32 bits), the depth (8), the flag (8) and the
    move (16, -1 for none), lowest first (``entry_parts`` reads them back)."""
    return ((np.int64(value) & 0xFFFFFFFF) | ((np.int64(depth) & 0xFF) << 32)
            | ((np.int64(flag) & 0xFF) << 40) | (np.int64(move) << 48))


@njit(cache=True)
def entry_parts(entry: int) -> tuple[int, int, int, int]:
    """Value, depth, flag and move of a ``tt_entry`` (the signed ones sign-extended)."""
    return (entry << 32) >> 32, (entry << 24) >> 56, (entry >> 40) & 0xFF, entry >> 48


@njit(cache=True)
def generate(board: Board, context: Context, me: int, ply: int, tt_move: int) -> int:
    """Candidate moves into ``context.moves[ply]``, best first; returns how many.

    The best ``cap`` are kept by insertion, each as one number ``score * MAX_MOVES +
    (MAX_MOVES - 1 - arrival)`` (scores are never negative): one array to shift, and ties in
    score keep the order of arrival (row by row), as a stable sort would. The cells by
    arrival wait in ``context.arrivals``.
    """
    them = 1 - me
    moves = context.moves[ply]
    scores = context.move_scores[ply]
    cap = context.stats[ROOT_BRANCH] if ply == 0 else context.stats[BRANCH]
    defending = board.level_count[them, L_OPEN_FOUR] > 0
    killer0 = context.killers[ply, 0]
    killer1 = context.killers[ply, 1]
    count = 0
    arrived = 0
    arrivals = context.arrivals
    # the arrays read once from the structs: a field read in the loop counts a reference
    # each time
    cells, near, level, shapes, value = (board.cells, board.near, board.level, board.shapes,
                                         board.value)
    history = context.history
    # only the rows and columns within two of the stones' span hold cells near stones; read
    # row by row, as ``board.points`` lists them (the order of arrival breaks ties)
    width, last = board.meta[WIDTH], PAD + board.meta[SIZE] - 1
    bounds = board.bounds[board.meta[STONES]]
    first_column, last_column = max(bounds[2] - 2, PAD), min(bounds[3] + 2, last)
    for row in range(max(bounds[0] - 2, PAD), min(bounds[1] + 2, last) + 1):
        for q in range(row * width + first_column, row * width + last_column + 1):
            if cells[q] != EMPTY or near[q] == 0 or level[me, q] == L_FORBIDDEN:
                continue
            if defending and level[me, q] < L_FOUR:
                stops = False
                for d in range(4):
                    if shapes[them, q, d] >= FOUR:
                        stops = True
                        break
                if not stops:
                    continue
            score = ((value[me, q] & MOVING_WORTH) * 5
                     + (value[them, q] & MOVING_WORTH) * 4 + history[me, q])
            if q == tt_move:
                score += 1 << 40
            elif q in (killer0, killer1):
                score += 1 << 30
            arrivals[arrived] = q
            count = insert_key(scores, count, cap,
                               score * MAX_MOVES + (MAX_MOVES - 1 - arrived))
            arrived += 1
    if defending and board.meta[CARO] == 1:  # (the defences that shapes do not show)
        extra, extras = caro_defences(board, me)
        for k in range(extras):
            q = extra[k]
            score = ((value[me, q] & MOVING_WORTH) * 5
                     + (value[them, q] & MOVING_WORTH) * 4 + history[me, q])
            arrivals[arrived] = q
            count = insert_key(scores, count, cap,
                               score * MAX_MOVES + (MAX_MOVES - 1 - arrived))
            arrived += 1
    for i in range(count):
        moves[i] = arrivals[MAX_MOVES - 1 - scores[i] % MAX_MOVES]
    return count


@njit(cache=True)
def generate_fours(board: Board, context: Context, me: int, ply: int, tt_move: int) -> int:
    """The fours of ``me`` into ``context.moves[ply]`` (the moves past the horizon), best
    first: the table's move, then four-threes, then by worth (``generate``'s score); returns
    how many. A four's cell is always near a stone (three stones within its five cells),
    so the rows ``generate`` reads hold them all; forbidden points have their own level."""
    them = 1 - me
    moves = context.moves[ply]
    scores = context.move_scores[ply]
    count = 0
    arrived = 0
    arrivals = context.arrivals
    cells, level, value = board.cells, board.level, board.value  # (read once: ``generate``)
    width, last = board.meta[WIDTH], PAD + board.meta[SIZE] - 1
    stones = board.meta[STONES]
    bounds = board.bounds[stones]
    first_column, last_column = max(bounds[2] - 2, PAD), min(bounds[3] + 2, last)
    local = context.stats[FOUR_RANGE] != 0 and stones >= 2
    mine_last = board.stack[stones - 2] if local else 0
    last_row, last_column_of = mine_last // width, mine_last % width
    for row in range(max(bounds[0] - 2, PAD), min(bounds[1] + 2, last) + 1):
        for q in range(row * width + first_column, row * width + last_column + 1):
            mine = level[me, q]
            if cells[q] != EMPTY or mine < L_FOUR or mine > L_FOUR_THREE:
                continue
            if local:
                dr, dc = abs(row - last_row), abs(q - row * width - last_column_of)
                if (dr > 2 or dc > 2) and (dr > 4 or dc > 4 or (
                        dr != 0 and dc != 0 and dr != dc)):
                    continue
            score = (value[me, q] & MOVING_WORTH) * 5 + (value[them, q] & MOVING_WORTH) * 4
            if mine == L_FOUR_THREE:
                score += 1 << 30
            if q == tt_move:
                score += 1 << 40
            arrivals[arrived] = q
            count = insert_key(scores, count, MAX_MOVES,
                               score * MAX_MOVES + (MAX_MOVES - 1 - arrived))
            arrived += 1
    for i in range(count):
        moves[i] = arrivals[MAX_MOVES - 1 - scores[i] % MAX_MOVES]
    return count


@njit(cache=True)
def negamax(board: Board, context: Context, depth: int, ply: int, alpha: int, beta: int,
            me: int) -> int:
    """The fail-soft value of the position for ``me`` (to move); contract in the module doc."""
    stats = context.stats
    stats[NODES] += 1
    if out_of_budget(context, np.int64(NODES), np.int64(MAX_NODES)):
        return 0
    them = 1 - me
    counts = board.level_count
    if counts[me, L_FIVE] > 0:
        if ply == 0:
            stats[BEST_MOVE] = find_level(board, me, np.int64(L_FIVE))
            stats[BEST_VALUE] = WIN - 1
        return WIN - ply - 1
    forced = -1
    if counts[them, L_FIVE] > 0:
        forced = find_level(board, them, np.int64(L_FIVE))
        if counts[them, L_FIVE] >= 2 or board.level[me, forced] == L_FORBIDDEN:
            if ply == 0:
                stats[BEST_MOVE] = forced
                stats[BEST_VALUE] = -(WIN - 2)
            return -(WIN - ply - 2)
    elif counts[me, L_OPEN_FOUR] > 0:
        if ply == 0:
            stats[BEST_MOVE] = find_level(board, me, np.int64(L_OPEN_FOUR))
            stats[BEST_VALUE] = WIN - 3
        return WIN - ply - 3
    if ply >= MAX_PLY - 1:
        return evaluate(board, me)
    # past the horizon (no five to block): the static value, or better, one of my fours
    # (whose answer is forced): a VCF is read to its end, at most FOUR_PLIES fours deep
    horizon = forced < 0 and depth <= 0
    if horizon and (depth <= -stats[FOUR_PLIES]
                    or counts[me, L_FOUR] + counts[me, L_FOUR_THREE] == 0):
        return evaluate(board, me)

    alpha = max(alpha, -(WIN - ply))
    beta = min(beta, WIN - ply - 1)
    if alpha >= beta:
        return alpha

    key = board.hash[0]
    tt = context.tt
    slot = key & np.uint64(tt.shape[0] - 1)
    tt_move = -1
    if tt[slot, 0] == np.int64(key):
        stored, stored_depth, flag, tt_move = entry_parts(tt[slot, 1])
        if stored_depth >= depth and ply > 0:
            value = from_table(stored, ply)
            if (flag == EXACT or (flag == LOWER and value >= beta)
                    or (flag == UPPER and value <= alpha)):
                stats[TT_HITS] += 1
                return value

    # reverse futility: near the horizon, with nothing of the opponent's that a pass would
    # lose to (no five to block, no open three, no four-three or double three to make), a
    # static value this far above beta stands
    if (stats[FUTILITY] > 0 and depth <= 3 and ply > 0 and not horizon and forced < 0
            and -HEURISTIC_LIMIT < beta < HEURISTIC_LIMIT
            and counts[them, L_OPEN_FOUR] + counts[them, L_FOUR_THREE]
            + counts[them, L_DOUBLE_THREE] == 0):
        static = evaluate(board, me)
        if static - stats[FUTILITY] * depth >= beta:
            return static

    original_alpha = alpha
    best = -INFINITY
    best_move = -1
    if forced >= 0:
        context.moves[ply, 0] = forced
        count = 1
        child_depth = depth
    elif horizon:
        # standing pat: I need not play a four (fail-soft, as at any node)
        best = evaluate(board, me)
        if best >= beta:
            return best
        alpha = max(alpha, best)
        count = generate_fours(board, context, me, ply, tt_move)
        child_depth = depth - 1
    else:
        count = generate(board, context, me, ply, tt_move)
        child_depth = depth - 1
        if count == 0:
            if counts[them, L_OPEN_FOUR] > 0:  # renju: every point that stops it is forbidden
                return -(WIN - ply - 4)
            return evaluate(board, me)

    levels, moves, killers = board.level, context.moves, context.killers  # (read once)
    quiet_position = stats[LMR] != 0 and forced < 0 and counts[them, L_OPEN_FOUR] == 0
    for i in range(count):
        move = moves[ply, i]
        # late move reduction: a quiet move late in the ordered list (no three or four of
        # either side there) is first searched shallower, and again in full if it surprises
        reduction = 0
        if (quiet_position and i >= LMR_FROM and child_depth >= 2
                and levels[me, move] < L_THREE and levels[them, move] < L_THREE):
            reduction = 1 if i < LMR_DEEPER_FROM or child_depth < 4 else 2
        place(board, move, me)
        # PVS: the first move with the full window, the others with a null window (and
        # ``reduction`` plies shallower), searched again while they surprise: at full depth,
        # then with the full window. One recursive call in the source: numba types the whole
        # function again for each recursive call it meets, so this compiles seconds faster.
        null_window = i > 0
        searched_depth = child_depth - reduction if null_window else child_depth
        low, high = (-alpha - 1, -alpha) if null_window else (-beta, -alpha)
        while True:
            value = -negamax(board, context, searched_depth, ply + 1, low, high, them)
            if not null_window or stats[ABORTED]:
                break
            if searched_depth < child_depth and value > alpha:
                searched_depth = child_depth
            elif alpha < value < beta:
                null_window = False
                low, high = -beta, -value
            else:
                break
        remove(board, move)
        if stats[ABORTED]:
            return 0
        if value > best:
            best = value
            best_move = move
            if ply == 0:  # (a root move searched to the end: usable if time runs out)
                stats[BEST_MOVE] = move
                stats[BEST_VALUE] = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    stats[CUTOFFS] += 1
                    if not horizon:  # (a four past the horizon teaches quiet moves nothing)
                        if move != killers[ply, 0]:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = move
                        context.history[me, move] += depth * depth
                    break

    flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
    tt[slot, 0] = np.int64(key)
    tt[slot, 1] = tt_entry(to_table(best, ply), min(depth, 127), flag, best_move)
    return best
