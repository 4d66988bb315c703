"""The Python side of the Connect Four solver: a thin wrapper that owns the kernel's arrays.

``Solver(game).solve(position)`` gives the exact score in the shared benchmark's convention
(side to move; ``(cells + 1 - moves) // 2`` for a win on the next move; 0 a draw);
``analyze`` scores every column and ``principal_variation`` follows the best line.
One ``Solver`` holds one transposition table; it is not shared between threads.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from . import kernel
from .rules import ConnectFour, Position

DEFAULT_TABLE_BITS = 23
RESET_LOG = 1 << 16  # a search writing fewer new slots than this is reset slot by slot


def _prime_at_least(n: int) -> int:
    """The smallest prime >= n (slot index = key % size spreads keys best for a prime)."""
    def is_prime(k: int) -> bool:
        if k < 2 or k % 2 == 0:
            return k == 2
        f = 3
        while f * f <= k:
            if k % f == 0:
                return False
            f += 2
        return True

    while not is_prime(n):
        n += 1
    return n


@dataclass(frozen=True, slots=True)
class Solved:
    """One solve: the score (None if the node limit ran out first), nodes, seconds."""

    score: int | None
    nodes: int
    seconds: float


class Solver:
    """Exact Connect Four solving with a reusable transposition table and an optional book."""

    def __init__(self, game: ConnectFour | None = None, *, table_bits: int = DEFAULT_TABLE_BITS,
                 flags: int = kernel.DEFAULT_FLAGS, book: object | None = None) -> None:
        self.game = game or ConnectFour()
        g = self.game.geometry
        size = _prime_at_least(1 << table_bits)
        cells = self.game.cells
        min_score = -(cells // 2) + 3
        max_score = (cells + 1) // 2 - 3
        self.geo = np.zeros(kernel.GEO_LEN, np.int64)
        self.geo[[kernel.G_WIDTH, kernel.G_HEIGHT, kernel.G_BOTTOM, kernel.G_BOARD,
                  kernel.G_CELLS, kernel.G_MIN, kernel.G_MAX, kernel.G_FLAGS,
                  kernel.G_BOOK_DEPTH, kernel.G_SIZE]] = [
            g.width, g.height, g.bottom, g.board, cells, min_score, max_score, flags, -1, size]
        self.order = np.array(self.game.center_order, np.int64)
        self.keys = np.zeros(size, np.int64)
        self.vals = np.zeros(size, np.int8)
        self.depths = np.zeros(size, np.int8)
        for table in (self.keys, self.vals, self.depths):
            table.fill(0)  # touch every page now, not one page fault per slot mid-search
        self.stats = np.zeros(kernel.STATS_LEN, np.int64)
        self.stats[kernel.S_LIMIT] = kernel.NO_LIMIT
        self.log = np.zeros(RESET_LOG, np.int64)
        self.scratch = np.zeros((cells + 1, 2, g.width), np.int64)
        self.book_keys = np.zeros(0, np.int64)
        self.book_vals = np.zeros(0, np.int8)
        if book is not None:
            self.use_book(book)

    def use_book(self, book: object) -> None:
        """Probe ``book`` (an ``OpeningBook`` of this board size) during searches."""
        keys, values, depth = book.keys, book.values, book.depth  # type: ignore[attr-defined]
        if (book.width, book.height) != (self.game.width, self.game.height):  # type: ignore
            raise ValueError("the book is for another board size")
        self.book_keys, self.book_vals = keys, values
        self.geo[kernel.G_BOOK_DEPTH] = depth

    @property
    def nodes(self) -> int:
        return int(self.stats[kernel.S_NODES])

    def reset(self) -> None:
        kernel.tt_reset(self.vals, self.stats, self.log)

    def _args(self) -> tuple:
        return (self.geo, self.order, self.keys, self.vals, self.depths, self.stats, self.log,
                self.scratch, self.book_keys, self.book_vals)

    # -- solving -----------------------------------------------------------------------------
    def solve_fresh(self, position: Position, weak: bool = False) -> int:
        """Score of ``position`` with an emptied table (the benchmark's fresh-table rule)."""
        return kernel.solve_fresh(position[0], position[1], position[2], weak, *self._args())

    def solve(self, position: Position, weak: bool = False, *, fresh: bool = False,
              node_limit: int | None = None) -> Solved:
        """The exact score (or its sign when ``weak``); the table is kept unless ``fresh``.

        With ``node_limit``, gives up (``score=None``) once that many nodes are spent.
        """
        self._check_not_over(position)
        if fresh:
            self.reset()
        stats = self.stats
        stats[kernel.S_NODES] = 0
        stats[kernel.S_ABORTED] = 0
        stats[kernel.S_LIMIT] = kernel.NO_LIMIT if node_limit is None else node_limit
        start = time.perf_counter()
        score = kernel.solve(position[0], position[1], position[2], weak, *self._args())
        seconds = time.perf_counter() - start
        aborted = bool(stats[kernel.S_ABORTED])
        stats[kernel.S_LIMIT] = kernel.NO_LIMIT
        if aborted:
            self.reset()  # bounds written while unwinding an aborted search are not trusted
        return Solved(None if aborted else int(score), self.nodes, seconds)

    def _check_not_over(self, position: Position) -> None:
        if self.game.outcome(position) not in (None,) and position.moves < self.game.cells:
            raise ValueError("the game is already won; there is nothing to solve")

    def child_score(self, position: Position, col: int, node_limit: int | None = None
                    ) -> int | None:
        """The score of playing ``col`` for the side to move (None when out of nodes)."""
        game = self.game
        if game.is_winning_move(position, col):
            return (game.cells + 1 - position.moves) // 2
        child = game.play(position, col)
        if child.moves >= game.cells:
            return 0
        solved = self.solve(child, node_limit=node_limit)
        return None if solved.score is None else -solved.score

    def analyze(self, position: Position, node_limit: int | None = None
                ) -> dict[int, int | None]:
        """Each playable column's exact score (None where the node limit ran out)."""
        return {col: self.child_score(position, col, node_limit)
                for col in self.game.legal_moves(position)}

    def achieves(self, position: Position, col: int, target: int) -> bool:
        """Whether ``col`` scores at least ``target`` (one null-window search)."""
        game = self.game
        if game.is_winning_move(position, col):
            return (game.cells + 1 - position.moves) // 2 >= target
        child = game.play(position, col)
        if child.moves >= game.cells:
            return target <= 0
        if kernel.can_win_next(child.current, child.mask, game.geometry.bottom,
                               game.geometry.board, game.height):
            return -((game.cells - child.moves + 1) // 2) >= target
        self.stats[kernel.S_ABORTED] = 0
        value = kernel.negamax(child.current, child.mask, child.moves, -target, -target + 1,
                               *self._args())
        return -value >= target

    def best_moves(self, position: Position, score: int) -> list[int]:
        """Every column that keeps the proved ``score``, centre first."""
        legal = self.game.order_moves(position, self.game.legal_moves(position))
        return [col for col in legal if self.achieves(position, col, score)]

    def principal_variation(self, position: Position, score: int | None = None) -> list[int]:
        """The best line from ``position`` to the end (each step keeps the exact score)."""
        game = self.game
        if score is None:
            score = self.solve(position).score
        line: list[int] = []
        while game.outcome(position) is None:
            assert score is not None
            col = next(c for c in game.order_moves(position, game.legal_moves(position))
                       if self.achieves(position, c, score))
            line.append(col)
            won = game.is_winning_move(position, col)
            position = game.play(position, col)
            if won:
                break
            score = -score
        return line
