"""The chess engine's driver: iterative deepening with aspiration windows over the numba
search, the clock, and the engine's answers in yipan's terms.

``Engine.iterate(state, limit)`` is a generator of ``Iteration`` (one per finished depth), so a
caller (the UCI loop printing ``info`` lines, the web page, ``think``) decides when to stop
consuming it; ``think`` runs it to the end of the limit and returns the last one.

Stopping: the kernel runs without the GIL and reads ``control[STOP]`` at every node; a watcher
thread sets it at the hard deadline or as soon as ``Limit.stop()`` says so (polled every
millisecond), and the kernel itself sets it when the node budget is spent. A depth cut short
is thrown away, except for its best root move when that move had been searched in full.

Scores are centipawns for the side to move inside the engine; mates are ``MATE - plies``.
``to_value`` gives yipan's scale (``WIN - plies``), ``uci_score`` the UCI ``cp``/``mate``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from ...core import WIN, Limit
from .rules import Chess, Position, legal_moves_of, to_row
from .search import (
    BEST_MOVE,
    BEST_SCORE,
    GENERATION,
    HISTORY_LENGTH,
    INFINITE,
    MATE,
    MATE_BOUND,
    MAX_HISTORY,
    MAX_NODES,
    MAX_PLY,
    NODES,
    QUIET_CHECKS,
    SELDEPTH,
    STOP,
    TB_HITS,
    TT_HITS,
    Context,
    new_context,
    search,
)
from .syzygy import Syzygy
from .tablebase import Tablebase, best_move, empty_pack, main_line, tablebase

DEFAULT_HASH_MB = 64
ASPIRATION_WINDOW = 25  # centipawns either side of the last depth's score
ASPIRATION_FROM_DEPTH = 4
UNLIMITED_NODES = 1 << 62
WATCH_INTERVAL = 0.001  # seconds between two looks at the clock and the stop flag


@dataclass(frozen=True, slots=True)
class Iteration:
    """What one finished depth found: score for the side to move (centipawns, or
    ``MATE - plies``), the principal variation (moves), and the search's figures."""

    depth: int
    seldepth: int
    score: int
    pv: tuple[int, ...]
    nodes: int
    seconds: float
    table_hits: int = 0
    endgame_table: str | None = None  # the endgame table that gave the answer, if one did
    tablebase_hits: int = 0  # positions of the search the endgame tables valued

    @property
    def move(self) -> int:
        return self.pv[0]

    @property
    def nodes_per_second(self) -> int:
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


def to_value(score: int) -> int:
    """An engine score in yipan's convention: a mate in n plies is ``WIN - n``."""
    if score > MATE_BOUND:
        return WIN - (MATE - score)
    if score < -MATE_BOUND:
        return -(WIN - (MATE + score))
    return score


def mate_in_plies(score: int) -> int | None:
    if abs(score) > MATE_BOUND:
        return MATE - abs(score)
    return None


def uci_score(score: int) -> str:
    """``cp 35`` or ``mate 3`` / ``mate -2`` (moves, not plies, as UCI counts them)."""
    plies = mate_in_plies(score)
    if plies is None:
        return f"cp {score}"
    moves = (plies + 1) // 2
    return f"mate {moves if score > 0 else -moves}"


class _Watcher:
    """Sets the kernel's stop flag at a deadline or when ``stop()`` becomes true, once armed
    (after the first depth: a few dozen nodes, so that a move is always known)."""

    def __init__(self, control: np.ndarray, deadline: float | None,
                 stop: Callable[[], bool] | None) -> None:
        self.control = control
        self.deadline = deadline
        self.stop = stop
        self.done = threading.Event()
        self.armed = False
        self.thread: threading.Thread | None = None
        if deadline is not None or stop is not None:
            self.thread = threading.Thread(target=self._watch, daemon=True)
            self.thread.start()

    def _watch(self) -> None:
        while not self.done.wait(WATCH_INTERVAL):
            if self.armed and (self.deadline is not None and time.perf_counter() >= self.deadline) \
                    or (self.stop is not None and self.stop()):
                self.control[STOP] = 1
                return

    def close(self) -> None:
        self.done.set()
        if self.thread is not None:
            self.thread.join()


TABLE_LINE_PLIES = 60  # the main line given from an endgame table


def table_score(value: int) -> int:
    """An endgame table's value (retrograde layout) as an engine score."""
    if value > 0:
        return MATE - value
    if value < 0:
        return -(MATE - (-value - 1))
    return 0


