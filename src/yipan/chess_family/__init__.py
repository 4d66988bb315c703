"""What the chess family's engines share, as Fairy-Stockfish shares one search across its
variants: chess and xiangqi here (shogi, janggi or makruk would slot in the same way).

Shared (written once, here):

- ``scores``: the score scale (``MATE - plies``, ``INFINITE``), yipan's ``WIN - plies`` and
  UCI's ``cp``/``mate`` read from it;
- ``search``: the numba pieces every family search kernel is made of: the control block it
  shares with the driver, the transposition table (its entry layout, ``store`` and
  ``probe``), picking the next move, the principal variation, killers and history, late-move
  reductions;
- ``engine``: the driver (iterative deepening with aspiration windows, the stop watcher, the
  ``Iteration`` a finished depth yields, ``think``, ``warm_up``);
- ``clock``: UCI/UCCI's clock and the share of it a move gets (``Clock``, ``budget``);
- ``player``: the engine as a player that thinks aloud at a level;
- ``hooks``: the analysis a game's hooks report, and their limits;
- ``rules``: the Game over a kernel move generator (the bridge a game's rules cross).

Each game keeps its own: the board and move generation, the evaluation, the numba search
body (its node: repetition and draw rules, pruning guards, quiescence, move ordering) built
from the shared pieces, and whatever only it has (chess's endgame tables, xiangqi's
perpetual check and banned moves).

Not a game (nothing is registered): it imports core, search and the numba helpers, never
``games``, front ends or engines.
"""

from pathlib import Path

from ..native import drop_stale_cache

KERNEL_MODULES = ("search.py",)
KERNEL_FILES = tuple(str(Path(__file__).with_name(name)) for name in KERNEL_MODULES)
"""The shared kernel files, by absolute path: a game's cache guard includes them, since its
kernels compile the shared ones into themselves (``native.drop_stale_cache``)."""

drop_stale_cache(Path(__file__).parent, KERNEL_MODULES)
