"""Connect Four's hooks: the AI, the exact solver behind ``analyze`` and ``solve``, the book.

``solve`` gives the position's exact score (``--weak``: only win, draw or loss, faster);
``analyze`` scores every column and follows the best line. Values are in yipan's ``WIN - ply``
convention; ``extra`` carries the shared benchmark's convention as well: ``benchmark_score``
(for the side to move, ``22 - stones the winner has played`` on 7x6, 0 a draw; with ``--weak``
its sign) and ``benchmark_scores`` (each column's), and ``book`` (whether the opening book was
probed).

Limits: ``--time`` and ``--nodes`` stop the solver (``analyze`` shares them among the columns,
and without either searches ``DEFAULT_ANALYZE_SECONDS``);
``--depth D`` asks only whether either side forces a result within D plies. When a limit
stops a search first, the report says its figures are bounds: ``exact`` is false, ``value``
null, ``extra.bounds`` says in words what is proved (and the outcome when the bounds decide
it), ``extra.benchmark_bounds`` gives ``[low, high]`` (``analyze``: per column). A search that
runs over a second reports its bounds as they narrow through ``request.progress``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...core import (
    WIN,
    Analysis,
    AnalysisRequest,
    BookReport,
    BookRequest,
    CommandOption,
    GameHooks,
    Limit,
)
from .book import build, make_solver, solve_unit
from .player import make_ai, score_to_value
from .rules import ConnectFour, Position
from .solver import DEFAULT_TABLE_BITS, Budget, Solver

if TYPE_CHECKING:
    from ...learning.data import Dataset

PV_NODES = 2_000_000  # per step of the main line; beyond, the line reported stops early
DEFAULT_ANALYZE_SECONDS = 10.0  # analyze without --time or --nodes (as engines' analyses)
PROGRESS_AFTER = 1.0  # seconds a search runs before its progress is reported
EARLY_PLIES = 2  # positions this early are searched with a larger table ...
EARLY_TABLE_BITS = 25  # ... of 2^25 slots (256 MB)

OPTIONS = (
    CommandOption("weak", "only win, draw or loss (faster)", commands=("solve",)),
    CommandOption("no-book", "do not probe the opening book"),
)


def table_bits_for(moves: int) -> int:
    """The table for searches from positions after ``moves`` plies: larger for the earliest,
    whose trees are large enough for a larger table to pay for itself; in later positions'
    trees it saves too few nodes to repay its cost."""
    return EARLY_TABLE_BITS if moves <= EARLY_PLIES else DEFAULT_TABLE_BITS


def _fresh_solver(game: ConnectFour, request: AnalysisRequest, moves: int
                  ) -> tuple[Solver, bool]:
    """The solver for searches from positions after ``moves`` plies, its table emptied."""
    use_book = not request.options.get("no-book", False)
    solver = make_solver(game.width, game.height, use_book, table_bits_for(moves))
    solver.reset()
    solver.total_nodes = 0
    return solver, use_book


def _budget(request: AnalysisRequest, default_seconds: float | None = None) -> Budget:
    """The request's limit; given neither time nor nodes, ``default_seconds`` (None: no
    bound)."""
    limit = request.limit or Limit()
    seconds = limit.time
    if seconds is None and limit.nodes is None:
        seconds = default_seconds
    return Budget.of(seconds, limit.nodes, limit.stop)


def _window(game: ConnectFour, state: Position, request: AnalysisRequest
            ) -> tuple[int, int] | None:
    """``--depth D``: only a forced result within D plies is looked for (the scores of the
    wins and losses that near, in the benchmark's convention)."""
    depth = request.limit.depth if request.limit is not None else None
    if depth is None:
        return None
    return within_plies(depth, state.moves, game.cells)


class _Progress:
    """Passes the bounds on to ``request.progress`` once a search has run a second."""

    def __init__(self, request: AnalysisRequest, label: str = "") -> None:
        self.say, self.label = request.progress, label
        self.start = time.perf_counter()

    def __call__(self, low: int, high: int) -> None:
        seconds = time.perf_counter() - self.start
        if self.say is not None and seconds >= PROGRESS_AFTER:
            self.say(f"{self.label}score {_range_text(low, high)} ({seconds:.1f} s)")


def _range_text(low: int, high: int) -> str:
    return f"{low:+d}" if low == high else f"between {low:+d} and {high:+d}"


def analyze(game: ConnectFour, state: Position, request: AnalysisRequest) -> Analysis:
    solver, use_book = _fresh_solver(game, request, state.moves + 1)
    budget = _budget(request, DEFAULT_ANALYZE_SECONDS)
    window = _window(game, state, request)
    start = time.perf_counter()
    ranges: dict[int, tuple[int, int]] = {}
    columns = game.order_moves(state, game.legal_moves(state))
    pending = []
    for col in columns:
        if game.is_winning_move(state, col):
            score = (game.cells + 1 - state.moves) // 2
            ranges[col] = (score, score)
        elif game.play(state, col).moves >= game.cells:
            ranges[col] = (0, 0)
        else:
            pending.append(col)
    flipped = None if window is None else (-window[1], -window[0])
    # at the book's last ply the position's score is known, and no column scores more: each
    # child's search starts from that bound (its children are past the book)
    known = solver.book_score(state)
    at_least = None if known is None else -known
    # each open column gets an equal share of what is left; what the quick ones leave goes
    # to the columns still open, pass after pass (the table keeps what each pass learnt),
    # until every column is settled, the budget is spent, or a pass gets nowhere
    while pending:
        nodes_before = solver.total_nodes
        for index, col in enumerate(pending):
            solved = solver.solve_within(game.play(state, col),
                                         budget.share(len(pending) - index, solver.total_nodes),
                                         window=flipped, at_least=at_least,
                                         progress=_Progress(request, f"column {col + 1}: "))
            ranges[col] = (-solved.high, -solved.low)
        pending = [col for col in pending if ranges[col][0] != ranges[col][1]]
        if window is not None or budget.spent(solver.total_nodes) \
                or solver.total_nodes == nodes_before:
            break
    scores = {col: low for col, (low, high) in ranges.items() if low == high}
    exact = len(scores) == len(ranges)
    best_col = best_column(game, state, ranges)
    low, high = max(lo for lo, _ in ranges.values()), max(h for _, h in ranges.values())
    line = [best_col]
    if exact and not game.is_winning_move(state, best_col):
        line += solver.principal_variation(game.play(state, best_col), -low,
                                           node_limit=PV_NODES)
    values = {col: score_to_value(score, state.moves, game.cells)
              for col, score in scores.items()}
    extra: dict[str, object] = {
        "benchmark_score": low if exact else None, "book": use_book,
        "benchmark_scores": {game.format_move(c): s for c, s in scores.items()}}
    if not exact:
        extra["bounds"] = _bounds_text(game, state, low, high, ranges, window)
        extra["benchmark_bounds"] = {game.format_move(c): list(r) for c, r in ranges.items()}
    return Analysis(
        move=best_col, value=score_to_value(low, state.moves, game.cells) if exact else None,
        outcome=_outcome_of(low, high), pv=tuple(line), move_values=values,
        move_outcomes={col: o for col, (lo, hi) in ranges.items()
                       if (o := _outcome_of(lo, hi)) is not None},
        depth=len(line), exact=exact, nodes=solver.total_nodes,
        seconds=time.perf_counter() - start,
        engine="connect4 solver" + ("" if exact else " (bounds)"), extra=extra)


def best_column(game: ConnectFour, state: Position,
                ranges: dict[int, tuple[int, int]]) -> int:
    """The column to play given each column's proved score range ``(low, high)``: a column
    proved lost (``high < 0``) only when every column is; then the best proved lower bound,
    then the best upper bound, then the game's move order (the centre first)."""
    return max(game.order_moves(state, list(ranges)),
               key=lambda c: (ranges[c][1] >= 0, ranges[c][0], ranges[c][1]))


def solve(game: ConnectFour, state: Position, request: AnalysisRequest) -> Analysis:
    solver, use_book = _fresh_solver(game, request, state.moves)
    weak = bool(request.options.get("weak", False))
    window = _window(game, state, request)
    solved = solver.solve_within(state, _budget(request), weak=weak, window=window,
                                 progress=_Progress(request))
    exact = solved.score is not None
    value = None if weak or not exact else score_to_value(solved.low, state.moves, game.cells)
    extra: dict[str, object] = {"benchmark_score": solved.score, "weak": weak,
                                "book": use_book}
    if not exact:
        extra["bounds"] = _bounds_text(game, state, solved.low, solved.high, None, window)
        extra["benchmark_bounds"] = [solved.low, solved.high]
    return Analysis(
        move=None, value=value, outcome=_outcome_of(solved.low, solved.high), exact=exact,
        nodes=solved.nodes, seconds=solved.seconds,
        engine="connect4 solver" + (" (weak)" if weak else "") + ("" if exact else
                                                                  " (bounds)"),
        extra=extra)


def within_plies(depth: int, moves: int, cells: int) -> tuple[int, int]:
    """The window (a, b): a score >= b wins within ``depth`` plies, <= a loses within them."""
    win = next((score for score in range(1, cells + 1)
                if WIN - score_to_value(score, moves, cells) <= depth), cells)
    loss = next((score for score in range(1, cells + 1)
                 if WIN + score_to_value(-score, moves, cells) <= depth), cells)
    return -loss, win


def _bounds_text(game: ConnectFour, state: Position, low: int, high: int,
                 ranges: dict[int, tuple[int, int]] | None,
                 window: tuple[int, int] | None) -> str:
    """What the bounds say, in words: the limit stopped the search before the exact score."""
    words = f"bounds only: the score is {_range_text(low, high)}"
    outcome = _outcome_of(low, high)
    if outcome is not None:
        words += f" (a proved {('loss', 'draw', 'win')[outcome + 1]})"
    if window is not None and window[0] < low and high < window[1]:
        words += ", no forced result within the depth"
    if ranges is not None:
        open_columns = [game.format_move(c) for c, (lo, hi) in ranges.items() if lo != hi]
        words += f"; columns not settled: {' '.join(open_columns)}"
    return words


def _outcome_of(low: int, high: int) -> int | None:
    """+1, 0 or -1 once the bounds decide the outcome, else None."""
    if low > 0:
        return 1
    if high < 0:
        return -1
    if low == high == 0:
        return 0
    return None


def build_book(game: ConnectFour, request: BookRequest) -> BookReport:
    runner = request.map_units
    report = build(game, request.path, request.depth, workers=request.workers,
                   progress=request.progress,
                   map_units=None if runner is None else (
                       lambda jobs: runner(solve_unit, jobs)))
    return BookReport(request.path, report.positions, report.seconds)


def prepare(game: ConnectFour) -> None:
    """The solver (with the book) and the tree search, each run once on a small task; the
    strategy book read."""
    import random

    from ...core import Limit
    from .strategy import shipped_strategy
    from .uct import mcts_connect4

    make_solver(game.width, game.height, True)
    shipped_strategy(game.width, game.height)
    mcts_connect4(0, 0, 0, limit=Limit(nodes=64), rng=random.Random(0),
                  width=game.width, height=game.height)


def label(game: ConnectFour, count: int, rng: random.Random,
          progress: Callable[[int], None] | None = None) -> Dataset:
    """``count`` solver-labelled positions with their mirror images (``labels``)."""
    from .labels import solver_dataset

    return solver_dataset(game, count, rng, progress=progress)


HOOKS = GameHooks(make_ai=make_ai, make_thinker=make_ai, analyze=analyze, solve=solve,
                  build_book=build_book, prepare=prepare, options=OPTIONS, label=label,
                  ai_summary="an opening book and an exact solver; where the solver runs out "
                             "of time, Monte Carlo tree search")
