"""``yipan explain``: the recorded tree is the tree the search explored (its node count is the
search's own, its root value the search's value), for every algorithm it explains."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import yipan
from yipan.core import WIN, replay
from yipan.explain import explain, to_dot, to_json, to_text
from yipan.search import PLAIN, Options, alphabeta, minimax
from yipan.search.expectimax import expectimax
from yipan.search.tree import TreeNode

SRC = str(Path(__file__).resolve().parents[2] / "src")
TICTACTOE = yipan.get_game("tictactoe")


def yipan_cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "yipan", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def count(node: dict) -> int:
    return 1 + sum(count(child) for child in node["children"])


def nodes_of(tree: dict) -> list[dict]:
    found = [tree]
    for child in tree["children"]:
        found += nodes_of(child)
    return found


def explained(moves: list[str], algorithm: str) -> dict:
    run = yipan_cli("explain", "tictactoe", *moves, "--algorithm", algorithm, "--depth", "9",
                    "--json")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def solved(moves: list[str], algorithm: str) -> dict:
    run = yipan_cli("solve", "tictactoe", *moves, "--algorithm", algorithm, "--depth", "9",
                    "--json")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_cli_trees_count_what_solve_counts_with_its_value():
    # a small tree for minimax, and larger ones for alpha-beta
    for moves, algorithms in ((["a1", "b2", "c3", "b1", "b3"], ("minimax", "alphabeta")),
                              (["a1", "b2", "c3"], ("minimax", "alphabeta", "alphabeta-tt")),
                              (["b2"], ("alphabeta", "alphabeta-tt"))):
        for algorithm in algorithms:
            tree, solution = explained(moves, algorithm), solved(moves, algorithm)
            assert tree["nodes"] == solution["nodes"], (moves, algorithm)
            follow_ups = sum(count(f["root"]) for f in tree.get("follow_ups", []))
            assert count(tree["root"]) + follow_ups == tree["nodes"] == tree["recorded"]
            assert tree["truncated"] is False
            assert tree["root"]["value"] == tree["value"] == solution["value"]
            assert tree["root"]["move"] is None
            cutoffs = [node for node in nodes_of(tree["root"]) if node.get("cutoff")]
            if algorithm == "minimax":
                assert not cutoffs and "alpha" not in tree["root"]
            else:
                # (a cut-off on the last move prunes nothing)
                assert all("pruned" in node for node in cutoffs)
                assert any(node["pruned"] for node in cutoffs)


def test_a_cut_off_lists_the_moves_it_pruned_and_they_were_not_searched():
    tree = explained(["a1", "b2", "c3"], "alphabeta")
    for node in nodes_of(tree["root"]):
        searched = [child["move"] for child in node["children"]]
        if node["cutoff"]:
            assert not set(node["pruned"]) & set(searched)
        # the window is read from MAX's side, and a cut-off node's value left it
        if node["cutoff"] and node["side"] == "MAX":
            assert node["beta"] is not None and node["value"] >= node["beta"]
        if node["cutoff"] and node["side"] == "MIN":
            assert node["alpha"] is not None and node["value"] <= node["alpha"]


def random_position(rng: random.Random) -> list:
    state = TICTACTOE.initial_state()
    for _ in range(rng.randrange(1, 8)):  # (the empty board: half a million minimax nodes)
        if TICTACTOE.outcome(state) is not None:
            break
        state = TICTACTOE.play(state, rng.choice(list(TICTACTOE.legal_moves(state))))
    return state


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       algorithm=st.sampled_from(["minimax", "alphabeta", "alphabeta-tt"]))
def test_on_random_positions_the_tree_is_the_search(seed, algorithm):
    state = random_position(random.Random(seed))
    explanation = explain(TICTACTOE, state, algorithm, depth=9, max_nodes=100_000)
    if algorithm == "minimax":
        result = minimax(TICTACTOE, state, depth=9)
    else:
        options = PLAIN if algorithm == "alphabeta" else Options()
        result = alphabeta(TICTACTOE, state, depth=9, options=options)
    recorded = explanation.root.size() + sum(f.root.size() for f in explanation.follow_ups)
    assert explanation.nodes == result.stats.nodes == recorded
    assert explanation.root.value == explanation.value == result.value


def test_alphabeta_tt_without_its_refinements_is_plain_alphabeta():
    from yipan.explain import REFINEMENTS

    state = replay(TICTACTOE, ["a1"])[-1]
    plain = explain(TICTACTOE, state, "alphabeta", depth=9)
    stripped = explain(TICTACTOE, state, "alphabeta-tt", depth=9, without=REFINEMENTS)
    assert to_json(TICTACTOE, stripped)["root"] == to_json(TICTACTOE, plain)["root"]
    without_table = explain(TICTACTOE, state, "alphabeta-tt", depth=9, without=("table",))
    full = explain(TICTACTOE, state, "alphabeta-tt", depth=9)
    assert full.nodes < without_table.nodes < plain.nodes  # what the table saves, and PVS
    tables = [node for node in full.root.walk() if node.source == "table"]
    assert tables and not [n for n in without_table.root.walk() if n.source == "table"]
    for explanation in (plain, stripped, without_table, full):
        assert explanation.value == full.value


def test_a_capped_tree_says_so_and_keeps_the_true_count():
    state = replay(TICTACTOE, ["b2", "a1"])[-1]
    full = explain(TICTACTOE, state, "minimax", depth=9)
    capped = explain(TICTACTOE, state, "minimax", depth=9, max_nodes=100)
    assert capped.truncated and not full.truncated
    assert capped.nodes == full.nodes > 100
    assert capped.recorded == capped.root.size() == 100
    data = to_json(TICTACTOE, capped)
    assert data["truncated"] is True and data["nodes"] == full.nodes
    assert "the tree was cut at 100" in to_text(TICTACTOE, capped)


def test_mcts_nodes_carry_visits_that_add_up_and_ucb_scores():
    state = replay(TICTACTOE, ["a1", "b2"])[-1]
    explanation = explain(TICTACTOE, state, "mcts", iterations=200, rng=random.Random(5))
    root = explanation.root
    assert explanation.nodes == 200 and root.visits == 200
    # every iteration passes through one root move (a node below visits itself first)
    assert sum(child.visits for child in root.children) == 200
    for node in root.walk():
        if node.visits and node.children and not node.chance:
            assert sum(child.visits for child in node.children) <= node.visits
        for child in node.children:
            assert child.ucb is not None
    data = to_json(TICTACTOE, explanation)
    assert data["root"]["visits"] == 200 and "mean" in data["root"]


def test_mcts_explained_is_the_search_solve_runs_with_the_same_seed():
    args = ["tictactoe", "a1", "b2", "--algorithm", "mcts", "--iterations", "300", "--seed", "4",
            "--json"]
    tree, solution = yipan_cli("explain", *args), yipan_cli("solve", *args)
    assert tree.returncode == solution.returncode == 0, tree.stderr + solution.stderr
    tree_data, solved_data = json.loads(tree.stdout), json.loads(solution.stdout)
    assert tree_data["nodes"] == solved_data["nodes"] == 300
    assert tree_data["move"] == solved_data["move"]
    assert abs(tree_data["value"] - solved_data["value"]) < 1e-6


def test_expectimax_shows_chance_nodes_with_their_probabilities():
    game = yipan.get_game("2048")
    state = game.initial_state()
    while game.to_move(state) == -1:
        state = game.play(state, game.chance_outcomes(state)[0][0])
    explanation = explain(game, state, "expectimax", depth=2)
    assert explanation.nodes == expectimax(game, state, depth=2).stats.nodes
    assert explanation.root.size() == explanation.nodes
    chance = [node for node in explanation.root.walk() if node.chance and node.children]
    assert chance
    for node in chance:
        assert abs(sum(child.probability for child in node.children) - 1) < 1e-9
        expected = sum(child.probability * child.value for child in node.children)
        assert abs(expected - node.value) < 1e-6 * max(1.0, abs(node.value))


def test_grundy_shows_each_positions_options_and_their_mex():
    game = yipan.get_game("nim", heaps="2,3")
    explanation = explain(game, game.initial_state(), "grundy")
    assert explanation.value == 2 ^ 3
    for node in explanation.root.walk():
        if node.known:
            continue
        values = set(node.options or ())
        assert node.value == min(set(range(len(values) + 1)) - values)
        assert [child.value for child in node.children] == list(node.options or ())
    assert "mex{" in to_text(game, explanation)


def test_text_and_dot_name_every_node():
    state = replay(TICTACTOE, ["a1", "b2", "c3", "b1"])[-1]
    explanation = explain(TICTACTOE, state, "alphabeta", depth=9)
    text = to_text(TICTACTOE, explanation)
    assert len(text.splitlines()) == 1 + explanation.root.size()
    assert "cut-off, pruned:" in text
    dot = to_dot(TICTACTOE, explanation)
    assert dot.startswith("digraph explain {") and dot.endswith("}")
    assert dot.count("->") >= explanation.root.size() - 1
    assert "style=dashed" in dot


def test_bad_requests_are_one_line_and_exit_2():
    for args in (["tictactoe", "--algorithm", "grundy"],
                 ["tictactoe", "--algorithm", "mcts", "--depth", "3"],
                 ["tictactoe", "--algorithm", "minimax"],
                 ["tictactoe", "z9", "--algorithm", "minimax", "--depth", "2"],
                 ["2048", "--algorithm", "minimax", "--depth", "2"]):
        run = yipan_cli("explain", *args)
        assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, args
        assert "Traceback" not in run.stderr


def test_a_users_game_is_explained_through_the_protocol():
    from yipan import Game, GameInfo, Outcome

    class Pile(Game):
        info = GameInfo(name="pile", title="Pile of stones")

        def initial_state(self):
            return (5, 0)

        def to_move(self, s):
            return s[1]

        def legal_moves(self, s):
            return [n for n in (1, 2) if n <= s[0]]

        def play(self, s, m):
            return (s[0] - m, 1 - s[1])

        def outcome(self, s):
            return Outcome(1 - s[1]) if s[0] == 0 else None

    game = Pile()
    explanation = explain(game, game.initial_state(), "alphabeta", depth=10)
    assert explanation.value == WIN - 3  # take 2, leave a multiple of 3: a win in 3
    assert explanation.root.size() == explanation.nodes
    assert isinstance(explanation.root.children[0], TreeNode)


HOSTILE = st.sampled_from(["", "-", "--", "²", "9" * 5000, "x" * 3000, "\x00", "-1", "0",
                           "nan", "a1", "b2", "4", "1:2", "--json", "--dot", "--seed",
                           "--max-nodes", "1", "--iterations", "--depth"])


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # (read after each)
@given(game=st.sampled_from(["tictactoe", "nim", "kayles", "connect4", "2048"]),
       words=st.lists(HOSTILE | st.text(max_size=8), max_size=5),
       tail=st.sampled_from([["--algorithm", "alphabeta", "--depth", "2"],
                             ["--algorithm", "mcts", "--iterations", "20"],
                             ["--algorithm", "grundy"],
                             ["--algorithm", "expectimax", "--depth", "1"],
                             ["--algorithm", "minimax", "--depth", "2", "--max-nodes", "50"]]))
def test_any_explain_command_line_ends_cleanly(game, words, tail, capsys):
    from yipan.cli.main import main

    try:
        status = main(["explain", game, *words, *tail])
    except SystemExit as stop:  # --help
        status = stop.code if isinstance(stop.code, int) else 0
    out, err = capsys.readouterr()
    assert status in (0, 2) and "Traceback" not in err, (words, tail, err)
    if status == 2:
        assert err.count("\n") == 1, err
