"""One suite over every registered game: the contracts of the Game protocol (core/game.py).

Each game runs under its default options and every option set its spec lists in
``examples``; random playouts (seeded) supply the positions. Every capability a game declares
in ``GameInfo`` is checked for honesty: its ordering is a permutation of the legal moves, its
value bounds hold against an exact search on small positions, its heuristic stays inside the
heuristic range, its chance outcomes are a distribution, its playouts give results in range.

A capability's test is parametrised, when the module is collected, over the games that declare
it (``over_games``): a game that does not declare one has no such test, rather than a skipped
one, so the only skips left in the suite's report are ones that matter.
"""

from __future__ import annotations

import json
import math
import pickle
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import yipan
from yipan.core import (
    CHANCE,
    HEURISTIC_LIMIT,
    Game,
    GameInfo,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
    game_spec,
)
from yipan.search import alphabeta


@dataclass(frozen=True)
class Variant:
    """A registered game under one set of options, with what it declares."""

    name: str
    options: dict[str, Any]
    test_id: str
    info: GameInfo

    def build(self) -> Game:
        return yipan.get_game(self.name, **self.options)


def variants() -> list[Variant]:
    """Every game with its default options and each example option set of its spec; each is
    built once here to read its ``info`` (which may depend on the options)."""
    found = []
    for name in yipan.list_games():
        option_sets = [({}, name)] + [(options, f"{name}-example{number}") for number, options
                                      in enumerate(game_spec(name).examples, 1)]
        for options, test_id in option_sets:
            info = yipan.get_game(name, **options).info
            found.append(Variant(name, options, test_id, info))
    return found


VARIANTS = variants()


def over_games(declares: Callable[[GameInfo], bool]) -> pytest.MarkDecorator:
    """Parametrise a test's ``game`` over the variants whose ``GameInfo`` ``declares`` it."""
    return pytest.mark.parametrize(
        "game", [pytest.param(variant, id=variant.test_id) for variant in VARIANTS
                 if declares(variant.info)], indirect=True)


@pytest.fixture(params=[pytest.param(variant, id=variant.test_id) for variant in VARIANTS])
def game(request: pytest.FixtureRequest) -> Game:
    """A fresh game of the variant (every variant, unless the test is ``over_games``)."""
    variant: Variant = request.param
    return variant.build()


def playout(game: Game, rng: random.Random, max_moves: int = 400) -> list[Any]:
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


def decision_states(game: Game, seed: int, games: int = 3) -> list[Any]:
    """Positions where a player is to move, from a few seeded random games."""
    rng = random.Random(seed)
    return [state for _ in range(games) for state in playout(game, rng)
            if game.outcome(state) is None and game.to_move(state) != CHANCE]


def test_registry_names_match(game):
    assert game_spec(game.info.name).name == game.info.name


def test_moves_are_empty_exactly_at_the_end(game):
    rng = random.Random(1)
    for _ in range(5):
        for state in playout(game, rng):
            if game.outcome(state) is None and game.to_move(state) == CHANCE:
                continue
            assert (len(game.legal_moves(state)) == 0) == (game.outcome(state) is not None)


def test_play_is_pure_and_states_hash_consistently(game):
    rng = random.Random(2)
    for state in decision_states(game, 2, games=2):
        frozen = pickle.dumps(state)  # the whole structure, not a reference to it
        snapshot = hash(state)
        move = rng.choice(list(game.legal_moves(state)))
        child = game.play(state, move)
        assert pickle.dumps(state) == frozen, "play changed the state it was given"
        assert hash(state) == snapshot
        again = game.play(pickle.loads(frozen), move)
        assert again == child and hash(again) == hash(child)
        assert child != state


