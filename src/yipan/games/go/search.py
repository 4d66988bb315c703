"""Monte Carlo tree search for Go in numba: UCT with RAVE (AMAF) and michi's priors, over
arrays, not Python objects.

The tree is two arrays of ``capacity`` rows; a node's children are consecutive rows, made all
at once when the node has been visited ``EXPAND_VISITS`` times (the root at once)::

    links[i] = (MOVE, FIRST, COUNT)     int32: the move into node i (a padded point, PASS, or
                                        SKIPPED for a root move the superko rule forbids),
                                        its first child's row, its number of children (0: a leaf)
    stats[i] = (VISITS, WINS,           float32: playouts through i and the wins in them for the
                AMAF_VISITS, AMAF_WINS, player who moved into i; the same counted all-moves-as-
                PRIOR_VISITS, PRIOR_WINS,   first (RAVE); pseudo-playouts of prior knowledge;
                POLICY)                 and a move probability for a network prior (uniform now)

Selection takes the child of highest urgency (michi's, after Gelly and Silver)::

    v = VISITS + PRIOR_VISITS;  w = WINS + PRIOR_WINS
    beta = av / (av + v + v * av / RAVE_EQUIVALENCE)            av, aw: the AMAF counts
    urgency = (1 - beta) * w / v + beta * aw / av
              + policy_weight * POLICY * sqrt(N) / (1 + VISITS)        N: the parent's visits

where ``policy_weight`` is 0 until a network fills POLICY. Priors
(pseudo-playouts, michi's values): every move starts even (10 playouts, 5 wins); a capture
gains wins, a move that saves a string in atari too, a self-atari loses, a 3x3 pattern and
closeness to the last move gain, a move far from every stone gains on the third line and loses
on the first two. Passing is a child of every node; two passes end the game in the tree,
scored exactly (Tromp-Taylor): a pass that would end the game starts optimistic (it is tried,
and its exact result corrects it), any other pass pessimistic. Inside the tree only simple ko
is checked; the root's children are the rules' legal moves (superko included), given by the
caller.

After each playout the result is backed up along the path, and every child of a node on the
path whose move the same player made later in the game (``amaf``) gets an AMAF update.
``owner`` adds up, point by point, who owned it at the end of each playout (BLACK's count in
``owner[p, 0]``, WHITE's in ``owner[p, 1]``): dead stones and territory are read from it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ...native import random_below
from .board import (
    BLACK,
    COLOUR,
    EMPTY,
    HEAD,
    M_LAST,
    M_PASSES,
    M_SIZE,
    M_TO_MOVE,
    M_WIDTH,
    META,
    NEXT,
    PASS,
    STONES,
    area_owner,
    area_score,
    atari_point,
    copy_board,
    in_atari,
    is_eye,
    is_legal,
    liberties_after,
    play,
)
from .patterns import code_at
from .playout import heavy_playout

MOVE, FIRST, COUNT = 0, 1, 2
VISITS, WINS, AMAF_VISITS, AMAF_WINS, PRIOR_VISITS, PRIOR_WINS, POLICY = range(7)
LINK_FIELDS, STAT_FIELDS = 3, 7
SKIPPED = -1

# params[...] (float64): the search's settings, one array so that the kernel has one signature
P_KOMI, P_EXPAND, P_RAVE_EQUIVALENCE, P_POLICY_WEIGHT, P_MAX_MOVES = range(5)
PARAMS = 5

PRIOR_EVEN = 10.0  # pseudo-playouts every move starts with, half of them won
PRIOR_CAPTURE_ONE = 15.0
PRIOR_CAPTURE_MANY = 30.0
PRIOR_SAVE = 15.0
PRIOR_SELF_ATARI = 10.0  # playouts lost
PRIOR_PATTERN = 10.0
PRIOR_NEAR = (0.0, 0.0, 24.0, 22.0, 8.0)  # by "gridcular" distance dx + dy + max(dx, dy)
PRIOR_EMPTY_AREA = 10.0
EMPTY_AREA_RADIUS = 3


@njit(cache=True)
def move_priors(b: np.ndarray, p: int, colour: int, pat3: np.ndarray) -> tuple[float, float]:
    """(pseudo-playouts, pseudo-wins) of prior knowledge for ``colour`` playing the legal
    point p (the module docstring lists them)."""
    width = b[META, M_WIDTH]
    size = b[META, M_SIZE]
    other = 3 - colour
    visits = PRIOR_EVEN
    wins = PRIOR_EVEN / 2
    captured = 0
    saves = False
    for q in (p - 1, p + 1, p - width, p + width):
        c = b[COLOUR, q]
        if c == other and in_atari(b, b[HEAD, q]):
            captured += b[STONES, b[HEAD, q]]
        elif c == colour and in_atari(b, b[HEAD, q]):
            saves = True
    if captured > 0:
        bonus = PRIOR_CAPTURE_ONE if captured == 1 else PRIOR_CAPTURE_MANY
        visits += bonus
        wins += bonus
    elif liberties_after(b, p, colour, np.int64(2)) < 2:
        visits += PRIOR_SELF_ATARI
    elif saves:
        visits += PRIOR_SAVE
        wins += PRIOR_SAVE
    if pat3[code_at(b, p)]:
        visits += PRIOR_PATTERN
        wins += PRIOR_PATTERN
    last = b[META, M_LAST]
    if last != PASS:
        dx = abs(p % width - last % width)
        dy = abs(p // width - last // width)
        distance = dx + dy + max(dx, dy)
        if distance < len(PRIOR_NEAR):
            visits += PRIOR_NEAR[distance]
            wins += PRIOR_NEAR[distance]
    row, col = p // width - 1, p % width - 1
    alone = True
    for r in range(max(0, row - EMPTY_AREA_RADIUS), min(size, row + EMPTY_AREA_RADIUS + 1)):
        for c in range(max(0, col - EMPTY_AREA_RADIUS), min(size, col + EMPTY_AREA_RADIUS + 1)):
            if abs(r - row) + abs(c - col) <= EMPTY_AREA_RADIUS \
                    and b[COLOUR, (r + 1) * width + c + 1] != EMPTY:
                alone = False
    if alone:
        line = min(row, col, size - 1 - row, size - 1 - col)
        if line <= 1:
            visits += PRIOR_EMPTY_AREA
        elif line == 2:
            visits += PRIOR_EMPTY_AREA
            wins += PRIOR_EMPTY_AREA
    return visits, wins


@njit(cache=True)
def expand(links: np.ndarray, stats: np.ndarray, size: int, node: int, b: np.ndarray,
           allowed: np.ndarray, restrict: bool, pat3: np.ndarray,
           state: np.uint64) -> tuple[int, np.uint64]:
    """Give ``node`` (at board ``b``) a child for each legal move that fills no own eye, and
    one for passing, in random order; only moves with ``allowed[p]`` when ``restrict``.
    Returns the new number of rows (unchanged when the arrays are full)."""
    colour = b[META, M_TO_MOVE]
    n_points = b.shape[1]
    first = size
    count = 0
    if size + b[META, M_SIZE] ** 2 + 1 > links.shape[0]:
        return size, state
    for p in range(1, n_points):
        if b[COLOUR, p] != EMPTY or (restrict and not allowed[p]):
            continue
        if not is_legal(b, p, colour) or is_eye(b, p, colour):
            continue
        row = first + count
        links[row, MOVE] = p
        links[row, FIRST] = -1
        links[row, COUNT] = 0
        visits, wins = move_priors(b, p, colour, pat3)
        stats[row, :] = 0.0
        stats[row, PRIOR_VISITS] = visits
        stats[row, PRIOR_WINS] = wins
        count += 1
    if not restrict or allowed[PASS]:
        row = first + count
        links[row, MOVE] = PASS
        links[row, FIRST] = -1
        links[row, COUNT] = 0
        stats[row, :] = 0.0
        stats[row, PRIOR_VISITS] = PRIOR_EVEN
        if b[META, M_PASSES] == 1:  # the game ends on this pass: try it, it is scored exactly
            stats[row, PRIOR_WINS] = PRIOR_EVEN
        else:
            stats[row, PRIOR_WINS] = 0.1 * PRIOR_EVEN if count > 0 else PRIOR_EVEN / 2
        count += 1
    for i in range(count - 1, 0, -1):  # shuffle: ties go to a random child
        state, j = random_below(state, i + 1)
        for field in range(3):
            links[first + i, field], links[first + j, field] = \
                links[first + j, field], links[first + i, field]
        for field in range(7):
            stats[first + i, field], stats[first + j, field] = \
                stats[first + j, field], stats[first + i, field]
    for i in range(count):
        stats[first + i, POLICY] = 1.0 / count
    links[node, FIRST] = first
    links[node, COUNT] = count
    return size + count, state


@njit(cache=True)
def select_child(links: np.ndarray, stats: np.ndarray, node: int, rave_equivalence: float,
                 policy_weight: float) -> int:
    """The child of highest urgency (module docstring); -1 if every child is skipped."""
    best = -1
    best_urgency = -1e30
    first = links[node, FIRST]
    parent_visits = stats[node, VISITS]
    root_n = math.sqrt(parent_visits + 1.0)
    for child in range(first, first + links[node, COUNT]):
        if links[child, MOVE] == SKIPPED:
            continue
        visits = stats[child, VISITS] + stats[child, PRIOR_VISITS]
        wins = stats[child, WINS] + stats[child, PRIOR_WINS]
        urgency = wins / visits
        amaf_visits = stats[child, AMAF_VISITS]
        if amaf_visits > 0:
            beta = amaf_visits / (amaf_visits + visits + visits * amaf_visits
                                  / rave_equivalence)
            urgency = (1.0 - beta) * urgency + beta * stats[child, AMAF_WINS] / amaf_visits
        if policy_weight > 0:
            urgency += policy_weight * stats[child, POLICY] * root_n \
                / (1.0 + stats[child, VISITS])
        if urgency > best_urgency:
            best_urgency = urgency
            best = child
    return best


@njit(cache=True)
def search(links: np.ndarray, stats: np.ndarray, size: int, root: int, root_board: np.ndarray,
           params: np.ndarray, pat3: np.ndarray, owner: np.ndarray, iterations: int,
           seed: np.uint64) -> tuple[int, np.uint64]:
    """Run ``iterations`` playouts from ``root`` (already expanded); returns (rows in use,
    the generator's state)."""
    state = np.uint64(seed)
    komi = params[P_KOMI]
    expand_visits = params[P_EXPAND]
    rave_equivalence = params[P_RAVE_EQUIVALENCE]
    policy_weight = params[P_POLICY_WEIGHT]
    max_moves = int(params[P_MAX_MOVES])
    n_points = root_board.shape[1]
    b = root_board.copy()
    amaf = np.zeros(n_points, np.int64)
    ends = np.zeros(n_points, np.int64)
    path = np.empty(2 * n_points + 8, np.int64)
    movers = np.empty(2 * n_points + 8, np.int64)
    nothing = np.zeros(1, np.bool_)
    for _ in range(iterations):
        copy_board(root_board, b)
        amaf[:] = 0
        node = root
        depth = 0
        path[0] = root
        movers[0] = 3 - root_board[META, M_TO_MOVE]
        terminal = False
        while True:
            if links[node, COUNT] == 0:
                if node != root and stats[node, VISITS] < expand_visits:
                    break
                size, state = expand(links, stats, size, node, b, nothing, np.bool_(False), pat3,
                                     state)
                if links[node, COUNT] == 0:
                    break
            child = select_child(links, stats, node, rave_equivalence, policy_weight)
            if child < 0 or depth + 2 >= path.shape[0]:
                break
            move = np.int64(links[child, MOVE])  # (int64 as everywhere: one compiled play)
            colour = b[META, M_TO_MOVE]
            if move != PASS and amaf[move] == 0:
                amaf[move] = colour
            play(b, move, colour)
            depth += 1
            path[depth] = child
            movers[depth] = colour
            node = child
            if b[META, M_PASSES] >= 2:
                terminal = True
                break
        if terminal:
            score = area_score(b, komi)
        else:
            score, state = heavy_playout(b, komi, pat3, amaf, max_moves, state)
        black_result = 1.0 if score > 0 else 0.5 if score == 0 else 0.0
        area_owner(b, ends)
        for p in range(n_points):
            if ends[p] == BLACK:
                owner[p, 0] += 1
            elif ends[p] != 0:
                owner[p, 1] += 1
        for i in range(depth + 1):
            n = path[i]
            result = black_result if movers[i] == BLACK else 1.0 - black_result
            stats[n, VISITS] += 1.0
            stats[n, WINS] += result
            count = links[n, COUNT]
            if count == 0 or i == depth:
                continue
            to_move = 3 - movers[i]  # who chooses among n's children
            child_result = 1.0 - result
            first = links[n, FIRST]
            for child in range(first, first + count):
                m = links[child, MOVE]
                if m > 0 and amaf[m] == to_move:
                    stats[child, AMAF_VISITS] += 1.0
                    stats[child, AMAF_WINS] += child_result
    return size, state


@njit(cache=True)
def expand_root(links: np.ndarray, stats: np.ndarray, size: int, root: int,
                root_board: np.ndarray, allowed: np.ndarray, pat3: np.ndarray,
                seed: np.uint64) -> tuple[int, np.uint64]:
    """Expand the root with the moves the caller allows (the rules' legal moves), if it has no
    children yet; else mark the children the caller forbids as SKIPPED."""
    state = np.uint64(seed)
    if links[root, COUNT] == 0:
        b = root_board.copy()
        return expand(links, stats, size, root, b, allowed, np.bool_(True), pat3, state)
    first = links[root, FIRST]
    for child in range(first, first + links[root, COUNT]):
        move = links[child, MOVE]
        if move >= 0 and not allowed[move]:
            links[child, MOVE] = SKIPPED
    return size, state


@njit(cache=True)
def string_of(b: np.ndarray, p: int, out: np.ndarray) -> int:
    """The stones of p's string, written to ``out``; their number."""
    n = 0
    s = p
    while True:
        out[n] = s
        n += 1
        s = b[NEXT, s]
        if s == p:
            break
    return n


@njit(cache=True)
def atari_liberty(b: np.ndarray, p: int) -> int:
    """The liberty of p's string when it is in atari, else -1."""
    head = b[HEAD, p]
    return atari_point(b, head) if in_atari(b, head) else -1
