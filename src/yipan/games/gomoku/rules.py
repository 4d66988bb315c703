"""The rules of Gomoku (five in a row) on a square board, as a ``Game`` over bitboards.

Coordinates follow the Gomocup protocol: ``x`` is the column (0 at the left), ``y`` the row
(0 at the top). A move is the point ``y * size + x``. Players write it as renju notation does:
the column letter (``a`` = x 0, no letter skipped) and the row number counted *from the
bottom*, starting at 1, so ``a1`` is the bottom-left corner and ``h8`` the centre of a 15x15
board. Gomocup's own ``x,y`` (0-based, y from the top, as the protocol and Piskvork give it)
is read too: on 15x15, ``7,7`` is ``h8`` and ``0,0`` is ``a15``. Neither form can be taken for
the other (a letter first, or two numbers and a comma), so both are accepted everywhere::

    15x15      a  b  c ... o          x,y (Gomocup)     a1..o15 (renju)
        15     .  .  .     .          0,0  top-left     a15
         8     .  .  .     .          7,7  centre       h8
         1     .  .  .     .          0,14 bottom-left  a1

State encoding: two bitboards, black's stones (the first player) and white's, in the layout
of ``yipan.games.grid``: row-major, with one empty sentinel column on the right, so a shift
never carries a line across the board's edge::

    bit of (x, y) = y * (size + 1) + x          5x5 board, stride 6
                                                 0  1  2  3  4 | 5
    A run of five along direction d              6  7  8  9 10 | 11
    (1 across, stride down, stride + 1 and      12 13 14 15 16 | 17
    stride - 1 diagonally) starts wherever       ...
    b & b>>d & b>>2d & b>>3d & b>>4d  is set.

Rules (the option ``rule``), as the Gomocup leagues play them:

- ``freestyle``: five or more in a row wins;
- ``standard``: exactly five wins (an overline of six or more does not);
- ``renju``: black wins only with exactly five and may not play a double three, a double four
  or an overline (the exact check: ``renju``); white wins with five or more;
- ``caro``: five or more wins unless the opponent's stones block it at both ends (the board's
  edge blocks nothing); ``caro-exact``: the same with exactly five.

A full board with no five is a draw (and so, under renju, is black to move with every empty
point forbidden).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ...core import (
    DRAW,
    Game,
    GameInfo,
    GameOptionError,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
)
from ...core.drawing import notebook_html
from ...core.text import is_digits, quote
from ..grid import MAX_MOVE_TEXT, Grid, grid_view, render_board
from .renju import RenjuBoard

RULES = ("freestyle", "standard", "renju", "caro", "caro-exact")
MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 7, 22, 15
CACHED_STATES = 64
XY_OR_WORD = r"\d+\s*,\s*\d+|[^\s,]+"  # a Gomocup pair "7,7" (spaces allowed), else a word


class Stones(NamedTuple):
    """Black's stones (who moves first) and white's, as bitboards (layout in the module doc)."""

    black: int
    white: int

    def _repr_html_(self) -> str:
        """Drawn in a notebook (on the default 15x15 board)."""
        return notebook_html("gomoku", self)


class Gomoku(Game[Stones, int]):
    """Gomoku: players alternately place a stone; five in a row (by ``rule``) wins."""

    player_names = ("black", "white")
    notation_help = ("points written as renju writes them, column letter then row counted "
                     "from the bottom (a1 the bottom-left corner, h8 the centre of 15x15), or "
                     "as Gomocup's x,y from 0 with y counted from the top (7,7)")

    def __init__(self, size: int = DEFAULT_SIZE, rule: str = "freestyle") -> None:
        size = int(size)
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GameOptionError(f"board size {size} is out of range ({MIN_SIZE}..{MAX_SIZE})")
        if rule not in RULES:
            raise GameOptionError(f"unknown rule {rule!r} (rules: {', '.join(RULES)})")
        self.size = size
        self.rule = rule
        self.renju = rule == "renju"
        self.caro = rule in ("caro", "caro-exact")
        # whether only exactly five wins, for black and for white
        self.exact = (rule in ("standard", "renju", "caro-exact"),
                      rule in ("standard", "caro-exact"))
        self.grid = Grid.of(size, size, rows_from_top=False)  # renju's a1: bottom-left
        self.stride = self.grid.stride
        self.full = self.grid.full
        self.directions = self.grid.directions
        self._bits = self.grid.cells  # the bit of each point: point y * size + x is cell (y, x)
        self._bit_index = np.array(self._bits, np.int64)
        # renju's checks of the states last asked about (scratch: a state's answers never change)
        self._suspects: dict[Stones, int] = {}
        self._renju_boards: dict[Stones, RenjuBoard] = {}
        self.info = GameInfo(
            name="gomoku",
            title=f"Gomoku {size}x{size} ({rule})",
            heuristic=True,
            move_ordering=True,
            grid=(size, size),
            max_moves=size * size,
            encoding=(2, size, size),
            actions=size * size,
        )

    # -- geometry ------------------------------------------------------------------------------
    def point(self, x: int, y: int) -> int:
        return y * self.size + x

    def xy(self, point: int) -> tuple[int, int]:
        """(x, y) of a point: column from the left, row from the top (Gomocup's order)."""
        y, x = divmod(point, self.size)
        return x, y

    def bit(self, point: int) -> int:
        return self._bits[point]

    def stones_of(self, state: Stones, player: int) -> int:
        return state.black if player == 0 else state.white

    # -- rules ---------------------------------------------------------------------------------
    def initial_state(self) -> Stones:
        return Stones(0, 0)

    def to_move(self, state: Stones) -> int:
        return 0 if state.black.bit_count() == state.white.bit_count() else 1

    def legal_moves(self, state: Stones) -> list[int]:
        if self.outcome(state) is not None:
            return []
        taken = state.black | state.white
        moves = [p for p, bit in enumerate(self._bits) if not taken >> bit & 1]
        if self.renju and self.to_move(state) == 0:
            suspects = self.renju_suspects(state)
            if suspects:
                board = self.renju_board(state)
                moves = [p for p in moves if not suspects >> self._bits[p] & 1
                         or board.forbidden(*self.xy(p)) is None]
        return moves

    def play(self, state: Stones, move: int) -> Stones:
        black, white = state
        if black.bit_count() == white.bit_count():
            return Stones(black | 1 << self._bits[move], white)
        return Stones(black, white | 1 << self._bits[move])

    # -- for networks ----------------------------------------------------------------------------
    def encode(self, state: Stones) -> np.ndarray:
        """Two planes of ``size x size`` (row 0 at the top): the side to move's stones, then
        the opponent's."""
        mine, theirs = (state.black, state.white) if self.to_move(state) == 0 \
            else (state.white, state.black)
        return np.stack([self._plane(mine), self._plane(theirs)])

    def _plane(self, stones: int) -> np.ndarray:
        nbytes = (self.size * (self.size + 1) + 7) // 8
        bits = np.unpackbits(np.frombuffer(stones.to_bytes(nbytes, "little"), np.uint8),
                             bitorder="little")
        return bits[self._bit_index].astype(np.float32).reshape(self.size, self.size)

    def move_index(self, state: Stones, move: int) -> int:
        """A move is its point ``y * size + x``: policy output ``move``."""
        return move

    # -- fives ---------------------------------------------------------------------------------
    def fives(self, state: Stones, player: int, direction: int) -> int:
        """The start bits of ``player``'s fives along ``direction`` that win by the rule.

        A five starts at bit s when s, s+d, ..., s+4d hold stones; the points beside it are
        s-d (the bit ``opponent << d`` has at s) and s+5d (``opponent >> 5d``)::

            s-d   s   s+d  s+2d  s+3d  s+4d   s+5d
             o    x    x    x     x     x      o      caro: blocked at both ends
        """
        d = direction
        stones, other = (state.black, state.white) if player == 0 else (state.white,
                                                                         state.black)
        runs = self.grid.runs
        fives = runs(stones, 5, d)
        if not fives:
            return 0
        if self.exact[player]:
            sixes = runs(stones, 6, d)
            # a five starting at s belongs to an overline if a six starts at s or at s - d
            fives &= ~sixes & ~(sixes << d)
            if self.caro:
                fives &= ~(other << d) | ~(other >> 5 * d)
            return fives
        if self.caro:
            # a run of five or more wins when one of its ends is open: the five at the run's
            # start with no opponent before it, or the five at its end with none after it
            starts = fives & ~(stones << d) & ~(other << d)
            ends = fives & ~(stones >> 5 * d) & ~(other >> 5 * d)
            return starts | ends
        return fives

    def has_five(self, stones: int, player: int = 0, other: int = 0) -> bool:
        """Whether ``player``'s ``stones`` hold a winning five (``other``: the opponent's
        stones, which matter under caro)."""
        if not self.exact[player] and not self.caro:
            return self.grid.has_run(stones, 5)
        state = Stones(stones, other) if player == 0 else Stones(other, stones)
        return any(self.fives(state, player, d) for d in self.directions)

    def five_cells(self, state: Stones, player: int) -> int:
        """Every stone of ``player``'s winning fives (the whole overline, where it wins)."""
        stones = self.stones_of(state, player)
        cells = 0
        for d in self.directions:
            line = self.grid.spread(self.fives(state, player, d), 5, d)
            while line:  # grow along the line over own stones (an overline that wins)
                grown = line | ((line << d) | (line >> d)) & stones
                if grown == line:
                    break
                line = grown
            cells |= line
        return cells

    def outcome(self, state: Stones) -> Outcome | None:
        black, white = state
        if self.has_five(black, 0, white):
            return Outcome(0)
        if self.has_five(white, 1, black):
            return Outcome(1)
        if black | white == self.full:
            return DRAW
        if self.renju and self.to_move(state) == 0 and self._black_is_stuck(state):
            return DRAW
        return None

    # -- renju ---------------------------------------------------------------------------------
    def renju_suspects(self, state: Stones) -> int:
        """Empty points where a black stone might be forbidden (a superset, by counting):
        an overline or a four-four on one line needs four black stones within five points
        on that line; a double three or a double four needs two lines with two black stones
        each within four points. Only these points get the exact check."""
        cached = self._suspects.get(state)
        if cached is None:
            if len(self._suspects) > CACHED_STATES:
                self._suspects.clear()
            cached = self._suspects[state] = self._count_suspects(state)
        return cached

    def _count_suspects(self, state: Stones) -> int:
        black = state.black
        empty = self.full & ~(black | state.white)
        pairs = [self._near(black, d, reach=4, count=2) for d in self.directions]
        crowded = 0
        for d in self.directions:
            crowded |= self._near(black, d, reach=5, count=4)
        two_lines = 0
        for i in range(4):
            for j in range(i + 1, 4):
                two_lines |= pairs[i] & pairs[j]
        return empty & (crowded | two_lines)

    def _near(self, stones: int, d: int, reach: int, count: int) -> int:
        """Points with ``count`` or more of ``stones`` within ``reach`` points along the line
        ``d`` (both ways): a bit-sliced counter, ``at_least[i]`` holding "i + 1 or more";
        one step a shift, masked so that no shift crosses an edge (layout: ``grid``)."""
        full = self.full
        at_least = [0] * count
        for forward in (True, False):
            near = stones
            for _ in range(reach):
                near = (near >> d if forward else near << d) & full
                for i in range(count - 1, 0, -1):
                    at_least[i] |= at_least[i - 1] & near
                at_least[0] |= near
        return at_least[-1]

    def renju_board(self, state: Stones) -> RenjuBoard:
        """The stones on a ``RenjuBoard`` of the caller's own (copied from one kept for the
        last few states asked about: a Game may serve several threads at once)."""
        board = self._renju_boards.get(state)
        if board is None:
            if len(self._renju_boards) > CACHED_STATES:
                self._renju_boards.clear()
            board = self._renju_boards[state] = self._new_renju_board(state)
        return board.copy()

    def _new_renju_board(self, state: Stones) -> RenjuBoard:
        points = range(self.size * self.size)
        black = [self.xy(p) for p in points if state.black >> self._bits[p] & 1]
        white = [self.xy(p) for p in points if state.white >> self._bits[p] & 1]
        return RenjuBoard(self.size, black, white)

    def forbidden(self, state: Stones, move: int) -> str | None:
        """Why black may not play ``move`` under renju (None when it may, or no renju)."""
        if not self.renju or self.to_move(state) != 0:
            return None
        if not self.renju_suspects(state) >> self._bits[move] & 1:
            return None
        return self.renju_board(state).forbidden(*self.xy(move))

    def _black_is_stuck(self, state: Stones) -> bool:
        """Black to move and every empty point forbidden (checked only when every empty
        point is a suspect, so almost never)."""
        empty = self.full & ~(state.black | state.white)
        if empty & ~self.renju_suspects(state):
            return False
        board = self.renju_board(state)
        return all(board.forbidden(*self.xy(p)) is not None
                   for p, bit in enumerate(self._bits) if empty >> bit & 1)

    def is_legal(self, state: Stones, move: int) -> bool:
        """An empty point of the board, not forbidden (the game not being over)."""
        return (isinstance(move, int) and 0 <= move < self.size * self.size
                and not (state.black | state.white) >> self._bits[move] & 1
                and self.forbidden(state, move) is None)

    def play_checked(self, state: Stones, move: int) -> Stones:
        if not (isinstance(move, int) and 0 <= move < self.size * self.size):
            raise InvalidMoveError(f"{move!r} is not a point of this board")
        if (state.black | state.white) >> self.bit(move) & 1:
            raise IllegalMoveError(f"point {self.format_move(move)} is taken")
        if self.outcome(state) is None:
            reason = self.forbidden(state, move)
            if reason is not None:
                raise IllegalMoveError(f"{self.format_move(move)} is forbidden to black under "
                                       f"renju: it makes a {reason}")
        return super().play_checked(state, move)

    # -- notation ------------------------------------------------------------------------------
    def format_move(self, move: int) -> str:
        x, y = self.xy(move)
        return self.grid.format(y, x)

    def parse_move(self, state: Stones | None, text: str) -> int:
        """``h8`` (column letter, row number from the bottom, as renju notation writes it) or
        Gomocup's ``7,7`` (0-based x,y, y from the top): the module doc draws both."""
        text = text.strip()
        if "," in text:
            return self.parse_xy(text)
        row, col = self.grid.parse(text, noun="point", also=" or Gomocup's x,y")
        return self.point(col, row)

    def parse_xy(self, text: str) -> int:
        """Gomocup's ``x,y``: 0-based, x the column from the left, y the row from the top."""
        parts = [part.strip() for part in text.split(",")]
        last = self.size - 1
        if not (len(text) <= MAX_MOVE_TEXT and len(parts) == 2 and all(map(is_digits, parts))):
            raise InvalidMoveError(f"cannot read {quote(text)}: a Gomocup point is x,y "
                                   f"(0,0..{last},{last})")
        x, y = (int(part) for part in parts)
        if not (x <= last and y <= last):
            raise InvalidMoveError(f"{text} is off the board (x,y from 0,0 to {last},{last})")
        return self.point(x, y)

    def split_moves(self, text: str) -> list[str]:
        """A typed move list: points apart by spaces or commas (``h8 i9``, ``h8,i9``), Gomocup's
        pairs kept whole (``7,7 8,8``)."""
        return re.findall(XY_OR_WORD, text)

    def cell(self, state: Stones, x: int, y: int) -> int | None:
        """The player (0 black, 1 white) whose stone is on (x, y), or None."""
        bit = y * self.stride + x
        return 0 if state.black >> bit & 1 else 1 if state.white >> bit & 1 else None

    def render(self, state: Stones) -> str:
        return render_board(self.grid, self.grid.owners(*state), "XO")

    def view(self, state: Stones) -> dict:
        """The grid of stones; the winning five highlighted; playable: the empty points,
        less black's forbidden ones under renju, which ``forbidden`` lists with the reason."""
        outcome = self.outcome(state)
        playable = self.full & ~(state.black | state.white) if outcome is None else 0
        if playable and self.renju and self.to_move(state) == 0:  # not black's forbidden points
            playable = sum(1 << self._bits[p] for p in self.legal_moves(state))
        winner = None if outcome is None else outcome.winner
        highlight = 0 if winner is None else self.five_cells(state, winner)
        view = grid_view(self.grid, self.grid.owners(*state), playable=playable,
                         pieces="stones", highlight=highlight)
        if outcome is None and self.renju and self.to_move(state) == 0:
            view["forbidden"] = self.forbidden_points(state)
        return view

    def forbidden_points(self, state: Stones) -> list[list[Any]]:
        """Black's forbidden points under renju, ``[[row, col, "double three"], ...]``: the page
        marks them and says why a click there plays nothing."""
        suspects = self.renju_suspects(state)
        if not suspects:
            return []
        taken = state.black | state.white
        board = self.renju_board(state)
        points = []
        for point, bit in enumerate(self._bits):
            if taken >> bit & 1 or not suspects >> bit & 1:
                continue
            reason = board.forbidden(*self.xy(point))
            if reason is not None:
                points.append([*self.grid.coordinates(bit), reason])
        return points

    # -- heuristic and ordering, for the generic search (the fast engine has its own) ----------
    def evaluate(self, state: Stones) -> float:
        """The pattern evaluation of the fast engine, for the side to move."""
        from .heuristic import static_evaluation

        return static_evaluation(self.size, self.rule, *self._points(state),
                                 self.to_move(state))

    def order_moves(self, state: Stones, moves: Sequence[int]) -> list[int]:
        """Points near stones first, by the fast engine's threat score; far points after."""
        from .heuristic import ordered_points

        return ordered_points(self.size, self.rule, *self._points(state),
                              self.to_move(state), moves)

    def _points(self, state: Stones) -> tuple[list[int], list[int]]:
        """Black's and white's stones as points, in increasing order."""
        points = range(self.size * self.size)
        return ([p for p in points if state.black >> self._bits[p] & 1],
                [p for p in points if state.white >> self._bits[p] & 1])
