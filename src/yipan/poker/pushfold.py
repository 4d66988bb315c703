"""Heads-up push-or-fold no-limit hold'em: the equilibrium for any stack, and the charts.

The game: the small blind posts 0.5 big blinds, the big blind 1, each an ante of ``ante``
(default 0); both have ``stack`` big blinds (the effective stack). The small blind shoves all
in or folds; facing a shove, the big blind calls or folds. Each is dealt one of the 169
starting-hand classes, the pair (i, j) with probability ``W[i, j] / sum(W)`` (the card removal
of ``cards.pair_weights``); a call is settled by the all-in equity ``E[i, j]``
(``equity``). In big blinds, for the small blind::

    fold                 -(0.5 + ante)
    shove, big blind folds   1 + ante
    shove, big blind calls   E[i, j] * 2 (stack + ante) - (stack + ante)

Solved by CFR+ over the 169 x 2 information sets of each player, written as matrix products
(the game's tree is two moves deep): regret matching+, alternating updates, a linearly
weighted average. Best responses are exact (each hand takes its better action), so the
exploitability of the result is known; it is solved until that is below ``tolerance``.

The charts players read: for each hand, the largest stack (on a grid of tenths of a big blind
from 1 to 20) at which the equilibrium shoves it (pushes with probability at least 1/2), and at
which it calls a shove.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ..core import GameOptionError
from ..core.files import read_capped, write_atomically
from .cards import CLASS_NAMES, CLASSES, pair_weights
from .equity import (
    CorruptEquityTableError,
    EquityTable,
    all_boards,
    load_table,
    save_table,
)

SMALL_BLIND = 0.5
MAX_STACK = 20.0
CHART_STACKS = np.round(np.arange(1.0, MAX_STACK + 1e-9, 0.1), 1)
DEFAULT_TOLERANCE = 1e-4  # big blinds of exploitability
MAX_ITERATIONS = 20_000
MAX_CHARTS_BYTES = 16 << 20  # two thresholds for each of 169 classes, for a few antes
PACKAGED_TABLE = Path(__file__).resolve().parents[1] / "data" / "holdem-equities.table"


@dataclass(frozen=True)
class PushFoldSolution:
    """The equilibrium at one stack: each class's probability to shove and to call a shove,
    the small blind's value in big blinds, and the exploitability (big blinds)."""

    stack: float
    ante: float
    push: np.ndarray
    call: np.ndarray
    value: float
    exploitability: float
    iterations: int

    def push_range(self) -> dict[str, float]:
        return dict(zip(CLASS_NAMES, map(float, self.push), strict=True))

    def call_range(self) -> dict[str, float]:
        return dict(zip(CLASS_NAMES, map(float, self.call), strict=True))


def equity_table() -> EquityTable:
    """The exact table: the package's file, else the cache (``$YIPAN_CACHE``), else computed
    (minutes) and kept in the cache."""
    if PACKAGED_TABLE.is_file():
        return load_table(PACKAGED_TABLE)
    cached = Path(os.environ.get("YIPAN_CACHE") or Path.home() / ".cache" / "yipan") \
        / "holdem-equities.table"
    if cached.is_file():
        return load_table(cached)
    table = all_boards()
    save_table(cached, table)
    return table


@cache
def _game_matrices() -> tuple[np.ndarray, np.ndarray]:
    weights = pair_weights()
    return weights / weights.sum(), equity_table().equity


