"""One suite over every registered game: the contracts of the Game protocol (core/game.py)."""

from __future__ import annotations

import random

import pytest

import yipan
from yipan.core import CHANCE, IllegalMoveError, InvalidMoveError, game_spec

GAMES = yipan.list_games()


def playout(game, rng: random.Random, max_moves: int = 400):
    """States of one random game (chance nodes drawn by their probabilities)."""
    state = game.initial_state()
    states = [state]
    for _ in range(max_moves):
        if game.outcome(state) is not None:
            break
        if game.to_move(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            state = game.play(state, rng.choices([o for o, _ in outcomes],
                                                 [p for _, p in outcomes])[0])
        else:
            state = game.play(state, rng.choice(list(game.legal_moves(state))))
        states.append(state)
    return states


@pytest.fixture(params=GAMES)
def game(request):
    return yipan.get_game(request.param)


def test_registry_names_match(game):
    assert game_spec(game.info.name).name == game.info.name


def test_moves_are_empty_exactly_at_the_end(game):
    rng = random.Random(1)
    for _ in range(5):
        for state in playout(game, rng):
            if game.to_move(state) == CHANCE:
                continue
            assert (len(game.legal_moves(state)) == 0) == (game.outcome(state) is not None)


def test_play_is_pure_and_states_hash_consistently(game):
    rng = random.Random(2)
    for state in playout(game, rng)[:-1]:
        if game.to_move(state) == CHANCE:
            continue
        copy_before = state
        snapshot = hash(state)
        move = rng.choice(list(game.legal_moves(state)))
        child = game.play(state, move)
        assert hash(state) == snapshot and state == copy_before
        assert game.play(state, move) == child
        assert hash(game.play(state, move)) == hash(child)


def test_parse_and_format_round_trip(game):
    rng = random.Random(3)
    for state in playout(game, rng):
        if game.to_move(state) == CHANCE or game.outcome(state) is not None:
            continue
        for move in game.legal_moves(state):
            assert game.parse_move(state, game.format_move(move)) == move


def test_outcomes_are_zero_sum_and_final(game):
    rng = random.Random(4)
    for _ in range(5):
        states = playout(game, rng)
        end = states[-1]
        outcome = game.outcome(end)
        if outcome is None:
            continue  # a long game cut short by the playout bound
        if game.info.zero_sum and game.info.players == 2:
            assert outcome.result_for(0) == -outcome.result_for(1)
        # a move that was legal earlier in the game (the start may be a chance node: 2048)
        move = next(m for s in states if game.to_move(s) != CHANCE for m in game.legal_moves(s))
        with pytest.raises(IllegalMoveError):
            game.play_checked(end, move)


def test_nonsense_moves_are_refused(game):
    state = game.initial_state()
    with pytest.raises((InvalidMoveError, IllegalMoveError)):
        game.play_checked(state, game.parse_move(state, "nonsense!"))


def test_views_are_json_ready(game):
    import json

    rng = random.Random(5)
    for state in playout(game, rng)[:10]:
        view = game.view(state)
        assert "kind" in view
        json.dumps(view)


def test_symmetries_share_the_canonical_key(game):
    if not game.info.symmetry:
        pytest.skip(f"{game.info.name} declares no symmetry")
    rng = random.Random(6)
    for state in playout(game, rng):
        images = game.symmetries(state)
        assert state in images
        assert {game.canonical(image) for image in images} == {game.canonical(state)}
