"""Threat-space search: VCF (victory by continuous fours) and VCT (fours and threes).

An AND-OR search in which the attacker only makes threats and the defender only answers them:

- attacker to move: a five wins; if the defender threatens five, the attacker must block it
  (and the sequence goes on only if the attacker still has a threat standing); an open four
  (or a double four) wins; else try each four (and, for VCT, each open three);
- defender to move: a five of the defender refutes; two fives of the attacker win; one must
  be blocked; against a three, try every cell where the attacker could make a four (that is
  where a three is stopped) and every four of the defender's own.

Under renju neither side's search lets black play a point the board marks forbidden, and a
four of white's whose five point is forbidden to black cannot be blocked.

``depth`` counts attacker moves. Positions that failed at a depth are remembered (by Zobrist
hash) so the transpositions of a threat tree are searched once. The winning line is left in
``context.line`` (attacker, defender, attacker, ...), its length in ``stats[LINE_LENGTH]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...native import insert_key
from .board import (
    CARO,
    EMPTY,
    L_FIVE,
    L_FORBIDDEN,
    L_FOUR,
    L_OPEN_FOUR,
    L_THREE,
    MOVING_WORTH,
    Board,
    caro_defences,
    find_level,
    place,
    remove,
)
from .context import (
    ABORTED,
    LINE_LENGTH,
    MAX_MOVES,
    MAX_PLY,
    THREAT_MAX_NODES,
    THREAT_NODES,
    Context,
    out_of_budget,
)
from .patterns import FOUR


@njit(cache=True)
def _remember_failure(context: Context, key: np.uint64, depth: int) -> None:
    slot = key & np.uint64(context.fail_key.size - 1)
    context.fail_key[slot] = key
    context.fail_depth[slot] = depth


@njit(cache=True)
def _failed_before(context: Context, key: np.uint64, depth: int) -> bool:
    slot = key & np.uint64(context.fail_key.size - 1)
    return context.fail_key[slot] == key and context.fail_depth[slot] >= depth


@njit(cache=True)
def _threat_moves(board: Board, context: Context, attacker: int, ply: int, threes: int) -> int:
    """The attacker's fours, then (VCT) open threes, best-valued first, into moves[ply]
    (kept as ``generate`` keeps its candidates: ``insert_key``, cells by arrival aside)."""
    moves = context.moves[ply]
    scores = context.move_scores[ply]
    arrivals = context.arrivals
    count = 0
    lowest = L_THREE if threes == 1 else L_FOUR
    cells, levels, value = board.cells, board.level, board.value  # (read once: ``generate``)
    for q in board.points:
        if cells[q] != EMPTY:
            continue
        level = levels[attacker, q]
        if level < lowest or level >= L_FIVE:  # (a five is played first; L_FORBIDDEN never)
            continue
        score = (level * 1_000_000 + (value[attacker, q] & MOVING_WORTH)
                 + (value[1 - attacker, q] & MOVING_WORTH))
        arrivals[count] = q
        count = insert_key(scores, count, MAX_MOVES, score * MAX_MOVES + MAX_MOVES - 1 - count)
    for i in range(count):
        moves[i] = arrivals[MAX_MOVES - 1 - scores[i] % MAX_MOVES]
    return count


@njit(cache=True)
def _defences(board: Board, context: Context, attacker: int, ply: int) -> int:
    """Cells that stop the attacker's three (its four cells; under caro also the cells
    beyond its ends, ``board.caro_defences``, listed after the others) and the defender's own
    fours.

    A cell where a shape of the attacker's is a four or more has its level from L_FOUR to
    L_FIVE, or L_FORBIDDEN (renju's black: a four beside an overline, say), and every cell
    of those levels but the forbidden ones has such a shape: so the shapes themselves are
    read only at forbidden cells."""
    defender = 1 - attacker
    moves = context.moves[ply]
    count = 0
    cells, levels, shapes = board.cells, board.level, board.shapes  # (read once: ``generate``)
    for q in board.points:
        if cells[q] != EMPTY:
            continue
        level = levels[defender, q]
        if level == L_FORBIDDEN:
            continue
        useful = level >= L_FOUR
        if not useful:
            theirs = levels[attacker, q]
            if L_FOUR <= theirs <= L_FIVE:
                useful = True
            elif theirs == L_FORBIDDEN:
                for d in range(4):
                    if shapes[attacker, q, d] >= FOUR:
                        useful = True
                        break
        if useful:
            moves[count] = q
            count += 1
    if board.meta[CARO] == 1:  # (the defences that shapes do not show, after the others)
        extra, extras = caro_defences(board, defender)
        for k in range(extras):
            moves[count] = extra[k]
            count += 1
    return count


def attack(board: Board, context: Context, attacker: int, depth: int, threes: bool) -> bool:
    """True if ``attacker`` (to move) wins by threats within ``depth`` attacker moves.

    A Python function on purpose: numba's cache crashes when one cached kernel calls a
    recursive one, so Python calls the recursive kernel itself.
    """
    return threat_node(board, context, attacker, depth, 0, int(threes), 1) == 1


@njit(cache=True)
def threat_node(board: Board, context: Context, attacker: int, depth: int, ply: int,
                threes: int, attacking: int) -> int:
    """One node of the AND-OR tree: the attacker's (OR: one move that wins is enough) or the
    defender's (AND: every answer must lose). The rules of the module doc choose the moves
    into ``context.moves[ply]``; one loop then tries them.

    One self-recursive kernel with one recursive call, whose arguments are int64 values
    (``1 - attacking``, never a literal): numba's cache crashes on mutual recursion and on
    recursive calls whose argument types differ (numba issue 6713), and numba types the whole
    function again for each recursive call it meets (one call: seconds less to compile).
    """
    defender = 1 - attacker
    counts = board.level_count
    must_block = False  # the attacker answers a five: it goes on only with a threat standing
    key = board.hash[0]
    if not attacking:
        if counts[defender, L_FIVE] > 0:
            return 0
        if counts[attacker, L_FIVE] >= 1:  # block one five (with two, the other one wins)
            block = find_level(board, attacker, np.int64(L_FIVE))
            if board.level[defender, block] == L_FORBIDDEN:  # renju: black cannot block
                context.line[ply] = -1
                context.stats[LINE_LENGTH] = ply
                return 1
            context.moves[ply, 0] = block
            count = 1
        else:
            if counts[attacker, L_OPEN_FOUR] == 0:
                return 0  # no threat stands: the defender is free
            count = _defences(board, context, attacker, ply)
            if count == 0:  # renju: every point that stops it is forbidden to black
                context.line[ply] = -1
                context.stats[LINE_LENGTH] = ply
                return 1
    else:
        if counts[attacker, L_FIVE] > 0:
            context.line[ply] = find_level(board, attacker, np.int64(L_FIVE))
            context.stats[LINE_LENGTH] = ply + 1
            return 1
        if counts[defender, L_FIVE] >= 2 or depth <= 0 or ply >= MAX_PLY - 2:
            return 0
        context.stats[THREAT_NODES] += 1
        if out_of_budget(context, np.int64(THREAT_NODES), np.int64(THREAT_MAX_NODES)):
            return 0
        if counts[defender, L_FIVE] == 1:
            block = find_level(board, defender, np.int64(L_FIVE))
            if board.level[attacker, block] == L_FORBIDDEN:
                return 0
            context.moves[ply, 0] = block
            count = 1
            must_block = True
        else:
            if counts[attacker, L_OPEN_FOUR] > 0:
                context.line[ply] = find_level(board, attacker, np.int64(L_OPEN_FOUR))
                context.line[ply + 1] = -1
                context.stats[LINE_LENGTH] = ply + 1
                return 1
            if _failed_before(context, key, depth):
                return 0
            count = _threat_moves(board, context, attacker, ply, threes)

    mover = attacker if attacking else defender
    for i in range(count):
        move = context.moves[ply, i]
        place(board, move, mover)
        won = 0
        if not must_block or counts[attacker, L_FIVE] > 0 or (
                threes == 1 and counts[attacker, L_OPEN_FOUR] > 0):
            won = threat_node(board, context, attacker, depth - attacking, ply + 1, threes,
                              1 - attacking)
        remove(board, move)
        if attacking and won:
            context.line[ply] = move
            return 1
        if not attacking and not won:
            return 0  # an answer that holds
        if context.stats[ABORTED]:  # an unfinished search proves nothing
            return 0
    if not attacking:  # every answer lost (the line behind the last one is in place)
        context.line[ply] = context.moves[ply, count - 1]
        return 1
    if not must_block:
        _remember_failure(context, key, depth)
    return 0
