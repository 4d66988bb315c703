"""The rules of Go (围棋) as a ``Game``: any square board from 5x5 to 19x19, captures, suicide
forbidden, positional superko, passes (two in a row end the game), area scoring
(Tromp-Taylor) with komi, fixed handicap stones.

State encoding: two bitboards in the layout of ``yipan.games.grid`` (row-major from the top,
one empty sentinel column on the right, so a shift never carries a group across an edge), the
side to move, the passes just played, the prisoners each side has taken, the Zobrist key of
the board and the keys of every board the game has shown (for positional superko)::

    5x5, stride 6                 the neighbours of bit p: p - 1, p + 1, p - 6, p + 6
       a  b  c  d  e              (a shift onto the sentinel or off the ends is dropped by
    5  0  1  2  3  4 | 5           ``& full``, so ``dilate`` grows a set of points by one
    4  6  7  8  9 10 | 11          step on the board and never past its edge)
    3 12 13 14 15 16 | 17
    2 18 19 20 21 22 | 23         a group:    flood(stone, own stones)
    1 24 25 26 27 28 | 29         liberties:  dilate(group) & empty

Moves are points ``row * size + col`` (row 0 at the top, as the bits) or ``PASS``; they are
written as Go writes them: the column letter without ``i`` and the row counted from the
bottom (``D4``, ``Q16``), or ``pass``.

The Zobrist key of a stone is ``zobrist(row, col, colour)``, a splitmix64 of its place and
colour; the kernel (``board.py``) computes the very same keys, so a key of these rules and one
of the engine's board can be compared.

Scoring (Tromp-Taylor): a player's area is their stones and the empty points that reach only
their stones through empty points; black's area less white's less komi decides. Dead stones
are not removed by the rules: the players capture them before passing (``scoring.py``
estimates them, for GTP's ``final_score`` and a game ended early).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

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
from ...core.text import quote
from ..grid import MAX_MOVE_TEXT, Grid

MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 5, 19, 9
DEFAULT_KOMI = 7.5
MAX_KOMI = 400.0  # more than any board's area: a larger number is a typing error
PASS = -1
BLACK, WHITE = 0, 1
MASK64 = (1 << 64) - 1


def splitmix64(x: int) -> int:
    """One step of splitmix64 (Steele, Lea and Flood): a well-mixed 64-bit word of ``x``."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def zobrist(row: int, col: int, colour: int) -> int:
    """The Zobrist key of a stone of ``colour`` (0 black, 1 white) on (row, col)."""
    return splitmix64(((row * 32 + col) << 1 | colour) + 1)


