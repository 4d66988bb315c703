"""Chess: the rules (``Chess``) over a numba bitboard move generator (``board``), an engine
(``search``, ``evaluation``, driven by ``engine``), and endgame tables by retrograde analysis
(``tablebase``)."""

from pathlib import Path

from ...chess_family import KERNEL_FILES as FAMILY_KERNELS
from ...native import drop_stale_cache

KERNEL_MODULES = ("bits.py", "board.py", "evaluation.py", "nnue.py", "search.py", "retrograde.py")
# before any kernel module is imported; the family's kernels are compiled into ours, so a
# change to them makes ours stale too
drop_stale_cache(Path(__file__).parent, (*KERNEL_MODULES, *FAMILY_KERNELS))

from .rules import Chess, Position  # noqa: E402 - after the cache guard

__all__ = ["Chess", "Position"]
