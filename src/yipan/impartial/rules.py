"""Heap games: the rules of one heap, from which every position (a row of heaps) follows.

A *heap rule* says what one move can do to a heap of n tokens: take some tokens away and leave
the rest as zero, one, two (or three) smaller heaps. A position is a multiset of heaps, a sum of
one-heap games, so its Grundy value is the XOR of the heaps' values ``G(n)``; each rule gives
those values as a table ``G(0..N)`` computed by a numba kernel (extended from a proved period
when it has one).

Move of a rule on one heap, ``HeapMove(take, parts)``: remove ``take`` tokens and leave the
heaps ``parts`` (sorted, each >= 1; empty when nothing is left).
"""

from __future__ import annotations

import re
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from functools import reduce
from operator import xor
from typing import NamedTuple

import numpy as np

from ..core.errors import GameOptionError
from .periodicity import Periodicity, ProofBound, prove_period

SLICE_SECONDS = 0.25
"""About how long each slice of a growing table takes (``HeapRule.growing_table``)."""


class HeapMove(NamedTuple):
    """What a move does to one heap: remove ``take`` tokens, leave ``parts`` (sorted heaps)."""

    take: int
    parts: tuple[int, ...]


def _rest(left: int) -> tuple[int, ...]:
    """What a one-heap move leaves: one heap, or nothing."""
    return (left,) if left > 0 else ()


