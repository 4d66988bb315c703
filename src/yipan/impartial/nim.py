"""Nim, solved: who wins a row of heaps, and every winning move, under normal or misère play.

Normal play (whoever takes the last token wins): the side to move loses exactly when the
nim-sum (XOR) of the heaps is 0; a winning move turns a heap h into ``h ^ nim_sum``, possible
exactly when that is smaller than h.

Misère play (whoever takes the last token *loses*), Bouton's rule: while some heap has two or
more tokens, play exactly as in normal Nim; the side to move loses exactly when the nim-sum is
0. Once every heap has at most one token, the side to move loses exactly when the number of
one-token heaps is odd. (So the only change is the move that would leave no heap above one:
it must leave an odd number of single tokens, not an even one.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..core.errors import GameOptionError
from .sums import nim_sum


class NimMove(NamedTuple):
    """Heap ``heap`` (numbered from 0) goes from ``before`` to ``after`` tokens."""

    heap: int
    before: int
    after: int

    @property
    def taken(self) -> int:
        return self.before - self.after


def check_heaps(heaps: Sequence[int]) -> tuple[int, ...]:
    """The heaps as a tuple of ints; GameOptionError for a negative heap."""
    heaps = tuple(int(h) for h in heaps)
    for h in heaps:
        if h < 0:
            raise GameOptionError(f"a heap cannot be negative, got {h}")
    return heaps


def is_lost(heaps: Sequence[int], *, misere: bool = False) -> bool:
    """Whether the side to move loses with best play (the rule in the module docstring)."""
    heaps = check_heaps(heaps)
    if misere and all(h <= 1 for h in heaps):
        return sum(heaps) % 2 == 1
    return nim_sum(heaps) == 0


def winning_moves(heaps: Sequence[int], *, misere: bool = False) -> list[NimMove]:
    """Every move that leaves the opponent a lost position, in heap order (empty if lost).

    A move to a lost position either leaves the nim-sum 0 (heap h -> h ^ nim_sum) or, in
    misère play, leaves only heaps of 0 or 1 (heap h -> 0 or 1): those candidates are all.
    """
    heaps = check_heaps(heaps)
    total = nim_sum(heaps)
    moves = []
    for index, heap in enumerate(heaps):
        candidates = {heap ^ total, 0, 1} if misere else {heap ^ total}
        for after in sorted(candidates):
            if after < heap:
                rest = heaps[:index] + (after,) + heaps[index + 1:]
                if is_lost(rest, misere=misere):
                    moves.append(NimMove(index, heap, after))
    return moves
