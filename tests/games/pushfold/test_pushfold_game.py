"""Push-or-fold hold'em dealt card by card: its payoffs, what each seat sees, its AI."""

from __future__ import annotations

import random

import pytest

from yipan.core import GameOptionError, replay
from yipan.games.pushfold import PushFoldHoldem
from yipan.games.pushfold.player import PushFoldPlayer

DEAL = ["As", "Ad", "Kc", "Kd"]


def test_folds_cost_the_blinds_and_a_call_is_settled_by_the_board():
    game = PushFoldHoldem(stack=10.0, ante=0.5)
    assert game.returns(replay(game, [*DEAL, "fold"])[-1]) == (-1.0, 1.0)
    assert game.returns(replay(game, [*DEAL, "shove", "fold"])[-1]) == (1.5, -1.5)
    aces = replay(game, [*DEAL, "shove", "call", "2c", "7h", "9s", "Jd", "3c"])[-1]
    assert game.returns(aces) == (10.5, -10.5)
    kings = replay(game, [*DEAL, "shove", "call", "Kh", "7h", "9s", "Jd", "3c"])[-1]
    assert game.returns(kings) == (-10.5, 10.5)
    assert "pair against three of a kind" in game.render(kings)
    board = replay(game, [*DEAL, "shove", "call", "Th", "Jh", "Qh", "Kh", "Ah"])[-1]
    assert game.returns(board) == (0.0, 0.0)  # the royal flush on the board: a split


def test_each_seat_sees_its_own_cards_until_the_showdown():
    game = PushFoldHoldem()
    state = replay(game, [*DEAL, "shove"])[-1]
    small = game.view(game.as_seen_by(state, 0))["seats"]
    assert small[0]["hand"] == ["As", "Ad"] and small[1]["hand"] == ["?", "?"]
    end = replay(game, [*DEAL, "shove", "call", "2c", "7h", "9s", "Jd", "3c"])[-1]
    assert game.as_seen_by(end, 0) == end


def test_options_are_checked():
    with pytest.raises(GameOptionError):
        PushFoldHoldem(stack=0.5)


def test_the_ai_shoves_aces_and_folds_seven_deuce():
    game = PushFoldHoldem(stack=10.0)
    player = PushFoldPlayer("perfect", random.Random(1))
    aces = replay(game, DEAL)[-1]
    seven_deuce = replay(game, ["7c", "2d", "Kc", "Kd"])[-1]
    assert player.choose(game, aces).move == "shove"
    assert player.choose(game, seven_deuce).move == "fold"
