"""The numba solver: the shared benchmark sets exactly, agreement with the generic search,
weak against strong solve, the analysis and the principal variation."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yipan.core import replay
from yipan.games.connect4 import ConnectFour
from yipan.games.connect4.player import score_to_value
from yipan.games.connect4.solver import Solver
from yipan.search import alphabeta

SRC = Path(__file__).resolve().parents[3] / "src"


def solve_set(game, solver, lines):
    wrong = []
    for moves, expected in lines:
        position = replay(game, game.split_moves(moves))[-1]
        score = solver.solve_fresh(position)
        if score != expected:
            wrong.append((moves, expected, score))
    return wrong


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_every_position_of_the_easy_sets(game, solver, benchmark_set, name):
    lines = benchmark_set(name)
    assert len(lines) == 1000
    assert solve_set(game, solver, lines) == []


@pytest.mark.parametrize(("name", "count"), [("Test_L2_R2", 15), ("Test_L1_R1", 15),
                                             ("Test_L1_R2", 2)])
def test_a_sample_of_the_harder_sets(game, solver, benchmark_set, name, count):
    lines = random.Random(name).sample(benchmark_set(name), count)
    assert solve_set(game, solver, lines) == []


def test_a_reset_table_searches_as_a_new_one(game, benchmark_set):
    """The in-place reset (only the slots the last search wrote) leaves the table as empty as
    a newly allocated one: one solver reused with resets visits, position by position, the
    nodes of a brand-new solver per position."""
    lines = benchmark_set("Test_L2_R1")[:40]
    reused = Solver(game, table_bits=20)
    for moves, _ in lines:
        position = replay(game, game.split_moves(moves))[-1]
        reused.solve_fresh(position)
        fresh = Solver(game, table_bits=20)
        fresh.solve(position)
        assert reused.nodes == fresh.nodes, moves


def test_the_compiled_kernel_counts_the_nodes_its_python_source_counts(game, benchmark_set):
    """numba's integers wrap at 64 bits where Python's do not: the same kernel run as plain
    Python (``NUMBA_DISABLE_JIT=1``, in a fresh process) visits exactly the compiled
    kernel's nodes, position by position, and finds the same scores."""
    lines = benchmark_set("Test_L3_R1")[:6]
    script = (
        "import json, sys\n"
        "from yipan.core import replay\n"
        "from yipan.games.connect4 import ConnectFour\n"
        "from yipan.games.connect4.solver import Solver\n"
        "game = ConnectFour(); solver = Solver(game, table_bits=20)\n"
        "out = []\n"
        "for moves in sys.argv[1:]:\n"
        "    score = solver.solve_fresh(replay(game, game.split_moves(moves))[-1])\n"
        "    out.append([int(score), solver.nodes])\n"
        "print(json.dumps(out))\n")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", script, *[m for m, _ in lines]], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    interpreted = json.loads(done.stdout)
    compiled = Solver(game, table_bits=20)
    for (moves, expected), (score, nodes) in zip(lines, interpreted, strict=True):
        assert compiled.solve_fresh(replay(game, game.split_moves(moves))[-1]) == expected
        assert (score, nodes) == (expected, compiled.nodes), moves


def random_position(game: ConnectFour, rng: random.Random, plies: int):
    """A position after ``plies`` random moves that is not over (fewer if every move ends it:
    then the side to move wins at once)."""
    position = game.initial_state()
    while position.moves < plies:
        children = [game.play(position, col) for col in game.legal_moves(position)]
        going = [child for child in children if game.outcome(child) is None]
        if not going:
            break
        position = rng.choice(going)
    return position


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), board=st.sampled_from([(7, 6, 32), (5, 4, 9), (4, 4, 5)]))
def test_the_kernel_agrees_with_the_generic_alphabeta(seed, board):
    width, height, plies = board
    game = ConnectFour(width, height)
    position = random_position(game, random.Random(seed), plies)
    solver = Solver(game, table_bits=16)
    score = solver.solve(position).score
    generic = alphabeta(game, position)
    assert generic.exact
    assert score_to_value(score, position.moves, game.cells) == generic.value


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_weak_solve_has_the_sign_of_strong_solve(seed):
    game = ConnectFour()
    solver = Solver(game, table_bits=18)
    position = random_position(game, random.Random(seed), 24)
    strong = solver.solve(position, fresh=True).score
    weak = solver.solve(position, weak=True, fresh=True).score
    assert weak == (strong > 0) - (strong < 0)


def test_weak_agrees_in_sign_on_benchmark_positions(game, solver, benchmark_set):
    for moves, expected in random.Random(7).sample(benchmark_set("Test_L2_R2"), 10):
        position = replay(game, game.split_moves(moves))[-1]
        assert solver.solve_fresh(position, weak=True) == (expected > 0) - (expected < 0)


def test_analysis_and_principal_variation_keep_the_score(game, solver, benchmark_set):
    moves, expected = benchmark_set("Test_L2_R1")[3]
    position = replay(game, game.split_moves(moves))[-1]
    scores = solver.analyze(position)
    assert max(s for s in scores.values() if s is not None) == expected
    line = solver.principal_variation(position, expected)
    end = position
    for col in line:
        end = game.play_checked(end, col)
    outcome = game.outcome(end)
    assert outcome is not None
    if expected == 0:
        assert outcome.winner is None
    else:
        mover = position.moves & 1
        assert outcome.winner == (mover if expected > 0 else 1 - mover)
        # the score counts the winner's stones: 22 - stones when the four is made
        winner_stones = (end.moves + 1) // 2
        assert abs(expected) == (game.cells + 2) // 2 - winner_stones


def test_a_node_limit_gives_up_cleanly_and_leaves_the_table_sound(game):
    solver = Solver(game, table_bits=18)
    position = replay(game, list("4444"))[-1]
    gave_up = solver.solve(position, node_limit=500)
    assert gave_up.score is None and gave_up.nodes >= 500
    easy = replay(game, game.split_moves("2252576253462244111563365343671351441"))[-1]
    assert solver.solve(easy).score == -1


@pytest.mark.parametrize("flags", [1, 2, 4, 8, 16, 31])
def test_every_variant_gives_the_same_scores(game, benchmark_set, flags):
    solver = Solver(game, table_bits=19, flags=flags)
    lines = random.Random(flags).sample(benchmark_set("Test_L2_R1"), 100)
    assert solve_set(game, solver, lines) == []


def test_a_table_too_small_to_pin_down_keys_is_refused():
    with pytest.raises(ValueError, match="table_bits"):
        Solver(ConnectFour(), table_bits=18, flags=8)


def test_a_batch_solves_each_position_as_a_call_of_its_own_would(game, benchmark_set):
    """``solve_many`` (one kernel call for a whole batch) gives, position by position, the
    score and the node count of ``solve_fresh`` called once per position."""
    lines = benchmark_set("Test_L2_R1")[:60]
    positions = [replay(game, game.split_moves(moves))[-1] for moves, _ in lines]
    batch = Solver(game, table_bits=20)
    scores, nodes = batch.solve_many(positions)
    single = Solver(game, table_bits=20)
    for (moves, expected), position, score, count in zip(lines, positions, scores, nodes,
                                                         strict=True):
        assert (moves, int(score)) == (moves, expected)
        assert single.solve_fresh(position) == expected
        assert int(count) == single.nodes
