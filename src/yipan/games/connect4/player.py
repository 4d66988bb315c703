"""The Connect Four AI: the opening book, then an exact solve within half the move time, then
Monte Carlo tree search (UCT entirely in numba, hundreds of thousands of simulations a second)
for the rest of the time when the solve does not finish.

It never plays a move proved to lose while another move is not proved to lose: the book and
the solver only pick moves that keep the proved score, and the tree search only chooses among
moves the opponent cannot punish at once.
"""

from __future__ import annotations

import random
import time as clock
from collections.abc import Callable, Iterator
from types import MappingProxyType
from typing import TypeVar

from ...core import WIN, Choice, Limit, SearchResult, SearchStats, Thinker, last_choice
from ...search.mcts import MCTSStats
from ...search.players import SearchPlayer
from .book import OpeningBook, shipped_book
from .rules import ConnectFour, Position
from .solver import Solved, Solver
from .uct import uct_connect4

DEFAULT_MOVE_TIME = 3.0  # seconds, when the caller gives none
SOLVE_SHARE = 0.5  # of the move time, for the exact solve; the tree search gets the rest
REPORT_EVERY = 0.25  # seconds between the tree search's reports when thinking aloud
FIRST_SLICE = 0.1  # seconds of solving before the first look at a stop flag (then doubled)
FIRST_GUESS_NODES_PER_SECOND = 2_000_000
T = TypeVar("T")


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
    """Perfect wherever the book or a solve within ``time`` reaches; strong elsewhere."""

    def __init__(self, game: ConnectFour, rng: random.Random, time: float | None = None,
                 book: OpeningBook | None = None) -> None:
        self.game = game
        self.rng = rng
        self.time = DEFAULT_MOVE_TIME if time is None else time
        self.book = book
        self.solver = Solver(game, book=book)
        self.nodes_per_second = float(FIRST_GUESS_NODES_PER_SECOND)
        self.name = "connect4 solver"

    def choose(self, game: ConnectFour, state: Position) -> Choice:
        return last_choice(self.think(game, state, Limit(time=self.time)))

    def think(self, game: ConnectFour, state: Position, limit: Limit) -> Iterator[Choice]:
        """The book's or the solver's proved choice, or else the tree search's, reported every
        ``REPORT_EVERY`` seconds. With a ``limit.stop`` to heed, the solve (a numba kernel,
        which cannot be asked) runs in slices with the stop asked between them (``_within``)."""
        start = clock.perf_counter()
        result = self._from_book(state)
        if result is None and not limit.stopped():
            result = self._solve(state, start, limit)
        if result is not None:
            yield Choice(result.move, result)
            return
        for result in self._tree_search(state, start, limit):
            yield Choice(result.move, result)

    def _pick(self, state: Position, values: dict[int, int], *, exact: bool, nodes: int,
              start: float, depth: int) -> SearchResult:
        best = max(values.values())
        move = self.rng.choice([m for m, v in values.items() if v == best])
        return SearchResult(move=move, value=best, pv=(move,),
                            move_values=MappingProxyType(values), depth=depth, exact=exact,
                            stats=SearchStats(nodes=nodes,
                                              elapsed=clock.perf_counter() - start))

    def _from_book(self, state: Position) -> SearchResult | None:
        """When the book knows every child (or a move wins at once), each move's score."""
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
        return self._pick(state, values, exact=True, nodes=0, start=clock.perf_counter(),
                          depth=game.cells - state.moves)

    def _solve(self, state: Position, start: float, limit: Limit) -> SearchResult | None:
        """Exact: the root's score within the node budget, then every move keeping it."""
        game, solver = self.game, self.solver
        budget = max(1000, int(self.time * SOLVE_SHARE * self.nodes_per_second))
        attempts: list[Solved] = []

        def attempt(nodes: int) -> Solved | None:
            attempts.append(solver.solve(state, node_limit=nodes))
            return attempts[-1] if attempts[-1].score is not None else None

        solved = self._within(attempt, budget, limit)
        elapsed = clock.perf_counter() - start
        spent = sum(tried.nodes for tried in attempts)
        if spent > 100_000 and elapsed > 0:
            self.nodes_per_second = 0.5 * self.nodes_per_second + 0.5 * spent / elapsed
        if solved is None or solved.score is None:
            return None
        value = score_to_value(solved.score, state.moves, game.cells)
        keeping = self._moves_keeping(state, solved.score, start, limit)
        if not keeping:
            return None  # the score is known (e.g. from the book) but no move proved in time
        values = {col: value for col in keeping}
        return self._pick(state, values, exact=True, nodes=solved.nodes, start=start,
                          depth=game.cells - state.moves)

    def _moves_keeping(self, state: Position, score: int, start: float,
                       limit: Limit) -> list[int]:
        """The moves proved to keep ``score``, each proof within what is left of the solve's
        share of the move time (a score from the book still needs its moves proved)."""
        game, solver = self.game, self.solver
        keeping = []
        for col in game.order_moves(state, game.legal_moves(state)):
            left = self.time * SOLVE_SHARE - (clock.perf_counter() - start)
            if left <= 0 or limit.stopped():
                break
            def prove(nodes: int, col: int = col) -> bool | None:
                return solver.achieves(state, col, score, node_limit=nodes)

            keeps = self._within(prove, max(1000, int(left * self.nodes_per_second)), limit)
            if keeps is None:
                break
            if keeps:
                keeping.append(col)
        return keeping

    def _within(self, run: Callable[[int], T | None], nodes: int, limit: Limit) -> T | None:
        """``run(node_limit)`` (None: out of nodes) within ``nodes``. With a stop to heed, in
        slices of doubling size from ``FIRST_SLICE`` seconds' worth, the stop asked between
        them: an aborted solve keeps nothing, so this spends up to the slices before the last
        again (at most as many nodes as the last), for an answer to "stop" within a slice."""
        if limit.stop is None:
            return run(nodes)
        step = max(1000, int(FIRST_SLICE * self.nodes_per_second))
        spent = 0
        while spent < nodes and not limit.stopped():
            size = max(1000, min(step, nodes - spent))
            result = run(size)
            if result is not None:
                return result
            spent += size
            step *= 2
        return None

    def _tree_search(self, state: Position, start: float,
                     limit: Limit) -> Iterator[SearchResult]:
        """UCT in numba for the rest of the move time, among moves not punished at once: a
        result every ``REPORT_EVERY`` seconds, the last one the choice."""
        remaining = max(0.05, self.time - (clock.perf_counter() - start))
        game = self.game
        safe = game.non_losing_moves(state) or game.legal_moves(state)
        for result in uct_connect4(state.current, state.mask, state.moves,
                                   limit=Limit(time=remaining, stop=limit.stop), rng=self.rng,
                                   width=game.width, height=game.height,
                                   every=REPORT_EVERY):
            assert isinstance(result.stats, MCTSStats)
            visits = result.stats.visits
            move = max(safe, key=lambda col: (visits.get(col, 0), col == result.move))
            values = {col: v for col, v in result.move_values.items() if col in safe}
            yield SearchResult(move=move, value=values.get(move, result.value), pv=(move,),
                               move_values=MappingProxyType(values), depth=result.depth,
                               exact=False, scale="mean", stats=SearchStats(
                                   nodes=result.stats.nodes,
                                   elapsed=clock.perf_counter() - start))


def make_ai(game: ConnectFour, level: str = "perfect", rng: random.Random | None = None,
            time: float | None = None) -> Thinker:
    """``perfect``: book, exact solve, tree search; ``medium``/``easy``: the generic
    search player's weaker levels (shallow search, some random non-losing moves)."""
    rng = rng or random.Random()
    if level != "perfect":
        return SearchPlayer(level, rng, time)
    return ConnectFourPlayer(game, rng, time, shipped_book(game.width, game.height))