class HeapRule(ABC):
    """The rules of a heap game, and its Grundy values ``G(n)`` for single heaps."""

    name: str
    title: str
    splits = False  # whether a move may leave two heaps or more (the row of heaps grows)

    def __init__(self) -> None:
        self._values = np.zeros(0, np.int64)  # G(0..len-1), grown on demand

    @abstractmethod
    def heap_moves(self, heap: int) -> list[HeapMove]:
        """Every distinct move on a heap of ``heap`` tokens."""

    def has_move(self, heap: int) -> bool:
        """Whether a heap of this size has any move (cheaper than listing them)."""
        return bool(self.heap_moves(heap))

    def is_move(self, heap: int, move: HeapMove) -> bool:
        """Whether ``move`` is one of ``heap_moves(heap)``, without listing them (a heap of
        100,000 has as many moves)."""
        return move in self.heap_moves(heap)

    def count_moves(self, heap: int) -> int:
        """``len(heap_moves(heap))``, without listing them."""
        return len(self.heap_moves(heap))

    def nth_move(self, heap: int, index: int) -> HeapMove:
        """``heap_moves(heap)[index]``; rules with one move per take answer without the list
        (a random playout on a heap of 100,000 picks its moves this way)."""
        return self.heap_moves(heap)[index]

    @abstractmethod
    def compute_table(self, upto: int) -> np.ndarray:
        """G(0..upto) computed from scratch (a kernel)."""

    def table(self, upto: int) -> np.ndarray:
        """G(0..upto), as an int64 array (a copy the caller may keep)."""
        if upto < 0:
            raise ValueError("a table needs upto >= 0")
        if upto >= self._values.shape[0]:
            self._values = self.compute_table(max(upto, 2 * self._values.shape[0], 64))
        return self._values[:upto + 1].copy()

    def growing_table(self, upto: int) -> Iterator[int]:
        """Compute G(0..upto) a slice at a time, yielding the largest heap done after each
        (``table`` then reads any prefix at once): a caller that stops consuming stops the
        work, and can say how far it got. Rules whose tables are quick give one slice."""
        self.table(upto)
        yield upto

    def value(self, heap: int) -> int:
        """G(heap), the Grundy value of one heap (huge heaps folded back by a proved period)."""
        if heap >= self._values.shape[0]:
            heap = self.fold(heap)
            if heap >= self._values.shape[0]:
                self.table(heap)
        return int(self._values[heap])

    def fold(self, heap: int) -> int:
        """A heap with the same value as ``heap``, as small as a proved period allows."""
        return heap

    def position_value(self, heaps: Iterable[int]) -> int:
        """The Grundy value of a row of heaps: the XOR of the heaps' values."""
        return reduce(xor, (self.value(h) for h in heaps), 0)

    def options(self, heaps: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The positions (sorted tuples of non-empty heaps) one move away: for ``grundy``."""
        result = set()
        for index, heap in enumerate(heaps):
            rest = heaps[:index] + heaps[index + 1:]
            for move in self.heap_moves(heap):
                result.add(tuple(sorted(rest + move.parts)))
        return sorted(result)

    def periodicity(self, bound: int = 1 << 14) -> Periodicity:
        """(pre-period, least period, proved): not proved for rules without a theorem."""
        return Periodicity(None, None, False, 0)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _one_heap_moves(heap: int, amounts: Iterable[int]) -> list[HeapMove]:
    return [HeapMove(s, (heap - s,) if heap > s else ()) for s in amounts if s <= heap]


class NimRule(HeapRule):
    """Nim: take any number of tokens (at least one) from one heap. ``G(n) = n``.

    Misère Nim (the player who takes the last token *loses*) is won by the side to move exactly
    when: some heap has two or more tokens and the nim-sum is not 0, or every heap has at most
    one token and the nim-sum *is* 0 (an even number of single tokens). Play as in normal Nim
    until the move would leave only heaps of size 0 or 1; then leave an odd number of ones.
    """

    name = "nim"
    title = "Nim"

    def heap_moves(self, heap: int) -> list[HeapMove]:
        return _one_heap_moves(heap, range(1, heap + 1))

    def has_move(self, heap: int) -> bool:
        return heap > 0

    def is_move(self, heap: int, move: HeapMove) -> bool:
        return 1 <= move.take <= heap and move.parts == _rest(heap - move.take)

    def count_moves(self, heap: int) -> int:
        return heap

    def nth_move(self, heap: int, index: int) -> HeapMove:
        take = index + 1  # heap_moves lists takes 1, 2, ... heap
        return HeapMove(take, _rest(heap - take))

    def value(self, heap: int) -> int:
        return heap

    def compute_table(self, upto: int) -> np.ndarray:
        return np.arange(upto + 1, dtype=np.int64)


LARGEST_AMOUNT = 100_000  # a subtraction set's largest amount (tables are quadratic in it)


def parse_amounts(text: str | Iterable[int]) -> tuple[int, ...]:
    """A subtraction set from ``"1,3,4"`` (or ints): sorted, distinct, each at least 1."""
    if isinstance(text, str):
        items = [item for item in re.split(r"[\s,{}]+", text.strip()) if item]
        try:
            amounts = [int(item) for item in items]
        except ValueError:
            raise GameOptionError(f"a subtraction set is whole numbers like 1,3,4; got {text!r}")\
                from None
    else:
        amounts = [int(item) for item in text]
    if not amounts:
        raise GameOptionError("a subtraction set needs at least one amount")
    if min(amounts) < 1:
        raise GameOptionError(f"amounts to take must be at least 1, got {min(amounts)}")
    if max(amounts) > LARGEST_AMOUNT:
        raise GameOptionError(
            f"amounts to take must be at most {LARGEST_AMOUNT:,}, got {max(amounts):,}")
    return tuple(sorted(set(amounts)))


class SubtractionRule(HeapRule):
    """A subtraction game: take ``s`` tokens from one heap, for some ``s`` in a finite set S.

    Every such sequence is ultimately periodic (finitely many windows of max(S) values); the
    window argument (see ``periodicity``) proves the period.
    """

    def __init__(self, amounts: str | Iterable[int]) -> None:
        super().__init__()
        self.amounts = parse_amounts(amounts)
        self.name = "subtraction " + ",".join(map(str, self.amounts))
        self.title = "Subtraction game S = {" + ", ".join(map(str, self.amounts)) + "}"
        self._period: Periodicity | None = None

    def heap_moves(self, heap: int) -> list[HeapMove]:
        return _one_heap_moves(heap, self.amounts)

    def has_move(self, heap: int) -> bool:
        return heap >= self.amounts[0]

    def is_move(self, heap: int, move: HeapMove) -> bool:
        return (move.take <= heap and move.take in self.amounts
                and move.parts == _rest(heap - move.take))

    def count_moves(self, heap: int) -> int:
        return sum(1 for amount in self.amounts if amount <= heap)

    def nth_move(self, heap: int, index: int) -> HeapMove:
        take = [amount for amount in self.amounts if amount <= heap][index]
        return HeapMove(take, _rest(heap - take))

    def compute_table(self, upto: int) -> np.ndarray:
        period = self.periodicity()
        if period.proved and upto >= period.checked:
            return period.extend(self._raw(period.checked), upto)
        return self._raw(upto)

    def fold(self, heap: int) -> int:
        return _fold(heap, self.periodicity())

    def _raw(self, upto: int) -> np.ndarray:
        from .kernels import subtraction_table

        return subtraction_table(np.array(self.amounts, np.int64), upto)

    def periodicity(self, bound: int = 1 << 20) -> Periodicity:
        """Proved by the window argument. A period is at most (|S| + 1)^max(S) windows away,
        but in practice short: values are computed in doubling stretches up to ``bound``."""
        if self._period is None or (not self._period.proved and self._period.checked < bound):
            self._period = _doubling_proof(self._raw, ProofBound.window(self.amounts[-1]),
                                           start=4 * self.amounts[-1] + 64, bound=bound)
        return self._period


class BashRule(SubtractionRule):
    """The Bash game: take 1 to k tokens. ``G(n) = n mod (k + 1)``."""

    def __init__(self, k: int) -> None:
        if not 1 <= int(k) <= LARGEST_AMOUNT:
            raise GameOptionError(f"the Bash game needs 1 <= k <= {LARGEST_AMOUNT:,}, got {k}")
        super().__init__(range(1, int(k) + 1))
        self.k = int(k)
        self.name = f"bash {self.k}"
        self.title = f"Bash game (take 1 to {self.k})"


_CODE = re.compile(r"\s*([0-9a-fA-F]?)\.([0-9a-fA-F]+)\s*")
NAMED_CODES = {"kayles": "0.77", "dawsons-kayles": "0.07", "dawsons-chess": "0.137"}


def parse_code(code: str) -> tuple[int, ...]:
    """The digits d0, d1, d2, ... of an octal code such as ``0.77``, ``4.7``, ``.137`` (or
    a name: ``kayles``, ``dawsons-kayles``, ``dawsons-chess``).

    Digits past 7 make a hexadecimal game (bit 8: leave three heaps). ``d0`` concerns moves
    that take nothing, so it may only split (bits 4 and 8): taking nothing and leaving the
    heap as it was would never end.
    """
    match = _CODE.fullmatch(NAMED_CODES.get(str(code).strip().lower(), str(code)))
    if not match:
        raise GameOptionError(
            f"cannot read octal code {code!r}: write it like 0.77, 0.07, 4.7 or 0.137, "
            f"or name it: {', '.join(NAMED_CODES)}")
    digits = [int(match.group(1) or "0", 16)] + [int(d, 16) for d in match.group(2)]
    if digits[0] & 3:
        raise GameOptionError(
            f"octal code {code!r}: the digit before the point may only be 0, 4, 8 or c")
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
    return tuple(digits)


def format_code(digits: Sequence[int]) -> str:
    tail = "".join(f"{d:x}" for d in digits[1:]) or "0"
    return f"{digits[0]:x}.{tail}"


def _splits(total: int, parts: int, smallest: int = 1) -> Iterable[tuple[int, ...]]:
    """Ways to write ``total`` as ``parts`` non-decreasing numbers, each >= ``smallest``."""
    if parts == 1:
        if total >= smallest:
            yield (total,)
        return
    for first in range(smallest, total // parts + 1):
        for rest in _splits(total - first, parts - 1, first):
            yield (first, *rest)


class OctalRule(HeapRule):
    """An octal game from its code ``d0.d1d2d3...``: digit ``d_k`` says what removing k tokens
    from a heap may leave (bits: 1 nothing, 2 one heap, 4 two non-empty heaps, 8 three).

    ``0.77`` is Kayles (knock down one pin or two adjacent ones from a row), ``0.07`` Dawson's
    Kayles, ``0.137`` Dawson's chess, ``4.7`` a heap may also be split without taking anything.
    Periods are proved by the Guy-Smith periodicity theorem (see ``periodicity``).
    """

    NAMES = {"0.77": "Kayles", "0.07": "Dawson's Kayles", "0.137": "Dawson's chess",
             "0.333": "Bash game (take 1 to 3)"}

    def __init__(self, code: str) -> None:
        super().__init__()
        self.digits = parse_code(code)
        self.code = format_code(self.digits)
        self.name = f"octal {self.code}"
        kind = "Hexadecimal" if max(self.digits) > 7 else "Octal"
        self.title = self.NAMES.get(self.code, f"{kind} game {self.code}")
        self.largest_take = len(self.digits) - 1
        self.most_parts = max((digit.bit_length() - 1 for digit in self.digits if digit), default=0)
        self.splits = self.most_parts >= 2
        self._period: Periodicity | None = None

    def heap_moves(self, heap: int) -> list[HeapMove]:
        moves = []
        for take, digit in enumerate(self.digits[:heap + 1]):
            rest = heap - take
            if digit & 1 and rest == 0:
                moves.append(HeapMove(take, ()))
            for parts, bit in ((1, 2), (2, 4), (3, 8)):
                if digit & bit:
                    moves.extend(HeapMove(take, split) for split in _splits(rest, parts))
        return moves

    def is_move(self, heap: int, move: HeapMove) -> bool:
        take, parts = move
        if not 0 <= take < len(self.digits) or take > heap:
            return False
        if sum(parts) != heap - take or any(part < 1 for part in parts) \
                or list(parts) != sorted(parts) or len(parts) > 3:
            return False
        return bool(self.digits[take] & (1 << len(parts)))

    def count_moves(self, heap: int) -> int:
        count = 0
        for take, digit in enumerate(self.digits[:heap + 1]):
            rest = heap - take
            count += bool(digit & 1 and rest == 0) + bool(digit & 2 and rest >= 1)
            if digit & 4:
                count += rest // 2  # a + b = rest, 1 <= a <= b
            if digit & 8:
                count += round(rest * rest / 12)  # partitions of rest into three parts
        return count

    def has_move(self, heap: int) -> bool:
        for take, digit in enumerate(self.digits[:heap + 1]):
            rest = heap - take
            if (digit & 1 and rest == 0) or (digit & 2 and rest >= 1) or (
                    digit & 4 and rest >= 2) or (digit & 8 and rest >= 3):
                return True
        return False

    def compute_table(self, upto: int) -> np.ndarray:
        if upto > self.direct_limit:
            period = self.periodicity()
            if period.proved:
                return period.extend(self._raw(period.checked), upto)
        return self._raw(upto)

    def fold(self, heap: int) -> int:
        return _fold(heap, self.periodicity()) if heap > self.direct_limit else heap

    @property
    def direct_limit(self) -> int:
        """Past this, a table is worth a period proof first (the kernel is quadratic)."""
        return 1 << 12

    def _raw(self, upto: int) -> np.ndarray:
        from .kernels import octal_table

        return octal_table(np.array(self.digits, np.int64), upto)

    def periodicity(self, bound: int = 1 << 14) -> Periodicity:
        """Proved by Guy-Smith (or the window argument when no move splits a heap), from
        values computed in doubling stretches up to ``bound``; not proved if that is too few."""
        if self.most_parts >= 3:
            bound = min(bound, 1 << 11)  # the three-heap kernel is cubic
        if self._period is None or (not self._period.proved and self._period.checked < bound):
            proof = ProofBound.guy_smith(self.largest_take, self.most_parts)
            self._period = _doubling_proof(self._raw, proof, start=256, bound=bound)
        return self._period


class GrundyRule(HeapRule):
    """Grundy's game: split one heap into two heaps of different sizes. No period is known
    (values to 2^35 have been computed); tables use the rare-values method."""

    name = "grundy-game"
    title = "Grundy's game"
    splits = True

    def heap_moves(self, heap: int) -> list[HeapMove]:
        return [HeapMove(0, (a, heap - a)) for a in range(1, (heap - 1) // 2 + 1)]

    def has_move(self, heap: int) -> bool:
        return heap >= 3

    def is_move(self, heap: int, move: HeapMove) -> bool:
        take, parts = move
        return (take == 0 and len(parts) == 2 and parts[0] >= 1
                and parts[0] < parts[1] and sum(parts) == heap)

    def count_moves(self, heap: int) -> int:
        return max(0, (heap - 1) // 2)

    def compute_table(self, upto: int) -> np.ndarray:
        from .kernels import grundy_game_rare

        return grundy_game_rare(upto)

    def growing_table(self, upto: int) -> Iterator[int]:
        """Slices of about ``SLICE_SECONDS`` each (the table costs more than linear time:
        ten million heaps take minutes)."""
        from .kernels import grundy_game_rare_extend

        done = self._values.shape[0]  # heaps known already
        if upto < done:
            yield upto
            return
        values = np.zeros(upto + 1, np.int64)
        values[:done] = self._values
        rare_heaps = np.empty(upto + 1, np.int64)
        known = [n for n in range(done) if _is_rare(int(values[n]))]
        rare_heaps[:len(known)] = known
        rare_count = len(known)
        size = 1024
        while done <= upto:
            stop = min(upto + 1, done + size)
            began = time.perf_counter()
            rare_count = grundy_game_rare_extend(values, rare_heaps, rare_count, done, stop)
            spent = time.perf_counter() - began
            done = stop
            self._values = values[:done]
            yield done - 1
            # the next slice sized to the pace of this one (which slows as heaps grow)
            size = max(1024, min(4 * size, int(size * SLICE_SECONDS / max(spent, 1e-6))))


def _is_rare(value: int) -> bool:
    """The kernels' rare values of Grundy's game: ``value >> 1`` has an even popcount."""
    return (value >> 1).bit_count() % 2 == 0


def _fold(heap: int, period: Periodicity) -> int:
    if not period.proved or period.preperiod is None or period.period is None:
        return heap
    start, length = period.preperiod, period.period
    return heap if heap < start + length else start + (heap - start) % length


def _doubling_proof(compute, proof: ProofBound, *, start: int, bound: int) -> Periodicity:
    """Compute values in doubling stretches until a period is proved or ``bound`` is passed."""
    length = min(start, bound)
    while True:
        result = prove_period(compute(length - 1), proof)
        if result.proved or length >= bound:
            return result
        length = min(2 * length, bound)
