"""A family game's rules over its numba kernel: the Game protocol's common part (a start from
the usual position or a FEN, the legal moves, playing them) and the bridge from a state to
the kernel's position row and back (``Kernel``).

A game gives its kernel (``Kernel``: its functions), reading and writing its FEN, its state
after a move (``play_move``) and its end (``outcome``); the rest is here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from ..core import Game, Outcome

S = TypeVar("S", bound=Any)
MOVES_KEPT = 16384  # states whose moves a Kernel keeps


class Kernel(Generic[S]):
    """A game's move generator as its rules use it: ``to_row(state)`` the kernel's position
    row, ``generate_legal(row, out)`` the legal moves into ``out`` (their count),
    ``in_check(row)``, ``make_move(row, child, move)``; the moves of a state are asked often
    (by the rules, the pages, the engine's driver), so the last few thousand are kept."""

    def __init__(self, to_row: Callable[[S], np.ndarray],
                 generate_legal: Callable[[np.ndarray, np.ndarray], int],
                 in_check: Callable[[np.ndarray], bool],
                 make_move: Callable[[np.ndarray, np.ndarray, int], None],
                 max_moves: int, position_size: int) -> None:
        self.to_row = to_row
        self.generate_legal = generate_legal
        self.in_check = in_check
        self.make_move = make_move
        self.max_moves = max_moves
        self.position_size = position_size
        self.moves_and_check = lru_cache(maxsize=MOVES_KEPT)(self._moves_and_check)

    def _moves_and_check(self, state: S) -> tuple[tuple[int, ...], bool]:
        """The legal moves (generator order) and whether the side to move is in check."""
        row = self.to_row(state)
        out = np.empty(self.max_moves, dtype=np.int64)
        count = self.generate_legal(row, out)
        return tuple(out[:count].tolist()), bool(self.in_check(row))

    def legal_moves(self, state: S) -> tuple[int, ...]:
        return self.moves_and_check(state)[0]

    def is_check(self, state: S) -> bool:
        return self.moves_and_check(state)[1]

    def after(self, state: S, move: int) -> tuple[np.ndarray, np.ndarray]:
        """The rows before and after a legal move (unchecked)."""
        row = self.to_row(state)
        child = np.empty(self.position_size, dtype=np.int64)
        self.make_move(row, child, move)
        return row, child


class FamilyGame(Game[S, int]):
    """A family game from its usual start or from a FEN (``Game(fen=...)``); states carry
    ``turn`` (the side to move)."""

    usual_start: ClassVar[str]  # the FEN of the usual start
    values_in_centipawns = True
    kernel: ClassVar[Kernel[Any]]

    def __init__(self, fen: str | None = None) -> None:
        self.start_fen = self.usual_start if fen is None else " ".join(str(fen).split())
        self._start = self.read_fen(self.start_fen)

    # -- what a game gives ----------------------------------------------------------------------
    def read_fen(self, fen: str) -> S:
        raise NotImplementedError

    def fen(self, state: S) -> str:
        raise NotImplementedError

    def play_move(self, state: S, move: int) -> S:
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        raise NotImplementedError

    def moves_of(self, state: S) -> tuple[int, ...]:
        """The moves the pieces could make (legal moves of movement, the game's end aside)."""
        return self.kernel.legal_moves(state)

    # -- the rules ------------------------------------------------------------------------------
    def initial_state(self) -> S:
        return self._start

    def to_move(self, state: S) -> int:
        return int(state.turn)

    def legal_moves(self, state: S) -> list[int]:
        """The legal moves; none once the game is over, by rule too (a draw by repetition,
        say) though the pieces could still move."""
        if self.outcome(state) is not None:
            return []
        return list(self.moves_of(state))

    def is_legal(self, state: S, move: Any) -> bool:
        return move in self.moves_of(state) and self.outcome(state) is None

    def play(self, state: S, move: int) -> S:
        return self.play_move(state, move)

    def figures(self, state: S) -> dict[str, Any]:
        return {"fen": self.fen(state)}
