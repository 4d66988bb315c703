"""UCT for Connect Four entirely in numba: the tree in preallocated arrays, the playouts of
``playouts.random_playout``.

The generic ``yipan.search.mcts`` spends most of an iteration in Python (selection over dicts
of nodes), so fast playouts alone do not make it fast. Here the same algorithm (UCB1
selection, one child expanded per iteration, a random playout, results backed up with their
sign flipped at each ply) runs over arrays::

    node i:  current[i], mask[i], moves[i]   its position (Pons' layout, see rules.py)
             child[i, c]                     the node after playing column c, or -1
             visits[i], total[i]             results for the player who moved INTO node i
             result[i]                       UNKNOWN, or the finished game's result for
                                             that player (+1 win, 0 draw)

No solver and no chance here: it is the flagship game's fast player, checked against the
generic MCTS (same choices on tactical positions) in the tests.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from types import MappingProxyType
from typing import Any

import numpy as np
from numba import njit

from ...core import Limit, SearchResult
from ...native import random_below, seed_from
from ...search.mcts import DEFAULT_EXPLORATION, MCTSStats
from .playouts import has_four, random_playout

UNKNOWN = 2.0  # result[i] of a node whose game goes on
MAX_NODES = 1_000_000  # about 100 MB of arrays; a search by time stops when the tree is full
ITERATIONS_PER_SECOND = 1_000_000  # above this machine's rate: a time limit's tree is sized by it


class Connect4Tree:
    """The arrays of one search; ``capacity`` nodes at most (one per iteration, plus the root)."""

    def __init__(self, capacity: int, width: int) -> None:
        self.current = np.zeros(capacity, np.int64)
        self.mask = np.zeros(capacity, np.int64)
        self.moves = np.zeros(capacity, np.int64)
        self.child = np.full((capacity, width), -1, np.int64)
        self.visits = np.zeros(capacity, np.int64)
        self.total = np.zeros(capacity, np.float64)
        self.result = np.full(capacity, UNKNOWN)


@njit(cache=True)
def run_iterations(current, mask, moves, child, visits, total, result, size, iterations,
                   width, height, exploration, seed):
    """Run ``iterations`` UCT iterations on the tree of ``size`` nodes (the root is node 0);
    returns (new size, generator seed, iterations run): fewer if the arrays are full."""
    state = np.uint64(seed)  # the generator's state (see yipan.native)
    stride = height + 1
    path = np.empty(width * height + 2, np.int64)
    untried = np.empty(width, np.int64)
    done = 0
    for _ in range(iterations):
        if size + 1 >= current.shape[0]:
            break
        done += 1
        node = 0
        length = 1
        path[0] = 0
        while result[node] == UNKNOWN:
            count = 0
            for col in range(width):
                if child[node, col] < 0 and not mask[node] & (1 << (height - 1 + col * stride)):
                    untried[count] = col
                    count += 1
            if count > 0:
                state, pick = random_below(state, count)
                col = untried[pick]
                column = ((1 << height) - 1) << (col * stride)
                new_mask = mask[node] | (mask[node] + (1 << (col * stride)))
                mine = current[node] | (new_mask & column & ~mask[node])
                new = size
                size += 1
                current[new] = mine ^ new_mask
                mask[new] = new_mask
                moves[new] = moves[node] + 1
                if has_four(mine, height):
                    result[new] = 1.0
                elif moves[new] == width * height:
                    result[new] = 0.0
                child[node, col] = new
                path[length] = new
                length += 1
                node = new
                break
            log_visits = math.log(visits[node])
            best = -1
            best_score = -1e300
            for col in range(width):
                c = child[node, col]
                if c >= 0:
                    score = (total[c] / visits[c]
                             + exploration * math.sqrt(log_visits / visits[c]))
                    if score > best_score:
                        best_score = score
                        best = c
            node = best
            path[length] = node
            length += 1
        if result[node] != UNKNOWN:
            value = result[node]
        else:
            outcome, state = random_playout(current[node], mask[node], moves[node], width,
                                            height, state)
            value = -float(outcome)  # the playout's result is for the side to move at node
        for i in range(length - 1, -1, -1):
            visits[path[i]] += 1
            total[path[i]] += value
            value = -value
    return size, state, done


def mcts_connect4(current: int, mask: int, moves: int, *, limit: Limit, rng: random.Random,
                  width: int = 7, height: int = 6,
                  exploration: float = DEFAULT_EXPLORATION,
                  clock: Callable[[], float] = time.perf_counter) -> SearchResult:
    """UCT from a Connect Four position (not finished) under ``limit`` (iterations or time).

    Moves are columns 0..width-1; the result is as ``yipan.search.mcts`` gives it (the most
    visited move, its mean result in [-1, 1] for the side to move, visits per move).
    """
    last = None
    for last in uct_connect4(current, mask, moves, limit=limit, rng=rng,  # noqa: B007
                             width=width, height=height, exploration=exploration,
                             clock=clock):
        pass
    assert last is not None  # the search always reports once, at its end
    return last


def uct_connect4(current: int, mask: int, moves: int, *, limit: Limit, rng: random.Random,
                 width: int = 7, height: int = 6, exploration: float = DEFAULT_EXPLORATION,
                 every: float | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> Iterator[SearchResult]:
    """``mcts_connect4`` as it goes: with ``every`` (seconds), a result that often while the
    search runs (for a front end that shows it thinking); always the final result last."""
    if limit.nodes is None and limit.time is None and limit.stop is None:
        raise ValueError("mcts needs a limit on iterations (Limit(nodes=...)), time or stop")
    start = clock()
    deadline = None if limit.time is None else start + limit.time
    budget = limit.nodes if limit.nodes is not None else 1 << 62
    if limit.time is not None:  # no more tree than the time can fill (arrays cost to clear)
        budget = min(budget, max(1024, int(limit.time * ITERATIONS_PER_SECOND)))
    capacity = min(budget, MAX_NODES) + 2
    tree = Connect4Tree(capacity, width)
    tree.current[0], tree.mask[0], tree.moves[0] = current, mask, moves
    seed = seed_from(rng)
    size, done = 1, 0
    chunk = 2048 if deadline is not None or limit.stop is not None or every else budget
    next_report = None if every is None else start + every
    while done < budget:
        step = min(chunk, budget - done)
        size, seed, ran = run_iterations(
            tree.current, tree.mask, tree.moves, tree.child, tree.visits, tree.total,
            tree.result, size, step, width, height, exploration, seed)
        seed = np.uint64(seed)  # numba hands a uint64 back as a Python int: keep its type
        done += ran
        now = clock()
        if ran < step or (deadline is not None and now >= deadline) or limit.stopped():
            break
        if next_report is not None and every is not None and now >= next_report:
            next_report = now + every
            yield _tree_result(tree, size, width, rng, now - start)
    yield _tree_result(tree, size, width, rng, clock() - start)


def _tree_result(tree: Connect4Tree, size: int, width: int, rng: random.Random,
                 elapsed: float) -> SearchResult:
    """The root's statistics as a search result: the most visited move (ties by ``rng``)."""
    visits = {c: int(tree.visits[n]) for c in range(width) if (n := tree.child[0, c]) >= 0}
    values = {c: float(tree.total[n] / tree.visits[n])
              for c in range(width) if (n := tree.child[0, c]) >= 0}
    most = max(visits.values(), default=0)
    tied = [c for c, v in visits.items() if v == most]
    move = rng.choice(tied) if tied else None
    return SearchResult(
        move=move, value=values[move] if move is not None else 0.0,
        pv=(move,) if move is not None else (), move_values=MappingProxyType(values),
        depth=1, exact=False, scale="mean",
        stats=MCTSStats(nodes=int(tree.visits[0]), elapsed=elapsed,
                        visits=MappingProxyType(dict[Any, int](visits)), tree_size=size))
