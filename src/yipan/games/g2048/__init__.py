"""2048: the rules on a 64-bit board (``rules``), numba kernels (``kernel``), and the
expectimax AI (``player``)."""

from .rules import G2048, MOVE_NAMES, Spawn, State2048, max_tile

__all__ = ["G2048", "MOVE_NAMES", "Spawn", "State2048", "max_tile"]
