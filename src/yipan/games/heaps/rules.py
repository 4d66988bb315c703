"""Heap games as Games: Nim, the Bash game, subtraction games, octal games (Kayles, Dawson's
Kayles, ...), Grundy's game; normal play unless said otherwise (Nim may be misère).

State encoding::

    HeapState(heaps=(3, 0, 5), to_move=1)
      heaps    the row of heaps left to right, numbered 1, 2, 3 ... on screen; a move replaces
               one heap by what is left of it, in place: nothing (the heap stays, as 0, so the
               numbers of the other heaps do not change), one heap, or two or three heaps
      to_move  0 (the first player) or 1

Move notation (``HeapGameMove(heap, take, parts)``, heap counted from 0 inside):

    2:3        take 3 tokens from heap 2; what is left stays one heap (or none)
    1:2=3+5    take 2 tokens from heap 1 and leave two heaps, of 3 and 5 (Kayles' middle)
    1=3+4      split heap 1 into heaps of 3 and 4, taking nothing (Grundy's game)

A position is lost for the side to move exactly when the XOR of the heaps' Grundy values is 0
(misère Nim: Bouton's rule, see ``yipan.impartial.nim``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ...core import Game, GameInfo, GameOptionError, InvalidMoveError, Outcome
from ...core.drawing import notebook_html
from ...core.text import quote, read_int
from ...impartial import nim as nim_theory
from ...impartial.rules import (
    BashRule,
    GrundyRule,
    HeapMove,
    HeapRule,
    NimRule,
    OctalRule,
    SubtractionRule,
)


class HeapState(NamedTuple):
    heaps: tuple[int, ...]
    to_move: int

    def _repr_html_(self) -> str:
        """Drawn in a notebook."""
        return notebook_html("nim", self)


class HeapGameMove(NamedTuple):
    """On heap ``heap`` (from 0), take ``take`` tokens and leave ``parts`` (sorted, each >= 1)."""

    heap: int
    take: int
    parts: tuple[int, ...]


_MOVE = re.compile(r"([0-9]+)\s*(?::\s*([0-9]+))?\s*(?:=\s*([0-9]+(?:\s*\+\s*[0-9]+)*))?")


LARGEST_HEAP = 100_000  # to play: a move list stays short enough to show and to search


def parse_heap(text: str) -> int:
    """A heap size from text: a whole number from 0 to LARGEST_HEAP."""
    value = read_int(str(text), "a heap")
    if value < 0:
        raise ValueError(f"a heap cannot be negative, got {value}")
    if value > LARGEST_HEAP:
        raise ValueError(f"heaps to play with hold at most {LARGEST_HEAP}, got {value}")
    return value


class HeapGame(Game[HeapState, HeapGameMove]):
    """A row of heaps under one heap rule; the player who cannot move loses (normal play)."""

    def __init__(self, rule: HeapRule, heaps: Iterable[int | str], name: str,
                 misere: bool = False) -> None:
        self.rule = rule
        try:
            self.heaps = tuple(parse_heap(str(h)) for h in heaps)
        except ValueError as error:
            raise GameOptionError(str(error)) from None
        if not self.heaps:
            raise GameOptionError("a heap game needs at least one heap")
        self.misere = misere
        title = rule.title + (" (misère)" if misere else "")
        self.info = GameInfo(name=name, title=title, impartial=True, playout=True,
                             max_moves=self._longest_game_bound(),
                             max_branching=self._branching_bound())

    def _branching_bound(self) -> int:
        """The legal moves of the start (no move adds any where a move leaves one heap), and
        where moves split heaps a margin for the heaps they add (each brings at most two
        moves a take)."""
        start = sum(self.rule.count_moves(h) for h in self.heaps)
        if not self.rule.splits:
            return start
        takes = getattr(self.rule, "largest_take", 0) + 1
        return start + 2 * takes * sum(self.heaps)

    def _longest_game_bound(self) -> int | None:
        """Each move takes a token or makes one more non-empty heap: at most 2n moves in all."""
        return 2 * sum(self.heaps) or None

    # -- rules -------------------------------------------------------------------------------
    def initial_state(self) -> HeapState:
        return HeapState(self.heaps, 0)

    def to_move(self, state: HeapState) -> int:
        return state.to_move

    def legal_moves(self, state: HeapState) -> list[HeapGameMove]:
        return [HeapGameMove(index, move.take, move.parts)
                for index, heap in enumerate(state.heaps)
                for move in self.rule.heap_moves(heap)]

    def play(self, state: HeapState, move: HeapGameMove) -> HeapState:
        heaps = state.heaps
        left = move.parts or (0,)
        return HeapState(heaps[:move.heap] + left + heaps[move.heap + 1:], 1 - state.to_move)

    def is_legal(self, state: HeapState, move: HeapGameMove) -> bool:
        if not (isinstance(move, HeapGameMove) and 0 <= move.heap < len(state.heaps)):
            return False
        return self.rule.is_move(state.heaps[move.heap], HeapMove(move.take, move.parts))

    def outcome(self, state: HeapState) -> Outcome | None:
        if any(self.rule.has_move(heap) for heap in state.heaps):
            return None
        # the side to move cannot move: it loses (normal play) or wins (misère)
        return Outcome(state.to_move if self.misere else 1 - state.to_move)

    def playout(self, state: HeapState, rng: random.Random) -> float:
        """Uniformly random moves to the end (the result for player 0), each drawn without
        listing every move: a heap is chosen in proportion to its moves, then its move."""
        rule = self.rule
        heaps, mover = list(state.heaps), state.to_move
        while True:
            counts = [rule.count_moves(h) for h in heaps]
            total = sum(counts)
            if total == 0:  # the side to move cannot move: it loses (normal play)
                winner = mover if self.misere else 1 - mover
                return 1.0 if winner == 0 else -1.0
            index = rng.randrange(total)
            heap = 0
            while index >= counts[heap]:
                index -= counts[heap]
                heap += 1
            move = rule.nth_move(heaps[heap], index)
            heaps[heap:heap + 1] = list(move.parts) or [0]
            mover = 1 - mover

    # -- theory ------------------------------------------------------------------------------
    def grundy_value(self, state: HeapState) -> int:
        """The XOR of the heaps' Grundy values (normal play)."""
        return self.rule.position_value(state.heaps)

    def is_lost(self, state: HeapState) -> bool:
        """Whether the side to move loses with best play."""
        return self.grundy_value(state) == 0

    def winning_moves(self, state: HeapState) -> list[HeapGameMove]:
        """Every move to a lost position (empty when the side to move is lost)."""
        rule = self.rule
        values = [rule.value(h) for h in state.heaps]
        total = 0
        for value in values:
            total ^= value
        if total == 0:
            return []
        return [HeapGameMove(index, move.take, move.parts)
                for index, heap in enumerate(state.heaps)
                for move in rule.heap_moves(heap)
                if rule.position_value(move.parts) == values[index] ^ total]

    # -- notation ------------------------------------------------------------------------------
    def format_move(self, move: HeapGameMove) -> str:
        heap = move.heap + 1
        if len(move.parts) >= 2:
            split = "+".join(map(str, move.parts))
            return f"{heap}={split}" if move.take == 0 else f"{heap}:{move.take}={split}"
        return f"{heap}:{move.take}"

    def parse_move(self, state: HeapState, text: str) -> HeapGameMove:
        match = _MOVE.fullmatch(text.strip())
        if not match:
            raise InvalidMoveError(
                f"cannot read move {quote(text)}: write HEAP:TAKE (2:3 takes 3 from heap 2), "
                "HEAP:TAKE=A+B (take and leave two heaps) or HEAP=A+B (split)")

        def number(digits: str, what: str) -> int:
            return read_int(digits, what, error=InvalidMoveError)

        heap = number(match.group(1), "a heap number") - 1
        if not 0 <= heap < len(state.heaps):
            raise InvalidMoveError(f"there is no heap {heap + 1} (heaps 1-{len(state.heaps)})")
        size = state.heaps[heap]
        take = number(match.group(2) or "0", "the number taken")
        written = quote(text.strip())
        if match.group(3):
            parts = tuple(sorted(number(p, "a heap left") for p in match.group(3).split("+")))
            if sum(parts) + take != size:
                raise InvalidMoveError(
                    f"{written}: heap {heap + 1} has {size}, not {take} + {sum(parts)}")
        else:
            if match.group(2) is None:
                raise InvalidMoveError(f"{written}: say how many to take, e.g. {heap + 1}:1")
            if take > size:
                raise InvalidMoveError(f"{written}: heap {heap + 1} has only {size}")
            parts = (size - take,) if size > take else ()
        return HeapGameMove(heap, take, parts)

    def describe_move(self, state: HeapState, move: HeapGameMove) -> str:
        """Words for a move: ``take 2 from heap 1 (3 -> 1)``."""
        before = state.heaps[move.heap]
        after = " + ".join(map(str, move.parts)) or "0"
        if move.take == 0:
            return f"split heap {move.heap + 1} ({before} -> {after})"
        return f"take {move.take} from heap {move.heap + 1} ({before} -> {after})"

    def render(self, state: HeapState) -> str:
        width = len(str(len(state.heaps)))
        lines = [f"heap {i + 1:>{width}}: {h:>3}  {'|' * min(h, 40)}{'…' if h > 40 else ''}"
                 .rstrip() for i, h in enumerate(state.heaps)]
        return "\n".join(lines)

    def view(self, state: HeapState) -> dict:
        """The heaps; ``splits``: a move may leave two heaps where there was one, so a token
        is a pin in a row, knocked down where it stands (Kayles), or where the row splits
        (Grundy's game), rather than the first of those taken from the end (Nim)."""
        return {"kind": "heaps", "heaps": list(state.heaps), "splits": self.rule.splits}


