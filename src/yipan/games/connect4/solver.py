"""The Python side of the Connect Four solver: a thin wrapper that owns the kernel's arrays.

``Solver(game).solve(position)`` gives the exact score in the shared benchmark's convention
(side to move; ``(cells + 1 - moves) // 2`` for a win on the next move; 0 a draw);
``analyze`` scores every column and ``principal_variation`` follows the best line.
One ``Solver`` holds one transposition table; it is not shared between threads.

``solve_within(position, budget)`` is the same search under a ``Budget`` (a deadline, a node
count, a stop flag): the kernel runs in slices of ``SLICE_NODES``, pausing between them so the
clock and the flag are read, and returns the best bounds proved when the budget runs out
(a paused search leaves only sound bounds in the table, so nothing need be cleared).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from . import kernel
from .rules import ConnectFour, Position

DEFAULT_TABLE_BITS = 23
SLICE_NODES = 1 << 17  # between two looks at the clock: about 20 ms on this kind of machine


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
    """One solve: the score (None if the budget ran out first), nodes, seconds, and the
    bounds proved (``low <= score <= high``; equal once the score is known)."""

    score: int | None
    nodes: int
    seconds: float
    low: int = -1000
    high: int = 1000


@dataclass(frozen=True, slots=True)
class Budget:
    """When a limited search stops: at ``deadline`` (``time.perf_counter()`` seconds), after
    ``nodes`` nodes, or when ``stop()`` says so; None: never."""

    deadline: float | None = None
    nodes: int | None = None
    stop: Callable[[], bool] | None = None
    clock: Callable[[], float] = time.perf_counter  # or time.process_time: CPU seconds

    @classmethod
    def of(cls, seconds: float | None = None, nodes: int | None = None,
           stop: Callable[[], bool] | None = None,
           clock: Callable[[], float] = time.perf_counter) -> Budget:
        deadline = None if seconds is None else clock() + seconds
        return cls(deadline, nodes, stop, clock)

    def share(self, parts: int, used_nodes: int = 0) -> Budget:
        """One of ``parts`` equal shares of what is left (after ``used_nodes`` nodes)."""
        now = self.clock()
        deadline = None if self.deadline is None else \
            now + max(0.0, self.deadline - now) / parts
        nodes = None if self.nodes is None else max(0, self.nodes - used_nodes) // parts
        return Budget(deadline, nodes, self.stop, self.clock)

    def spent(self, nodes: int) -> bool:
        return (self.nodes is not None and nodes >= self.nodes) \
            or (self.deadline is not None and self.clock() >= self.deadline) \
            or (self.stop is not None and self.stop())


UNLIMITED = Budget()


@dataclass(frozen=True)
class Packed:
    """Positions as arrays for the batch kernel."""

    currents: np.ndarray
    masks: np.ndarray
    moves: np.ndarray


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
        self.slice_nodes = SLICE_NODES  # a limited search looks at the clock this often
        if book is not None:
            self.use_book(book)

    def use_book(self, book: object) -> None:
        """Probe ``book`` (an ``OpeningBook`` of this board size) during searches."""
        if (book.width, book.height) != (self.game.width, self.game.height):  # type: ignore
            raise ValueError("the book is for another board size")
        self.book = book.table  # type: ignore[attr-defined]
        self.ctx[kernel.C_BOOK_DEPTH] = book.depth  # type: ignore[attr-defined]

    def warm_up(self) -> None:
        """Load the compiled kernels now (numba's cache loads on the first call), so that
        the first timed solve does not pay for it: a search paused at once, then resumed."""
        self.ctx[kernel.C_NODES] = 0
        self.ctx[kernel.C_LIMIT] = 1
        kernel.solve_fresh(0, 0, 0, False, *self._args())
        self.ctx[kernel.C_LIMIT] = 2
        kernel.resume(*self._args())
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

    def solve_many(self, positions: Sequence[Position] | Packed, weak: bool = False
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Scores and node counts of ``positions``, each with an emptied table, in one kernel
        call: a batch file's loop without a Python call per position. ``pack`` them first
        to keep the conversion out of a timing."""
        packed = positions if isinstance(positions, Packed) else self.pack(positions)
        scores = np.zeros(len(packed.moves), np.int64)
        nodes = np.zeros(len(packed.moves), np.int64)
        kernel.solve_many(packed.currents, packed.masks, packed.moves, weak, *self._args(),
                          scores, nodes)
        self.total_nodes += int(nodes.sum())
        return scores, nodes

    def pack(self, positions: Sequence[Position]) -> Packed:
        """Positions as the batch kernel takes them (checked: none may be over). Every
        board fits in 63 bits (``rules.MAX_BITS``), so int64 holds them."""
        for position in positions:
            self._check_not_over(position)
        currents, masks, moves = (np.array([p[i] for p in positions], np.int64)
                                  for i in range(3))
        return Packed(currents, masks, moves)

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
        aborted = bool(ctx[kernel.C_PAUSED])  # paused: the table holds only sound bounds
        ctx[kernel.C_LIMIT] = kernel.NO_LIMIT
        return Solved(None if aborted else int(score), self.nodes, seconds)

    def _check_not_over(self, position: Position) -> None:
        if self.game.outcome(position) not in (None,) and position.moves < self.game.cells:
            raise ValueError("the game is already won; there is nothing to solve")

    def score_range(self, moves: int) -> tuple[int, int]:
        """The lowest and highest scores a position after ``moves`` plies can have."""
        cells = self.game.cells
        return -((cells - moves) // 2), (cells + 1 - moves) // 2

    def null_window(self, position: Position, alpha: int, budget: Budget = UNLIMITED
                    ) -> int | None:
        """``negamax`` at ``(alpha, alpha + 1)`` run in slices under ``budget`` (None when it
        runs out). The position must not be won at once by the side to move. Nodes add up in
        ``self.nodes`` (reset by the caller)."""
        ctx, args = self.ctx, self._args()

        def next_pause() -> int:
            step = self.slice_nodes if budget.nodes is None else \
                max(1, min(self.slice_nodes, budget.nodes - self.nodes))
            return self.nodes + step

        ctx[kernel.C_LIMIT] = next_pause()
        value = kernel.negamax(position[0], position[1], position[2], alpha, alpha + 1, *args)
        while ctx[kernel.C_PAUSED]:
            if budget.spent(self.nodes):
                ctx[kernel.C_LIMIT] = kernel.NO_LIMIT
                return None
            ctx[kernel.C_LIMIT] = next_pause()
            value = kernel.resume(*args)
        ctx[kernel.C_LIMIT] = kernel.NO_LIMIT
        return int(value)

    def book_score(self, position: Position) -> int | None:
        """The exact score the opening book gives ``position``, if it holds it."""
        if self.ctx[kernel.C_BOOK_DEPTH] < position.moves:
            return None
        known = kernel.book_lookup(self.game.key(position), self.book)
        return None if known == kernel.UNKNOWN else int(known)

    def solve_within(self, position: Position, budget: Budget = UNLIMITED, *,
                     weak: bool = False, window: tuple[int, int] | None = None,
                     at_least: int | None = None,
                     progress: Callable[[int, int], None] | None = None) -> Solved:
        """The score (its sign when ``weak``) under ``budget``, else the bounds proved.

        ``at_least``: a lower bound on the score known from elsewhere (a child of a position
        the book knows scores at least minus the parent's score), so not asked again.

        With ``window = (a, b)`` (``a < b``), only the questions "score >= b?", "score <= a?"
        and those beyond them are asked: a score strictly inside is reported as bounds.
        ``progress(low, high)`` hears every narrowing. The table is kept (not emptied).
        """
        self._check_not_over(position)
        game, g = self.game, self.game.geometry
        start = time.perf_counter()
        self.ctx[kernel.C_NODES] = 0
        low, high = self.score_range(position.moves)
        if position.moves >= game.cells:
            low = high = 0
        elif kernel.can_win_next(position.current, position.mask, g.bottom, g.board,
                                 game.height):
            low = high
        elif (known := self.book_score(position)) is not None:
            low = high = known
        if at_least is not None and low < high:
            low = min(max(low, at_least), high)
        if weak and low < high:
            low, high = max(low, -1), min(high, 1)
        while low < high:
            middle = _probe_point(low, high)
            if window is not None and window[0] < middle < window[1] - 1:
                asked = [m for m in (window[1] - 1, window[0]) if low <= m < high]
                if not asked:
                    break  # the score lies strictly inside the window: nothing more asked
                middle = asked[0]
            value = self.null_window(position, middle, budget)
            if value is None:
                break
            if value <= middle:
                high = value
            else:
                low = value
            if progress is not None:
                progress(low, high)
        self.total_nodes += self.nodes
        if weak:
            low, high = _sign_bound(low), _sign_bound(high)
        score = low if low == high else None
        return Solved(score, self.nodes, time.perf_counter() - start, low, high)

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
                 node_limit: int | None = None, budget: Budget | None = None) -> bool | None:
        """Whether ``col`` scores at least ``target`` (one null-window search); None when
        the node limit or the budget ran out first."""
        game = self.game
        if game.is_winning_move(position, col):
            return (game.cells + 1 - position.moves) // 2 >= target
        child = game.play(position, col)
        if child.moves >= game.cells:
            return target <= 0
        if kernel.can_win_next(child.current, child.mask, game.geometry.bottom,
                               game.geometry.board, game.height):
            return -((game.cells - child.moves + 1) // 2) >= target
        self.ctx[kernel.C_NODES] = 0
        if budget is None:
            budget = Budget(nodes=node_limit)
        value = self.null_window(child, -target, budget)
        self.total_nodes += self.nodes
        return None if value is None else -value >= target

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


def _probe_point(low: int, high: int) -> int:
    """Where the next null window goes: near 0 first, then halfway toward the bounds (as
    the kernel's ``solve``)."""
    middle = low + (high - low) // 2
    if middle <= 0 and kernel.half_toward_zero(low) < middle:
        middle = kernel.half_toward_zero(low)
    elif middle >= 0 and kernel.half_toward_zero(high) > middle:
        middle = kernel.half_toward_zero(high)
    return middle


def _sign_bound(value: int) -> int:
    return (value > 0) - (value < 0)
