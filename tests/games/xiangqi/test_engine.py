"""The xiangqi engine: mates found, the perpetual-check rule heeded in search, limits kept,
and the player thinking aloud (node and depth limits only: no clocks in the assertions)."""

from __future__ import annotations

import random

from yipan.core import Limit
from yipan.games.xiangqi import Xiangqi
from yipan.games.xiangqi.engine import Engine, mate_in_plies
from yipan.games.xiangqi.hooks import HOOKS


def test_finds_a_mate_in_one():
    game = Xiangqi("3k5/R8/9/9/9/9/9/9/9/4K3R w")
    state = game.initial_state()
    found = Engine(1).think(state, Limit(depth=4))
    assert found is not None
    assert mate_in_plies(found.score) == 1
    after = game.play(state, found.move)
    assert game.legal_moves(after) == [] and game.outcome(after) is not None
    assert game.outcome(after).winner == 0


def test_avoids_the_repetition_its_perpetual_check_would_lose():
    game = Xiangqi("4k4/9/9/9/9/9/9/9/9/R2K5 w")
    state = game.initial_state()
    for text in ["a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"]:
        state = game.play(state, game.parse_move(state, text))
    repeat = game.parse_move(state, "a9a8")  # the check that brings the cycle round again
    found = Engine(1).think(state, Limit(depth=6))
    assert found is not None and found.move != repeat
    # while the side being checked welcomes it: black, checked forever, wins by the rule
    state = game.play(state, repeat)
    found = Engine(1).think(state, Limit(depth=4))
    assert found is not None and game.format_move(found.move) == "e8e9"


def test_node_limit_and_banned_moves_are_kept():
    game = Xiangqi()
    state = game.initial_state()
    engine = Engine(1)
    found = engine.think(state, Limit(nodes=5_000))
    assert found is not None and engine.ctx.control[0] <= 5_000
    best = found.move
    again = engine.think(state, Limit(depth=3), banned=(best,))
    assert again is not None and again.move != best and again.move in game.legal_moves(state)


def test_the_thinker_reports_each_depth_and_ends_on_a_legal_move():
    game = Xiangqi()
    state = game.initial_state()
    player = HOOKS.make_thinker(game, "perfect", random.Random(3), None)
    choices = list(player.think(game, state, Limit(depth=4)))
    assert [c.result.depth for c in choices] == [1, 2, 3, 4]
    assert choices[-1].move in game.legal_moves(state)
