"""Wythoff's game as a Game: two heaps; take any number of tokens from one heap, or the same
number from both. Whoever takes the last token wins.

State encoding: ``WythoffState(heaps=(a, b), to_move)``. Moves ``WythoffMove(heap, take)``
with heap 0 or 1 (one heap) or 2 (both), written ``1:3`` (take 3 from heap 1), ``2:3``, and
``both:3`` (take 3 from each heap).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ...core import Game, GameInfo, GameOptionError, InvalidMoveError, Outcome
from ...core.drawing import notebook_html
from ...core.text import quote, read_int
from ...impartial.wythoff import LARGEST_TABLE, is_p_position, wythoff_table
from .rules import parse_heap

BOTH = 2


class WythoffState(NamedTuple):
    heaps: tuple[int, int]
    to_move: int

    def _repr_html_(self) -> str:
        """Drawn in a notebook."""
        return notebook_html("wythoff", self)


class WythoffMove(NamedTuple):
    """Take ``take`` tokens from heap 0, heap 1, or (heap == BOTH) from each."""

    heap: int
    take: int


class WythoffGame(Game[WythoffState, WythoffMove]):
    """Wythoff's game from heaps (a, b); the P-positions follow the golden ratio."""

    misere = False

    def __init__(self, heaps: Sequence[int | str] = (4, 7)) -> None:
        try:
            sizes = tuple(parse_heap(str(h)) for h in heaps)
        except ValueError as error:
            raise GameOptionError(str(error)) from None
        if len(sizes) != 2:
            raise GameOptionError(f"Wythoff's game has two heaps, not {len(sizes)}")
        self.heaps: tuple[int, int] = (sizes[0], sizes[1])
        self.info = GameInfo(name="wythoff", title="Wythoff's game", impartial=True,
                             max_moves=sum(self.heaps) or None,
                             max_branching=sum(self.heaps) + min(self.heaps))

    def initial_state(self) -> WythoffState:
        return WythoffState(self.heaps, 0)

    def to_move(self, state: WythoffState) -> int:
        return state.to_move

    def legal_moves(self, state: WythoffState) -> list[WythoffMove]:
        a, b = state.heaps
        return ([WythoffMove(0, t) for t in range(1, a + 1)]
                + [WythoffMove(1, t) for t in range(1, b + 1)]
                + [WythoffMove(BOTH, t) for t in range(1, min(a, b) + 1)])

    def play(self, state: WythoffState, move: WythoffMove) -> WythoffState:
        a, b = state.heaps
        if move.heap != 1:
            a -= move.take
        if move.heap != 0:
            b -= move.take
        return WythoffState((a, b), 1 - state.to_move)

    def is_legal(self, state: WythoffState, move: WythoffMove) -> bool:
        if not isinstance(move, WythoffMove) or move.heap not in (0, 1, BOTH):
            return False
        a, b = state.heaps
        room = a if move.heap == 0 else b if move.heap == 1 else min(a, b)
        return 1 <= move.take <= room

    def outcome(self, state: WythoffState) -> Outcome | None:
        if any(state.heaps):
            return None
        return Outcome(1 - state.to_move)

    # -- theory ------------------------------------------------------------------------------
    def is_lost(self, state: WythoffState) -> bool:
        return is_p_position(*state.heaps)

    def grundy_value(self, state: WythoffState) -> int:
        a, b = state.heaps
        if max(a, b) >= LARGEST_TABLE:
            raise GameOptionError(f"Grundy values of Wythoff's game stop at {LARGEST_TABLE - 1}")
        return int(wythoff_table(max(a, b) + 1)[a, b])

    def winning_moves(self, state: WythoffState) -> list[WythoffMove]:
        return [m for m in self.legal_moves(state) if self.is_lost(self.play(state, m))]

    # -- notation ------------------------------------------------------------------------------
    def format_move(self, move: WythoffMove) -> str:
        return f"{'both' if move.heap == BOTH else move.heap + 1}:{move.take}"

    def parse_move(self, state: WythoffState, text: str) -> WythoffMove:
        match = re.fullmatch(r"\s*(1|2|both|b)\s*:\s*([0-9]+)\s*", text.lower())
        if not match:
            raise InvalidMoveError(
                f"cannot read move {quote(text)}: write 1:3 (take 3 from heap 1), 2:3, "
                "or both:3")
        heap = BOTH if match.group(1).startswith("b") else int(match.group(1)) - 1
        return WythoffMove(heap, read_int(match.group(2), "the number taken",
                                          error=InvalidMoveError))

    def describe_move(self, state: WythoffState, move: WythoffMove) -> str:
        after = self.play(state, move).heaps
        where = "both heaps" if move.heap == BOTH else f"heap {move.heap + 1}"
        return f"take {move.take} from {where} ({state.heaps} -> {after})"

    def render(self, state: WythoffState) -> str:
        return "\n".join(f"heap {i + 1}: {h:>3}  {'|' * min(h, 40)}".rstrip()
                         for i, h in enumerate(state.heaps))

    def view(self, state: WythoffState) -> dict:
        return {"kind": "heaps", "heaps": list(state.heaps)}
