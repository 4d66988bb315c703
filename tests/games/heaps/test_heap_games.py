"""The heap games as Games: rules, notation, views, the generic search as a cross-check of
Sprague-Grundy theory, and the AI."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import (
    GameOptionError,
    IllegalMoveError,
    InvalidMoveError,
    get_game,
    is_win,
    replay,
)
from yipan.games.heaps import HeapGameMove, HeapState
from yipan.players import RandomPlayer, make_ai, play_match
from yipan.search import alphabeta

HEAP_GAMES = ["nim", "bash", "subtraction", "octal", "kayles", "dawsons-kayles", "grundy-game",
              "wythoff"]


def small_game(name: str, heaps: list[int]):
    return get_game(name, heaps=[str(h) for h in heaps])


@pytest.mark.parametrize("name", HEAP_GAMES)
def test_every_move_round_trips_through_its_notation(name):
    game = get_game(name)
    rng = random.Random(7)
    state = game.initial_state()
    while game.outcome(state) is None:
        moves = game.legal_moves(state)
        assert moves
        for move in moves:
            assert game.parse_move(state, game.format_move(move)) == move
        state = game.play(state, rng.choice(moves))
    assert game.legal_moves(state) == []
    assert game.outcome(state).winner == 1 - game.to_move(state)  # normal play


@pytest.mark.parametrize("name", HEAP_GAMES)
def test_view_is_the_heaps(name):
    game = get_game(name)
    state = game.initial_state()
    view = game.view(state)
    assert {key: view[key] for key in ("kind", "heaps")} == \
        {"kind": "heaps", "heaps": list(state.heaps)}
    assert view.get("splits", False) == (name in ("octal", "kayles", "dawsons-kayles",
                                                  "grundy-game"))  # octal: 0.77


def test_kayles_notation_and_play():
    game = small_game("kayles", [12])
    start = game.initial_state()
    middle = game.parse_move(start, "1:2=5+5")
    assert middle == HeapGameMove(0, 2, (5, 5))
    assert game.play(start, middle) == HeapState((5, 5), 1)
    end = game.parse_move(start, "1:1")
    assert game.play(start, end) == HeapState((11,), 1)
    assert game.format_move(game.parse_move(start, "1:1=7+4")) == "1:1=4+7"


def test_an_emptied_heap_stays_in_place_so_heap_numbers_do_not_change():
    game = small_game("nim", [3, 4, 5])
    states = replay(game, ["2:4", "3:1"])
    assert states[-1].heaps == (3, 0, 4)
    assert game.render(states[1]).splitlines()[1] == "heap 2:   0"


def test_grundys_game_splits_into_unequal_heaps():
    game = small_game("grundy-game", [6])
    start = game.initial_state()
    assert [game.format_move(m) for m in game.legal_moves(start)] == ["1=1+5", "1=2+4"]
    with pytest.raises(IllegalMoveError):
        game.play_checked(start, game.parse_move(start, "1=3+3"))


def test_wythoff_moves():
    game = small_game("wythoff", [2, 3])
    start = game.initial_state()
    assert game.play(start, game.parse_move(start, "both:2")).heaps == (0, 1)
    assert game.play(start, game.parse_move(start, "2:3")).heaps == (2, 0)
    with pytest.raises(IllegalMoveError):
        game.play_checked(start, game.parse_move(start, "both:3"))


@pytest.mark.parametrize("text", ["x", "4:1", "1:", "1:9", "0:1", "1=2+2", "1:1=1+1"])
def test_unreadable_or_impossible_moves_are_refused(text):
    game = small_game("kayles", [5, 2, 1])
    with pytest.raises(InvalidMoveError):
        game.parse_move(game.initial_state(), text)


@pytest.mark.parametrize(("name", "options"), [
    ("nim", {"heaps": ["3", "-1"]}), ("nim", {"heaps": ["x"]}), ("nim", {"rule": "sideways"}),
    ("octal", {"code": "0.9q"}), ("subtraction", {"subtract": "0,2"}), ("bash", {"k": "0"}),
    ("wythoff", {"heaps": ["1", "2", "3"]}), ("kayles", {"heaps": ["1000001"]}),
])
def test_bad_options_are_refused(name, options):
    with pytest.raises(GameOptionError):
        get_game(name, **options)


# -- Sprague-Grundy theory against the generic search ------------------------------------
# (largest heap, most tokens in all) that the generic search solves in well under a second
SEARCHED = {
    "nim": (4, 12), "kayles": (8, 10), "dawsons-kayles": (9, 14), "grundy-game": (12, 16),
    "subtraction": (9, 20), "bash": (9, 20),
}


@st.composite
def small_positions(draw):
    name = draw(st.sampled_from(sorted(SEARCHED)))
    largest, total = SEARCHED[name]
    heaps = draw(st.lists(st.integers(0, largest), min_size=1, max_size=3)
                 .filter(lambda heaps: sum(heaps) <= total))
    return name, heaps


@given(small_positions())
@settings(max_examples=60, deadline=None)
def test_xor_rule_and_winning_moves_agree_with_alphabeta(position):
    name, heaps = position
    game = small_game(name, heaps)
    state = game.initial_state()
    if game.outcome(state) is not None:
        assert game.grundy_value(state) == 0
        return
    result = alphabeta(game, state, analysis=True)
    assert (game.grundy_value(state) != 0) == is_win(result.value)
    searched_wins = {m for m, v in result.move_values.items() if is_win(v)}
    assert set(game.winning_moves(state)) == searched_wins
    for move in game.winning_moves(state):
        assert game.grundy_value(game.play(state, move)) == 0


@given(st.integers(0, 6), st.integers(0, 6))
@settings(max_examples=30, deadline=None)
def test_wythoff_theory_agrees_with_alphabeta(a, b):
    game = small_game("wythoff", [a, b])
    state = game.initial_state()
    lost = game.is_lost(state)
    assert lost == (game.grundy_value(state) == 0)
    if game.outcome(state) is None:
        result = alphabeta(game, state, analysis=True)
        assert lost == (not is_win(result.value))
        assert set(game.winning_moves(state)) == {
            m for m, v in result.move_values.items() if is_win(v)}


def test_misere_nim_as_a_game_agrees_with_alphabeta():
    for heaps in ([1, 1, 1], [1, 1], [2, 2], [3, 1, 2], [2, 1, 1]):
        game = get_game("nim", heaps=heaps, rule="misere")
        state = game.initial_state()
        result = alphabeta(game, state, analysis=True)
        assert game.is_lost(state) == (not is_win(result.value)), heaps
        assert set(game.winning_moves(state)) == {
            m for m, v in result.move_values.items() if is_win(v)}


# -- the AI --------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "heaps"), [
    ("nim", [3, 4, 5]), ("kayles", [9, 4]), ("dawsons-kayles", [11]), ("grundy-game", [13]),
    ("subtraction", [17]), ("wythoff", [6, 9]), ("octal", [10]),
])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_ai_wins_every_won_position_against_random_play(name, heaps, seed):
    game = small_game(name, heaps)
    state = game.initial_state()
    assert not game.is_lost(state)  # the first player wins these
    rng = random.Random(seed)
    ai = make_ai(game, "perfect", rng)
    result = play_match(game, [ai, RandomPlayer(rng)], rng)
    assert result.outcome.winner == 0


def test_the_ai_takes_the_winning_move_and_stalls_when_lost():
    game = small_game("nim", [3, 4, 5])
    ai = make_ai(game, "perfect", random.Random(0))
    state = game.initial_state()
    assert game.format_move(ai.choose(game, state).move) == "1:2"
    lost = game.play(state, game.parse_move(state, "1:2"))
    assert game.format_move(ai.choose(game, lost).move) == "3:1"  # the least from the largest


def test_perfect_ais_decide_the_game_by_the_starting_value():
    for heaps, winner in (([1, 2, 3], 1), ([2, 5], 0)):
        game = small_game("kayles", heaps)
        rng = random.Random(5)
        players = [make_ai(game, "perfect", rng), make_ai(game, "perfect", rng)]
        assert play_match(game, players, rng).outcome.winner == winner


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_ai_wins_misere_nim_against_random_play(seed):
    game = get_game("nim", heaps=[2, 3, 4], rule="misere")
    assert not game.is_lost(game.initial_state())
    rng = random.Random(seed)
    result = play_match(game, [make_ai(game, "perfect", rng), RandomPlayer(rng)], rng)
    assert result.outcome.winner == 0
    assert result.states[-1].heaps == (0, 0, 0) and result.states[-1].to_move == 0


@settings(max_examples=200, deadline=None)
@given(code=st.sampled_from(["nim", "0.77", "0.07", "0.137", "4.7", "0.3f", "0.f", "sub 1,3,4",
                             "sub 2,5", "grundy"]),
       heap=st.integers(0, 24), take=st.integers(0, 26),
       parts=st.lists(st.integers(0, 24), max_size=4))
def test_a_move_is_checked_without_listing_every_move(code, heap, take, parts):
    """``is_move`` answers exactly as membership in ``heap_moves`` (which it replaces when a
    move list is replayed: a heap of 100,000 has 100,000 moves)."""
    from yipan.impartial.rules import GrundyRule, HeapMove, NimRule, OctalRule, SubtractionRule

    rule = (NimRule() if code == "nim" else GrundyRule() if code == "grundy"
            else SubtractionRule(code[4:]) if code.startswith("sub") else OctalRule(code))
    move = HeapMove(take, tuple(parts))
    assert rule.is_move(heap, move) == (move in rule.heap_moves(heap))
    assert rule.count_moves(heap) == len(rule.heap_moves(heap))
    for index, legal in enumerate(rule.heap_moves(heap)):
        assert rule.is_move(heap, legal)
        assert rule.nth_move(heap, index) == legal
