"""Connect Four's hooks: the AI, the exact solver behind ``analyze`` and ``solve``, the book.

``solve`` gives the position's exact score (``--weak``: only win, draw or loss, faster);
``analyze`` scores every column and follows the best line. Values are in yipan's ``WIN - ply``
convention; ``extra`` carries the shared benchmark's convention as well: ``benchmark_score``
(for the side to move, ``22 - stones the winner has played`` on 7x6, 0 a draw; with ``--weak``
its sign) and ``benchmark_scores`` (each column's), and ``book`` (whether the opening book was
probed).
"""

from __future__ import annotations

import time
from functools import lru_cache

from ...core import (
    Analysis,
    AnalysisRequest,
    BookReport,
    BookRequest,
    CommandOption,
    GameHooks,
)
from .book import build, shipped_book, solve_unit
from .player import make_ai, score_to_value
from .rules import ConnectFour, Position
from .solver import Solver

PV_NODES = 2_000_000  # per step of the main line; beyond, the line reported stops early

OPTIONS = (
    CommandOption("weak", "only win, draw or loss (faster)", commands=("solve",)),
    CommandOption("no-book", "do not probe the opening book"),
)


@lru_cache(maxsize=2)
def make_solver(width: int, height: int, use_book: bool = True) -> Solver:
    """A solver with the shipped book (when one exists for this board), compiled and ready;
    kept for the next position (its 64 MB table is emptied before each, as the benchmark
    asks, by clearing only the slots the last search wrote)."""
    solver = Solver(ConnectFour(width, height),
                    book=shipped_book(width, height) if use_book else None)
    solver.warm_up()
    return solver


def _fresh_solver(game: ConnectFour, request: AnalysisRequest) -> tuple[Solver, bool]:
    use_book = not request.options.get("no-book", False)
    solver = make_solver(game.width, game.height, use_book)
    solver.reset()
    solver.total_nodes = 0
    return solver, use_book


def analyze(game: ConnectFour, state: Position, request: AnalysisRequest) -> Analysis:
    solver, use_book = _fresh_solver(game, request)
    start = time.perf_counter()
    scores = solver.analyze(state)
    best_score = max(s for s in scores.values() if s is not None)
    best = [c for c in game.order_moves(state, list(scores)) if scores[c] == best_score]
    line = [best[0]]
    if not game.is_winning_move(state, best[0]):
        line += solver.principal_variation(game.play(state, best[0]), -best_score,
                                           node_limit=PV_NODES)
    values = {col: score_to_value(score, state.moves, game.cells)
              for col, score in scores.items() if score is not None}
    return Analysis(
        move=best[0], value=score_to_value(best_score, state.moves, game.cells),
        outcome=_sign(best_score), pv=tuple(line), move_values=values,
        move_outcomes={col: _sign(score) for col, score in scores.items() if score is not None},
        depth=len(line), exact=True, nodes=solver.total_nodes,
        seconds=time.perf_counter() - start, engine="connect4 solver",
        extra={"benchmark_score": best_score, "book": use_book,
               "benchmark_scores": {game.format_move(c): s for c, s in scores.items()}})


def solve(game: ConnectFour, state: Position, request: AnalysisRequest) -> Analysis:
    solver, use_book = _fresh_solver(game, request)
    weak = bool(request.options.get("weak", False))
    solved = solver.solve(state, weak=weak)
    assert solved.score is not None
    value = None if weak else score_to_value(solved.score, state.moves, game.cells)
    return Analysis(
        move=None, value=value, outcome=_sign(solved.score), exact=True, nodes=solved.nodes,
        seconds=solved.seconds, engine="connect4 solver" + (" (weak)" if weak else ""),
        extra={"benchmark_score": solved.score, "weak": weak, "book": use_book})


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def build_book(game: ConnectFour, request: BookRequest) -> BookReport:
    runner = request.map_units
    report = build(game, request.path, request.depth, workers=request.workers,
                   progress=request.progress,
                   map_units=None if runner is None else (
                       lambda jobs: runner(solve_unit, jobs)))
    return BookReport(request.path, report.positions, report.seconds)


def prepare(game: ConnectFour) -> None:
    """The solver (with the book) and the tree search, each run once on a small task."""
    import random

    from ...core import Limit
    from .uct import mcts_connect4

    make_solver(game.width, game.height, True)
    mcts_connect4(0, 0, 0, limit=Limit(nodes=64), rng=random.Random(0),
                  width=game.width, height=game.height)


HOOKS = GameHooks(make_ai=make_ai, make_thinker=make_ai, analyze=analyze, solve=solve,
                  build_book=build_book, prepare=prepare, options=OPTIONS,
                  ai_summary="an opening book and an exact solver; where the solver runs out "
                             "of time, Monte Carlo tree search")
