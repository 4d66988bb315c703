"""Sums of impartial games: a move is made in exactly one component.

The Grundy value of a sum is the XOR ("nim-sum") of its components' values, so the sum is
lost for the side to move exactly when that XOR is 0. A winning move changes one component
``i`` to an option whose value is ``G(i) ^ total``: only those moves reach a zero position.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import reduce
from operator import xor
from typing import NamedTuple

from .mex import grundy


def nim_sum(values: Iterable[int]) -> int:
    """The XOR of Grundy values: the value of the sum of games with those values."""
    return reduce(xor, values, 0)


class SumMove(NamedTuple):
    """Move component ``index`` of a sum to ``position``."""

    component: int  # which component of the sum (from 0)
    position: Hashable


def winning_moves(components: Sequence[Hashable],
                  options: Callable[[Hashable], Iterable[Hashable]],
                  value: Callable[[Hashable], int] | None = None) -> list[SumMove]:
    """Every move of the sum of ``components`` that leaves a position of Grundy value 0.

    Components may come from different games: tag each position with its game, e.g.
    ``("kayles", 7)``, and let ``options`` dispatch on the tag.
    ``value`` gives a component's Grundy value (default: ``grundy`` over ``options``, with one
    memo shared by all components). Empty when the sum is already lost (value 0).
    """
    if value is None:
        memo: dict = {}

        def value(position: Hashable) -> int:
            return grundy(position, options, memo)

    values = [value(component) for component in components]
    total = nim_sum(values)
    if total == 0:
        return []
    moves: list[SumMove] = []
    for index, (component, component_value) in enumerate(zip(components, values, strict=True)):
        target = component_value ^ total  # may exceed the component's value: look anyway
        moves.extend(SumMove(index, option) for option in options(component)
                     if value(option) == target)
    return moves
