"""The chess engine: the family's driver (``yipan.chess_family.engine``: iterative deepening
with aspiration windows, the stop watcher) over chess's numba search, with the endgame tables.

The tables (``tables``: yipan's own, retrograde; ``syzygy``: a user's Syzygy files, asked after
ours) answer at the root when they cover it (its move and distance to mate are the answer),
and yipan's are probed by the search kernel at every node they cover below it.

Scores are centipawns for the side to move inside the engine; mates are ``MATE - plies``
(``yipan.chess_family.scores``: ``to_value``, ``mate_in_plies``, ``uci_score``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numpy as np

from ...chess_family.clock import Clock, budget
from ...chess_family.engine import DEFAULT_HASH_MB, FamilyEngine, Iteration
from ...chess_family.scores import MATE, mate_in_plies, to_value, uci_score
from ...core import Limit
from .nnue import FEATURES, LAYOUTS
from .rules import Chess, Position, legal_moves_of, to_row
from .search import QUIET_CHECKS, Context, new_context, search, with_network
from .syzygy import Syzygy
from .tablebase import Tablebase, best_move, empty_pack, main_line, tablebase

__all__ = ["Clock", "Engine", "Iteration", "budget", "mate_in_plies", "table_score",
           "to_value", "uci_score"]

TABLE_LINE_PLIES = 60  # the main line given from an endgame table


def table_score(value: int) -> int:
    """An endgame table's value (retrograde layout) as an engine score."""
    if value > 0:
        return MATE - value
    if value < 0:
        return -(MATE - (-value - 1))
    return 0


class Engine(FamilyEngine):
    """One search memory (table, killers, history) reused from move to move, and the
    endgame tables (``tables``; default: ``tablebase.default_folder()``, None for none):
    consulted before any search (where one covers the root, its move and distance to mate
    are the answer) and probed by the search kernel at every node they cover (packed into
    the kernel's context before the first search with them)."""

    search_kernel = search
    network_game = "chess"
    network_features = tuple(FEATURES * buckets for buckets in LAYOUTS)

    def __init__(self, hash_mb: int = DEFAULT_HASH_MB,
                 tables: Tablebase | None | str = "default",
                 syzygy: Syzygy | None = None) -> None:
        super().__init__(hash_mb)
        self.game = Chess()
        self._tables: Tablebase | None = tablebase() if isinstance(tables, str) else tables
        self._packed_for: Tablebase | None = None
        self.syzygy = syzygy  # a user's Syzygy files, asked after our tables
        # quiescence's first ply may try quiet checks (search.py): off, as measured side by
        # side on WAC (benchmarks/chess.py --wac-compare): +3 positions at 300,000 nodes
        # each, -4 at 1,000,000, -1 at 1 s on a loaded machine
        self.quiet_checks = False

    def new_context(self, hash_mb: int) -> Context:
        self._packed_for = None
        return new_context(hash_mb)

    def legal_moves(self, state: Position) -> tuple[int, ...]:
        return legal_moves_of(state)

    def with_network(self, ctx: Context, arrays: dict[str, np.ndarray] | None) -> Context:
        return with_network(ctx, arrays)

    def to_row(self, state: Position) -> np.ndarray:
        return to_row(state)

    @property
    def tables(self) -> Tablebase | None:
        return self._tables

    @tables.setter
    def tables(self, tables: Tablebase | None) -> None:
        self._tables = tables
        self._packed_for = None

    def load_position(self, state: Position) -> None:
        """Give the kernel the endgame tables (when they changed since the last search) and
        the quiet-checks switch."""
        if self._packed_for is not self._tables or self._packed_for is None:
            packed = empty_pack() if self._tables is None else self._tables.packed()
            self.ctx = Context.of(self.ctx.arrays._replace(
                tb_values=packed.values, tb_lookup=packed.lookup, tb_info=packed.info))
            self._packed_for = self._tables
        self.ctx.control[QUIET_CHECKS] = 1 if self.quiet_checks else 0

    def iterate(self, state: Position, limit: Limit | None = None, *,
                soft_time: float | None = None, root_tables: bool = True,
                banned: tuple[int, ...] = ()) -> Iterator[Iteration]:
        """One Iteration per finished depth, until the limit or a stop
        (``FamilyEngine.deepen``), never playing a ``banned`` move at the root (unless every
        move is banned). With ``root_tables`` off, or moves banned, the root is searched even
        where an endgame table covers it (the tables still value the positions below it)."""
        limit = limit or Limit()
        if not legal_moves_of(state):
            return
        start = time.perf_counter()
        if root_tables and not banned:
            known = self._from_tables(state, start) if self.tables is not None else None
            if known is None and self.syzygy is not None:
                known = self._from_syzygy(state, start)
            if known is not None:
                yield known
                return
        yield from self.deepen(state, limit, start, soft_time, banned)

    def think(self, state: Position, limit: Limit | None = None, *,
              soft_time: float | None = None,
              on_iteration: Callable[[Iteration], None] | None = None,
              root_tables: bool = True, banned: tuple[int, ...] = ()) -> Iteration | None:
        """The last Iteration within the limit (None when the position has no move)."""
        allowed = [move for move in legal_moves_of(state) if move not in banned]
        return self.last_of(self.iterate(state, limit, soft_time=soft_time,
                                         root_tables=root_tables, banned=banned),
                            allowed or legal_moves_of(state), on_iteration)

    def _from_tables(self, state: Position, start: float) -> Iteration | None:
        """The endgame tables' answer for the root, when they cover it and its moves."""
        assert self.tables is not None
        verdict = self.tables.probe(state)
        if verdict is None:
            return None
        found = best_move(state, self.tables)
        if found is None:
            return None
        move, value, _ = found
        line = main_line(state, self.tables, TABLE_LINE_PLIES) or [move]
        if line[0] != move:
            line = [move]
        return Iteration(depth=len(line), seldepth=len(line), score=table_score(value),
                         pv=tuple(line), nodes=0, seconds=time.perf_counter() - start,
                         endgame_table=verdict.table)

    def _from_syzygy(self, state: Position, start: float) -> Iteration | None:
        """The Syzygy tables' move for the root, when they cover it and its moves."""
        assert self.syzygy is not None
        answer = self.syzygy.root(state)
        if answer is None:
            return None
        return Iteration(depth=1, seldepth=1, score=answer.score, pv=(answer.move,), nodes=0,
                         seconds=time.perf_counter() - start,
                         endgame_table=f"syzygy {answer.table}")
