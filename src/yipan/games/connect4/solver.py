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
        if not 16 <= table_bits <= 30:
            raise ValueError(f"table_bits must be 16..30, not {table_bits}")
        key_bits = g.width * (g.height + 1)
        low = 19 if flags & kernel.MULTIPLY_HASH else key_bits - kernel.KEY_BITS
        if table_bits < low:  # the stored check bits and the slot must pin the key down
            raise ValueError(f"table_bits must be at least {low} for this board and options")
        size = _prime_at_least(1 << table_bits)
        cells = self.game.cells
        min_score = -(cells // 2) + 3
        max_score = (cells + 1) // 2 - 3
        if g.width > kernel.F_SCORES - kernel.F_MOVES:
            raise ValueError(f"the solver handles boards up to 16 columns, not {g.width}")
        self.ctx = np.zeros(kernel.CTX_LEN, np.int64)
        self.ctx[[kernel.C_WIDTH, kernel.C_HEIGHT, kernel.C_BOTTOM, kernel.C_BOARD,
                  kernel.C_CELLS, kernel.C_MIN, kernel.C_MAX, kernel.C_FLAGS,
                  kernel.C_BOOK_DEPTH, kernel.C_SIZE, kernel.C_LIMIT]] = [
            g.width, g.height, g.bottom, g.board, cells, min_score, max_score, flags, -1, size,
            kernel.NO_LIMIT]
        self.ctx[kernel.C_SHIFT] = 64 - table_bits
        self.ctx[kernel.C_ORDER:kernel.C_ORDER + g.width] = self.game.center_order
        self.table = np.zeros(size, np.int64)
        self.table.fill(0)  # touch every page now, not one page fault per slot mid-search
        self.frames = np.zeros((cells + 2, kernel.FRAME_LEN), np.int64)
        self.book = np.zeros((2, 0), np.int64)
        self.total_nodes = 0  # over every search since the solver was made
        if book is not None:
            self.use_book(book)

    def use_book(self, book: object) -> None:
        """Probe ``book`` (an ``OpeningBook`` of this board size) during searches."""
        if (book.width, book.height) != (self.game.width, self.game.height):  # type: ignore
            raise ValueError("the book is for another board size")
        self.book = book.table  # type: ignore[attr-defined]
        self.ctx[kernel.C_BOOK_DEPTH] = book.depth  # type: ignore[attr-defined]

    def warm_up(self) -> None:
        """Load the compiled kernel now (numba's cache loads on the first call), so that
        the first timed solve does not pay for it."""
        self.ctx[kernel.C_LIMIT] = 1
        kernel.solve_fresh(0, 0, 0, False, *self._args())
        self.ctx[kernel.C_LIMIT] = kernel.NO_LIMIT
        self.ctx[kernel.C_PAUSED] = 0
        self.reset()

    @property
    def nodes(self) -> int:
        return int(self.ctx[kernel.C_NODES])

    def reset(self) -> None:
        kernel.tt_reset(self.ctx, self.table)

    def _args(self) -> tuple:
        return (self.ctx, self.table, self.frames, self.book)

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
        ctx = self.ctx
        ctx[kernel.C_NODES] = 0
        ctx[kernel.C_PAUSED] = 0
        ctx[kernel.C_LIMIT] = kernel.NO_LIMIT if node_limit is None else node_limit
        start = time.perf_counter()
        score = kernel.solve(position[0], position[1], position[2], weak, *self._args())
        seconds = time.perf_counter() - start
        self.total_nodes += self.nodes
        aborted = bool(ctx[kernel.C_PAUSED])
        ctx[kernel.C_LIMIT] = kernel.NO_LIMIT
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

    def achieves(self, position: Position, col: int, target: int,
                 node_limit: int | None = None) -> bool | None:
        """Whether ``col`` scores at least ``target`` (one null-window search); None when
        the node limit ran out first."""
        game = self.game
        if game.is_winning_move(position, col):
            return (game.cells + 1 - position.moves) // 2 >= target
        child = game.play(position, col)
        if child.moves >= game.cells:
            return target <= 0
        if kernel.can_win_next(child.current, child.mask, game.geometry.bottom,
                               game.geometry.board, game.height):
            return -((game.cells - child.moves + 1) // 2) >= target
        ctx = self.ctx
        ctx[kernel.C_PAUSED] = 0
        ctx[kernel.C_NODES] = 0
        ctx[kernel.C_LIMIT] = kernel.NO_LIMIT if node_limit is None else node_limit
        value = kernel.negamax(child.current, child.mask, child.moves, -target, -target + 1,
                               *self._args())
        ctx[kernel.C_LIMIT] = kernel.NO_LIMIT
        self.total_nodes += self.nodes
        if ctx[kernel.C_PAUSED]:
            self.reset()
            return None
        return -value >= target

    def best_moves(self, position: Position, score: int) -> list[int]:
        """Every column that keeps the proved ``score``, centre first."""
        legal = self.game.order_moves(position, self.game.legal_moves(position))
        return [col for col in legal if self.achieves(position, col, score)]

    def principal_variation(self, position: Position, score: int | None = None, *,
                            node_limit: int | None = None) -> list[int]:
        """The best line from ``position`` to the end (each step keeps the exact score).

        With ``node_limit`` (per null-window test), the line stops early where a step
        cannot be proved within it.
        """
        game = self.game
        if score is None:
            score = self.solve(position).score
        line: list[int] = []
        while game.outcome(position) is None:
            assert score is not None
            col = None
            for candidate in game.order_moves(position, game.legal_moves(position)):
                keeps = self.achieves(position, candidate, score, node_limit)
                if keeps is None:
                    return line  # out of nodes: the line so far is proved
                if keeps:
                    col = candidate
                    break
            assert col is not None, "no move keeps the proved score"
            line.append(col)
            won = game.is_winning_move(position, col)
            position = game.play(position, col)
            if won:
                break
            score = -score
        return line