def test_declared_bounds_on_length_and_branching_hold(game):
    rng = random.Random(13)
    for _ in range(3):
        states = playout(game, rng)
        if game.info.max_moves is not None and game.outcome(states[-1]) is not None:
            moves = sum(1 for s in states[:-1] if game.to_move(s) != CHANCE)
            assert moves <= game.info.max_moves
        if game.info.max_branching is not None:
            assert all(len(game.legal_moves(s)) <= game.info.max_branching for s in states
                       if game.outcome(s) is None and game.to_move(s) != CHANCE)


def test_play_checked_equals_play_on_legal_moves(game):
    for state in decision_states(game, 7, games=2):
        for move in list(game.legal_moves(state))[:50]:
            assert game.play_checked(state, move) == game.play(state, move)


def test_parse_and_format_round_trip(game):
    for state in decision_states(game, 3):
        for move in game.legal_moves(state):
            text = game.format_move(move)
            assert text == text.strip() and text
            assert game.parse_move(state, text) == move


def test_outcomes_name_a_player_and_are_final(game):
    rng = random.Random(4)
    for _ in range(5):
        states = playout(game, rng)
        end = states[-1]
        outcome = game.outcome(end)
        if outcome is None:
            continue  # a long game cut short by the playout bound
        assert isinstance(outcome, Outcome)
        assert outcome.winner in (None, *range(game.info.players))
        assert game.legal_moves(end) == [] or len(game.legal_moves(end)) == 0
        # a move that was legal earlier in the game (the start may be a chance node: 2048)
        move = next(m for s in states if game.outcome(s) is None and game.to_move(s) != CHANCE
                    for m in game.legal_moves(s))
        with pytest.raises(IllegalMoveError):
            game.play_checked(end, move)


def test_nonsense_moves_are_refused(game):
    state = game.initial_state()
    for text in ("nonsense!", "", "²", "٣", "9" * 5000, "a" * 10_000, "\x00", "-1"):
        with pytest.raises((InvalidMoveError, IllegalMoveError)) as raised:
            game.play_checked(state, game.parse_move(state, text))
        assert len(str(raised.value)) < 200  # one short line, never the whole input back


def test_views_are_json_ready(game):
    rng = random.Random(5)
    for state in playout(game, rng)[:12]:
        view = game.view(state)
        assert "kind" in view
        json.dumps(view)
        json.dumps(game.figures(state))


# -- declared capabilities are honest --------------------------------------------------------------
@over_games(lambda info: info.heuristic)
def test_heuristic_stays_inside_the_heuristic_range(game):
    for state in decision_states(game, 8):
        value = game.evaluate(state)
        assert math.isfinite(value) and -HEURISTIC_LIMIT < value < HEURISTIC_LIMIT, value


@over_games(lambda info: info.move_ordering)
def test_move_ordering_is_a_permutation_of_the_legal_moves(game):
    for state in decision_states(game, 9):
        legal = list(game.legal_moves(state))
        ordered = list(game.order_moves(state, legal))
        assert sorted(map(repr, ordered)) == sorted(map(repr, legal))
        assert len(set(ordered)) == len(ordered)


@over_games(lambda info: info.encoding is not None)
def test_encoding_has_its_declared_shape_and_one_index_per_legal_move(game):
    info = game.info
    assert info.actions is not None and info.actions > 0
    states = decision_states(game, 10)
    for state in states:
        planes = game.encode(state)
        assert planes.shape == info.encoding and planes.dtype == "float32"
        assert np.isfinite(planes).all() and (planes >= 0).all()  # (stones 0/1, features)
        indices = [game.move_index(state, move) for move in game.legal_moves(state)]
        assert len(set(indices)) == len(indices)
        assert all(0 <= index < info.actions for index in indices)
    if states:  # a batch encodes as its states one by one
        batch = game.encode_many(states)
        assert batch.shape == (len(states), *info.encoding)
        for state, planes in zip(states, batch, strict=True):
            assert (planes == game.encode(state)).all()


SMALL_TREE = 9  # positions with at most this many legal moves are searched exactly


