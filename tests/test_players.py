"""Players: the perfect player never loses; weaker levels stay sensible; matches run."""

from __future__ import annotations

import random

import pytest

import yipan
from yipan.core import replay
from yipan.players import RandomPlayer, SearchPlayer, make_ai, play_match

GAME = yipan.get_game("tictactoe")


def worst_case_results(player, ai_side: int) -> set:
    """Every result the player reaches against every sequence of opponent moves."""
    results = set()
    stack = [GAME.initial_state()]
    while stack:
        state = stack.pop()
        outcome = GAME.outcome(state)
        if outcome is not None:
            results.add(outcome.result_for(ai_side))
        elif GAME.to_move(state) == ai_side:
            stack.append(GAME.play_checked(state, player.choose(GAME, state).move))
        else:
            stack.extend(GAME.play(state, move) for move in GAME.legal_moves(state))
    return results


@pytest.mark.parametrize("ai_side", [0, 1])
def test_book_player_never_loses(ai_side):
    results = worst_case_results(make_ai(GAME, "perfect", random.Random(ai_side)), ai_side)
    assert -1 not in results
    assert 1 in results  # and it punishes mistakes


@pytest.mark.parametrize("ai_side", [0, 1])
def test_search_player_never_loses(ai_side):
    player = SearchPlayer("perfect", random.Random(10 + ai_side))
    assert -1 not in worst_case_results(player, ai_side)


@pytest.mark.parametrize("level", ["perfect", "medium", "easy"])
def test_every_level_takes_a_win_in_one(level):
    # X: a1 b1 (c1 wins now), O: a2 b2 (O threatens c2)
    state = replay(GAME, ["a1", "a2", "b1", "b2"])[-1]
    for seed in range(20):
        move = SearchPlayer(level, random.Random(seed)).choose(GAME, state).move
        if level == "perfect":
            assert GAME.format_move(move) == "c1"
        else:
            # a weaker level may miss the win but never lets O win at once
            assert GAME.format_move(move) in ("c1", "c2")


def test_weaker_levels_vary_and_lose_sometimes_to_the_perfect_player():
    rng = random.Random(5)
    outcomes = [play_match(GAME, [make_ai(GAME, "perfect", rng), SearchPlayer("easy", rng)],
                           rng).outcome.winner for _ in range(30)]
    assert 1 not in outcomes
    assert 0 in outcomes


def test_random_player_plays_legal_moves_to_the_end():
    rng = random.Random(7)
    match = play_match(GAME, [RandomPlayer(rng), RandomPlayer(rng)], rng)
    assert GAME.outcome(match.states[-1]) == match.outcome
    assert len(match.moves) == len(match.states) - 1
