"""The minimum excludant and the Grundy value of any finite impartial game.

A game is given by ``options(position) -> iterable of positions`` (positions hashable). The
Grundy value is ``G(p) = mex {G(q) : q an option of p}``; by the Sprague-Grundy theorem a
position is lost for the side to move (normal play) exactly when ``G(p) == 0``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from ..core.errors import YipanError

Position = TypeVar("Position", bound=Hashable)
Options = Callable[[Position], Iterable[Position]]
Observe = Callable[[Hashable, list, int], None]
"""``observe(position, its options, its Grundy value)``: called once a value is computed."""


class CycleError(YipanError, ValueError):
    """The options graph has a cycle, so Grundy values (of finite games) are not defined."""

    def __init__(self, position: Hashable) -> None:
        super().__init__(f"the game has a cycle through position {position!r}; "
                         "Grundy values need a game that always ends")
        self.position = position


def mex(values: Iterable[int]) -> int:
    """The smallest non-negative integer not among ``values`` (``mex([0, 1, 3]) == 2``)."""
    present = set(values)
    value = 0
    while value in present:
        value += 1
    return value


def grundy(position: Position, options: Options, memo: dict | None = None,
           observe: Observe | None = None) -> int:
    """The Grundy value of ``position``, for a game given by its ``options`` function.

    Iterative depth-first search with an explicit stack, so chains of any depth work (no
    recursion limit). ``memo`` (position -> value) is filled in and may be shared between
    calls to reuse work. A position met again while it is still being expanded lies on a
    cycle: CycleError names it. ``observe`` sees each value computed, after its options'
    (the explained tree of ``yipan explain GAME --algorithm grundy``).
    """
    memo = {} if memo is None else memo
    if position in memo:
        return memo[position]
    on_path: set = {position}
    # each frame: (position, its options, index of the next option to look at)
    stack: list[tuple[Position, list[Position], int]] = [(position, list(options(position)), 0)]
    while stack:
        current, children, index = stack[-1]
        while index < len(children) and children[index] in memo:
            index += 1
        if index < len(children):
            child = children[index]
            if child in on_path:
                raise CycleError(child)
            stack[-1] = (current, children, index + 1)
            on_path.add(child)
            stack.append((child, list(options(child)), 0))
            continue
        memo[current] = mex(memo[child] for child in children)
        if observe is not None:
            observe(current, children, memo[current])
        on_path.discard(current)
        stack.pop()
    return memo[position]
