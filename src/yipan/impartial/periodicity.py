"""Periodicity of Grundy sequences, with a proof or not at all.

A sequence is *ultimately periodic* with pre-period e and period p when G(n + p) = G(n) for
every n >= e. Two theorems turn finitely many values into a proof:

- Subtraction games (and octal games whose moves leave at most one heap), the *window
  argument*: G(n) depends only on the t values before it (t = the largest amount taken), so
  once the t values from e repeat p later, everything after repeats too. Check
  e <= n < e + t.
- Octal games, the *periodicity theorem* of Guy and Smith: if the moves remove at most t
  tokens and leave at most two heaps, checking G(n + p) = G(n) for e <= n < 2e + p + t proves
  it for all n >= e. Its proof (the larger part of a split, at least half the rest, is past
  the pre-period) extends to m heaps: check e <= n < m e + (m - 1) p + t (with e at least 1
  so that no part shrinks to nothing).

Both checks hold for every multiple of the least period, and the least eventual period divides
every other, so trying p = 1, 2, ... and taking the first one proved gives the minimal period,
and with it the least pre-period (one past the last n where G(n) != G(n + p)).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class ProofBound:
    """How far the values must agree: ``scale * max(e, floor) + span * p + offset``."""

    scale: int
    span: int
    offset: int
    floor: int = 0

    def end(self, preperiod: int, period: int) -> int:
        return self.scale * max(preperiod, self.floor) + self.span * period + self.offset

    @classmethod
    def window(cls, largest_take: int) -> ProofBound:
        """The window argument for a game whose heap ``n`` moves only to ``n - s``, s <= t."""
        return cls(1, 0, largest_take, 0)

    @classmethod
    def guy_smith(cls, largest_take: int, parts: int) -> ProofBound:
        """The octal periodicity theorem for moves leaving at most ``parts`` heaps."""
        parts = max(parts, 1)
        return cls(parts, parts - 1, largest_take, 1)


@dataclass(frozen=True, slots=True)
class Periodicity:
    """``G(n + period) == G(n)`` for every ``n >= preperiod`` (minimal both), if ``proved``.

    When no period could be proved from the first ``checked`` values, ``preperiod`` and
    ``period`` are None and ``proved`` is False.
    """

    preperiod: int | None
    period: int | None
    proved: bool
    checked: int

    def to_dict(self) -> dict:
        return {"preperiod": self.preperiod, "period": self.period, "proved": self.proved,
                "checked": self.checked}

    def extend(self, values: np.ndarray, upto: int) -> np.ndarray:
        """G(0..upto) from a proved period and the values up to at least pre-period + period."""
        if not self.proved or self.preperiod is None or self.period is None:
            raise ValueError("only a proved period can extend a sequence")
        start, period = self.preperiod, self.period
        if values.shape[0] < start + period:
            raise ValueError("too few values to extend")
        if upto < values.shape[0]:
            return values[:upto + 1].copy()
        n = np.arange(upto + 1)
        return np.where(n < start, values[np.minimum(n, start)],
                        values[start + (n - start) % period])


def prove_period(values: np.ndarray, bound: ProofBound) -> Periodicity:
    """The least period (and least pre-period) that ``bound``'s theorem proves from ``values``."""
    from .kernels import find_proved_period  # numba loads only when a table is computed

    e, p = find_proved_period(np.ascontiguousarray(values, dtype=np.int64),
                              bound.scale, bound.span, bound.offset, bound.floor)
    checked = int(values.shape[0])
    if p < 0:
        return Periodicity(None, None, False, checked)
    return Periodicity(int(e), int(p), True, checked)


def apparent_period(values: np.ndarray) -> tuple[int, int] | None:
    """The least (pre-period, period) that the values show at least twice, unproved.

    For sequences no theorem covers (Grundy's game): a period p whose repetition spans at
    least two full periods after the pre-period within the values given.
    """
    values = np.asarray(values)
    length = values.shape[0]
    for p in range(1, length // 2 + 1):
        mismatch = np.nonzero(values[p:] != values[:-p])[0]
        e = int(mismatch[-1]) + 1 if mismatch.size else 0
        if e + 3 * p <= length:
            return e, p
    return None
