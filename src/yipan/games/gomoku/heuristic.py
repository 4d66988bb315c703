"""The fast engine's evaluation and move order, lent to the generic search
(``Gomoku.evaluate`` and ``Gomoku.order_moves``): a state is loaded onto a scratch board of
the numba kernels (``board``), read there, and taken off again at the next call.

It needs only the kernels, not ``engine`` (which builds on the rules), so the rules can use
it without an import circle. Points are ``y * size + x``; the kernels' cells are padded (see
``board``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .board import PAD, WIDTH, Board, evaluate, new_board, place, remove
from .context import Context, new_context
from .search import generate

SCRATCH_MEMORY = 1 << 16  # bytes of search memory: generate() needs its move lists only


@dataclass(slots=True)
class _Scratch:
    """A board and search memory for one size and rule, and the cells it holds stones on."""

    board: Board
    context: Context
    size: int
    width: int
    cells: list[int] = field(default_factory=list)

    def cell(self, point: int) -> int:
        y, x = divmod(point, self.size)
        return (y + PAD) * self.width + x + PAD

    def point(self, cell: int) -> int:
        y, x = divmod(int(cell), self.width)
        return (y - PAD) * self.size + (x - PAD)


_SCRATCH: dict[tuple[int, str], _Scratch] = {}
"""One scratch board per board size and rule, reloaded with each state it is asked about
(scratch space: nothing in it outlives a call)."""


def _loaded(size: int, rule: str, black: Sequence[int], white: Sequence[int]) -> _Scratch:
    scratch = _SCRATCH.get((size, rule))
    if scratch is None:
        board = new_board(size, rule)
        scratch = _SCRATCH[(size, rule)] = _Scratch(
            board, new_context(SCRATCH_MEMORY, board.cells.size), size, int(board.meta[WIDTH]))
    while scratch.cells:
        remove(scratch.board, scratch.cells.pop())
    for colour, points in enumerate((black, white)):
        for point in points:
            cell = scratch.cell(point)
            place(scratch.board, cell, colour)
            scratch.cells.append(cell)
    return scratch


def static_evaluation(size: int, rule: str, black: Sequence[int], white: Sequence[int],
                      to_move: int) -> float:
    """The fast engine's evaluation of the stones on the board, for ``to_move`` (0 black)."""
    return float(evaluate(_loaded(size, rule, black, white).board, to_move))


def ordered_points(size: int, rule: str, black: Sequence[int], white: Sequence[int],
                   to_move: int, moves: Sequence[int]) -> list[int]:
    """``moves`` with the fast engine's candidates first, in its order; the rest after."""
    scratch = _loaded(size, rule, black, white)
    count = generate(scratch.board, scratch.context, to_move, 1, -1)
    wanted = set(moves)
    first = [point for point in map(scratch.point, scratch.context.moves[1, :count])
             if point in wanted]
    chosen = set(first)
    return first + [p for p in moves if p not in chosen]
