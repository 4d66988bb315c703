"""Alpha-beta to a fixed depth (``search_to_depth``): negamax with fail-soft bounds, a
transposition table, move ordering and principal-variation search. The entry point,
``yipan.search.alphabeta``, picks between one such search and iterative deepening over it.

Negamax: every node's value is from its own side to move, so ``value(s) = max(-value(child))``
and there is one code path for both players. The contract of ``_Search.negamax`` (fail-soft)::

    v = negamax(s, depth, ply, alpha, beta)
    if v <= alpha:  the true value is <= v      (an upper bound)
    if v >= beta:   the true value is >= v      (a lower bound)
    otherwise:      v is the true value

Move ordering, best first: the table's move, the two killer moves of this ply (moves that
caused a cut-off in a sibling), then by history (how often a move cut off anywhere), on top
of the game's own ``order_moves``. Killers and history are on by default only for games
without their own ordering: on m,n,k-games they overrule a better ordering and the tree
grows (``benchmarks/`` compares the options on (4,4,4)). With PVS, moves after the first are
searched with a null window ``(alpha, alpha + 1)`` that only asks "is it better?", and
re-searched when it is.
Heuristic values are rounded to integers, so that a null window is one point wide, and clamped
strictly inside ``HEURISTIC_LIMIT``, so that no evaluation is ever read as a win or a loss.

A node is searched in three steps: ``probe`` (what is known before trying a move: the end of
the game, the game's proven bounds, the horizon, mate distance, the table), ``expand`` (the
moves, with PVS) and ``store`` (the result into the table). ``report`` sends the trace its
events, values from the node's side to move and flagged as exact or as bounds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from ..core import (
    INFINITY,
    MAX_PLY,
    WIN,
    Budget,
    Game,
    SearchAborted,
    SearchResult,
    SearchStats,
)
from .minimax import clamp_heuristic
from .trace import NULL_WINDOW, RE_SEARCH, Trace, TraceEvent
from .tt import EXACT, EXACT_DEPTH, LOWER, UPPER, TranspositionTable, from_table, to_table


@dataclass(frozen=True, slots=True)
class Options:
    """Which refinements an alpha-beta search uses (all on by default; the benchmark turns
    them off one by one to measure each)."""

    table: bool = True
    symmetry: bool = True  # fold symmetric positions in the table (games declaring symmetry)
    ordering: bool = True  # the table's move first, over the game's own ordering
    # killer moves and the history heuristic; None: only for games without their own
    # ordering (measured on m,n,k-games, they undo a good game ordering: see benchmarks/)
    killers: bool | None = None
    history: bool | None = None
    pvs: bool = True  # principal-variation (null-window) search
    bounds: bool = True  # cut off on the game's proven value bounds (games declaring bounds)


FULL = Options()
DEFAULT_TABLE_SIZE = 1 << 17  # slots of a table made for one search
PLAIN = Options(table=False, symmetry=False, ordering=False, pvs=False, bounds=False)


class _Search:
    """One search's working state: counters, killers, history, the PV being built."""

    def __init__(self, game: Game, tt: TranspositionTable | None, options: Options,
                 budget: Budget, trace: Trace | None, root_player: int,
                 evaluate: Callable[[Any], float] | None = None) -> None:
        self.game = game
        self.tt = tt if options.table else None
        self.use_symmetry = options.symmetry and game.info.symmetry and self.tt is not None
        self.use_ordering = options.ordering
        own_ordering = game.info.move_ordering
        self.use_killers = options.ordering and (
            not own_ordering if options.killers is None else options.killers)
        self.use_history = options.ordering and (
            not own_ordering if options.history is None else options.history)
        self.game_ordering = game.info.move_ordering
        self.use_pvs = options.pvs
        self.evaluate = evaluate or (game.evaluate if game.info.heuristic else None)
        self.bounds = options.bounds and game.info.bounds
        self.budget = budget
        self.trace = trace
        self.root_player = root_player
        self.first_node = budget.nodes  # the budget counts nodes for all of a limit's searches
        self.tt_hits = self.cutoffs = self.horizon_leaves = 0
        self.killers: dict[int, list[Hashable]] = {}
        self.history: dict[Hashable, int] = {}
        self.pv_table: dict[int, tuple] = {}

    # -- helpers -------------------------------------------------------------------------------
    @property
    def nodes(self) -> int:
        """Nodes visited by this search."""
        return self.budget.nodes - self.first_node

    def ordered(self, state: Any, ply: int, tt_move: Hashable | None) -> Sequence:
        game = self.game
        moves = game.legal_moves(state)
        if self.game_ordering:
            moves = game.order_moves(state, moves)
        if not self.use_ordering:
            return moves
        history = self.history
        if self.use_history and history:
            ordered = sorted(moves, key=lambda m: -history.get(m, 0))  # stable: ties keep order
        else:
            ordered = list(moves)
        killers = self.killers.get(ply, ()) if self.use_killers else ()
        for move in (*killers[::-1], tt_move):  # the table's move, then killers, in front
            if move is not None and move in ordered:
                ordered.remove(move)
                ordered.insert(0, move)
        return ordered

    def remember_cutoff(self, move: Hashable, ply: int, depth: int) -> None:
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + min(depth, 64) ** 2

    def report(self, kind: str, state: Any, ply: int, path: tuple, value: float | None = None,
               flag: int = EXACT, **details: Any) -> None:
        """Send one event to the trace (only called when there is one): ``flag`` says whether
        ``value`` is exact or a bound, as in the table."""
        assert self.trace is not None
        self.trace(TraceEvent(kind, ply, path, self.game.to_move(state) == self.root_player,
                              value, lower=flag == LOWER, upper=flag == UPPER, **details))

    # -- the search ------------------------------------------------------------------------------
    def negamax(self, state: Any, depth: int, ply: int, alpha: float, beta: float,
                path: tuple, window: str = "") -> float:
        """The fail-soft value of ``state`` for its side to move (contract in the module doc).

        ``window`` only labels the node in the trace (PVS's null window or re-search)."""
        budget = self.budget
        budget.nodes += 1
        if budget.limited and budget.exhausted():
            raise SearchAborted("search limit reached")
        trace = self.trace
        if trace:
            self.report("node", state, ply, path, alpha=alpha, beta=beta, window=window)
        self.pv_table[ply] = ()
        decided, alpha, beta, key, tt_move = self.probe(state, depth, ply, alpha, beta, path,
                                                        window)
        if decided is not None:
            return decided
        horizon_before = self.horizon_leaves
        best, best_move = self.expand(state, depth, ply, alpha, beta, path, tt_move)
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        if self.tt is not None:
            self.store(key, depth, ply, flag, best, best_move, horizon_before)
        if trace:
            self.report("value", state, ply, path, best, flag, window=window)
        return best

    def probe(self, state: Any, depth: int, ply: int, alpha: float, beta: float, path: tuple,
              window: str) -> tuple[float | None, float, float, Hashable, Hashable | None]:
        """What is known before trying a move: the node's value if that already decides it
        (end of game, proven bounds, the horizon, mate distance, the table), else None with
        the window narrowed by mate distance, the table key and the table's move.

        Returns ``(value or None, alpha, beta, key, table move)``."""
        game = self.game
        trace = self.trace
        value: float
        outcome = game.outcome(state)
        if outcome is not None:
            value = 0 if outcome.winner is None else (
                WIN - ply if outcome.winner == game.to_move(state) else -(WIN - ply))
            if trace:
                self.report("value", state, ply, path, value, terminal=True, window=window)
            return value, alpha, beta, None, None
        if self.bounds:
            game_low, game_high = game.value_bounds(state)
            low, high = from_table(game_low, ply), from_table(game_high, ply)
            if high <= alpha or low >= beta or low == high:
                value = high if high <= alpha else low
                if trace:
                    flag = EXACT if low == high else UPPER if high <= alpha else LOWER
                    self.report("value", state, ply, path, value, flag, bound=True,
                                window=window)
                return value, alpha, beta, None, None

        if depth <= 0:
            self.horizon_leaves += 1
            value = clamp_heuristic(self.evaluate(state)) if self.evaluate else 0
            if trace:
                self.report("value", state, ply, path, value, horizon=True, window=window)
            return value, alpha, beta, None, None

        # mate-distance pruning: nothing here can beat a win on the next ply or lose sooner
        # than now, so a window outside those bounds is already decided
        narrowed_alpha = max(alpha, -(WIN - ply))
        narrowed_beta = min(beta, WIN - ply - 1)
        if narrowed_alpha >= narrowed_beta:
            if trace:
                flag = LOWER if narrowed_alpha >= beta else UPPER
                self.report("value", state, ply, path, narrowed_alpha, flag,
                            mate_distance=True, window=window)
            return narrowed_alpha, alpha, beta, None, None
        alpha, beta = narrowed_alpha, narrowed_beta

        tt = self.tt
        if tt is None:
            return None, alpha, beta, None, None
        key = game.canonical(state) if self.use_symmetry else state
        entry = tt.get(key)
        if entry is None:
            return None, alpha, beta, key, None
        if entry.depth >= depth:
            stored = from_table(entry.value, ply)
            flag = entry.flag
            if (flag == EXACT or (flag == LOWER and stored >= beta)
                    or (flag == UPPER and stored <= alpha)):
                self.tt_hits += 1
                if entry.depth < EXACT_DEPTH:
                    self.horizon_leaves += 1  # the stored value rests on a heuristic
                if trace:
                    self.report("value", state, ply, path, stored, flag, table=True,
                                window=window)
                return stored, alpha, beta, key, entry.move
        return None, alpha, beta, key, entry.move

    def expand(self, state: Any, depth: int, ply: int, alpha: float, beta: float, path: tuple,
               tt_move: Hashable | None) -> tuple[float, Hashable | None]:
        """Try the moves, best first, until one reaches ``beta``: the fail-soft best value and
        the move that gave it. With PVS, every move after the first is first asked "is it
        better than alpha?" with a null window, and searched again with a full one if so."""
        game = self.game
        trace = self.trace
        negamax = self.negamax
        use_pvs = self.use_pvs
        given_alpha = alpha  # the window this node was given, for the cut-off's trace
        best = -INFINITY
        best_move = None
        moves = self.ordered(state, ply, tt_move)
        for index, move in enumerate(moves):
            child = game.play(state, move)
            child_path = (*path, move) if trace else path
            if index == 0 or not use_pvs:
                value = -negamax(child, depth - 1, ply + 1, -beta, -alpha, child_path)
            else:
                value = -negamax(child, depth - 1, ply + 1, -alpha - 1, -alpha, child_path,
                                 NULL_WINDOW)
                if alpha < value < beta:
                    value = -negamax(child, depth - 1, ply + 1, -beta, -value, child_path,
                                     RE_SEARCH)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    self.pv_table[ply] = (move, *self.pv_table.get(ply + 1, ()))
                    if alpha >= beta:
                        self.cutoffs += 1
                        if self.use_killers or self.use_history:
                            self.remember_cutoff(move, ply, depth)
                        if trace:
                            self.report("cutoff", state, ply, path, value, alpha=given_alpha,
                                        beta=beta, pruned=len(moves) - index - 1,
                                        pruned_moves=tuple(moves[index + 1:]))
                        break
        return best, best_move

    def store(self, key: Hashable, depth: int, ply: int, flag: int, value: float,
              move: Hashable | None, horizon_before: int) -> None:
        """Keep a searched node's result; one whose subtree met no heuristic leaf (no new
        horizon leaf since ``horizon_before``) holds at any depth."""
        searched = depth if self.horizon_leaves != horizon_before else EXACT_DEPTH
        assert self.tt is not None
        self.tt.put(key, searched, flag, to_table(value, ply), move)

    def root(self, state: Any, depth: int, analysis: bool) -> tuple[Any, float, dict]:
        """Search the root's moves; in analysis mode each with a full window (exact values)."""
        game = self.game
        self.budget.nodes += 1
        if self.trace:
            self.report("node", state, 0, ())
        key = tt_move = None
        if self.tt is not None:
            key = game.canonical(state) if self.use_symmetry else state
            entry = self.tt.get(key)
            tt_move = entry.move if entry is not None else None
        moves = self.ordered(state, 0, tt_move)
        best, best_move, best_line = -INFINITY, None, ()
        move_values: dict[Any, float] = {}
        alpha, beta = -INFINITY, INFINITY
        for index, move in enumerate(moves):
            child = game.play(state, move)
            path = (move,) if self.trace else ()
            if analysis or index == 0 or not self.use_pvs:
                window_alpha = -INFINITY if analysis else alpha
                value = -self.negamax(child, depth - 1, 1, -beta, -window_alpha, path)
            else:
                value = -self.negamax(child, depth - 1, 1, -alpha - 1, -alpha, path, NULL_WINDOW)
                if value > alpha:
                    value = -self.negamax(child, depth - 1, 1, -beta, -value, path, RE_SEARCH)
            if analysis or value > alpha or index == 0:
                move_values[move] = value
            if value > best:
                best, best_move = value, move
                best_line = (move, *self.pv_table.get(1, ()))
                alpha = max(alpha, value)
        if self.trace:
            self.report("value", state, 0, (), best)
        if self.tt is not None:
            self.store(key, depth, 0, EXACT, best, best_move, 0)
        if not analysis:
            move_values = {best_move: best}
        return best_line, best, move_values


