"""Limited solves: a search paused and resumed counts the same nodes and finds the same value;
budgets stop at a node count and report sound bounds; ``--depth`` asks only for a forced
result that near; analyze and solve say when their values are bounds."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.cli.main import main
from yipan.core import AnalysisRequest, Limit, replay
from yipan.games.connect4 import ConnectFour, kernel
from yipan.games.connect4.hooks import analyze, solve, within_plies
from yipan.games.connect4.player import score_to_value
from yipan.games.connect4.solver import Budget, Solver

PAST_THE_BOOK = "445332211"  # ply 9, past the shipped book: no solve within a small budget


def at(game: ConnectFour, moves: str):
    return replay(game, game.split_moves(moves))[-1]


@settings(max_examples=10, deadline=None)
@given(index=st.integers(0, 999), slice_nodes=st.integers(1, 5000))
def test_a_search_paused_and_resumed_counts_the_same_nodes(game, benchmark_set, index,
                                                            slice_nodes):
    moves, expected = benchmark_set("Test_L2_R2")[index]
    position = at(game, moves)
    whole, sliced = Solver(game, table_bits=18), Solver(game, table_bits=18)
    assert whole.solve(position).score == expected
    sliced.slice_nodes = slice_nodes
    result = sliced.solve_within(position)
    assert result.score == expected and result.low == result.high == expected
    assert result.nodes == whole.nodes  # the same search, only cut into slices


def test_a_node_budget_stops_with_sound_bounds_and_a_sound_table(game, benchmark_set):
    moves, expected = benchmark_set("Test_L1_R2")[0]
    position = at(game, moves)
    solver = Solver(game, table_bits=20)
    stopped = solver.solve_within(position, Budget(nodes=20_000))
    assert stopped.score is None and stopped.nodes == 20_000
    assert stopped.low <= expected <= stopped.high
    assert solver.solve_within(position).score == expected  # the table kept, still sound


def test_the_kernel_pauses_at_its_limit_and_resume_finishes(game, benchmark_set):
    moves, expected = benchmark_set("Test_L2_R2")[2]
    position = at(game, moves)
    solver = Solver(game, table_bits=18)
    solver.ctx[kernel.C_NODES] = 0
    solver.ctx[kernel.C_LIMIT] = 500
    value = kernel.negamax(*position, expected - 1, expected, *solver._args())
    assert solver.ctx[kernel.C_PAUSED] and solver.nodes == 500
    while solver.ctx[kernel.C_PAUSED]:
        solver.ctx[kernel.C_LIMIT] += 500
        value = kernel.resume(*solver._args())
    assert value >= expected  # the null window at expected - 1 fails high


@pytest.mark.parametrize("moves", ["2252576253462244111563365343671351441", "5554224333234511"])
def test_a_depth_window_finds_near_results_and_bounds_the_rest(game, moves):
    position = at(game, moves)
    exact = Solver(game, table_bits=20).solve(position).score
    assert exact is not None
    plies = abs(score_to_value(exact, position.moves, game.cells)) if exact else 0
    for depth in (1, 3, 5, 9, 15):
        low, high = within_plies(depth, position.moves, game.cells)
        result = Solver(game, table_bits=20).solve_within(position, window=(low, high))
        near = exact != 0 and 1_000_000 - plies <= depth
        if near:
            assert result.score == exact
        else:
            assert result.low <= exact <= result.high
            assert low < result.low or result.high < high or result.score == exact


def test_solve_with_a_node_limit_says_its_value_is_bounds(game):
    request = AnalysisRequest(limit=Limit(nodes=50_000))
    analysis = solve(game, at(game, PAST_THE_BOOK), request)
    assert not analysis.exact and analysis.value is None
    assert analysis.extra["bounds"].startswith("bounds only: the score is between")
    low, high = analysis.extra["benchmark_bounds"]
    assert low < high and analysis.nodes <= 50_000 + 1


def test_analyze_with_a_node_limit_shares_it_and_reports_each_column(game):
    seen: list[str] = []
    request = AnalysisRequest(limit=Limit(nodes=70_000), progress=seen.append)
    analysis = analyze(game, at(game, PAST_THE_BOOK), request)
    assert not analysis.exact and set(analysis.extra["benchmark_bounds"]) == set("1234567")
    assert analysis.nodes <= 70_000 + 7
    assert analysis.engine.endswith("(bounds)")


def test_analyze_without_a_limit_searches_its_default_time(game, monkeypatch):
    """No --time and no --nodes: analyze stops at its default time with proved bounds (here
    no time at all, far too little for a position past the book)."""
    from yipan.games.connect4 import hooks

    monkeypatch.setattr(hooks, "DEFAULT_ANALYZE_SECONDS", 0.0)
    analysis = analyze(game, at(game, PAST_THE_BOOK), AnalysisRequest())
    assert not analysis.exact and analysis.value is None
    assert analysis.extra["bounds"].startswith("bounds only:")
    for low, high in analysis.extra["benchmark_bounds"].values():
        assert low <= high


def test_a_column_proved_lost_is_not_the_best_while_another_is_open(game):
    """After 266737676 (past the book) with 700 nodes, five columns are proved lost and two
    are open: the move given is an open one, never a proved loss, and the position's bounds
    are the best of the columns'."""
    analysis = analyze(game, at(game, "266737676"), AnalysisRequest(limit=Limit(nodes=700)))
    bounds = analysis.extra["benchmark_bounds"]
    lost = {column for column, (_, high) in bounds.items() if high < 0}
    assert lost and len(lost) < len(bounds)
    assert game.format_move(analysis.move) not in lost
    assert analysis.move_outcomes.get(analysis.move) != -1