class PushFoldGame:
    """The payoff matrices of one stack and ante (module docstring)."""

    def __init__(self, stack: float, ante: float = 0.0,
                 deals: np.ndarray | None = None, equity: np.ndarray | None = None) -> None:
        if not (0 < stack <= 1000) or not (0 <= ante <= stack):
            raise GameOptionError(f"stack must be above 0 and at most 1000 big blinds, and the "
                                  f"ante from 0 to the stack; got {stack:g} and {ante:g}")
        if deals is None or equity is None:
            deals, equity = _game_matrices()
        self.stack, self.ante = stack, ante
        self.deals = deals
        self.held = deals.sum(axis=1)  # the small blind's chance of each class
        self.fold_loss = SMALL_BLIND + ante
        self.steal = 1.0 + ante
        self.showdown = equity * 2 * (stack + ante) - (stack + ante)  # [i, j], small blind
        self.stolen = self.deals * self.steal  # the big blind folds: the small blind wins
        self.called = self.deals * self.showdown  # the big blind calls: the showdown

    def small_blind_values(self, call: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each class of the small blind: (its fold's value, its shove's), weighted by the
        chance of holding it, against the big blind calling with ``call``."""
        fold = -self.fold_loss * self.held
        shove = self.stolen @ (1 - call) + self.called @ call
        return fold, shove

    def big_blind_values(self, push: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each class of the big blind facing a shove: (its fold's value, its call's), for
        the big blind, weighted by the chance of getting there with it."""
        return -(push @ self.stolen), -(push @ self.called)

    def value(self, push: np.ndarray, call: np.ndarray) -> float:
        fold, shove = self.small_blind_values(call)
        return float(((1 - push) * fold + push * shove).sum())

    def exploitability(self, push: np.ndarray, call: np.ndarray) -> float:
        """The mean of what each side gains by a best response (NashConv / 2)."""
        value = self.value(push, call)
        fold, shove = self.small_blind_values(call)
        best_small = float(np.maximum(fold, shove).sum())
        big_fold, big_call = self.big_blind_values(push)
        folded = float(((1 - push) * self.fold_loss * self.held).sum())
        best_big = folded + float(np.maximum(big_fold, big_call).sum())
        return (best_small - value + best_big + value) / 2


def regret_matching(regret_fold: np.ndarray, regret_act: np.ndarray) -> np.ndarray:
    """The probability of the second action (shove, call) from the two regrets."""
    positive_fold = np.maximum(regret_fold, 0)
    positive_act = np.maximum(regret_act, 0)
    total = positive_fold + positive_act
    return np.where(total > 0, positive_act / np.where(total > 0, total, 1), 0.5)


def solve(stack: float, ante: float = 0.0, *, tolerance: float = DEFAULT_TOLERANCE,
          max_iterations: int = MAX_ITERATIONS, game: PushFoldGame | None = None
          ) -> PushFoldSolution:
    """The equilibrium at ``stack`` big blinds by CFR+ (module docstring), run until its
    exploitability is below ``tolerance`` (checked every 100 iterations)."""
    game = game or PushFoldGame(stack, ante)
    small = np.zeros((2, CLASSES))  # regrets of fold, shove
    big = np.zeros((2, CLASSES))  # regrets of fold, call
    push_sum = np.zeros(CLASSES)
    call_sum = np.zeros(CLASSES)
    weight_sum = 0.0
    push = call = np.full(CLASSES, 0.5)
    gap = float("inf")
    iteration = 0
    while iteration < max_iterations:
        iteration += 1
        push = regret_matching(*small)
        call = regret_matching(*big)
        fold_value, shove_value = game.small_blind_values(call)
        mean = (1 - push) * fold_value + push * shove_value
        small = np.maximum(small + np.stack([fold_value - mean, shove_value - mean]), 0)
        push = regret_matching(*small)  # alternating: the big blind answers the new one
        big_fold, big_call = game.big_blind_values(push)
        mean = (1 - call) * big_fold + call * big_call
        big = np.maximum(big + np.stack([big_fold - mean, big_call - mean]), 0)
        push_sum += iteration * push
        call_sum += iteration * regret_matching(*big)
        weight_sum += iteration
        if iteration % 100 == 0:
            gap = game.exploitability(push_sum / weight_sum, call_sum / weight_sum)
            if gap < tolerance:
                break
    push, call = push_sum / weight_sum, call_sum / weight_sum
    return PushFoldSolution(stack, ante, push, call, game.value(push, call),
                            game.exploitability(push, call), iteration)


@dataclass(frozen=True)
class Chart:
    """For each class, the largest stack of ``stacks`` at which it is shoved and at which it
    calls a shove (0.0: at none of them; the largest stack: there or more)."""

    ante: float
    stacks: np.ndarray
    push: dict[str, float]
    call: dict[str, float]
    worst_exploitability: float


def chart(ante: float = 0.0, stacks: np.ndarray = CHART_STACKS,
          tolerance: float = DEFAULT_TOLERANCE) -> Chart:
    """The threshold charts over ``stacks`` (module docstring)."""
    push_upto = np.zeros(CLASSES)
    call_upto = np.zeros(CLASSES)
    worst = 0.0
    for stack in stacks:
        solution = solve(float(stack), ante, tolerance=tolerance)
        worst = max(worst, solution.exploitability)
        push_upto = np.where(solution.push >= 0.5, stack, push_upto)
        call_upto = np.where(solution.call >= 0.5, stack, call_upto)
    return Chart(ante, stacks, dict(zip(CLASS_NAMES, map(float, push_upto), strict=True)),
                 dict(zip(CLASS_NAMES, map(float, call_upto), strict=True)), worst)


# -- charts kept in a file -------------------------------------------------------------------------
CHART_ANTES = (0.0, 0.1, 0.125, 0.25)
PACKAGED_CHARTS = Path(__file__).resolve().parents[1] / "data" / "pushfold-charts.json"
CHARTS_MAGIC = "yipan-pushfold-charts 1"


def save_charts(path: str | Path, charts: list[Chart]) -> None:
    """The charts as one JSON line after a magic line, then ``sha256 <digest of the bytes
    before>``, written atomically."""
    data = [{"ante": c.ante, "stacks": [float(c.stacks[0]), float(c.stacks[-1])],
             "push": c.push, "call": c.call, "worst_exploitability": c.worst_exploitability}
            for c in charts]
    body = CHARTS_MAGIC + "\n" + json.dumps(data, sort_keys=True) + "\n"
    write_atomically(path, body + f"sha256 {hashlib.sha256(body.encode()).hexdigest()}\n")


def load_charts(path: str | Path) -> dict[float, Chart]:
    """Read ``save_charts``'s file (a damaged one is a CorruptEquityTableError)."""
    data = read_capped(path, MAX_CHARTS_BYTES, "charts")
    body, _, tail = data.rpartition(b"sha256 ")
    if not body or hashlib.sha256(body).hexdigest().encode() != tail.strip():
        raise CorruptEquityTableError(f"charts {Path(path).name!r}: checksum mismatch")
    try:
        magic, line = body.decode("ascii").splitlines()
        if magic != CHARTS_MAGIC:
            raise ValueError
        charts = {}
        for item in json.loads(line):
            if set(item["push"]) != set(CLASS_NAMES) or set(item["call"]) != set(CLASS_NAMES):
                raise ValueError
            low, high = item["stacks"]
            stacks = np.round(np.arange(low, high + 1e-9, 0.1), 1)
            charts[float(item["ante"])] = Chart(float(item["ante"]), stacks, item["push"],
                                                item["call"], item["worst_exploitability"])
        return charts
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise CorruptEquityTableError(f"charts {Path(path).name!r}: malformed") from None


@cache
def chart_for(ante: float) -> Chart:
    """The chart at ``ante``: from the package's file for the antes it holds
    (``CHART_ANTES``, computed by ``chart`` and checked against it by the tests), else
    computed (seconds)."""
    if PACKAGED_CHARTS.is_file():
        known = load_charts(PACKAGED_CHARTS)
        if ante in known:
            return known[ante]
    return chart(ante)
