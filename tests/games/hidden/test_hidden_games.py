"""Kuhn poker, Leduc hold'em and Liar's Dice: their rules, their AI, and the front ends that
must not show a person the other side's cards."""

from __future__ import annotations

import io
import json
import random

import pytest

from yipan.cli.main import main
from yipan.cli.play import play_interactive
from yipan.core import GameOptionError, IllegalMoveError, get_game, replay
from yipan.games.equilibrium import information_values, make_ai, strategy_for
from yipan.games.kuhn import KuhnPoker
from yipan.games.leduc import LeducHoldem
from yipan.games.liarsdice import LIAR, LiarsDice
from yipan.players import RandomPlayer, play_match


def end_of(game, moves):
    return replay(game, moves)[-1]


# -- rules -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("moves", "first_wins"), [
    ("K Q check check", 1), ("J Q check check", -1), ("Q J bet call", 2), ("J K bet fold", 1),
    ("K J check bet fold", -1), ("J Q check bet call", -2),
])
def test_kuhn_pays_the_pot(moves, first_wins):
    game = KuhnPoker()
    end = end_of(game, moves.split())
    assert game.returns(end) == (first_wins, -first_wins)
    assert game.outcome(end).winner == (0 if first_wins > 0 else 1)


@pytest.mark.parametrize(("moves", "first_wins"), [
    ("K Q check check J check check", 1),            # high card
    ("J K bet call J check check", 3),               # a pair with the board beats a king
    ("Q Q bet raise call K bet call", 0),            # equal cards split
    ("K Q bet raise fold", -3),                      # the first folds after raising to 3
    ("J Q check bet raise call Q bet raise call", -13),  # 1 + 2 + 2 in round 1, 4 + 4 in 2
])
def test_leduc_pays_the_pot(moves, first_wins):
    game = LeducHoldem()
    end = end_of(game, moves.split())
    assert game.returns(end) == (first_wins, -first_wins)


def test_leduc_allows_two_bets_a_round_and_deals_by_what_is_left():
    game = LeducHoldem()
    state = end_of(game, ["K", "Q", "bet", "raise"])
    assert game.legal_moves(state) == ["fold", "call"]
    assert dict(game.chance_outcomes(end_of(game, ["K"]))) == pytest.approx(
        {0: 0.4, 1: 0.4, 2: 0.2})
    with pytest.raises(IllegalMoveError):
        replay(game, ["K", "K", "K"])  # two kings only


def test_liars_dice_counts_the_wild_face_and_pays_the_caller():
    game = LiarsDice(1, 6)
    two_fives = game.parse_move(None, "2x5")
    state = end_of(game, ["5", "6", "2x5"])
    assert game.legal_moves(state)[-1] == LIAR
    assert game.returns(game.play(state, LIAR)) == (1.0, -1.0)  # a five and a wild six
    state = end_of(game, ["5", "3", "2x5", "liar"])
    assert game.returns(state) == (-1.0, 1.0)
    assert game.format_move(two_fives) == "2x5"
    with pytest.raises(GameOptionError):
        LiarsDice(2, 6)


# -- the AI ----------------------------------------------------------------------------------------
def test_the_ai_plays_from_what_it_knows_and_repeats_with_a_seed():
    game = LeducHoldem()
    results = []
    for _ in range(2):
        players = [make_ai(game, "perfect", random.Random(4), None), RandomPlayer(random.Random(5))]
        results.append(play_match(game, players, rng=random.Random(6)).moves)
    assert results[0] == results[1]


def test_the_perfect_level_beats_random_play_on_average():
    game = KuhnPoker()
    strategy = strategy_for(game, "perfect")
    from yipan.search.cfr import GameTree, best_response_value, expected_values

    tree = GameTree(game)
    assert best_response_value(tree, strategy, 0) < 0  # no first player beats it
    mixed = {info.key: (strategy.table[info.key] if info.player == 1 else
                        dict.fromkeys(info.moves, 1 / len(info.moves))) for info in tree.infosets}
    from yipan.search.cfr import Strategy

    assert expected_values(tree, Strategy("kuhn", mixed))[1] > 0.1


def test_information_values_average_over_the_hidden_cards():
    game = KuhnPoker()
    strategy = strategy_for(game, "perfect")
    value, moves = information_values(game, strategy, "K:")
    assert value > 0.9 and moves["bet"] == pytest.approx(moves["check"], abs=1e-3)
    value, _ = information_values(game, strategy, "J:b")
    assert value == pytest.approx(-1.0)  # the jack folds to a bet


# -- front ends ------------------------------------------------------------------------------------
def test_the_terminal_game_hides_the_ais_card_until_the_showdown():
    game = KuhnPoker()
    out = io.StringIO()
    answers = iter(["bet", "fold", "call"])
    ai = make_ai(game, "perfect", random.Random(2), None)
    play_interactive(game, ai, human_side=0, rng=random.Random(3),
                     read=lambda prompt: next(answers), out=out)
    text = out.getvalue()
    before_the_end = text.split("Game over")[0].split("AI plays")[0]
    assert "second player: ?" in before_the_end
    assert "second player: ?" in text.split("Game over")[0] or "folded" in text


def test_the_web_view_of_a_seat_hides_the_other_seats_cards():
    from yipan.web.positions import describe_position, load_position

    position = load_position("leduc", {}, ["K", "Q", "check", "bet"])
    mine = describe_position(position, ["ai"], viewer=0)
    assert [seat["hand"] for seat in mine["view"]["seats"]] == [["K"], ["?"]]
    assert mine["moves_seen"] == ["K", "?", "check", "bet"]
    assert mine["text"].split("second player:")[1].split()[0] == "?"
    everyone = describe_position(position, ["ai"])
    assert [seat["hand"] for seat in everyone["view"]["seats"]] == [["K"], ["Q"]]
    shown = describe_position(load_position("kuhn", {}, ["K", "Q", "bet", "call"]), [], 0)
    assert shown["moves_seen"] == ["K", "Q", "bet", "call"]  # a showdown shows everything


def test_yipan_solve_prints_value_and_exploitability(capsys):
    assert main(["solve", "kuhn", "--algorithm", "cfr+", "--iterations", "1000", "--json",
                 "--progress"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["value"] == pytest.approx(-1 / 18, abs=1e-3)
    assert report["extra"]["exploitability"] < 1e-4
    assert report["extra"]["iterations"] == 1000 and report["extra"]["algorithm"] == "cfr+"
    assert "exploitability" in captured.err and "1000/1000" in captured.err


def test_yipan_solve_refuses_a_position_within_the_hand(capsys):
    assert main(["solve", "kuhn", "K", "Q", "--algorithm", "cfr"]) == 2
    assert "from its start" in capsys.readouterr().err


def test_yipan_solve_saves_a_strategy(tmp_path):
    path = tmp_path / "liars.strategy"
    assert main(["solve", "liars-dice", "--faces", "3", "--save", str(path)]) == 0
    from yipan.search.cfr import load_strategy

    strategy, about = load_strategy(path, get_game("liars-dice", faces="3"))
    assert len(strategy) == 192 and about["algorithm"] == "cfr+"
