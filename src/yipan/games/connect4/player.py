"""The Connect Four AI: proved moves wherever it can, a judgement only where nothing is proved.

In order, within the move time (or a node budget, which tests use so that the answer does not
depend on the machine's speed):

1. the first player's strategy book (``strategy.py``): a move proved to keep the win;
2. the opening book, when it knows every child's exact score;
3. the exact solver on the position, in slices under the clock: the score, or at least the
   bounds proved so far. Once the outcome is known (bounds decide it), a move proved to keep
   it (the exact score where known: the fastest win, the slowest loss);
4. only where nothing is proved: moves refuted by a short null-window search are set aside,
   and UCT (numba) chooses among the others for the rest of the time.

The solver's table is kept from move to move (a paused search leaves only sound bounds in it),
so each move starts from what the last one proved.
"""

from __future__ import annotations

import random
import time as wall_clock
from collections.abc import Callable, Iterator
from types import MappingProxyType

from ...core import WIN, Choice, Limit, SearchResult, SearchStats, Thinker, last_choice
from ...search.mcts import MCTSStats
from ...search.players import SearchPlayer
from .book import OpeningBook, shipped_book
from .rules import ConnectFour, Position
from .solver import Budget, Solver
from .strategy import StrategyBook, shipped_strategy
from .uct import mcts_connect4, uct_connect4

DEFAULT_MOVE_TIME = 3.0  # seconds, when the caller gives none
SIGN_SHARE = 0.4  # of the move time, for the outcome of the position (a win/draw/loss solve)
SOLVE_SHARE = 0.6  # ... and up to here for its exact score
EXACT_PROOF_SHARE = 0.75  # ... and up to here for proving a move that keeps the score
PROOF_SHARE = 0.85  # ... and up to here for one that keeps the outcome
REFUTE_SHARE = 0.12  # of the move time per move, to refute it before the tree search
REFUTE_UNTIL = 0.9  # ... and no later than this share of the move time
PLAYER_SLICE_NODES = 1 << 15  # a few ms: a move's deadline is overshot by that at most
NODES_PER_ITERATION = 200  # a node budget's share for UCT: solver nodes per UCT iteration
REPORT_EVERY = 0.25  # seconds between the tree search's reports when someone watches


def score_to_value(score: int, moves: int, cells: int) -> int:
    """A solver score (shared README convention) as a search value (``WIN - plies``)."""
    if score == 0:
        return 0
    winner_moves_first = score > 0  # the side to move makes the four
    # the four is made on the move after ``before`` plies: (cells + 1 - before) // 2 = |score|
    parity = moves & 1 if winner_moves_first else (moves + 1) & 1
    before = cells + 1 - 2 * abs(score)
    if before & 1 != parity:
        before -= 1
    plies = before - moves + 1
    return WIN - plies if winner_moves_first else -(WIN - plies)


