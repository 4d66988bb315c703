"""2048: the rules on a 64-bit board (``rules``), numba kernels (``kernel``), and the
expectimax AI (``player``)."""

from pathlib import Path

from ...native import drop_stale_cache
from .rules import G2048, MOVE_NAMES, Spawn, State2048, max_tile

KERNEL_MODULES = ("kernel.py",)  # its kernels call yipan.native's generator
drop_stale_cache(Path(__file__).parent, KERNEL_MODULES)  # before the kernel module is imported

__all__ = ["G2048", "MOVE_NAMES", "Spawn", "State2048", "max_tile"]
