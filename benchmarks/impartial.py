"""Grundy tables: how long yipan takes to compute G(0..N) of heap games.

    PYTHONPATH=src python benchmarks/impartial.py [--quick]

- Kayles (0.77) and Dawson's Kayles (0.07) to 10^6: the period is proved by the Guy-Smith
  theorem from a few hundred values, then the table is extended from it; compared with the
  direct (quadratic) kernel to 2 * 10^4.
- Grundy's game to 10^5 by the rare-values method, compared with the plain numba kernel
  (every split, quadratic) and a set-based pure-Python version on a smaller N; then to 10^6
  by the rare-values method (skipped with --quick).

Kernels are compiled (or loaded from numba's cache) before anything is timed. Times are
wall-clock on a shared machine: compare the ratios printed in one run, not across runs.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from yipan.impartial import GrundyRule, OctalRule
from yipan.impartial.kernels import (
    find_proved_period,
    grundy_game_plain,
    grundy_game_rare,
    octal_table,
)


def timed(work: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def warm_up() -> None:
    octal_table(np.array([0, 7, 7], np.int64), 10)
    grundy_game_plain(10)
    grundy_game_rare(10)
    find_proved_period(np.zeros(4, np.int64), 1, 0, 1, 0)


def grundy_game_sets(upto: int) -> list[int]:
    """The straightforward version: a set of option values per heap, then its mex."""
    values = [0] * (upto + 1)
    for n in range(upto + 1):
        options = {values[a] ^ values[n - a] for a in range(1, (n - 1) // 2 + 1)}
        value = 0
        while value in options:
            value += 1
        values[n] = value
    return values


def octal_figures(code: str, upto: int, direct_upto: int) -> None:
    rule = OctalRule(code)
    seconds, values = timed(lambda: rule.table(upto))
    found = rule.periodicity()
    direct_seconds, _ = timed(lambda: rule._raw(direct_upto))
    print(f"{rule.title} ({rule.code}) to {upto:,}: {seconds:.3f} s "
          f"(pre-period {found.preperiod}, period {found.period}, proved from "
          f"{found.checked} values; G({upto:,}) = {values[-1]})")
    print(f"    direct quadratic kernel to {direct_upto:,}: {direct_seconds:.3f} s "
          f"({direct_seconds / seconds:.1f}x the whole 10^6 table via the period)")


def grundy_figures(quick: bool) -> None:
    upto = 10**5
    rare_seconds, rare = timed(lambda: GrundyRule().table(upto))
    plain_seconds, plain = timed(lambda: grundy_game_plain(upto))
    assert np.array_equal(rare, plain)
    small = 3000
    sets_seconds, sets = timed(lambda: grundy_game_sets(small))
    assert sets == rare[:small + 1].tolist()
    rare_small, _ = timed(lambda: grundy_game_rare(small))
    print(f"Grundy's game to {upto:,}: rare values {rare_seconds:.3f} s, plain numba "
          f"{plain_seconds:.3f} s (rare values {plain_seconds / rare_seconds:.1f}x faster); "
          f"max value {rare.max()}, {int(np.count_nonzero(_rare_mask(rare)))} heaps of rare value")
    print(f"    to {small:,}: set-based Python {sets_seconds:.3f} s, rare values "
          f"{rare_small:.4f} s ({sets_seconds / max(rare_small, 1e-9):,.0f}x)")
    if quick:
        return
    million = 10**6
    seconds, values = timed(lambda: grundy_game_rare(million))
    assert np.array_equal(values[:upto + 1], rare)
    print(f"Grundy's game to {million:,}: rare values {seconds:.2f} s; max value "
          f"{values.max()}, {int(np.count_nonzero(_rare_mask(values)))} heaps of rare value")


def _rare_mask(values: np.ndarray) -> np.ndarray:
    """Rare values: ``value >> 1`` has an even number of one bits."""
    bits = values >> 1
    parity = np.zeros_like(bits)
    while bits.any():
        parity ^= bits & 1
        bits = bits >> 1
    return parity == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip Grundy's game to 10^6")
    args = parser.parse_args()
    seconds, _ = timed(warm_up)
    print(f"kernels compiled or loaded from cache: {seconds:.2f} s")
    octal_figures("0.77", 10**6, 2 * 10**4)
    octal_figures("0.07", 10**6, 2 * 10**4)
    grundy_figures(args.quick)


if __name__ == "__main__":
    main()
