"""Gomoku: the rules (``rules``), and a fast engine (``engine``) built on numba kernels:
line shapes (``patterns``), an incrementally updated board (``board``), threat-space search
(``threats``) and alpha-beta (``search``)."""

from .kernel_cache import drop_stale_cache
from .rules import DEFAULT_SIZE, RULES, Gomoku, Stones

drop_stale_cache()  # runs before any kernel module is imported (see kernel_cache)

__all__ = ["DEFAULT_SIZE", "RULES", "Gomoku", "Stones"]
