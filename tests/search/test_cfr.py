"""CFR and its family (yipan.search.cfr): known values, the known equilibrium family of Kuhn
poker, exploitability that falls, best responses checked by brute force, strategy files."""

from __future__ import annotations

import itertools
import random
from types import MappingProxyType

import pytest

from yipan.core import CapabilityError, Limit, get_game
from yipan.games.kuhn import KuhnPoker
from yipan.games.leduc import LeducHoldem
from yipan.games.liarsdice import LiarsDice
from yipan.search import cfr
from yipan.search.mcts import mcts

KUHN_VALUE = -1 / 18


@pytest.fixture(scope="module")
def kuhn_tree() -> cfr.GameTree:
    return cfr.GameTree(KuhnPoker())


@pytest.fixture(scope="module")
def kuhn_solution(kuhn_tree) -> cfr.CFRResult:
    return cfr.solve(KuhnPoker(), "cfr+", 3000, tree=kuhn_tree)


def test_kuhn_is_worth_minus_one_eighteenth_to_the_first_player(kuhn_solution):
    assert kuhn_solution.value == pytest.approx(KUHN_VALUE, abs=2e-4)
    assert kuhn_solution.exploitability < 5e-5


def test_kuhn_equilibrium_is_of_the_known_family(kuhn_solution):
    """The first player bets the jack with some alpha in [0, 1/3] and the king three times as
    often, never bets the queen, calls a bet with the queen alpha + 1/3 of the time; the
    second player bets the jack a third of the time after a check and calls with the queen a
    third of the time."""
    table = kuhn_solution.strategy.table
    alpha = table["J:"]["bet"]
    assert -1e-3 <= alpha <= 1 / 3 + 1e-3
    assert table["K:"]["bet"] == pytest.approx(3 * alpha, abs=5e-3)
    assert table["Q:"]["bet"] == pytest.approx(0, abs=5e-3)
    assert table["Q:xb"]["call"] == pytest.approx(alpha + 1 / 3, abs=5e-3)
    assert table["J:x"]["bet"] == pytest.approx(1 / 3, abs=5e-3)
    assert table["Q:b"]["call"] == pytest.approx(1 / 3, abs=5e-3)
    assert table["K:b"]["call"] == pytest.approx(1, abs=1e-3)
    assert table["J:b"]["fold"] == pytest.approx(1, abs=1e-3)


@pytest.mark.parametrize("algorithm", cfr.TABULAR)
def test_exploitability_falls_for_each_tabular_algorithm(algorithm, kuhn_tree):
    result = cfr.solve(KuhnPoker(), algorithm, 1000, tree=kuhn_tree, checkpoints=3)
    gaps = [point.exploitability for point in result.checkpoints]
    assert gaps == sorted(gaps, reverse=True) and gaps[-1] < gaps[0] / 10
    assert gaps[-1] < 2e-3


@pytest.mark.parametrize("algorithm", cfr.SAMPLED)
def test_exploitability_falls_for_monte_carlo_cfr(algorithm, kuhn_tree):
    early = cfr.solve(KuhnPoker(), algorithm, 50, rng=random.Random(1), tree=kuhn_tree)
    late = cfr.solve(KuhnPoker(), algorithm, 5000, rng=random.Random(1), tree=kuhn_tree)
    assert late.exploitability < early.exploitability
    assert late.exploitability < 0.05


def test_leduc_cfr_plus_reaches_the_aim_and_its_value():
    result = cfr.solve(LeducHoldem(), "cfr+", 2000)
    assert result.exploitability < 1e-4
    assert result.value == pytest.approx(-0.0856, abs=1e-3)
    assert result.infosets == 288  # 936 with the suits told apart, as OpenSpiel does


def test_the_kernel_is_the_textbook_recursion(kuhn_tree):
    """Vanilla CFR on the tree kernel and as the recursion over the Game protocol agree."""
    for game, tree in ((KuhnPoker(), kuhn_tree), (LiarsDice(1, 2), None)):
        solver = cfr.TabularCFR(tree or cfr.GameTree(game), "cfr")
        solver.run(25)
        kernel = solver.average_strategy().table
        reference = cfr.reference_cfr(game, 25).table
        assert set(kernel) == set(reference)
        for key, probabilities in reference.items():
            for move, p in probabilities.items():
                assert kernel[key][move] == pytest.approx(p, abs=1e-9)


def random_strategy(tree: cfr.GameTree, rng: random.Random) -> cfr.Strategy:
    table = {}
    for infoset in tree.infosets:
        weights = [rng.random() for _ in infoset.moves]
        total = sum(weights)
        table[infoset.key] = {m: w / total for m, w in zip(infoset.moves, weights, strict=True)}
    return cfr.Strategy("any", table)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("game", [KuhnPoker(), LiarsDice(1, 2)], ids=["kuhn", "liars-dice-1x2"])
