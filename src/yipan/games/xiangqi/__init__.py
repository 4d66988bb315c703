"""Chinese chess (象棋): the rules (``Xiangqi``) over a numba move generator (``board``), and
an engine (``search``, ``evaluation`` or a trained network: ``nnue``, driven by
``engine``).

The rule set (what ``Xiangqi.outcome`` and the engine's search both apply):

- a side with no legal move loses (checkmate and stalemate alike: there is no stalemate draw);
- the generals may not face each other on an open file (a move that leaves them so is
  illegal, like one that leaves one's own general attacked);
- repetition: when a position (pieces and side to move) occurs for the third time, the game
  ends. If, through the moves since its first occurrence, one side gave check with every move
  and the other did not, the side that kept checking loses (perpetual check). Failing that,
  if one side checked or chased with every move and the other did not, the chasing side
  loses (perpetual chase: ``rules.is_chase``, a new threat to take an unprotected piece, or a
  chariot by a horse or cannon; generals and soldiers may chase and be chased freely).
  Otherwise it is a draw. The search judges perpetual check the same way at the first
  repetition within its tree, and scores any other repetition as a draw;
- sixty moves (120 plies) without a capture are a draw.

Left out: the finer Asian (AXF) rules (a threat to a piece protected only in appearance, a
chase by several pieces in turn, "one check, one idle", and the tables of allowed and
forbidden cycles); the search does not see perpetual chase, only the rules do.
"""

from pathlib import Path

from ...chess_family import KERNEL_FILES as FAMILY_KERNELS
from ...native import drop_stale_cache

KERNEL_MODULES = ("board.py", "evaluation.py", "nnue.py", "search.py")
# before any kernel module is imported; the family's kernels are compiled into ours, so a
# change to them makes ours stale too
drop_stale_cache(Path(__file__).parent, (*KERNEL_MODULES, *FAMILY_KERNELS))

from .rules import Position, Xiangqi  # noqa: E402 - after the cache guard

__all__ = ["Position", "Xiangqi"]