def search_to_depth(game: Game, state: Any, depth: int | None, *, tt: TranspositionTable | None,
                    trace: Trace | None, analysis: bool, options: Options,
                    budget: Budget, evaluate: Callable[[Any], float] | None = None,
                    ) -> SearchResult:
    """One complete alpha-beta search to ``depth``; raises SearchAborted if the budget ends."""
    start = time.perf_counter()
    if options.table and tt is None:
        tt = TranspositionTable(DEFAULT_TABLE_SIZE)
    if tt is not None:
        tt.new_search()
    search = _Search(game, tt, options, budget, trace, game.to_move(state), evaluate)
    full_depth = MAX_PLY if depth is None else depth
    if game.outcome(state) is not None or full_depth == 0:
        value = search.negamax(state, full_depth, 0, -INFINITY, INFINITY, ())
        pv: tuple = ()
        move_values: dict[Any, float] = {}
    else:
        pv, value, move_values = search.root(state, full_depth, analysis)
        pv = _complete_pv(search, state, pv, full_depth, trace)
    elapsed = time.perf_counter() - start
    return SearchResult(
        move=pv[0] if pv else None,
        value=value,
        pv=pv,
        move_values=MappingProxyType(move_values),
        depth=len(pv) if depth is None else depth,
        exact=search.horizon_leaves == 0,
        stats=SearchStats(nodes=search.nodes, tt_hits=search.tt_hits,
                          cutoffs=search.cutoffs, elapsed=elapsed),
    )


def _complete_pv(search: _Search, state: Any, pv: tuple, depth: int,
                 trace: Trace | None) -> tuple:
    """Extend a principal variation cut short by a table hit, by searching its last position
    again (cheap: the table holds its subtree). Its nodes count in the search's, and a trace
    sees them as a follow-up search (``TraceEvent.origin``: where it started)."""
    game = search.game
    end = state
    for move in pv:
        end = game.play(end, move)
    while pv and len(pv) < depth and game.outcome(end) is None:
        search.trace = None if trace is None else _follow_up(trace, pv)
        line, _, _ = search.root(end, depth - len(pv), False)
        if not line:
            break
        pv = (*pv, *line)
        for move in line:
            end = game.play(end, move)
    return pv


def _follow_up(trace: Trace, origin: tuple) -> Trace:
    """The trace of a search started after ``origin`` (moves from the root): its events say so."""
    def report(event: TraceEvent) -> None:
        trace(replace(event, origin=origin))
    return report
