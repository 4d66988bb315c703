"""The engine's play against strong opponents: tempo in the evaluation, the check that a
chosen move leaves no threat sequence, and deepening on after a loss is seen."""

from __future__ import annotations

import random

import pytest

from yipan.core import WIN
from yipan.games.gomoku.board import (
    L_DOUBLE_THREE,
    L_FOUR,
    LIKELY_WIN,
    evaluate,
)
from yipan.games.gomoku.context import MAX_PLY
from yipan.games.gomoku.engine import Engine

BLACK, WHITE = 0, 1
FAR_BLACK = [(0, 0), (14, 0), (0, 14), (14, 14), (0, 7), (14, 7)]  # stones that make nothing


def engine_with(black: list[tuple[int, int]], white: list[tuple[int, int]]) -> Engine:
    engine = Engine(15, memory_bytes=1 << 22)
    for colour, stones in ((BLACK, black), (WHITE, white)):
        for x, y in stones:
            engine.play(y * 15 + x, colour)
    return engine


CROSS = [(5, 7), (6, 7), (7, 5), (7, 6)]  # two twos meeting at (7, 7): a double three there


def test_a_double_three_to_play_is_a_won_race_when_the_opponent_has_no_four():
    engine = engine_with(CROSS, [(0, 0), (14, 0), (0, 14), (14, 14)])
    assert engine.board.level[BLACK, engine.cell(7 * 15 + 7)] == L_DOUBLE_THREE
    assert evaluate(engine.board, BLACK) >= LIKELY_WIN
    assert evaluate(engine.board, WHITE) < LIKELY_WIN // 2  # (white to move: no such race)


def test_no_race_bonus_while_the_opponent_can_make_a_four():
    engine = engine_with([*CROSS, (0, 7)], [(0, 0), (14, 0), (10, 12), (11, 12), (12, 12)])
    assert engine.board.level_count[WHITE, L_FOUR:].sum() > 0  # white's three makes fours
    assert evaluate(engine.board, BLACK) < LIKELY_WIN // 2


def vct_after(engine: Engine, point: int, colour: int) -> bool:
    engine.play(point, colour)
    try:
        return engine.threat_win(1 - colour, threes=True, max_depth=engine.vct_depth,
                                 nodes=20_000, seconds=None) is not None
    finally:
        engine.undo()


def test_a_move_that_leaves_a_threat_sequence_gives_way_to_one_that_does_not():
    """On seeded random middle games where a careless move (a far corner) leaves the
    opponent a VCT: the move chosen instead leaves none, whenever one is found."""
    rng = random.Random(21)
    replaced = 0
    for _ in range(12):
        engine = Engine(15, memory_bytes=1 << 22)
        while len(engine.moves) < 8:
            point = rng.randint(5, 9) * 15 + rng.randint(5, 9)
            if engine.is_empty(point):
                engine.play(point)
                if engine.board.level_count[:, L_FOUR:].any():
                    engine.undo()
        me = engine.to_move
        careless = 14 * 15 + 14
        if not vct_after(engine, careless, me):
            assert engine.move_stopping_vct(careless, me, seconds=None) == careless
            continue
        safer = engine.move_stopping_vct(careless, me, seconds=None)
        if safer is not None:
            assert safer != careless and engine.is_empty(safer)
            assert not vct_after(engine, safer, me)
            replaced += 1
    assert replaced >= 2  # (the sample holds such positions: the test tests something)


def test_a_move_that_leaves_nothing_is_kept():
    engine = engine_with([(3, 3), (11, 11)], [(3, 11), (11, 3)])
    quiet = 7 * 15 + 7
    assert not vct_after(engine, quiet, BLACK)
    assert engine.move_stopping_vct(quiet, BLACK, seconds=None) == quiet


@pytest.mark.parametrize("max_depth", [4, 6])
def test_a_lost_position_is_searched_to_the_last_depth(max_depth):
    """Two open threes of the opponent: the search sees the loss at once, and deepens on
    (a deeper search may find a defence a pruned list left out), to the depth asked."""
    engine = engine_with(FAR_BLACK, [(5, 7), (6, 7), (7, 7), (10, 2), (10, 3), (10, 4)])
    results = list(engine.iterate(max_depth=max_depth, nodes=400_000))
    assert [r.depth for r in results] == list(range(1, max_depth + 1))
    assert results[0].value < -(WIN - MAX_PLY * 2)
    assert results[-1].value < -(WIN - MAX_PLY * 2)
