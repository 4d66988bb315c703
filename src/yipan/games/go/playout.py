"""Playouts: a game played to its end from a board, fast and not too foolish.

Each move of a *heavy* playout (michi's order, after MoGo):

1. with probability ``P_CAPTURE``, answer the last move's ataris: capture a string of the
   opponent left in atari next to it, or save one of ours (capture a neighbour in atari, or
   extend to two liberties or more);
2. else with probability ``P_PATTERN``, play one of the empty points round the last two moves
   where a 3x3 pattern matches (``patterns``), refusing self-atari most of the time;
3. else a random legal move, never into one of the player's own eyes, refusing self-atari
   half of the time (the other half lets nakade be played);
4. pass when nothing is left.

A *light* playout is step 3 alone, without the self-atari test (the benchmark's figure). The
game ends on two passes or after ``max_moves``; it is scored by Tromp-Taylor (``area_score``).

``amaf[p]`` records which colour played first on each point during the playout (for RAVE);
random numbers come from ``yipan.native`` and are handed back with the result.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...native import random_below
from .board import (
    COLOUR,
    EMPTIES,
    EMPTY,
    HEAD,
    M_EMPTY,
    M_LAST,
    M_LAST2,
    M_MOVES,
    M_PASSES,
    M_TO_MOVE,
    M_WIDTH,
    META,
    NEXT,
    PASS,
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

P_CAPTURE = 0.9
P_PATTERN = 0.95
P_REJECT_SUGGESTED_SELF_ATARI = 0.9
P_REJECT_RANDOM_SELF_ATARI = 0.5
MAX_CANDIDATES = 64
CHANCE_SCALE = 1 << 20  # probabilities as draws below 2**20


@njit(cache=True, inline="always")
def _chance(state: np.uint64, probability: float) -> tuple[np.uint64, bool]:
    state, draw = random_below(state, CHANCE_SCALE)
    return state, draw < probability * CHANCE_SCALE


@njit(cache=True)
def atari_answers(b: np.ndarray, colour: int, around: int, out: np.ndarray) -> int:
    """Moves that capture, or save from capture, a string next to ``around`` (the last move),
    or ``around``'s own string; written to ``out``, their number returned (legal ones)."""
    width = b[META, M_WIDTH]
    other = 3 - colour
    n = 0
    for q in (around, around - 1, around + 1, around - width, around + width):
        c = b[COLOUR, q]
        if c != colour and c != other:
            continue
        head = b[HEAD, q]
        if not in_atari(b, head):
            continue
        liberty = atari_point(b, head)
        if c == other:  # capture it
            if is_legal(b, liberty, colour) and n < out.shape[0]:
                out[n] = liberty
                n += 1
            continue
        # ours in atari: capture a neighbour in atari, or extend if it gives liberties
        s = head
        while True:
            for r in (s - 1, s + 1, s - width, s + width):
                if b[COLOUR, r] == other:
                    enemy = b[HEAD, r]
                    if in_atari(b, enemy):
                        point = atari_point(b, enemy)
                        if is_legal(b, point, colour) and n < out.shape[0]:
                            out[n] = point
                            n += 1
            s = b[NEXT, s]
            if s == head:
                break
        if is_legal(b, liberty, colour) and liberties_after(b, liberty, colour, np.int64(3)) >= 2 \
                and n < out.shape[0]:
            out[n] = liberty
            n += 1
    return n


@njit(cache=True)
def pattern_moves(b: np.ndarray, colour: int, pat3: np.ndarray, out: np.ndarray) -> int:
    """The empty points round the last two moves where a 3x3 pattern matches (legal)."""
    width = b[META, M_WIDTH]
    n = 0
    for last in (b[META, M_LAST], b[META, M_LAST2]):
        if last == PASS:
            continue
        for q in (last - width - 1, last - width, last - width + 1, last - 1, last + 1,
                  last + width - 1, last + width, last + width + 1):
            if b[COLOUR, q] != EMPTY or not pat3[code_at(b, q)]:
                continue
            seen = False
            for i in range(n):
                if out[i] == q:
                    seen = True
            if not seen and is_legal(b, q, colour) and n < out.shape[0]:
                out[n] = q
                n += 1
    return n


@njit(cache=True)
def _pick_suggested(b: np.ndarray, colour: int, moves: np.ndarray, n: int,
                    state: np.uint64) -> tuple[int, np.uint64]:
    """One of the n suggested moves at random, skipping self-atari (mostly) and own eyes;
    PASS when none is taken."""
    if n == 0:
        return PASS, state
    state, start = random_below(state, n)
    for k in range(n):
        p = moves[(start + k) % n]
        if is_eye(b, p, colour):
            continue
        if liberties_after(b, p, colour, np.int64(2)) < 2:
            state, reject = _chance(state, P_REJECT_SUGGESTED_SELF_ATARI)
            if reject:
                continue
        return p, state
    return PASS, state