def test_the_best_column_prefers_any_open_one_to_a_proved_loss(game):
    from yipan.games.connect4.hooks import best_column

    state = game.initial_state()
    assert best_column(game, state, {2: (-3, -3), 0: (-20, 2), 6: (-20, 0)}) == 0
    assert best_column(game, state, {2: (-3, -3), 0: (-20, -1)}) == 2  # all lost: the slower
    assert best_column(game, state, {2: (1, 1), 3: (-20, 20)}) == 2  # a proved win first
    assert best_column(game, state, {2: (0, 0), 3: (-20, 20)}) == 2  # the proved draw


def test_progress_is_reported_only_after_a_second(game, benchmark_set):
    seen: list[str] = []
    moves, _ = benchmark_set("Test_L2_R1")[0]
    solve(game, at(game, moves), AnalysisRequest(progress=seen.append))
    assert seen == []  # a quick solve says nothing


def test_cli_solve_nodes_and_depth(capsys):
    status = main(["solve", "connect4", PAST_THE_BOOK, "--nodes", "30000", "--json"])
    record = json.loads(capsys.readouterr().out)
    assert status == 0 and record["exact"] is False and record["value"] is None
    assert "bounds only" in record["extra"]["bounds"]
    status = main(["solve", "connect4", "2252576253462244111563365343671351441", "--depth",
                   "9"])
    out = capsys.readouterr().out
    assert status == 0 and "loss in 4" in out
    assert main(["solve", "connect4", "44", "--nodes", "0"]) == 2
    capsys.readouterr()


def test_cli_analyze_player_gives_the_players_move(capsys):
    moves = "2252576253462244111563365343671351441"
    status = main(["analyze", "connect4", moves, "--ai", "player", "--json", "--seed", "1"])
    record = json.loads(capsys.readouterr().out)
    assert status == 0 and record["move"] is not None and record["exact"] is True
    assert record["outcome"] == "loss"


def test_budget_shares_divide_what_is_left():
    budget = Budget(deadline=None, nodes=1000)
    assert budget.share(4, used_nodes=200).nodes == 200
    assert Budget(nodes=10).spent(10) and not Budget(nodes=10).spent(9)
    assert Budget(stop=lambda: True).spent(0)
    rng = random.Random(1)
    assert Budget.of(nodes=rng.randrange(1, 5)).deadline is None


def test_analyze_at_the_books_last_ply_starts_each_column_from_the_books_score(game):
    """At ply 8 the book knows the position's score S but not its columns': no column scores
    more than S, so each column's search starts there. The same scores, fewer nodes than
    without the book (whose children, past it, it cannot help otherwise)."""
    from yipan.games.connect4.book import shipped_book

    position = at(game, "44533221")
    known = shipped_book().score(game, position)
    assert position.moves == shipped_book().depth and known is not None
    with_book = analyze(game, position, AnalysisRequest())
    without = analyze(game, position, AnalysisRequest(options={"no-book": True}))
    assert with_book.exact and without.exact and with_book.extra["book"]
    scores = with_book.extra["benchmark_scores"]
    assert scores == without.extra["benchmark_scores"] and max(scores.values()) == known
    assert with_book.nodes < without.nodes