class Engine:
    """One search memory (table, killers, history) reused from move to move, and the
    endgame tables (``tables``; default: ``tablebase.default_folder()``, None for none):
    consulted before any search (where one covers the root, its move and distance to mate
    are the answer) and probed by the search kernel at every node they cover (packed into
    the kernel's context before the first search with them)."""

    def __init__(self, hash_mb: int = DEFAULT_HASH_MB,
                 tables: Tablebase | None | str = "default") -> None:
        self.hash_mb = hash_mb
        self.ctx: Context = new_context(hash_mb)
        self.game = Chess()
        self._tables: Tablebase | None = tablebase() if isinstance(tables, str) else tables
        self._packed_for: Tablebase | None = None
        self.syzygy: Syzygy | None = None  # a user's Syzygy files, asked after our tables
        # quiescence's first ply may try quiet checks (search.py): off, as measured side by
        # side on WAC (benchmarks/chess.py --wac-compare): +3 positions at 300,000 nodes
        # each, -4 at 1,000,000, -1 at 1 s on a loaded machine
        self.quiet_checks = False

    @property
    def tables(self) -> Tablebase | None:
        return self._tables

    @tables.setter
    def tables(self, tables: Tablebase | None) -> None:
        self._tables = tables
        self._packed_for = None

    def _pack_tables(self) -> None:
        """Give the kernel the endgame tables (when they changed since the last search)."""
        if self._packed_for is self._tables and self._packed_for is not None:
            return
        packed = empty_pack() if self._tables is None else self._tables.packed()
        self.ctx = Context.of(self.ctx.arrays._replace(
            tb_values=packed.values, tb_lookup=packed.lookup, tb_info=packed.info))
        self._packed_for = self._tables

    def resize(self, hash_mb: int) -> None:
        if hash_mb != self.hash_mb:
            self.hash_mb = hash_mb
            self.ctx = new_context(hash_mb)
            self._packed_for = None

    def clear(self) -> None:
        """Forget everything learnt (a new game)."""
        ctx = self.ctx
        for array in (ctx.table_keys, ctx.table_entries, ctx.killers, ctx.history):
            array.fill(0)

    @property
    def table_megabytes(self) -> float:
        return (self.ctx.table_keys.nbytes + self.ctx.table_entries.nbytes) / (1 << 20)

    def _load(self, state: Position, nodes: int | None) -> None:
        self._pack_tables()
        ctx = self.ctx
        ctx.stack[0, :] = to_row(state)
        history = state.history[-MAX_HISTORY:]
        ctx.path_keys[:len(history)] = history
        control = ctx.control
        control[HISTORY_LENGTH] = len(history)
        control[NODES] = 0
        control[STOP] = 0
        control[TT_HITS] = 0
        control[TB_HITS] = 0
        control[QUIET_CHECKS] = 1 if self.quiet_checks else 0
        control[MAX_NODES] = UNLIMITED_NODES if nodes is None else max(1, nodes)
        control[GENERATION] += 1
        ctx.killers.fill(0)
        np.floor_divide(ctx.history, 8, out=ctx.history)  # old counts fade

    def iterate(self, state: Position, limit: Limit | None = None, *,
                soft_time: float | None = None, root_tables: bool = True
                ) -> Iterator[Iteration]:
        """One Iteration per finished depth, until the limit (depth, nodes, time: a hard
        deadline; ``soft_time``: no new depth starts after it) or a stop. With
        ``root_tables`` off the root is searched even where an endgame table covers it (the
        tables still value the positions below it).

        The first depth always finishes (time and stop count from the second on; only a node
        budget smaller than it cuts it short), so a move is known."""
        limit = limit or Limit()
        if not legal_moves_of(state):
            return
        start = time.perf_counter()
        if root_tables:
            known = self._from_tables(state, start) if self.tables is not None else None
            if known is None and self.syzygy is not None:
                known = self._from_syzygy(state, start)
            if known is not None:
                yield known
                return
        deadline = None if limit.time is None else start + limit.time
        self._load(state, limit.nodes)
        control = self.ctx.control
        max_depth = min(limit.depth if limit.depth is not None else MAX_PLY - 8, MAX_PLY - 8)
        watcher = _Watcher(control, deadline, limit.stop)
        score = 0
        try:
            for depth in range(1, max_depth + 1):
                control[SELDEPTH] = 0
                control[BEST_MOVE] = 0
                window = ASPIRATION_WINDOW
                if depth >= ASPIRATION_FROM_DEPTH and abs(score) < MATE_BOUND:
                    alpha, beta = score - window, score + window
                else:
                    alpha, beta = -INFINITE, INFINITE
                while True:
                    value = int(search(self.ctx, 0, depth, alpha, beta, 1))
                    if control[STOP]:
                        break
                    if value <= alpha:
                        alpha = max(-INFINITE, alpha - window)
                    elif value >= beta:
                        beta = min(INFINITE, beta + window)
                    else:
                        break
                    window *= 3
                if control[STOP]:
                    partial = self._partial(depth, start)
                    if partial is not None:
                        yield partial
                    return
                score = value
                watcher.armed = True
                yield self._iteration(depth, score, start)
                elapsed = time.perf_counter() - start
                if soft_time is not None and elapsed >= soft_time:
                    return
                plies = mate_in_plies(score)
                if plies is not None and depth >= plies + 4 and limit.depth is None \
                        and limit.time is not None:
                    return  # a mate found and confirmed: more depth changes nothing
        finally:
            watcher.close()

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

    def _iteration(self, depth: int, score: int, start: float) -> Iteration:
        ctx = self.ctx
        length = int(ctx.pv_length[0])
        pv = tuple(int(m) for m in ctx.pv[0, :length])
        if not pv:
            pv = (int(ctx.control[BEST_MOVE]),)
        return Iteration(depth=depth, seldepth=int(ctx.control[SELDEPTH]), score=score, pv=pv,
                         nodes=int(ctx.control[NODES]),
                         seconds=time.perf_counter() - start,
                         table_hits=int(ctx.control[TT_HITS]),
                         tablebase_hits=int(ctx.control[TB_HITS]))

    def _partial(self, depth: int, start: float) -> Iteration | None:
        """A depth cut short whose search had already raised the root's best move: that
        move, with the score it was searched to (it beat the previous best)."""
        move = int(self.ctx.control[BEST_MOVE])
        if move == 0 or depth <= 1:
            return None
        ctx = self.ctx
        length = int(ctx.pv_length[0])
        pv = tuple(int(m) for m in ctx.pv[0, :length]) if length else (move,)
        if not pv or pv[0] != move:
            pv = (move,)
        return Iteration(depth=depth - 1, seldepth=int(ctx.control[SELDEPTH]),
                         score=int(ctx.control[BEST_SCORE]), pv=pv,
                         nodes=int(ctx.control[NODES]), seconds=time.perf_counter() - start,
                         table_hits=int(ctx.control[TT_HITS]),
                         tablebase_hits=int(ctx.control[TB_HITS]))

    def think(self, state: Position, limit: Limit | None = None, *,
              soft_time: float | None = None,
              on_iteration: Callable[[Iteration], None] | None = None,
              root_tables: bool = True) -> Iteration | None:
        """The last Iteration within the limit (None when the position has no move)."""
        last = None
        for iteration in self.iterate(state, limit, soft_time=soft_time,
                                      root_tables=root_tables):
            last = iteration
            if on_iteration is not None:
                on_iteration(iteration)
        if last is None and legal_moves_of(state):
            # stopped before depth 1 finished: the first legal move in the kernel's order
            move = legal_moves_of(state)[0]
            last = Iteration(depth=0, seldepth=0, score=0, pv=(move,),
                             nodes=int(self.ctx.control[NODES]), seconds=0.0)
        return last

    def warm_up(self) -> None:
        """Compile (or load) the search kernels on a tiny search."""
        self.think(self.game.initial_state(), Limit(depth=2))
        self.clear()


# -- the clock -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Clock:
    """UCI's ``go`` clock fields, in seconds (None: not given)."""

    time_left: float | None = None
    increment: float = 0.0
    moves_to_go: int | None = None
    move_time: float | None = None


def budget(clock: Clock, overhead: float = 0.05) -> tuple[float | None, float | None]:
    """(soft, hard) seconds for this move: no new depth after ``soft``; stop at ``hard``.

    ``movetime`` is used whole (less the overhead). With a clock, a share of what is left:
    ``left / moves_to_go`` (or ``left / 30`` in sudden death) plus most of the increment;
    the hard limit allows up to four times that, never more than a third of what is left."""
    if clock.move_time is not None:
        seconds = max(0.01, clock.move_time - overhead)
        return seconds, seconds
    if clock.time_left is None:
        return None, None
    left = max(0.0, clock.time_left - overhead)
    moves = clock.moves_to_go if clock.moves_to_go else 30
    share = left / max(1, min(moves, 50)) + 0.8 * clock.increment
    hard = min(4 * share, left / 3 if moves > 1 else left * 0.8, left)
    soft = min(share * 0.6, hard)
    return max(0.005, soft), max(0.01, hard)
