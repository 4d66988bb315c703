"""Connect Four: the rules (``ConnectFour``), a numba solver, an opening book and a player."""

from pathlib import Path

from ...native import drop_stale_cache
from .rules import ConnectFour, Geometry, Position

KERNEL_MODULES = ("kernel.py", "playouts.py", "uct.py")
drop_stale_cache(Path(__file__).parent, KERNEL_MODULES)  # before any kernel module is imported

__all__ = ["ConnectFour", "Geometry", "Position"]
