"""The search algorithms agree with plain minimax, and keep its scoring (``WIN - ply``)."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import yipan
from yipan.core import WIN, Limit, replay
from yipan.search import (
    PLAIN,
    Options,
    TracePrinter,
    TranspositionTable,
    alphabeta,
    iterate,
    minimax,
)

TICTACTOE = yipan.get_game("tictactoe")

VARIANTS = {
    "alphabeta": PLAIN,
    "alphabeta+table": Options(symmetry=False, ordering=False, pvs=False, bounds=False),
    "alphabeta+table+symmetry": Options(ordering=False, pvs=False, bounds=False),
    "alphabeta+ordering+pvs": Options(symmetry=False, bounds=False),
    "all": Options(),
}


def test_full_minimax_tree_of_3x3():
    result = minimax(TICTACTOE, TICTACTOE.initial_state())
    assert result.stats.nodes == 549_946
    assert result.value == 0
    assert result.exact
    assert set(result.move_values.values()) == {0}


def test_minimax_prefers_the_faster_win():
    # X: a1 b1, O: a2 b2; X to move wins at once with c1 (also later elsewhere)
    state = replay(TICTACTOE, ["a1", "a2", "b1", "b2"])[-1]
    result = minimax(TICTACTOE, state)
    assert TICTACTOE.format_move(result.move) == "c1"
    assert result.value == WIN - 1
    slower = result.move_values[TICTACTOE.parse_move(state, "c2")]  # blocks nothing: O wins
    assert slower < result.value


def positions_strategy(min_moves: int, max_moves: int):
    """Reachable, unfinished 3x3 positions: random move choices from the start."""
    @st.composite
    def build(draw):
        length = draw(st.integers(min_moves, max_moves))
        state = TICTACTOE.initial_state()
        for _ in range(length):
            moves = TICTACTOE.legal_moves(state)
            if not moves:
                break
            state = TICTACTOE.play(state, moves[draw(st.integers(0, len(moves) - 1))])
        return state
    return build()


@settings(max_examples=60, deadline=None)
@given(positions_strategy(2, 8))
def test_every_variant_matches_minimax_move_by_move(state):
    expected = minimax(TICTACTOE, state)
    for name, options in VARIANTS.items():
        result = alphabeta(TICTACTOE, state, analysis=True, options=options)
        assert result.value == expected.value, name
        assert dict(result.move_values) == dict(expected.move_values), name
        assert result.exact


@settings(max_examples=40, deadline=None)
@given(positions_strategy(1, 7))
def test_iterative_deepening_ends_with_the_minimax_value(state):
    expected = minimax(TICTACTOE, state)
    results = list(iterate(TICTACTOE, state, analysis=True))
    assert results[-1].exact
    assert results[-1].value == expected.value
    assert dict(results[-1].move_values) == dict(expected.move_values)
    assert [r.depth for r in results] == list(range(1, len(results) + 1))


@settings(max_examples=40, deadline=None)
@given(positions_strategy(0, 5), st.integers(1, 4))
def test_depth_limited_alphabeta_matches_depth_limited_minimax(state, depth):
    """With the heuristic at the horizon, every variant finds minimax's value. (Proven bounds
    are left out here: they see past the horizon, which is their point.)"""
    expected = minimax(TICTACTOE, state, depth=depth)
    for name, options in VARIANTS.items():
        if options.bounds:
            continue
        result = alphabeta(TICTACTOE, state, depth=depth, analysis=True, options=options)
        assert result.value == expected.value, name
        assert dict(result.move_values) == dict(expected.move_values), name


@settings(max_examples=40, deadline=None)
@given(positions_strategy(1, 8))
def test_principal_variation_is_legal_and_reaches_the_value(state):
    result = alphabeta(TICTACTOE, state)
    line_state = state
    for move in result.pv:
        line_state = TICTACTOE.play_checked(line_state, move)
    outcome = TICTACTOE.outcome(line_state)
    assert outcome is not None, "an exact PV ends the game"
    mover = TICTACTOE.to_move(state)
    if result.value == 0:
        assert outcome.winner is None
    else:
        assert (outcome.winner == mover) == (result.value > 0)
        assert WIN - abs(result.value) == len(result.pv)


def test_4x4x4_is_a_draw():
    game = yipan.get_game("tictactoe", size="4x4", k=4)
    result = alphabeta(game, game.initial_state())
    assert result.value == 0 and result.exact
    assert len(result.pv) == 16


def test_node_limit_stops_iterative_deepening_with_the_last_complete_depth():
    game = yipan.get_game("tictactoe", size="4x4", k=4)
    results = list(iterate(game, game.initial_state(), limit=Limit(nodes=3000)))
    assert results, "depth 1 fits in 3000 nodes"
    assert not results[-1].exact
    assert results[-1].stats.nodes <= 3000
    limited = alphabeta(game, game.initial_state(), limit=Limit(nodes=3000))
    assert limited.depth == results[-1].depth


def test_table_keeps_its_size_and_replaces_by_depth():
    table = TranspositionTable(7)
    for key in range(100):
        table.put(key, depth=key % 5, flag=0, value=key, move=None)
    assert table.capacity == 8 and len(table) <= 8  # rounded up to a power of two
    table.new_search()
    table.put(1000, depth=0, flag=0, value=1, move=None)
    assert table.get(1000) is not None  # an old generation's entry gives way


def test_table_entries_are_read_by_name():
    from yipan.search.tt import LOWER, Entry

    table = TranspositionTable(8)
    table.put("k", depth=3, flag=LOWER, value=5, move="m")
    entry = table.get("k")
    assert isinstance(entry, Entry)
    assert (entry.key, entry.depth, entry.flag, entry.value, entry.move) == ("k", 3, LOWER, 5, "m")
    assert table.get("other key") is None


def test_symmetry_folds_the_table():
    start = TICTACTOE.initial_state()
    plain = alphabeta(TICTACTOE, start, options=Options(symmetry=False, bounds=False))
    folded = alphabeta(TICTACTOE, start, options=Options(bounds=False))
    assert folded.value == plain.value == 0
    assert folded.stats.nodes < plain.stats.nodes


def test_trace_prints_the_tree_with_max_min_paths_and_cutoffs():
    state = replay(TICTACTOE, ["a1", "b1", "c1", "a2", "b2"])[-1]  # O to move; X threatens twice
    out = io.StringIO()
    events = []

    def hook(event):
        events.append(event)
        printer(event)

    printer = TracePrinter(TICTACTOE, max_depth=2, out=out)
    result = alphabeta(TICTACTOE, state, trace=hook, options=PLAIN)
    text = out.getvalue()
    assert text.splitlines()[0] == "MAX d0 []"
    assert "  MIN d1 [a3]" in text
    assert "terminal: loss in 0" not in text
    assert "cut-off at" in text
    nodes = [e for e in events if e.kind == "node"]
    assert len(nodes) == result.stats.nodes
    assert result.value == -(WIN - 2)


def test_minimax_trace_has_one_node_event_per_node():
    state = replay(TICTACTOE, ["a1", "b1", "c1", "a2", "b2", "c2"])[-1]
    events = []
    result = minimax(TICTACTOE, state, trace=events.append)
    assert sum(e.kind == "node" for e in events) == result.stats.nodes


def test_algorithms_refuse_games_they_cannot_handle():
    from yipan.core import CapabilityError, GameInfo

    class Solitaire(type(TICTACTOE)):
        pass

    game = Solitaire()
    game.info = GameInfo(name="tictactoe", title="one player", players=1)
    with pytest.raises(CapabilityError):
        alphabeta(game, game.initial_state())