def star_points(size: int) -> list[tuple[int, int]]:
    """The hoshi as (row, col), row 0 at the top: the corners' points on the third line
    (boards below 13) or the fourth, the centre of an odd board, the sides' middles from 15."""
    if size < 7:
        return [(size // 2, size // 2)] if size % 2 else []
    edge = 3 if size >= 13 else 2
    lines = [edge, size - 1 - edge]
    if size % 2 and size >= 15:
        lines.insert(1, size // 2)
    points = [(r, c) for r in lines for c in lines]
    if size % 2 and (size // 2, size // 2) not in points:
        points.append((size // 2, size // 2))
    return sorted(points)


def handicap_points(size: int, stones: int) -> list[tuple[int, int]]:
    """GTP's fixed handicap placement (protocol 2, section 4.1.1) as (row, col), row 0 at the
    top: 2 to 9 stones on odd boards from 9x9, at most 4 on 7x7 and on even boards."""
    if stones == 0:
        return []
    most = 0 if size < 7 else 4 if size == 7 or size % 2 == 0 else 9
    if not 2 <= stones <= most:
        raise GameOptionError(f"a {size}x{size} board takes a fixed handicap of "
                              + (f"2 to {most} stones" if most else "no stones")
                              + f", not {stones}")
    edge = 3 if size >= 13 else 2
    low, high, middle = edge, size - 1 - edge, size // 2
    # (col, row from the bottom), in GTP's order: D4 Q16 D16 Q4, then centre, sides, ...
    bottom_left, top_right, top_left, bottom_right = (low, low), (high, high), (low, high), \
        (high, low)
    corners = [bottom_left, top_right, top_left, bottom_right][:min(stones, 4)]
    if stones == 3:
        corners = [bottom_left, top_right, top_left]
    extra: list[tuple[int, int]] = []
    centre = (middle, middle)
    sides_lr = [(low, middle), (high, middle)]
    sides_tb = [(middle, low), (middle, high)]
    if stones == 5:
        extra = [centre]
    elif stones == 6:
        extra = sides_lr
    elif stones == 7:
        extra = [*sides_lr, centre]
    elif stones == 8:
        extra = [*sides_lr, *sides_tb]
    elif stones == 9:
        extra = [*sides_lr, *sides_tb, centre]
    return [(size - 1 - row, col) for col, row in [*corners, *extra]]


def parse_komi(text: str) -> float:
    """Komi written as a decimal number (``7.5``, ``-3``, ``0.5``): ASCII, short, finite."""
    text = str(text).strip()
    body = text[1:] if text[:1] in "+-" else text
    whole, _, fraction = body.partition(".")
    if not (text.isascii() and len(text) <= 12 and (whole or fraction)
            and (not whole or whole.isdigit()) and (not fraction or fraction.isdigit())):
        raise ValueError(f"komi must be a number such as 7.5, not {quote(text)}")
    komi = float(text)
    if not (math.isfinite(komi) and abs(komi) <= MAX_KOMI):
        raise ValueError(f"komi must be within -{MAX_KOMI:g}..{MAX_KOMI:g}, not {text}")
    return komi


class Position(NamedTuple):
    """A Go position (the encoding is drawn in the module docstring)."""

    black: int  # black's stones, a bitboard
    white: int  # white's stones
    to_move: int  # BLACK (0) or WHITE (1)
    passes: int  # passes played in a row just before this position (2 ends the game)
    black_prisoners: int  # white stones black has captured
    white_prisoners: int  # black stones white has captured
    key: int  # the board's Zobrist key: XOR of zobrist() of every stone
    history: frozenset[int]  # the keys of every board of the game so far, this one included

    def _repr_html_(self) -> str:
        """Drawn in a notebook (on the default 9x9 board)."""
        return notebook_html("go", self)


class Go(Game[Position, int]):
    """Go on a ``size`` x ``size`` board with area scoring, ``komi`` and ``handicap`` stones."""

    player_names = ("black", "white")

    def __init__(self, size: int = DEFAULT_SIZE, komi: float = DEFAULT_KOMI,
                 handicap: int = 0) -> None:
        size, handicap = int(size), int(handicap)
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GameOptionError(f"board size {size} is out of range ({MIN_SIZE}..{MAX_SIZE})")
        komi = float(komi)
        if not (math.isfinite(komi) and abs(komi) <= MAX_KOMI):
            raise GameOptionError(f"komi {komi} is out of range")
        self.size = size
        self.komi = komi
        self.handicap = handicap
        self.grid = Grid.of(size, size, skip_i=True, rows_from_top=False)
        self.stride = self.grid.stride
        self.full = self.grid.full
        self.points = size * size
        self.bits = self.grid.cells  # the bit of each point (row * size + col)
        self.point_of_bit = {bit: point for point, bit in enumerate(self.bits)}
        self.keys = tuple((zobrist(p // size, p % size, BLACK), zobrist(p // size, p % size,
                                                                         WHITE))
                          for p in range(self.points))
        self.neighbours = tuple(self._neighbours(p) for p in range(self.points))
        self.hoshi = star_points(size)
        self.handicap_stones = handicap_points(size, handicap)
        self.info = GameInfo(
            name="go",
            title=f"Go {size}x{size} (komi {komi:g}" + (f", handicap {handicap})" if handicap
                                                        else ")"),
            grid=(size, size),
            max_branching=self.points + 1,
        )

    def _neighbours(self, point: int) -> tuple[int, ...]:
        row, col = divmod(point, self.size)
        return tuple(r * self.size + c for r, c in ((row - 1, col), (row + 1, col),
                                                    (row, col - 1), (row, col + 1))
                     if 0 <= r < self.size and 0 <= c < self.size)

    # -- sets of points ---------------------------------------------------------------------
    def dilate(self, points: int) -> int:
        """``points`` and every point next to one of them (on the board)."""
        s = self.stride
        return (points | points << 1 | points >> 1 | points << s | points >> s) & self.full

    def flood(self, seed: int, within: int) -> int:
        """The points of ``within`` connected to ``seed`` through ``within``."""
        region = seed & within
        while True:
            grown = self.dilate(region) & within
            if grown == region:
                return region
            region = grown

    def key_of(self, black: int, white: int) -> int:
        key = 0
        for colour, stones in ((BLACK, black), (WHITE, white)):
            for point, bit in enumerate(self.bits):
                if stones >> bit & 1:
                    key ^= self.keys[point][colour]
        return key

    def stones(self, state: Position, colour: int) -> int:
        return state.black if colour == BLACK else state.white

    # -- rules ------------------------------------------------------------------------------
    def initial_state(self) -> Position:
        black = sum(1 << self.grid.bit(r, c) for r, c in self.handicap_stones)
        key = self.key_of(black, 0)
        return Position(black, 0, WHITE if self.handicap else BLACK, 0, 0, 0, key,
                        frozenset((key,)))

    def position(self, black: int, white: int, to_move: int = BLACK) -> Position:
        """A position set up from stones (a problem, a loaded file): no history before it."""
        key = self.key_of(black, white)
        return Position(black, white, to_move, 0, 0, 0, key, frozenset((key,)))

    def to_move(self, state: Position) -> int:
        return state.to_move

    def outcome(self, state: Position) -> Outcome | None:
        if state.passes < 2:
            return None
        margin = self.score(state)
        return DRAW if margin == 0 else Outcome(BLACK if margin > 0 else WHITE)

    def _after(self, state: Position, point: int) -> tuple[int, int, int, int] | None:
        """(own stones, other stones, captured stones, key) after the side to move plays
        ``point`` (empty), or None if the move is suicide."""
        colour = state.to_move
        own, other = (state.black, state.white) if colour == BLACK else \
            (state.white, state.black)
        bit = 1 << self.bits[point]
        own |= bit
        key = state.key ^ self.keys[point][colour]
        empty = self.full & ~(own | other)
        captured = 0
        for neighbour in self.neighbours[point]:
            nbit = 1 << self.bits[neighbour]
            if other & nbit and not captured & nbit:
                group = self.flood(nbit, other)
                if not self.dilate(group) & empty:
                    captured |= group
        if captured:
            other &= ~captured
            rest = captured
            while rest:
                low = rest & -rest
                key ^= self.keys[self.point_of_bit[low.bit_length() - 1]][1 - colour]
                rest ^= low
        elif not self.dilate(self.flood(bit, own)) & empty:
            return None  # suicide
        return own, other, captured, key

    def is_legal(self, state: Position, move: int) -> bool:
        if move == PASS:
            return True
        if not (isinstance(move, int) and 0 <= move < self.points):
            return False
        if (state.black | state.white) >> self.bits[move] & 1:
            return False
        after = self._after(state, move)
        return after is not None and after[3] not in state.history

    def legal_moves(self, state: Position) -> list[int]:
        if state.passes >= 2:
            return []
        taken = state.black | state.white
        return [p for p, bit in enumerate(self.bits) if not taken >> bit & 1
                and (after := self._after(state, p)) is not None
                and after[3] not in state.history] + [PASS]

    def play(self, state: Position, move: int) -> Position:
        if move == PASS:
            return state._replace(to_move=1 - state.to_move, passes=state.passes + 1)
        after = self._after(state, move)
        assert after is not None, "play() was given a suicide"
        own, other, captured, key = after
        colour = state.to_move
        black, white = (own, other) if colour == BLACK else (other, own)
        taken = captured.bit_count()
        return Position(black, white, 1 - colour, 0,
                        state.black_prisoners + (taken if colour == BLACK else 0),
                        state.white_prisoners + (taken if colour == WHITE else 0),
                        key, state.history | {key})

    def play_checked(self, state: Position, move: int) -> Position:
        if self.outcome(state) is not None:
            raise IllegalMoveError(f"the game is over; {self.format_move(move)} cannot be played")
        if move == PASS:
            return self.play(state, move)
        if not (isinstance(move, int) and 0 <= move < self.points):
            raise InvalidMoveError(f"{move!r} is not a point of this board")
        if (state.black | state.white) >> self.bits[move] & 1:
            raise IllegalMoveError(f"{self.format_move(move)} is taken")
        after = self._after(state, move)
        if after is None:
            raise IllegalMoveError(f"{self.format_move(move)} is suicide")
        if after[3] in state.history:
            raise IllegalMoveError(f"{self.format_move(move)} repeats an earlier position "
                                   "(superko)")
        return self.play(state, move)

    # -- scoring ----------------------------------------------------------------------------
    def areas(self, black: int, white: int) -> tuple[int, int]:
        """(black's area, white's area) as bitboards: stones, and empty points that reach only
        that colour's stones (Tromp-Taylor)."""
        empty = self.full & ~(black | white)
        reaches_black = self.flood(self.dilate(black) & empty, empty)
        reaches_white = self.flood(self.dilate(white) & empty, empty)
        return black | (reaches_black & ~reaches_white), white | (reaches_white & ~reaches_black)

    def score(self, state: Position, dead: int = 0) -> float:
        """Black's area less white's less komi (positive: black leads), after removing the
        stones of ``dead`` (a bitboard) from the board."""
        black_area, white_area = self.areas(state.black & ~dead, state.white & ~dead)
        return black_area.bit_count() - white_area.bit_count() - self.komi

    def result_text(self, margin: float) -> str:
        """``B+3.5``, ``W+0.5`` or ``0`` (a draw), as SGF and GTP write a result."""
        if margin == 0:
            return "0"
        return f"{'B' if margin > 0 else 'W'}+{abs(margin):g}"

    # -- notation ---------------------------------------------------------------------------
    def format_move(self, move: int) -> str:
        if move == PASS:
            return "pass"
        row, col = divmod(move, self.size)
        return self.grid.format(row, col).upper()

    def parse_move(self, state: Position | None, text: str) -> int:
        """``D4`` (any case; no column i), ``pass``."""
        text = str(text).strip()
        if len(text) <= MAX_MOVE_TEXT and text.lower() == "pass":
            return PASS
        row, col = self.grid.parse(text, noun="point", also=" or pass")
        return row * self.size + col

    def point(self, row: int, col: int) -> int:
        return row * self.size + col

    # -- pictures -----------------------------------------------------------------------------
    def owners(self, state: Position) -> list[list[int | None]]:
        return self.grid.owners(state.black, state.white)

    def render(self, state: Position) -> str:
        """The board with coordinates on every side, ``+`` on the star points, X black and O
        white; the prisoners and the side to move below."""
        letters = " ".join(self.grid.letters.upper())
        lines = [f"    {letters}"]
        stars = set(self.hoshi)
        for r, row in enumerate(self.owners(state)):
            label = self.grid.row_label(r)
            cells = " ".join("X" if owner == BLACK else "O" if owner == WHITE
                             else "+" if (r, c) in stars else "."
                             for c, owner in enumerate(row))
            lines.append(f"{label:>3} {cells} {label}")
        lines.append(f"    {letters}")
        lines.append(f"captures: black {state.black_prisoners}, white {state.white_prisoners}"
                     f"; komi {self.komi:g}")
        if self.outcome(state) is not None:
            lines.append(f"result: {self.result_text(self.score(state))}")
        elif state.passes:
            lines.append(f"{self.player_names[1 - state.to_move]} passed")
        return "\n".join(lines)

    def view(self, state: Position) -> dict[str, Any]:
        """The web page's Go board: ``{"kind": "go", "rows", "cols", "cells", "move_at",
        "col_labels", "row_labels", "hoshi", "captures", "komi", "pass_move", "territory",
        "result"}``; ``territory`` (each point's area owner, 0, 1 or None) and ``result`` only
        once the game is over."""
        over = self.outcome(state) is not None
        legal = set() if over else set(self.legal_moves(state))
        territory = None
        result = None
        if over:
            black_area, white_area = self.areas(state.black, state.white)
            territory = self.grid.owners(black_area & ~state.black, white_area & ~state.white)
            result = self.result_text(self.score(state))
        return {
            "kind": "go",
            "rows": self.size,
            "cols": self.size,
            "cells": self.owners(state),
            "move_at": [[self.format_move(self.point(r, c))
                         if self.point(r, c) in legal else None
                         for c in range(self.size)] for r in range(self.size)],
            "col_labels": list(self.grid.letters.upper()),
            "row_labels": [self.grid.row_label(r) for r in range(self.size)],
            "hoshi": [list(point) for point in self.hoshi],
            "captures": [state.black_prisoners, state.white_prisoners],
            "komi": self.komi,
            "pass_move": "pass" if PASS in legal else None,
            "territory": territory,
            "result": result,
        }

    def figures(self, state: Position) -> dict[str, Any]:
        figures: dict[str, Any] = {"black_captures": state.black_prisoners,
                                   "white_captures": state.white_prisoners}
        if self.outcome(state) is not None:
            figures["result"] = self.result_text(self.score(state))
        return figures
