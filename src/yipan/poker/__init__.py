"""The poker library behind the push-or-fold game and ``yipan poker`` (a library, not a
game): heads-up hold'em cards and the 169 starting-hand classes (``cards``), a seven-card
evaluator in numba (``evaluator``), preflop all-in equities by board enumeration
(``equity``) and the push-or-fold equilibrium by CFR+ (``pushfold``)."""

from pathlib import Path

from ..native import drop_stale_cache

KERNEL_MODULES = ("evaluator.py", "equity.py")  # equity's kernels call the evaluator's
drop_stale_cache(Path(__file__).parent, KERNEL_MODULES)  # before any kernel module is imported