@njit(cache=True, inline="always")
def random_move(b: np.ndarray, colour: int, state: np.uint64,
                self_atari_test: bool) -> tuple[int, np.uint64]:
    """A random legal move that fills no eye of the mover's (self-atari refused half of the
    time when ``self_atari_test``); PASS when there is none."""
    n = b[META, M_EMPTY]
    if n == 0:
        return PASS, state
    state, start = random_below(state, n)
    for k in range(n):
        p = b[EMPTIES, (start + k) % n]
        if is_eye(b, p, colour) or not is_legal(b, p, colour):  # the eye test is cheaper
            continue
        if self_atari_test and liberties_after(b, p, colour, np.int64(2)) < 2:
            state, reject = _chance(state, P_REJECT_RANDOM_SELF_ATARI)
            if reject:
                continue
        return p, state
    return PASS, state


@njit(cache=True)
def policy_move(b: np.ndarray, pat3: np.ndarray, candidates: np.ndarray,
                state: np.uint64) -> tuple[int, np.uint64]:
    """The heavy playout's move for the side to move (module docstring)."""
    colour = b[META, M_TO_MOVE]
    last = b[META, M_LAST]
    if last != PASS:
        state, take = _chance(state, P_CAPTURE)
        if take:
            n = atari_answers(b, colour, last, candidates)
            if n > 0:
                move, state = _pick_suggested(b, colour, candidates, n, state)
                if move != PASS:
                    return move, state
        state, take = _chance(state, P_PATTERN)
        if take:
            n = pattern_moves(b, colour, pat3, candidates)
            if n > 0:
                move, state = _pick_suggested(b, colour, candidates, n, state)
                if move != PASS:
                    return move, state
    return random_move(b, colour, state, True)


@njit(cache=True)
def heavy_playout(b: np.ndarray, komi: float, pat3: np.ndarray, amaf: np.ndarray,
                  max_moves: int, seed: np.uint64) -> tuple[float, np.uint64]:
    """Play the board to its end with the heavy policy; (Tromp-Taylor score for black, the
    generator's state). ``amaf`` gets the first colour to play on each point."""
    state = np.uint64(seed)
    candidates = np.empty(MAX_CANDIDATES, np.int64)
    while b[META, M_PASSES] < 2 and b[META, M_MOVES] < max_moves:
        colour = b[META, M_TO_MOVE]
        move, state = policy_move(b, pat3, candidates, state)
        if move != PASS and amaf[move] == 0:
            amaf[move] = colour
        play(b, move, colour)
    return area_score(b, komi), state


@njit(cache=True)
def light_playouts(root: np.ndarray, komi: float, count: int, max_moves: int,
                   seed: np.uint64) -> tuple[float, int, np.uint64]:
    """``count`` light playouts from ``root`` (uniformly random moves that fill no own eye):
    (black's wins, moves played in all, the generator's state). The benchmark's figure."""
    state = np.uint64(seed)
    b = root.copy()
    wins = 0.0
    moves = 0
    for _ in range(count):
        copy_board(root, b)
        while b[META, M_PASSES] < 2 and b[META, M_MOVES] < max_moves:
            colour = b[META, M_TO_MOVE]
            move, state = random_move(b, colour, state, False)
            play(b, move, colour)
        moves += b[META, M_MOVES] - root[META, M_MOVES]
        score = area_score(b, komi)
        wins += 1.0 if score > 0 else 0.5 if score == 0 else 0.0
    return wins, moves, state


@njit(cache=True)
def heavy_playouts(root: np.ndarray, komi: float, pat3: np.ndarray, count: int,
                   max_moves: int, seed: np.uint64) -> tuple[float, int, np.uint64]:
    """``count`` heavy playouts from ``root``: (black's wins, moves played, generator)."""
    state = np.uint64(seed)
    b = root.copy()
    amaf = np.zeros(root.shape[1], np.int64)
    wins = 0.0
    moves = 0
    for _ in range(count):
        copy_board(root, b)
        score, state = heavy_playout(b, komi, pat3, amaf, max_moves, state)
        moves += b[META, M_MOVES] - root[META, M_MOVES]
        wins += 1.0 if score > 0 else 0.5 if score == 0 else 0.0
    return wins, moves, state
