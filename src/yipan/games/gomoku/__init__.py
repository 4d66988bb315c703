"""Gomoku: the rules (``rules``), and a fast engine (``engine``) built on numba kernels:
line shapes (``patterns``), an incrementally updated board (``board``), threat-space search
(``threats``) and alpha-beta (``search``)."""

from .rules import DEFAULT_SIZE, RULES, Gomoku, Stones

__all__ = ["DEFAULT_SIZE", "RULES", "Gomoku", "Stones"]
