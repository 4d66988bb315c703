"""Chinese chess (象棋): the rules (``Xiangqi``) over a numba move generator (``board``), and
an engine (``search``, ``evaluation``, driven by ``engine``).

The rule set (what ``Xiangqi.outcome`` and the engine's search both apply):

- a side with no legal move loses (checkmate and stalemate alike: there is no stalemate draw);
- the generals may not face each other on an open file (a move that leaves them so is
  illegal, like one that leaves one's own general attacked);
- repetition: when a position (pieces and side to move) occurs for the third time, the game
  ends. If, through the moves since its first occurrence, one side gave check with every move
  and the other did not, the side that kept checking loses (perpetual check); otherwise it is
  a draw. The search applies the same judgement at the first repetition within its tree;
- sixty moves (120 plies) without a capture are a draw.

Left out: perpetual chase (an unprotected piece attacked again and again by moves that are
not checks) is judged a draw here, not a loss; the finer Asian (AXF) rules on mixed
check-and-chase cycles, "one check one idle" and so on are not applied.
"""

from pathlib import Path

from ...native import drop_stale_cache

KERNEL_MODULES = ("board.py", "evaluation.py", "search.py")
drop_stale_cache(Path(__file__).parent, KERNEL_MODULES)  # before any kernel module is imported

from .rules import Position, Xiangqi  # noqa: E402 - after the cache guard

__all__ = ["Position", "Xiangqi"]
