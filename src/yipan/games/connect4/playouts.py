"""Random Connect Four playouts in numba, over the state of ``yipan.games.connect4``.

The state is ``(current, mask, moves)`` in Pascal Pons' layout: column-major, ``height + 1``
bits per column (the extra top bit stays empty so a shift never wraps to the next column);
``mask`` holds every stone, ``current`` the stones of the side to move::

    7 columns x 6 rows              bit index of each cell
    .  .  .  .  .  .  .   (sentinel) 6 13 20 27 34 41 48
    .  .  .  .  .  .  .              5 12 19 26 33 40 47
    .  .  .  .  .  .  .              4 11 18 25 32 39 46
    .  .  .  .  .  .  .              3 10 17 24 31 38 45
    .  .  .  .  .  .  .              2  9 16 23 30 37 44
    .  .  .  .  .  .  .              1  8 15 22 29 36 43
    .  .  .  .  .  .  .              0  7 14 21 28 35 42

Playing column ``c`` adds ``mask + bottom(c)`` masked to the column (the lowest empty cell),
then swaps sides: ``current ^= mask``. Four in a row along direction d (1 vertical,
height + 1 horizontal, height and height + 2 diagonal) is ``b & b>>d & b>>2d & b>>3d != 0``.

``ConnectFourRules`` is a small Game over the same state, so the kernel can be tested against
exact search without the full Connect Four module, and MCTS can be measured on it.
"""

from __future__ import annotations

import random
from typing import NamedTuple

import numpy as np
from numba import njit

from ...core import DRAW, Game, GameInfo, Outcome


@njit(cache=True)
def has_four(stones: int, stride: int) -> bool:
    """Four in a row among ``stones`` (``stride`` = height + 1 bits a column)."""
    for shift in (1, stride - 1, stride, stride + 1):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


@njit(cache=True)
def _next_random(seed: np.uint64) -> tuple:
    """xorshift64*: the kernel's own generator, seeded by its caller only."""
    seed ^= seed >> np.uint64(12)
    seed ^= seed << np.uint64(25)
    seed ^= seed >> np.uint64(27)
    return seed, (seed * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(33)


@njit(cache=True)
def random_playout(current: int, mask: int, moves: int, width: int, height: int,
                   seed: np.uint64) -> tuple:
    """Uniformly random moves to the end; returns (result for the side to move at the start:
    +1, 0 or -1, the generator's next seed). The position must not be finished."""
    stride = height + 1
    columns = np.empty(width, np.int64)
    start_parity = moves & 1
    while moves < width * height:
        count = 0
        for col in range(width):
            if not mask & (1 << (height - 1 + col * stride)):
                columns[count] = col
                count += 1
        seed, draw = _next_random(seed)
        col = columns[int(draw % np.uint64(count))]
        column_mask = ((1 << height) - 1) << (col * stride)
        new_mask = mask | (mask + (1 << (col * stride)))
        mine = current | (new_mask & column_mask & ~mask)
        if has_four(mine, stride):
            return (1 if (moves & 1) == start_parity else -1), seed
        current, mask = mine ^ new_mask, new_mask
        moves += 1
    return 0, seed


@njit(cache=True)
def many_playouts(current: int, mask: int, moves: int, width: int, height: int, count: int,
                  seed: np.uint64) -> int:
    """The sum of ``count`` playouts' results (for the benchmark of the kernel alone)."""
    total = 0
    for _ in range(count):
        result, seed = random_playout(current, mask, moves, width, height, seed)
        total += result
    return total


class Position(NamedTuple):
    """Connect Four in Pons' layout (drawn in the module docstring)."""

    current: int
    mask: int
    moves: int


class ConnectFourRules(Game[Position, int]):
    """Connect Four rules over ``Position``, with the numba playout declared (``info.playout``).

    ``numba_playouts=False`` declares none, so MCTS falls back to its generic random playout
    (the benchmark compares the two).
    """

    def __init__(self, width: int = 7, height: int = 6, numba_playouts: bool = True) -> None:
        self.width, self.height, self.stride = width, height, height + 1
        self.info = GameInfo(name="connect4-rules", title="Connect Four (rules for tests)",
                             grid=(height, width), max_moves=width * height,
                             playout=numba_playouts)

    def initial_state(self) -> Position:
        return Position(0, 0, 0)

    def to_move(self, state: Position) -> int:
        return state.moves & 1

    def legal_moves(self, state: Position) -> list[int]:
        if self.outcome(state) is not None:
            return []
        return [c for c in range(self.width)
                if not state.mask >> (self.height - 1 + c * self.stride) & 1]

    def play(self, state: Position, move: int) -> Position:
        current, mask, moves = state
        new_mask = mask | (mask + (1 << (move * self.stride)))
        return Position(current ^ mask, new_mask, moves + 1)

    def outcome(self, state: Position) -> Outcome | None:
        previous = state.current ^ state.mask  # the stones of the side that just moved
        if state.moves and has_four(previous, self.stride):
            return Outcome((state.moves - 1) & 1)
        if state.moves == self.width * self.height:
            return DRAW
        return None

    def playout(self, state: Position, rng: random.Random) -> float:
        result, _ = random_playout(state.current, state.mask, state.moves, self.width,
                                   self.height, np.uint64(rng.getrandbits(64) | 1))
        return float(result if state.moves & 1 == 0 else -result)

    def format_move(self, move: int) -> str:
        return str(move + 1)

    def parse_move(self, state: Position | None, text: str) -> int:
        return super().parse_move(state, text) - 1

    def from_moves(self, text: str) -> Position:
        """A position from columns 1..width played in turn (``"4453"``)."""
        state = self.initial_state()
        for char in text:
            state = self.play(state, int(char) - 1)
        return state
