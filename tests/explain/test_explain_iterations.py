"""MCTS explained iteration by iteration: each iteration's path through the recorded tree and
its result replay to every node's visits and mean, and ``stop`` ends any search early."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import yipan
from yipan.explain import SearchStopped, explain, to_json


@pytest.mark.parametrize(("moves", "algorithm", "seed"), [
    (["a1"], "mcts", 1), (["a1", "b2"], "mcts", 7), (["a1", "b2", "c3"], "mcts-solver", 3),
    (["b2", "a1"], "mcts", 2),  # the second player (MIN's results turned round) at the root
])
def test_the_iterations_replay_to_the_visits_and_means(moves: list[str], algorithm: str,
                                                      seed: int) -> None:
    game = yipan.get_game("tictactoe")
    state = game.initial_state()
    for move in moves:
        state = game.play(state, game.parse_move(state, move))
    explanation = explain(game, state, algorithm, iterations=300, rng=random.Random(seed))
    nodes = list(explanation.root.walk())
    assert len(explanation.iterations) == explanation.nodes
    visits = Counter(at for step in explanation.iterations for at in step.path)
    totals: Counter = Counter()
    for step in explanation.iterations:
        assert step.path[0] == 0
        assert all(a < b for a, b in zip(step.path, step.path[1:], strict=False))  # downwards
        for at in step.path:
            totals[at] += step.result
    for at, node in enumerate(nodes):
        assert node.visits == visits[at]
        assert node.mean == pytest.approx(totals[at] / visits[at])
    data = to_json(game, explanation)
    assert [step["path"] for step in data["iteration_paths"]] == [
        list(step.path) for step in explanation.iterations]


def test_a_cut_tree_keeps_the_paths_through_the_nodes_kept() -> None:
    game = yipan.get_game("tictactoe")
    explanation = explain(game, game.initial_state(), "mcts", iterations=400,
                          rng=random.Random(5), max_nodes=50)
    assert explanation.truncated and explanation.recorded == 50
    assert all(max(step.path) < 50 for step in explanation.iterations)
    assert len(explanation.iterations) == 400


@pytest.mark.parametrize(("game_name", "algorithm", "settings"), [
    ("tictactoe", "minimax", {"depth": 9}), ("tictactoe", "alphabeta", {"depth": 9}),
    ("tictactoe", "mcts", {"iterations": 10_000}), ("nim", "grundy", {}),
])
def test_stop_ends_the_search(game_name: str, algorithm: str, settings: dict) -> None:
    game = yipan.get_game(game_name)
    polls = 0

    def stop() -> bool:
        nonlocal polls
        polls += 1
        return polls > 20

    with pytest.raises(SearchStopped):
        explain(game, game.initial_state(), algorithm, stop=stop, **settings)
