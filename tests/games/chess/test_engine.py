"""The chess engine: mates found and scored as WIN - ply, node limits that repeat exactly,
a stop obeyed at once, the clock's share of time, and the static exchange evaluation."""

from __future__ import annotations

import threading
import time

import pytest

from yipan.core import WIN, Limit
from yipan.games.chess import Chess
from yipan.games.chess.engine import Clock, Engine, budget, to_value, uci_score
from yipan.games.chess.rules import to_row
from yipan.games.chess.search import MATE, static_exchange


@pytest.fixture(scope="module")
def engine() -> Engine:
    ready = Engine(8, tables=None)
    ready.warm_up()
    return ready


def test_a_mate_in_two_is_found_and_valued_in_plies(engine):
    game = Chess("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1")
    found = engine.think(game.initial_state(), Limit(depth=6))
    assert game.format_move(found.move) == "g3g6"
    assert found.score == MATE - 3 and to_value(found.score) == WIN - 3
    assert uci_score(found.score) == "mate 2"


def test_being_mated_is_a_loss_counted_in_plies(engine):
    game = Chess("k7/8/1K6/8/8/8/8/7R b - - 0 1")  # Kb8 Rh8#: mated in two plies
    found = engine.think(game.initial_state(), Limit(depth=4))
    assert to_value(found.score) == -(WIN - 2) and uci_score(found.score) == "mate -1"


def test_a_node_limit_gives_the_same_search_every_time(engine):
    state = Chess().initial_state()
    runs = []
    for _ in range(2):
        engine.clear()
        found = engine.think(state, Limit(nodes=20_000))
        runs.append((found.move, found.score, found.depth, found.pv))
    assert runs[0] == runs[1]


def test_stop_ends_the_search_at_once(engine):
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    start = time.perf_counter()
    timer.start()
    found = engine.think(Chess().initial_state(), Limit(stop=stop.is_set))
    assert found is not None and found.move
    assert time.perf_counter() - start < 30  # no time limit was given: only the stop ended it


def test_the_clock_gives_a_share_of_the_time_left():
    soft, hard = budget(Clock(time_left=60, increment=1), overhead=0.05)
    assert 0 < soft <= hard <= 20
    soft, hard = budget(Clock(time_left=10, moves_to_go=1), overhead=0.05)
    assert hard < 10
    assert budget(Clock(move_time=2.0), overhead=0.1) == (1.9, 1.9)
    assert budget(Clock()) == (None, None)


def test_static_exchange_evaluation():
    game = Chess("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1")  # Rxe5 wins a pawn
    state = game.initial_state()
    assert static_exchange(to_row(state), game.parse_move(state, "Rxe5")) == 100
    game = Chess("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1")
    state = game.initial_state()  # Nxe5 loses the knight for a pawn
    assert static_exchange(to_row(state), game.parse_move(state, "Nxe5")) < 0


def test_quiescence_checks_see_a_back_rank_mate_beyond_the_horizon():
    # Qxa7 wins a knight but allows Re1 mate; at depth 1 the mate lies in the quiescence
    # search, found only when its first ply tries quiet checks
    game = Chess("4r1k1/n4ppp/8/8/8/Q7/5PPP/6K1 w - - 0 1")
    state = game.initial_state()
    engine = Engine(1, tables=None)
    engine.quiet_checks = True
    found = engine.think(state, Limit(depth=1))
    assert game.describe_move(state, found.move) != "Qxa7" and found.score > 0
    engine.clear()  # forget the first search's table
    engine.quiet_checks = False
    blind = engine.think(state, Limit(depth=1))
    assert game.describe_move(state, blind.move) == "Qxa7"
