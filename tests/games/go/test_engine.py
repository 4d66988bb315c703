"""The engine under playout limits (never time): tactics it must see, its tree kept between
moves, resignation, the analysis it reports, its thinking streamed, and the clock."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import AnalysisRequest, Limit
from yipan.games.go.engine import Engine
from yipan.games.go.hooks import analyze, think
from yipan.games.go.player import EnginePlayer
from yipan.games.go.rules import BLACK, PASS, WHITE, Go
from yipan.games.go.timing import Clock

from .conftest import from_diagram


def test_it_captures_a_large_group_in_atari():
    game = Go(7, komi=0.5)
    state = from_diagram(game, """
        .......
        .XXXX..
        XOOOOX.
        XOOOO..
        .XXXX..
        .......
        .......""", to_move=BLACK)
    # white's eight stones have one liberty, F4; black takes them
    engine = Engine(game, capacity=1 << 16, rng=random.Random(1))
    decision = engine.think(state, playouts=1500)
    after = game.play(state, decision.move)
    assert after.black_prisoners == 8, game.format_move(decision.move)


def test_it_saves_its_own_group_from_capture():
    game = Go(7, komi=0.5)
    state = from_diagram(game, """
        .......
        .OOO...
        OXXXO..
        OXXX...
        .OOO...
        .......
        .......""", to_move=BLACK)
    # black's six stones have one liberty, E4; extending there gives two
    engine = Engine(game, capacity=1 << 16, rng=random.Random(2))
    decision = engine.think(state, playouts=2000)
    assert game.format_move(decision.move) == "E4"


def test_the_tree_is_kept_when_the_game_goes_on_by_two_moves():
    game = Go(9)
    engine = Engine(game, capacity=1 << 18, rng=random.Random(3))
    state = game.initial_state()
    decision = engine.think(state, playouts=3000)
    # the line the tree knows best: its first two moves lead to a node already searched
    first, second = decision.pv[:2]
    later = game.play(game.play(state, first), second)
    assert engine.set_root(later)
    assert engine.root != 0 and engine.stats[engine.root, 0] > 0  # its visits carried over
    assert game.format_move(engine.unpadded(int(engine.links[engine.root, 0]))) == \
        game.format_move(second)
    assert engine.set_root(later)  # the same position again: the tree stands
    elsewhere = later
    for _ in range(3):
        elsewhere = game.play(elsewhere, game.legal_moves(elsewhere)[0])
    assert not engine.set_root(elsewhere) and engine.root == 0  # three moves on: a new tree


def test_a_hopeless_position_resigns():
    game = Go(5, komi=0.5)
    state = from_diagram(game, """
        OOOOO
        O.O.O
        OOOOO
        OO.OO
        .....""", to_move=BLACK)
    decision = Engine(game, capacity=1 << 16, rng=random.Random(4)).think(state,
                                                                         playouts=3500)
    assert decision.win_rate < 0.1 and decision.resign


def test_it_passes_when_the_game_is_won_and_the_opponent_passed():
    game = Go(5, komi=0.5)
    state = from_diagram(game, """
        .X.O.
        XX.OO
        .XXO.
        XX.OO
        .X.O.""", to_move=BLACK)
    state = game.play(state._replace(to_move=WHITE), PASS)  # white passed; black leads
    assert game.score(state) > 0
    decision = Engine(game, capacity=1 << 16, rng=random.Random(5)).think(state,
                                                                         playouts=1500)
    assert decision.move == PASS


def test_analysis_reports_win_rates_visits_and_ownership():
    game = Go(5, komi=0.5)
    state = game.initial_state()
    analysis = analyze(game, state, AnalysisRequest(limit=Limit(nodes=1000)))
    extra = analysis.extra
    assert analysis.scale == "mean" and analysis.move is not None
    assert 0 <= extra["win_rate"] <= 1 and analysis.value == pytest.approx(
        2 * analysis.extra["win_rate"] - 1, abs=1e-3)
    assert extra["best_moves"][0]["move"] == game.format_move(analysis.move)
    assert len(extra["ownership"]) == 25 and all(-1 <= x <= 1 for x in extra["ownership"])
    assert sum(analysis.extra["visits"].values()) <= 1000 + 64
    json_ready = analysis.to_json(game, state, [])
    assert json_ready["extra"]["best_moves"][0]["visits"] > 0


def test_thinking_streams_analyses_until_its_limit():
    game = Go(5, komi=0.5)
    results = list(think(game, game.initial_state(), AnalysisRequest(limit=Limit(nodes=800))))
    assert results and results[-1].nodes >= 800
    stopped = list(think(game, game.initial_state(),
                         AnalysisRequest(limit=Limit(nodes=10**9, stop=lambda: True))))
    assert len(stopped) == 1 and stopped[0].move is not None


def test_the_player_plays_legal_moves_by_playouts():
    game = Go(5, komi=0.5)
    player = EnginePlayer(game, "easy", random.Random(6))
    state = game.initial_state()
    for _ in range(6):
        choice = player.choose(game, state)
        state = game.play_checked(state, choice.move)
        assert choice.result is not None and choice.result.scale == "mean"


def test_the_clock_shares_time_out():
    clock = Clock()
    assert clock.move_seconds(81, 5.0) == 5.0  # no clock: the player's own time
    clock.set_canadian(300, 0, 0)  # absolute: five minutes
    assert 300 / 40 < clock.move_seconds(81, 5.0) < 300 / 20
    clock.update(30, 0)
    assert clock.move_seconds(81, 5.0) < 3
    clock.set_canadian(0, 60, 10)  # Canadian: 10 stones in a minute
    clock.update(12, 2)  # 12 s for the last two stones
    assert 5 < clock.move_seconds(40, 5.0) <= 6
    clock.set_japanese(0, 10, 3)
    clock.update(10, 1)
    assert 7 < clock.move_seconds(40, 5.0) < 10
    clock.set_canadian(0, 5, 0)  # byo-yomi time without stones: no limit
    assert clock.unlimited


@settings(max_examples=200, deadline=None)
@given(main=st.floats(0, 3600), period=st.floats(0, 120), stones=st.integers(0, 25),
       periods=st.integers(0, 5), left=st.floats(0, 3600), stones_left=st.integers(0, 25),
       empty=st.integers(0, 361))
def test_a_move_never_takes_more_than_the_clock_has(main, period, stones, periods, left,
                                                    stones_left, empty):
    clock = Clock()
    if periods:
        clock.set_japanese(main, period, periods)
    else:
        clock.set_canadian(main, period, stones)
    clock.update(left, stones_left)
    seconds = clock.move_seconds(empty, 5.0)
    assert seconds > 0
    if not clock.unlimited:
        in_period = stones_left > 0
        available = left if (in_period or periods == 0 and stones == 0) else \
            left + period
        assert seconds <= max(available, 0.05)
