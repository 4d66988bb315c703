"""A transposition table with bounds, a size cap and a replacement rule.

A fixed number of slots indexed by the key's hash (no rehashing, no growth). Each slot holds
one ``Entry(key, depth, flag, value, move, generation)``. ``depth`` is the depth the value was
searched to (``EXACT_DEPTH`` when the subtree reached no heuristic leaf). A new entry replaces
the slot's old one when the slot is empty, holds the same position, comes from an older search
(generation), or was searched less deep: depth-preferred with ageing.

Win and loss values depend on the distance from the root, so they are stored relative to the
node (``to_table``) and converted back on a hit (``from_table``).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from ..core import add_plies

EXACT, LOWER, UPPER = 0, 1, 2
EXACT_DEPTH = 1 << 30
FIBONACCI = 0x9E3779B97F4A7C15  # 2**64 / golden ratio: spreads nearby keys over the table
MASK64 = (1 << 64) - 1


def to_table(value: float, ply: int) -> float:
    """A value found ``ply`` plies below the root, as counted from its own node."""
    return add_plies(value, -ply)


# from_table(value, ply): a node-relative value, as counted from the root ``ply`` plies above;
# that is add_plies itself, named for what it does here (and one call less per table probe)
from_table = add_plies


@dataclass(slots=True)
class Entry:
    """What a slot remembers of one searched position. Never changed once stored (not frozen:
    a frozen dataclass is slower to make, and one is made per searched node)."""

    key: Hashable  # the position (or its canonical form): tells a hit from a slot collision
    depth: int  # plies searched below it; EXACT_DEPTH when no heuristic leaf was reached
    flag: int  # EXACT, LOWER (failed high: true value >= value) or UPPER (failed low: <=)
    value: float  # counted from this node (``to_table``), not from the root
    move: Any  # the best move found (None when there was none), tried first next time
    generation: int  # the search that stored it: entries of older searches give way first


class TranspositionTable:
    """Fixed-size slots; ``get`` returns the position's ``Entry`` or None."""

    __slots__ = ("capacity", "bits", "shift", "slots", "generation", "stores", "replaced")

    def __init__(self, capacity: int = 1 << 20) -> None:
        if capacity < 1:
            raise ValueError("a transposition table needs at least one slot")
        # a power of two of slots, indexed by Fibonacci hashing: keys that are plain integers
        # (bitboards) hash to themselves, and their low bits alone would index badly
        self.bits = max(1, (capacity - 1).bit_length())
        self.capacity = 1 << self.bits
        self.shift = 64 - self.bits
        self.slots: list[Entry | None] = [None] * self.capacity
        self.generation = 0
        self.stores = 0
        self.replaced = 0

    def new_search(self) -> None:
        """Age the entries: those of earlier searches are replaced first."""
        self.generation += 1

    def clear(self) -> None:
        self.slots = [None] * self.capacity
        self.generation = 0

    def index(self, key: Hashable) -> int:
        return (hash(key) * FIBONACCI & MASK64) >> self.shift

    def get(self, key: Hashable) -> Entry | None:
        entry = self.slots[(hash(key) * FIBONACCI & MASK64) >> self.shift]
        if entry is not None and entry.key == key:
            return entry
        return None

    def put(self, key: Hashable, depth: int, flag: int, value: float, move: Any) -> None:
        index = (hash(key) * FIBONACCI & MASK64) >> self.shift
        old = self.slots[index]
        if old is not None and old.key != key:
            if old.generation == self.generation and old.depth > depth:
                return  # a deeper entry of this search keeps its slot
            self.replaced += 1
        self.stores += 1
        self.slots[index] = Entry(key, depth, flag, value, move, self.generation)

    def __len__(self) -> int:
        return sum(entry is not None for entry in self.slots)

