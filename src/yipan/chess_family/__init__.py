"""What the chess family's engines share, as Fairy-Stockfish shares one search across its
variants: chess and xiangqi here (shogi, janggi or makruk would slot in the same way).

Shared (written once, here):

- ``scores``: the score scale (``MATE - plies``, ``INFINITE``), yipan's ``WIN - plies`` and
  UCI's ``cp``/``mate`` read from it;
- ``search``: the numba pieces every game's search node is made of: the control block it
  shares with the driver, the transposition table (its entry layout, ``store`` and
  ``probe``), picking the next move, the principal variation, killers and history,
  late-move reductions, futility;
- ``engine``: the driver (iterative deepening with aspiration windows, the stop watcher, the
  ``Iteration`` a finished depth yields, ``think``, ``warm_up``);
- ``clock``: UCI/UCCI's clock and the share of it a move gets (``Clock``, ``budget``);
- ``player``: the engine as a player that thinks aloud at a level;
- ``hooks``: the analysis a game's hooks report, and their limits;
- ``rules``: the Game over a kernel move generator (the bridge a game's rules cross).

Each game keeps its own: the board and move generation, the evaluation, and its search node
(``search``: the recursive kernel, built from the shared pieces, with its repetition and draw
rules, the null move's guard, quiescence's choice of moves and move ordering), and whatever
only it has (chess's endgame tables, xiangqi's perpetual check and banned moves).

Why each game keeps its recursive node: it calls itself, and numba resolves what a kernel
calls when it compiles it, from the kernel's module. A node written once and compiled per
game over functions the game supplies searches the same nodes but slower, since numba does
not inline what is passed in as well as what a module names (``benchmarks/chess_family.py``
measures the shared pieces against each game's own), so the node is written in each game
over these pieces instead.

Not a game (nothing is registered): it imports core, search and the numba helpers, never
``games``, front ends or engines.
"""

from pathlib import Path

from ..native import drop_stale_cache

KERNEL_MODULES = ("nnue.py", "search.py")  # the kernels cached here
KERNEL_FILES = tuple(str(Path(__file__).with_name(name)) for name in KERNEL_MODULES)
"""The family's kernel files, by absolute path: a game's cache guard includes them, since its
kernels compile the family's into themselves (``native.drop_stale_cache``)."""

drop_stale_cache(Path(__file__).parent, KERNEL_MODULES)
