"""Go (围棋): the rules (``rules``), a numba board of strings with liberties (``board``),
playouts with MoGo-style 3x3 patterns (``patterns``, ``playout``), Monte Carlo tree search
with RAVE over arrays (``search``), dead stones estimated by playouts (``scoring``), time
management for GTP's clocks (``timing``) and SGF through sgfmill (``sgf``)."""

from pathlib import Path

from ...native import drop_stale_cache
from .rules import DEFAULT_KOMI, DEFAULT_SIZE, PASS, Go, Position

KERNEL_MODULES = ("board.py", "patterns.py", "playout.py", "search.py")
drop_stale_cache(Path(__file__).parent, KERNEL_MODULES)  # before any kernel module is imported

__all__ = ["DEFAULT_KOMI", "DEFAULT_SIZE", "PASS", "Go", "Position"]