class Nim(HeapGame):
    """Nim: take any number of tokens from one heap. ``rule="misere"``: taking the last loses."""

    def __init__(self, heaps: Sequence[int | str] = (3, 4, 5), rule: str = "normal") -> None:
        if rule not in ("normal", "misere"):
            raise GameOptionError(f"Nim's rule is normal or misere, not {rule!r}")
        super().__init__(NimRule(), heaps, "nim", misere=rule == "misere")

    def is_lost(self, state: HeapState) -> bool:
        return nim_theory.is_lost(state.heaps, misere=self.misere)

    def winning_moves(self, state: HeapState) -> list[HeapGameMove]:
        """Bouton's rule, without listing every move (heaps may be huge)."""
        return [HeapGameMove(m.heap, m.taken, (m.after,) if m.after else ())
                for m in nim_theory.winning_moves(state.heaps, misere=self.misere)]


class BashGame(HeapGame):
    """The Bash game: take 1 to k tokens from one heap."""

    def __init__(self, heaps: Sequence[int | str] = (10,), k: int = 3) -> None:
        super().__init__(BashRule(k), heaps, "bash")


class SubtractionGame(HeapGame):
    """A subtraction game: take s tokens from one heap, s from a finite set (``"1,3,4"``)."""

    def __init__(self, heaps: Sequence[int | str] = (10,), subtract: str = "1,3,4") -> None:
        super().__init__(SubtractionRule(subtract), heaps, "subtraction")


class OctalGame(HeapGame):
    """An octal game from its code (``0.77`` Kayles, ``0.07`` Dawson's Kayles, ...)."""

    def __init__(self, heaps: Sequence[int | str] = (10,), code: str = "0.77",
                 name: str = "octal") -> None:
        super().__init__(OctalRule(code), heaps, name)


class Kayles(OctalGame):
    """Kayles (0.77): knock down one pin, or two neighbours, from a row of pins."""

    def __init__(self, heaps: Sequence[int | str] = (12,)) -> None:
        super().__init__(heaps, "0.77", "kayles")


class DawsonsKayles(OctalGame):
    """Dawson's Kayles (0.07): knock down two neighbouring pins."""

    def __init__(self, heaps: Sequence[int | str] = (12,)) -> None:
        super().__init__(heaps, "0.07", "dawsons-kayles")


class GrundysGame(HeapGame):
    """Grundy's game: split a heap into two heaps of different sizes."""

    def __init__(self, heaps: Sequence[int | str] = (12,)) -> None:
        super().__init__(GrundyRule(), heaps, "grundy-game")
