"""The family's driver over each game's kernel: one Iteration per depth, the same answer from
``think`` as from the last of ``iterate``, the same search from a cleared engine, a move even
when stopped at once, and the engine as a player thinking aloud (depth limits only: no clocks
in the assertions)."""

from __future__ import annotations

import random

import pytest

from yipan.chess_family.engine import FamilyEngine
from yipan.core import Limit
from yipan.games.chess import Chess
from yipan.games.chess.engine import Engine as ChessEngine
from yipan.games.chess.hooks import HOOKS as CHESS_HOOKS
from yipan.games.xiangqi import Xiangqi
from yipan.games.xiangqi.engine import Engine as XiangqiEngine
from yipan.games.xiangqi.hooks import HOOKS as XIANGQI_HOOKS

GAMES = {
    "chess": (Chess, lambda: ChessEngine(1, tables=None), CHESS_HOOKS),
    "xiangqi": (Xiangqi, lambda: XiangqiEngine(1), XIANGQI_HOOKS),
}


@pytest.mark.parametrize("name", GAMES)
def test_each_depth_is_an_iteration_and_think_is_the_last(name):
    game_class, new_engine, _ = GAMES[name]
    engine = new_engine()
    assert isinstance(engine, FamilyEngine)
    state = game_class().initial_state()
    iterations = list(engine.iterate(state, Limit(depth=4)))
    assert [i.depth for i in iterations] == [1, 2, 3, 4]
    assert all(i.move in game_class().legal_moves(state) for i in iterations)
    assert [i.nodes for i in iterations] == sorted(i.nodes for i in iterations)
    engine.clear()
    again = engine.think(state, Limit(depth=4))
    last = iterations[-1]
    assert (again.move, again.score, again.pv, again.nodes) == \
        (last.move, last.score, last.pv, last.nodes)


@pytest.mark.parametrize("name", GAMES)
def test_a_stop_asked_at_once_still_finishes_the_first_depth(name):
    game_class, new_engine, _ = GAMES[name]
    state = game_class().initial_state()
    found = new_engine().think(state, Limit(stop=lambda: True))
    assert found is not None and found.depth >= 1
    assert found.move in game_class().legal_moves(state)


@pytest.mark.parametrize("name", GAMES)
def test_the_player_thinks_aloud_depth_by_depth(name):
    game_class, _, hooks = GAMES[name]
    game = game_class()
    state = game.initial_state()
    player = hooks.make_thinker(game, "perfect", random.Random(3), None)
    choices = list(player.think(game, state, Limit(depth=3)))
    assert [c.result.depth for c in choices] == [1, 2, 3]
    assert choices[-1].move in game.legal_moves(state)


def test_a_position_without_moves_gives_no_iteration():
    game = Chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")  # stalemate
    engine = ChessEngine(1, tables=None)
    assert list(engine.iterate(game.initial_state(), Limit(depth=3))) == []
    assert engine.think(game.initial_state(), Limit(depth=3)) is None
