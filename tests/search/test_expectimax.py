"""Expectimax and expectiminimax against expectations computed by hand."""

from __future__ import annotations

from typing import Any

import pytest

from yipan.core import CHANCE, DRAW, WIN, Game, GameInfo, Outcome
from yipan.search.expectimax import expectimax


class SpecGame(Game):
    """A game tree written out: states are names; ``spec[name]`` is one of
    ``("move", player, {move: child})``, ``("chance", [(outcome, p, child)])``,
    ``("end", payoff)`` (one player) or ``("end", winner)`` (two players)."""

    def __init__(self, spec: dict[str, Any], players: int) -> None:
        self.spec = spec
        self.info = GameInfo(name="spec", title="spec", players=players,
                             zero_sum=players == 2, chance=True, heuristic=True)

    def initial_state(self) -> str:
        return "root"

    def to_move(self, state: str) -> int:
        node = self.spec[state]
        return CHANCE if node[0] == "chance" else node[1] if node[0] == "move" else 0

    def legal_moves(self, state: str) -> list[str]:
        node = self.spec[state]
        return list(node[2]) if node[0] == "move" else []

    def play(self, state: str, move: str) -> str:
        node = self.spec[state]
        if node[0] == "chance":
            return next(child for outcome, _, child in node[1] if outcome == move)
        return node[2][move]

    def outcome(self, state: str) -> Outcome | None:
        node = self.spec[state]
        if node[0] != "end":
            return None
        return DRAW if self.info.players == 1 or node[1] is None else Outcome(node[1])

    def chance_outcomes(self, state: str) -> list[tuple[str, float]]:
        return [(outcome, p) for outcome, p, _ in self.spec[state][1]]

    def evaluate(self, state: str) -> float:
        node = self.spec[state]
        return float(node[1]) if node[0] == "end" else 0.0


# one player: a sure 4, or a gamble paying 10 with probability 0.3 and then a second choice
GAMBLE = {
    "root": ("move", 0, {"safe": "four", "gamble": "coin"}),
    "four": ("end", 4),
    "coin": ("chance", [("heads", 0.3, "ten"), ("tails", 0.7, "again")]),
    "ten": ("end", 10),
    "again": ("move", 0, {"stop": "one", "dice": "dice"}),
    "one": ("end", 1),
    "dice": ("chance", [("six", 1 / 6, "twelve"), ("other", 5 / 6, "zero")]),
    "twelve": ("end", 12),
    "zero": ("end", 0),
}


def test_expectimax_takes_the_expected_value():
    game = SpecGame(GAMBLE, players=1)
    result = expectimax(game, "root", depth=3)
    # after tails: stop = 1 < dice = 12/6 = 2; so gamble = 0.3 * 10 + 0.7 * 2 = 4.4 > 4
    assert result.move_values["safe"] == 4
    assert result.move_values["gamble"] == pytest.approx(0.3 * 10 + 0.7 * 2)
    assert result.move == "gamble"
    assert result.exact


def test_the_probability_cutoff_stops_at_unlikely_branches():
    game = SpecGame(GAMBLE, players=1)
    # the dice node is reached with probability 0.7; below a cut-off of 0.8 it is a leaf (0)
    result = expectimax(game, "root", depth=3, cutoff=0.8)
    assert result.move_values["gamble"] == pytest.approx(0.3 * 10 + 0.7 * 1)
    assert not result.exact


def test_depth_limits_the_moves_searched():
    game = SpecGame(GAMBLE, players=1)
    result = expectimax(game, "root", depth=1)  # the heuristic of "coin" (0) at the horizon
    assert result.move_values == {"safe": 4, "gamble": 0}
    assert result.move == "safe"


# two players: player 0 picks a fair coin (win on heads, else player 1 chooses) or a draw
DUEL = {
    "root": ("move", 0, {"coin": "coin", "draw": "drawn"}),
    "drawn": ("end", None),
    "coin": ("chance", [("heads", 0.25, "won"), ("tails", 0.75, "reply")]),
    "won": ("end", 0),
    "reply": ("move", 1, {"resign": "won2", "attack": "lost"}),
    "won2": ("end", 0),
    "lost": ("end", 1),
}


def test_expectiminimax_lets_each_player_choose_and_weights_chance_once():
    game = SpecGame(DUEL, players=2)
    result = expectimax(game, "root", depth=4)
    # heads: a win one ply deep; tails: player 1 attacks, a loss two plies deep
    expected = 0.25 * (WIN - 1) + 0.75 * -(WIN - 2)
    assert result.move_values["coin"] == pytest.approx(expected)
    assert result.move_values["draw"] == 0
    assert result.move == "draw"
    assert result.exact


def test_mcts_samples_chance_nodes_and_finds_the_same_choice():
    import random

    from yipan.core import Limit
    from yipan.search.mcts import mcts

    game = SpecGame(DUEL, players=2)
    result = mcts(game, "root", limit=Limit(nodes=400), rng=random.Random(3))
    assert result.move == "draw"
    coin = result.move_values["coin"]  # a sampled mean near 0.25 - 0.75
    assert -0.8 < coin < -0.2