class ConnectFourPlayer:
    """Perfect wherever a book or a solve within its budget reaches; a judgement elsewhere.

    ``time``: seconds a move (default 3), read on ``clock`` (wall time; ``time.process_time``
    gives CPU seconds, for fair matches on a shared machine); ``nodes``: a node budget a move
    instead (the solver's nodes, and ``nodes / NODES_PER_ITERATION`` UCT iterations), for
    answers that do not depend on the machine's speed.
    """

    def __init__(self, game: ConnectFour, rng: random.Random, time: float | None = None,
                 book: OpeningBook | None = None, *, strategy: StrategyBook | None = None,
                 nodes: int | None = None,
                 clock: Callable[[], float] = wall_clock.perf_counter) -> None:
        self.game = game
        self.clock = clock
        self.rng = rng
        self.time = DEFAULT_MOVE_TIME if time is None else time
        self.nodes = nodes
        self.book = book
        self.strategy = strategy
        self.solver = Solver(game, book=book)
        self.solver.slice_nodes = PLAYER_SLICE_NODES
        # the kernels loaded now (numba's cache is read on a first call), not on a move's clock
        self.solver.warm_up()
        mcts_connect4(0, 0, 0, limit=Limit(nodes=16), rng=random.Random(0), width=game.width,
                      height=game.height)
        self.name = "connect4 player"
        self.last_source = ""  # how the last move was found: strategy, book, solve, judgement
        self._stop: Callable[[], bool] | None = None  # a front end's "move now", while thinking

    def choose(self, game: ConnectFour, state: Position) -> Choice:
        return last_choice(self.think(game, state, Limit()))

    def think(self, game: ConnectFour, state: Position, limit: Limit) -> Iterator[Choice]:
        """The choice, aloud: first the move the rules order first among those not lost at
        once (a placeholder), then the books' or the solver's proved move, or else the tree
        search's judgement every ``REPORT_EVERY`` seconds; the last one is the choice. With
        ``limit.stop`` the solves stop between slices and the tree search between chunks."""
        saved_time, self._stop = self.time, limit.stop
        if limit.time is not None:
            self.time = min(self.time, limit.time)
        try:
            start = self.clock()
            self.solver.total_nodes = 0
            if limit.stop is not None:
                safe = game.non_losing_moves(state) or game.legal_moves(state)
                yield Choice(game.order_moves(state, safe)[0])
            for source, find in (("strategy", self._from_strategy), ("book", self._from_book),
                                 ("solve", self._solve)):
                result = find(state, start)
                if result is not None:
                    self.last_source = source
                    yield Choice(result.move, result)
                    return
            self.last_source = "judgement"
            for result in self._tree_search_steps(state, start):
                yield Choice(result.move, result)
        finally:
            self.time, self._stop = saved_time, None

    # -- budgets ------------------------------------------------------------------------------
    def _budget(self, start: float, share: float) -> Budget:
        """Until ``share`` of the move's time (or nodes) is spent."""
        if self.nodes is not None:
            return Budget(nodes=max(1, int(self.nodes * share) - self.solver.total_nodes),
                          stop=self._stop)
        return Budget(deadline=start + self.time * share, stop=self._stop, clock=self.clock)

    def _result(self, move: int, values: dict[int, int], *, exact: bool, start: float,
                depth: int, bounded: bool = False) -> SearchResult:
        return SearchResult(
            move=move, value=values[move], pv=(move,),
            move_values=MappingProxyType(values), depth=depth, exact=exact, bounded=bounded,
            stats=SearchStats(nodes=self.solver.total_nodes,
                              elapsed=self.clock() - start))

    # -- proved moves -------------------------------------------------------------------------
    def _from_strategy(self, state: Position, start: float) -> SearchResult | None:
        """The strategy book's move: a proved win, its length not known (the value given is
        that of the slowest win, and the result says it is not exact)."""
        if self.strategy is None:
            return None
        col = self.strategy.move(self.game, state)
        if col is None:
            return None
        slowest = WIN - (self.game.cells - state.moves)
        return self._result(col, {col: slowest}, exact=False, start=start, depth=0,
                            bounded=True)

    def _from_book(self, state: Position, start: float) -> SearchResult | None:
        """When the opening book knows every child (or a move wins at once): the best."""
        book, game = self.book, self.game
        if book is None or state.moves >= book.depth:
            return None
        values = {}
        for col in game.legal_moves(state):
            if game.is_winning_move(state, col):
                score = (game.cells + 1 - state.moves) // 2
            else:
                child = book.score(game, game.play(state, col))
                if child is None:
                    return None
                score = -child
            values[col] = score_to_value(score, state.moves, game.cells)
        best = max(values.values())
        move = self.rng.choice([m for m, v in values.items() if v == best])
        return self._result(move, values, exact=True, start=start,
                            depth=game.cells - state.moves)

    def _solve(self, state: Position, start: float) -> SearchResult | None:
        """The outcome (win, draw or loss), then the exact score, each within its share of
        the move; then a move proved to keep the best proved (the exact score where known:
        the fastest win, the slowest loss). None when nothing is proved."""
        game, solver = self.game, self.solver
        outcome = solver.solve_within(state, self._budget(start, SIGN_SHARE), weak=True)
        score = None
        if outcome.score is not None:
            score = solver.solve_within(state, self._budget(start, SOLVE_SHARE)).score
        if outcome.low > 0:
            keep = 1  # a proved win (its length perhaps unknown): keep the win
        elif outcome.low == 0 or outcome.high == 0:
            keep = 0  # at least a draw, or at most one: a move keeping a draw
        else:
            keep = None  # nothing proved, or a loss: only the exact score says which move
        # first a move keeping the exact score (the fastest win, the slowest loss), then,
        # if that is not proved in time, one keeping the outcome
        targets = [] if score is None else \
            [(score, PROOF_SHARE if keep in (None, score) else EXACT_PROOF_SHARE)]
        if keep is not None and keep != score:
            targets.append((keep, PROOF_SHARE))
        for target, share in targets:
            for col in game.order_moves(state, game.legal_moves(state)):
                keeps = solver.achieves(state, col, target, budget=self._budget(start, share))
                if keeps is None:
                    break  # out of time before a move was proved
                if keeps:
                    bounded = False
                    if target == score:
                        value, exact = score_to_value(score, state.moves, game.cells), True
                    elif target > 0:  # a win of unknown length: the slowest win is given
                        value, exact = WIN - (game.cells - state.moves), False
                        bounded = True
                    else:  # a draw when the position is at most one, else at least one
                        value, exact = 0, outcome.high == 0
                    return self._result(col, {col: value}, exact=exact, start=start,
                                        depth=game.cells - state.moves, bounded=bounded)
        return None  # no move proved in time

    # -- the judgement ------------------------------------------------------------------------
    def _tree_search(self, state: Position, start: float) -> SearchResult:
        """UCT for the rest of the move, among the moves proved to keep a draw or better by
        a short search, else among those it does not refute."""
        last = None
        for last in self._tree_search_steps(state, start):  # noqa: B007 - the last is the choice
            pass
        assert last is not None
        return last

    def _tree_search_steps(self, state: Position, start: float) -> Iterator[SearchResult]:
        """``_tree_search`` as it goes: a result every ``REPORT_EVERY`` seconds, the last
        one the choice."""
        game, solver = self.game, self.solver
        candidates = game.order_moves(state, game.non_losing_moves(state)
                                      or game.legal_moves(state))
        kept, proved = [], []
        for index, col in enumerate(candidates):
            if self.nodes is not None:
                budget = Budget(nodes=max(1, int(self.nodes * REFUTE_SHARE / len(candidates))),
                                stop=self._stop)
            else:  # a share each, and time left for the tree search in any case
                left = start + self.time * REFUTE_UNTIL - self.clock()
                seconds = min(self.time * REFUTE_SHARE, left / (len(candidates) - index))
                budget = Budget(deadline=self.clock() + max(0.0, seconds), stop=self._stop,
                                clock=self.clock)
            keeps = solver.achieves(state, col, 0, budget=budget)
            if keeps is not False:
                kept.append(col)  # not refuted: a draw or better is still possible
            if keeps:
                proved.append(col)  # a draw or better, proved
        if proved:
            kept = proved
        elif not kept:
            kept = candidates  # every move loses against best play: the judgement picks
        if self.nodes is not None:
            limit = Limit(nodes=max(64, self.nodes // NODES_PER_ITERATION), stop=self._stop)
        else:
            limit = Limit(time=max(0.02, self.time - (self.clock() - start)), stop=self._stop)
        every = REPORT_EVERY if self._stop is not None else None  # only when someone watches
        for result in uct_connect4(state.current, state.mask, state.moves, limit=limit,
                                   rng=self.rng, width=game.width, height=game.height,
                                   clock=self.clock, every=every):
            assert isinstance(result.stats, MCTSStats)
            visits = result.stats.visits
            move = max(kept, key=lambda col: (visits.get(col, 0), col == result.move))
            values = {col: v for col, v in result.move_values.items() if col in kept}
            yield SearchResult(move=move, value=values.get(move, result.value), pv=(move,),
                               move_values=MappingProxyType(values), depth=result.depth,
                               exact=False, scale="mean", stats=SearchStats(
                                   nodes=solver.total_nodes + result.stats.nodes,
                                   elapsed=self.clock() - start))


def make_ai(game: ConnectFour, level: str = "perfect", rng: random.Random | None = None,
            time: float | None = None) -> Thinker:
    """``perfect``: books, exact solve, tree search; ``medium``/``easy``: the generic
    search player's weaker levels (shallow search, some random non-losing moves)."""
    rng = rng or random.Random()
    if level != "perfect":
        return SearchPlayer(level, rng, time)
    return ConnectFourPlayer(game, rng, time, shipped_book(game.width, game.height),
                             strategy=shipped_strategy(game.width, game.height))
