"""Renju's forbidden moves for black, exactly, in plain Python (the ``Game``'s referee).

Black may not make a double three, a double four or an overline; a move that makes exactly
five is never forbidden (five takes precedence). The shapes, counted along one line through
the move ``p`` (``x`` black, ``o`` white or the edge, ``.`` empty)::

    five          . x x x x p .         exactly five in a row through p
    overline      x x x p x x           six or more through p
    four          x x p x .             one empty point makes exactly five through p
    straight four . x x p x .           four in a row, both ends make exactly five: ONE four
    four-four     x . x p x . x         two points each make a five: TWO fours on one line
    three         . x p x . .           one move (on this line) makes a straight four through
                                        p, and that move is not itself forbidden
    false three   o . x p x . x         its straight four would need a point that is forbidden

The three is where the definition recurses: "may black play the point that turns it into a
straight four?" is the same question one stone later. ``forbidden`` asks it to
``MAX_DEPTH`` nested levels (the move, the completing point of a three, the completing point
of a three made by that, ...); past that depth a completing point is taken as allowed, so the
deepest recursion ever seen in renju problems (three or four levels) is judged exactly.

Board layout: a flat list of ``(size + 2 * PAD) ** 2`` cells, a frame of ``PAD`` edge cells
around the board, so no scan along a line tests bounds::

    index of (x, y) = (y + PAD) * width + (x + PAD)      steps: 1, width, width + 1, width - 1
    cell codes: 0 empty, 1 black, 2 white, 3 edge
"""

from __future__ import annotations

from collections.abc import Sequence

EMPTY, BLACK, WHITE, EDGE = 0, 1, 2, 3
PAD = 6
MAX_DEPTH = 4

OVERLINE, DOUBLE_FOUR, DOUBLE_THREE = "overline", "double four", "double three"


class RenjuBoard:
    """Stones on a padded board; ``forbidden(x, y)`` judges a black move there."""

    def __init__(self, size: int, black: Sequence[tuple[int, int]],
                 white: Sequence[tuple[int, int]]) -> None:
        self.size = size
        self.width = width = size + 2 * PAD
        self.cells = [EDGE] * (width * width)
        for y in range(size):
            for x in range(size):
                self.cells[self.index(x, y)] = EMPTY
        for x, y in black:
            self.cells[self.index(x, y)] = BLACK
        for x, y in white:
            self.cells[self.index(x, y)] = WHITE
        self.steps = (1, width, width + 1, width - 1)

    def copy(self) -> RenjuBoard:
        """A board of its own (a check places stones for a while, then takes them back)."""
        board = object.__new__(RenjuBoard)
        board.size, board.width, board.steps = self.size, self.width, self.steps
        board.cells = list(self.cells)
        return board

    def index(self, x: int, y: int) -> int:
        return (y + PAD) * self.width + x + PAD

    # -- one line --------------------------------------------------------------------------------
    def run(self, q: int, step: int) -> tuple[int, int]:
        """The first and last index of the black run through ``q`` along ``step``."""
        cells = self.cells
        first = q
        while cells[first - step] == BLACK:
            first -= step
        last = q
        while cells[last + step] == BLACK:
            last += step
        return first, last

    def run_length(self, q: int, step: int) -> int:
        first, last = self.run(q, step)
        return (last - first) // step + 1

    def five_points(self, p: int, step: int) -> list[int]:
        """Empty points on the line that make exactly five through the black stone on ``p``."""
        cells = self.cells
        points = []
        for k in range(-4, 5):
            q = p + k * step
            if k and cells[q] == EMPTY:
                cells[q] = BLACK
                first, last = self.run(p, step)
                if (last - first) // step + 1 == 5:
                    points.append(q)
                cells[q] = EMPTY
        return points

    def fours(self, p: int, step: int) -> int:
        """How many fours through the black stone on ``p`` along ``step`` (a straight four
        is one four; two five points not at the ends of one run of four are two)."""
        points = self.five_points(p, step)
        if len(points) == 2:
            first, last = self.run(p, step)
            if (last - first) // step + 1 == 4 and sorted(points) == [first - step,
                                                                    last + step]:
                return 1
        return len(points)

    def straight_four(self, p: int, step: int) -> bool:
        """Whether the black stone on ``p`` is in a straight four along ``step``."""
        first, last = self.run(p, step)
        if (last - first) // step + 1 != 4:
            return False
        return len([q for q in self.five_points(p, step) if q in (first - step, last + step)]) == 2

    def three_points(self, p: int, step: int) -> list[int]:
        """Empty points on the line that make a straight four through ``p`` and themselves
        (legal or not); none on a line that already holds a four."""
        if self.five_points(p, step):
            return []
        cells = self.cells
        points = []
        for k in range(-3, 4):
            q = p + k * step
            if k and cells[q] == EMPTY:
                cells[q] = BLACK
                if self.straight_four(p, step):
                    first, last = self.run(p, step)
                    if min(first, last) <= q <= max(first, last):
                        points.append(q)
                cells[q] = EMPTY
        return points

    # -- the move ----------------------------------------------------------------------------------
    def forbidden_at(self, p: int, depth: int = MAX_DEPTH) -> str | None:
        """Why black may not play the empty point ``p`` (None if it may)."""
        cells = self.cells
        cells[p] = BLACK
        try:
            lengths = [self.run_length(p, step) for step in self.steps]
            if 5 in lengths:
                return None  # five takes precedence over every forbidden shape
            if max(lengths) >= 6:
                return OVERLINE
            if sum(self.fours(p, step) for step in self.steps) >= 2:
                return DOUBLE_FOUR
            candidates = [points for points in (self.three_points(p, step)
                                                for step in self.steps) if points]
            if len(candidates) < 2:
                return None
            threes = 0
            for points in candidates:
                if any(depth <= 1 or self.forbidden_at(q, depth - 1) is None for q in points):
                    threes += 1
            return DOUBLE_THREE if threes >= 2 else None
        finally:
            cells[p] = EMPTY

    def forbidden(self, x: int, y: int) -> str | None:
        """Why black may not play (x, y), which must be empty (None if it may)."""
        return self.forbidden_at(self.index(x, y))
