"""The family's engine driver: iterative deepening with aspiration windows over a game's numba
search, stopped by a watcher thread, answering in ``Iteration``s.

``iterate(state, limit)`` (a game's engine defines it over ``deepen``) is a generator of
``Iteration`` (one per finished depth), so a caller (the UCI or UCCI loop printing ``info``
lines, the web page, ``think``) decides when to stop consuming it; ``think`` runs it to the
end of the limit and returns the last one.

Stopping: the kernel runs without the GIL and reads ``control[STOP]`` at every node; a watcher
thread sets it at the hard deadline or as soon as ``Limit.stop()`` says so (polled every
millisecond), and the kernel itself sets it when the node budget is spent. A depth cut short
is thrown away, except for its best root move when that move had been searched in full.

A game's engine (``FamilyEngine`` subclassed) gives its context (``new_context``), its search
kernel (``search_kernel``), its rules (``game``, ``legal_moves``) and its own part of loading
a position (``load_position``); the rest is here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..core import Limit
from .nnue_file import NetworkFile, NetworkFileError
from .nnue_file import load as load_network
from .scores import INFINITE, MATE_BOUND, mate_in_plies
from .search import (
    BEST_MOVE,
    BEST_SCORE,
    GENERATION,
    HISTORY_LENGTH,
    MAX_HISTORY,
    MAX_NODES,
    MAX_PLY,
    MOVE_MASK,
    NODES,
    SELDEPTH,
    STOP,
    TB_HITS,
    TT_HITS,
)

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


class Watcher:
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
            if not self.armed:
                continue
            if (self.deadline is not None and time.perf_counter() >= self.deadline) \
                    or (self.stop is not None and self.stop()):
                self.control[STOP] = 1
                return

    def close(self) -> None:
        self.done.set()
        if self.thread is not None:
            self.thread.join()


class FamilyEngine:
    """One search memory (table, killers, history) reused from move to move, over a game's
    kernel (module docstring)."""

    search_kernel: ClassVar[Callable[..., int]]  # search(ctx, ply, depth, alpha, beta, null)
    game: Any  # the game's rules, from its usual start (``warm_up`` searches it)

    network_game: ClassVar[str | None] = None  # the game's name in network files (None: none)
    network_features: ClassVar[tuple[int, ...]] = ()  # the first-layer rows its kernel reads

    def __init__(self, hash_mb: int = DEFAULT_HASH_MB) -> None:
        self.hash_mb = hash_mb
        self.network: NetworkFile | None = None  # None: the hand-set evaluation
        self._network_in: Any = None  # the context the network was packed into
        self.ctx = self.new_context(hash_mb)

    # -- what a game gives ----------------------------------------------------------------------
    def new_context(self, hash_mb: int) -> Any:
        raise NotImplementedError

    def legal_moves(self, state: Any) -> tuple[int, ...]:
        raise NotImplementedError

    def to_row(self, state: Any) -> np.ndarray:
        raise NotImplementedError

    def load_position(self, state: Any) -> None:
        """The game's own part of loading the root (beyond its row and the keys before it)."""

    def with_network(self, ctx: Any, arrays: dict[str, np.ndarray] | None) -> Any:
        """``ctx`` holding a network's arrays (None: none); a game with networks gives it."""
        raise NotImplementedError

    def use_network(self, network: NetworkFile | str | Path | None) -> None:
        """Evaluate with ``network`` (a loaded file, or a path to load: ``NetworkFileError``
        when it is damaged or for another game), or with the hand-set evaluation (None)."""
        if isinstance(network, (str, Path)):
            if self.network_game is None:
                raise NetworkFileError(f"{type(self).__name__} evaluates without networks")
            network = load_network(network, self.network_game)
        if network is not None and network.features not in self.network_features:
            # the kernel does not check its indices: a first layer of another size would be
            # read out of bounds
            raise NetworkFileError(
                f"a {self.network_game} network has "
                f"{' or '.join(map(str, self.network_features))} feature rows, this one "
                f"{network.features}")
        self.network = network
        self._network_in = None

    def _pack_network(self) -> None:
        """Give the context the chosen network's arrays (when it or the context changed)."""
        if self._network_in is self.ctx or (self.network is None
                                            and self.network_game is None):
            return
        arrays = None if self.network is None else dict(self.network.arrays)
        self.ctx = self.with_network(self.ctx, arrays)
        self._network_in = self.ctx

    # -- the search memory ----------------------------------------------------------------------
    def resize(self, hash_mb: int) -> None:
        if hash_mb != self.hash_mb:
            self.hash_mb = hash_mb
            self.ctx = self.new_context(hash_mb)

    def clear(self) -> None:
        """Forget everything learnt (a new game)."""
        ctx = self.ctx
        for array in (ctx.table_keys, ctx.table_entries, ctx.killers, ctx.history):
            array.fill(0)

    @property
    def table_megabytes(self) -> float:
        return (self.ctx.table_keys.nbytes + self.ctx.table_entries.nbytes) / (1 << 20)

    def _load(self, state: Any, nodes: int | None) -> None:
        ctx = self.ctx
        ctx.stack[0, :] = self.to_row(state)
        history = state.history[-MAX_HISTORY:]
        ctx.path_keys[:len(history)] = history
        control = ctx.control
        control[HISTORY_LENGTH] = len(history)
        control[NODES] = 0
        control[STOP] = 0
        control[TT_HITS] = 0
        control[TB_HITS] = 0
        control[MAX_NODES] = UNLIMITED_NODES if nodes is None else max(1, nodes)
        control[GENERATION] += 1
        ctx.killers.fill(0)
        np.floor_divide(ctx.history, 8, out=ctx.history)  # old counts fade
        self.load_position(state)
        self._pack_network()

    def _ban(self, state: Any, banned: tuple[int, ...]) -> None:
        """Write the root's banned moves (legal ones, not all of them) into the context."""
        moves = self.legal_moves(state)
        banned = tuple(move for move in banned if move in moves)
        if len(banned) == len(moves):
            banned = ()
        self.ctx.banned.fill(0)
        self.ctx.banned[:len(banned)] = banned

    # -- searching -------------------------------------------------------------------------------
    def iterate(self, state: Any, limit: Limit | None = None, *,
                soft_time: float | None = None) -> Iterator[Iteration]:
        """One Iteration per finished depth, until the limit or a stop (``deepen``); none
        when the position has no move. A game adds its own options (chess's endgame tables
        at the root, xiangqi's banned moves)."""
        limit = limit or Limit()
        if not self.legal_moves(state):
            return
        yield from self.deepen(state, limit, time.perf_counter(), soft_time)

    def think(self, state: Any, limit: Limit | None = None, *,
              soft_time: float | None = None,
              on_iteration: Callable[[Iteration], None] | None = None) -> Iteration | None:
        """The last Iteration within the limit (None when the position has no move)."""
        return self.last_of(self.iterate(state, limit, soft_time=soft_time),
                            self.legal_moves(state), on_iteration)

    def deepen(self, state: Any, limit: Limit, start: float,
               soft_time: float | None = None,
               banned: tuple[int, ...] = ()) -> Iterator[Iteration]:
        """One Iteration per finished depth of the kernel's search from ``state`` (which has
        a move), until the limit (depth, nodes, time: a hard deadline counted from
        ``start``; ``soft_time``: no new depth starts after it) or a stop.

        The first depth always finishes (time and stop count from the second on; only a node
        budget smaller than it cuts it short), so a move is known. A ``banned`` move is not
        played at the root (when every move is, the ban is ignored)."""
        deadline = None if limit.time is None else start + limit.time
        self._load(state, limit.nodes)
        self._ban(state, banned)
        control = self.ctx.control
        max_depth = min(limit.depth if limit.depth is not None else MAX_PLY - 8, MAX_PLY - 8)
        watcher = Watcher(control, deadline, limit.stop)
        score = 0
        try:
            for depth in range(1, max_depth + 1):
                control[SELDEPTH] = 0
                control[BEST_MOVE] = 0
                value = self._aspiration(depth, score)
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

    def _aspiration(self, depth: int, score: int) -> int:
        """The search to ``depth`` in a window around the last depth's score, widened
        (threefold each time) on the side it fails, until the score falls inside."""
        control = self.ctx.control
        window = ASPIRATION_WINDOW
        if depth >= ASPIRATION_FROM_DEPTH and abs(score) < MATE_BOUND:
            alpha, beta = score - window, score + window
        else:
            alpha, beta = -INFINITE, INFINITE
        while True:
            value = int(type(self).search_kernel(self.ctx, 0, depth, alpha, beta, 1))
            if control[STOP]:
                return value
            if value <= alpha:
                alpha = max(-INFINITE, alpha - window)
            elif value >= beta:
                beta = min(INFINITE, beta + window)
            else:
                return value
            window *= 3

    def _figures(self, start: float) -> dict[str, Any]:
        control = self.ctx.control
        return {"seldepth": int(control[SELDEPTH]), "nodes": int(control[NODES]),
                "seconds": time.perf_counter() - start, "table_hits": int(control[TT_HITS]),
                "tablebase_hits": int(control[TB_HITS])}

    def _iteration(self, depth: int, score: int, start: float) -> Iteration:
        ctx = self.ctx
        length = int(ctx.pv_length[0])
        pv = tuple(int(m) for m in ctx.pv[0, :length])
        if not pv:
            pv = (int(ctx.control[BEST_MOVE]),)
        return Iteration(depth=depth, score=score, pv=pv, **self._figures(start))

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
        return Iteration(depth=depth - 1, score=int(ctx.control[BEST_SCORE]), pv=pv,
                         **self._figures(start))

    def table_reply(self, state: Any, move: int) -> int | None:
        """The table's move for the position after ``move``, when it is legal there (None:
        the table holds none). A depth stopped just after a new best move leaves a line of
        one move; the reply the last search stored is then the move a GUI ponders on."""
        child = self.game.play(state, move)
        key = int(child.key)
        ctx = self.ctx
        slot = key & (ctx.table_keys.shape[0] - 1)
        if int(ctx.table_keys[slot]) != key:
            return None
        reply = int(ctx.table_entries[slot]) & MOVE_MASK
        return reply if reply in self.legal_moves(child) else None

    def last_of(self, iterations: Iterable[Iteration], allowed: Iterable[int],
                on_iteration: Callable[[Iteration], None] | None = None) -> Iteration | None:
        """The last of ``iterations`` (each shown to ``on_iteration``); when they stopped
        before depth 1 finished, the first of the ``allowed`` moves in the kernel's order
        (None when there is none)."""
        last = None
        for iteration in iterations:
            last = iteration
            if on_iteration is not None:
                on_iteration(iteration)
        if last is None:
            move = next(iter(allowed), None)
            if move is not None:
                last = Iteration(depth=0, seldepth=0, score=0, pv=(move,),
                                 nodes=int(self.ctx.control[NODES]), seconds=0.0)
        return last

    def warm_up(self) -> None:
        """Compile (or load) the search kernels on a tiny search, then forget it."""
        for _ in self.deepen(self.game.initial_state(), Limit(depth=2), time.perf_counter()):
            pass
        self.clear()