@over_games(lambda info: info.bounds)
def test_value_bounds_hold_against_an_exact_search(game):
    checked = 0
    for state in decision_states(game, 10, games=6):
        if len(game.legal_moves(state)) > SMALL_TREE:
            continue
        low, high = game.value_bounds(state)
        exact = alphabeta(game, state).value
        assert low <= exact <= high, (state, low, high, exact)
        checked += 1
    assert checked, "no small position was reached to check the bounds on"


@over_games(lambda info: info.symmetry)
def test_symmetries_share_the_canonical_key(game):
    for state in decision_states(game, 6):
        images = game.symmetries(state)
        assert state in images
        assert {game.canonical(image) for image in images} == {game.canonical(state)}


@over_games(lambda info: info.chance)
def test_chance_outcomes_are_a_distribution_of_distinct_draws(game):
    rng = random.Random(11)
    seen = 0
    for state in playout(game, rng, max_moves=60):
        if game.outcome(state) is not None or game.to_move(state) != CHANCE:
            continue
        outcomes = game.chance_outcomes(state)
        draws = [draw for draw, _ in outcomes]
        assert len(set(draws)) == len(draws)
        assert all(probability > 0 for _, probability in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-9)
        for draw in draws[:4]:
            game.play(state, draw)
        seen += 1
    assert seen


@over_games(lambda info: info.playout)
def test_own_playouts_end_with_a_result_in_range(game):
    rng = random.Random(12)
    for state in decision_states(game, 12, games=1)[:10]:
        result = game.playout(state, rng)
        assert math.isfinite(result)
        if game.info.players == 2:
            assert result in (-1.0, 0.0, 1.0)


# -- imperfect information (declared by perfect_information=False) ---------------------------------
@over_games(lambda info: info.players == 2)
def test_returns_add_up_and_agree_with_the_outcome(game):
    rng = random.Random(14)
    for _ in range(8):
        end = playout(game, rng)[-1]
        outcome = game.outcome(end)
        if outcome is None:
            continue
        won = game.returns(end)
        assert len(won) == 2 and all(math.isfinite(w) for w in won)
        if game.info.zero_sum:
            assert math.isclose(sum(won), 0.0, abs_tol=1e-9)
        if outcome.winner is None:
            assert won[0] == won[1]
        else:
            assert won[outcome.winner] > won[1 - outcome.winner]


def information_sets(game: Game, seed: int, games: int = 60) -> dict[Any, list[Any]]:
    """The decision states of some random games, grouped by the mover's information state."""
    groups: dict[Any, list[Any]] = {}
    for state in decision_states(game, seed, games):
        key = game.information_state(state, game.to_move(state))
        if state not in groups.setdefault(key, []):
            groups[key].append(state)
    return groups


@over_games(lambda info: not info.perfect_information)
def test_an_information_state_fixes_the_mover_and_the_legal_moves(game):
    groups = information_sets(game, 15)
    for states in groups.values():
        movers = {game.to_move(state) for state in states}
        moves = {tuple(game.legal_moves(state)) for state in states}
        assert len(movers) == 1 and len(moves) == 1, states


@over_games(lambda info: not info.perfect_information)
def test_information_states_hide_something_and_the_seat_sees_no_more(game):
    """Some information state holds several states (the key does hide the other's cards), and
    a seat's view and text are the same at every state of its information state."""
    groups = information_sets(game, 16, games=200)
    assert any(len(states) > 1 for states in groups.values()), "no hidden information found"
    for states in groups.values():
        mover = game.to_move(states[0])
        seen = {game.render(game.as_seen_by(state, mover)) for state in states}
        views = {json.dumps(game.view(game.as_seen_by(state, mover)), sort_keys=True)
                 for state in states}
        assert len(seen) == 1 and len(views) == 1, states


@over_games(lambda info: info.perfect_information)
def test_a_perfect_information_game_hides_nothing(game):
    for state in decision_states(game, 17, games=1)[:6]:
        assert game.as_seen_by(state, game.to_move(state)) == state
        assert game.information_state(state, game.to_move(state)) == state