def test_best_response_agrees_with_every_pure_strategy(game, seed):
    """The best response's value is the best over every pure strategy of the responder."""
    tree = cfr.GameTree(game)
    rng = random.Random(seed)
    opponent = random_strategy(tree, rng)
    for responder in (0, 1):
        mine = [s for s in tree.infosets if s.player == responder]
        best = float("-inf")
        for choice in itertools.product(*(range(len(s.moves)) for s in mine)):
            table = dict(opponent.table)
            for infoset, a in zip(mine, choice, strict=True):
                table[infoset.key] = {m: float(i == a) for i, m in enumerate(infoset.moves)}
            values = cfr.expected_values(tree, cfr.Strategy("any", table))
            best = max(best, values[responder])
        assert cfr.best_response_value(tree, opponent, responder) == pytest.approx(best)


def test_an_equilibrium_is_unexploitable_and_values_add_up(kuhn_solution, kuhn_tree):
    first, second = cfr.expected_values(kuhn_tree, kuhn_solution.strategy)
    assert first + second == 0
    uniform = cfr.Strategy("kuhn", {})
    assert cfr.exploitability(kuhn_tree, uniform) > 0.4
    assert cfr.best_response_value(kuhn_tree, kuhn_solution.strategy, 0) >= first - 1e-12


def test_perfect_information_games_are_solved_too():
    """Nim (1, 2): the first player wins (one move: take 1 from the heap of 2)."""
    result = cfr.solve(get_game("nim", heaps="1,2"), "cfr+", 200)
    assert result.value == pytest.approx(1.0, abs=1e-3)
    assert result.exploitability < 1e-3


def test_searches_that_would_see_hidden_cards_refuse():
    game = KuhnPoker()
    state = game.play(game.play(game.initial_state(), 0), 2)
    with pytest.raises(CapabilityError, match="perfect information"):
        mcts(game, state, limit=Limit(nodes=10), rng=random.Random(1))


def test_a_game_too_large_for_the_tree_is_refused():
    with pytest.raises(CapabilityError, match="mccfr"):
        cfr.GameTree(LiarsDice(1, 6), max_nodes=1000)


# -- strategy files ----------------------------------------------------------------------------
def test_a_strategy_file_round_trips(tmp_path, kuhn_solution, kuhn_tree):
    path = tmp_path / "kuhn.strategy"
    cfr.save_strategy(path, KuhnPoker(), kuhn_solution.strategy, about={"iterations": 3000})
    strategy, about = cfr.load_strategy(path, KuhnPoker())
    assert about == {"iterations": 3000}
    assert {k: dict(v) for k, v in strategy.table.items()} == \
        {k: dict(v) for k, v in kuhn_solution.strategy.table.items()}
    assert cfr.exploitability(kuhn_tree, strategy) == kuhn_solution.exploitability


def test_a_damaged_strategy_file_is_refused(tmp_path, kuhn_solution):
    path = tmp_path / "kuhn.strategy"
    cfr.save_strategy(path, KuhnPoker(), kuhn_solution.strategy)
    data = bytearray(path.read_bytes())
    for damage in (lambda d: d.__setitem__(len(d) // 2, d[len(d) // 2] ^ 1),
                   lambda d: d.__delitem__(slice(len(d) // 2, None)),
                   lambda d: d.clear()):
        broken = bytearray(data)
        damage(broken)
        path.write_bytes(bytes(broken))
        with pytest.raises(cfr.CorruptStrategyError):
            cfr.load_strategy(path, KuhnPoker())
    path.write_bytes(bytes(data))
    with pytest.raises(cfr.CorruptStrategyError, match="written for"):
        cfr.load_strategy(path, LeducHoldem())


def test_a_strategy_plays_only_what_its_player_knows(kuhn_solution):
    """Two deals the first player cannot tell apart (K against J or Q) get one distribution."""
    game = KuhnPoker()
    against_jack = game.play(game.play(game.initial_state(), 2), 0)
    against_queen = game.play(game.play(game.initial_state(), 2), 1)
    strategy = kuhn_solution.strategy
    assert strategy.probabilities(game, against_jack) == \
        strategy.probabilities(game, against_queen)
    assert isinstance(strategy.table, MappingProxyType)


def test_a_time_limit_stops_the_solve_and_says_where(kuhn_tree):
    """No time at all: one iteration (a strategy is always there), and the result says the
    limit stopped it; a stop flag does the same; without a limit every iteration runs."""
    timed = cfr.solve(KuhnPoker(), "cfr+", 1000, tree=kuhn_tree, limit=Limit(time=0))
    assert timed.stopped and timed.iterations == 1
    asked = cfr.solve(KuhnPoker(), "cfr", 1000, tree=kuhn_tree, checkpoints=4,
                      limit=Limit(stop=lambda: True))
    assert asked.stopped and asked.iterations == 1
    assert [point.iterations for point in asked.checkpoints] == [1]
    whole = cfr.solve(KuhnPoker(), "cfr+", 50, tree=kuhn_tree, limit=Limit(time=3600))
    assert not whole.stopped and whole.iterations == 50


def test_a_stopped_solve_reports_it_in_the_analysis(kuhn_tree):
    game = KuhnPoker()
    analysis = cfr.solve_analysis(game, game.initial_state(), "cfr+", 1000, tree=kuhn_tree,
                                  limit=Limit(time=0))
    assert analysis.extra["iterations"] == 1
    assert analysis.extra["stopped"] == "at the time limit of 0 s, before 1,000 iterations"
    assert "stopped" not in cfr.solve_analysis(game, game.initial_state(), "cfr+", 10,
                                               tree=kuhn_tree).extra
