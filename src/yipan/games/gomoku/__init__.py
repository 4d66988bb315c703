"""Gomoku: the rules (``rules``), and a fast engine (``engine``) built on numba kernels:
line shapes (``patterns``), an incrementally updated board (``board``), threat-space search
(``threats``) and alpha-beta (``search``)."""

from pathlib import Path

from ...native import drop_stale_cache
from .rules import DEFAULT_SIZE, RULES, Gomoku, Stones

KERNEL_MODULES = ("patterns.py", "board.py", "context.py", "search.py", "threats.py")
drop_stale_cache(Path(__file__).parent, KERNEL_MODULES)  # before any kernel module is imported

__all__ = ["DEFAULT_SIZE", "RULES", "Gomoku", "Stones"]
