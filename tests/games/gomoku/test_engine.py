"""The fast engine: line shapes, the incremental board, threats, and the searches."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import WIN
from yipan.games.gomoku.board import (
    EMPTY,
    L_FIVE,
    L_FORBIDDEN,
    L_FOUR,
    L_FOUR_THREE,
    L_OPEN_FOUR,
    L_THREE,
    LEVEL_BONUS,
    MOVING_WORTH,
    SHAPE_WORTH,
    STONES,
    WIDTH,
    WORTH_BITS,
    cell_level,
    colour_key,
    evaluate,
    formula_worth,
    initialise,
    new_board,
    place,
    remove,
    stops_open_fours,
    worth_table,
)
from yipan.games.gomoku.context import (
    BRANCH,
    FOUR_PLIES,
    FOUR_RANGE,
    FUTILITY,
    LMR,
    MAX_MOVES,
    MAX_NODES,
    MAX_PLY,
    NODES,
    ROOT_BRANCH,
    start_budget,
)
from yipan.games.gomoku.engine import Engine, reference_search
from yipan.games.gomoku.patterns import (
    FIVE,
    FOUR,
    NONE,
    OPEN_FOUR,
    OPEN_THREE,
    OPEN_TWO,
    THREE,
    TWO,
    shape_of,
)
from yipan.games.gomoku.rules import RULES
from yipan.games.gomoku.search import (
    INFINITY,
    entry_parts,
    generate,
    generate_fours,
    negamax,
    tt_entry,
)
from yipan.games.gomoku.threats import _defences, _threat_moves
from yipan.games.gomoku.worths import FITTED_WAITING_WORTH, FITTED_WORTH

NODE_BUDGET = 200_000  # searches bounded by nodes, not seconds: a busy machine changes nothing


@pytest.mark.parametrize("line, shape", [
    ("..xx[.]..", OPEN_THREE),
    (".x.x[.]..", OPEN_THREE),
    ("oxxx[.].", FOUR),
    (".xxx[.].", OPEN_FOUR),
    ("x.x[.]x.x", OPEN_FOUR),  # two fives in one line: as good as an open four
    ("xxxx[.]", FIVE),
    ("o.xx[.]o", NONE),  # no room for five
    ("oxx[.]..", THREE),
    ("...x[.]...", OPEN_TWO),
    ("oxx[.].o", NONE),
    ("ox.[.]..", TWO),
])
def test_line_shapes(line, shape):
    assert shape_of(line) == shape


def test_an_overline_is_a_five_only_in_freestyle():
    assert shape_of("x[.]xxxx") == FIVE
    assert shape_of("x[.]xxxx", exact=True) == NONE
    assert shape_of(".[.]xxxx.", exact=True) == FIVE
    assert shape_of("x.[.]xxx.x", exact=True) == NONE  # either gap makes six
    assert shape_of("o.[.]xxx.x", exact=True) == FOUR  # only the left gap makes exactly five
    assert shape_of("o.[.]xxx.x") == OPEN_FOUR


def board_arrays(board):
    return (board.keys.copy(), board.shapes.copy(), board.level.copy(),
            board.level_count.copy(), board.value.copy(), board.total.copy(),
            board.near.copy(), int(board.hash[0]))


def same(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULES))
def test_incremental_board_matches_a_board_built_from_scratch(seed, rule):
    """Place stones, take some back: the kept arrays equal those of the final stones
    placed in another order on a fresh board, under every rule."""
    rng = random.Random(seed)
    size = 9
    board = new_board(size, rule)
    cells = [int(c) for c in board.points]
    rng.shuffle(cells)
    played = [(cell, i % 2) for i, cell in enumerate(cells[:rng.randint(1, 40)])]
    for cell, colour in played:
        place(board, cell, colour)
    for _ in range(rng.randint(0, len(played))):
        cell, _ = played.pop(rng.randrange(len(played)))
        remove(board, cell)
    fresh = new_board(size, rule)
    for cell, colour in reversed(played):
        place(fresh, cell, colour)
    assert same(board_arrays(board), board_arrays(fresh))
    # and the same shapes, levels and worth as read from the stones alone, from scratch
    scratch = new_board(size, rule)
    for cell, colour in played:
        scratch.cells[cell] = colour + 1
    initialise(scratch)
    assert same(board_arrays(board)[:6], board_arrays(scratch)[:6])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULES))
def test_kept_shapes_levels_and_worth_are_those_of_the_tables(seed, rule):
    """After random stones placed and taken back, each empty cell's shapes are its keys read
    in the rule's tables, its level ``cell_level`` of them, its worth the fitted one of that
    combination of shapes (else the hand-set reckoning), and the totals their sum (the
    kernels write this reckoning out, inline, for speed)."""
    rng = random.Random(seed)
    board = new_board(9, rule)
    cells = [int(c) for c in board.points]
    rng.shuffle(cells)
    played = cells[:rng.randint(1, 45)]
    for index, cell in enumerate(played):
        place(board, cell, index % 2)
    for _ in range(rng.randint(0, len(played))):
        remove(board, played.pop())
    renju = rule == "renju"
    totals = [0, 0]
    for q in (int(c) for c in board.points):
        for c in range(2):
            if board.cells[q] != EMPTY:
                assert board.level[c, q] == 0 and board.value[c, q] == 0
                continue
            shapes = [board.table[c, board.edge[q, d], colour_key(board.keys[q, d], c)]
                      for d in range(4)]
            assert list(board.shapes[c, q]) == shapes
            level = cell_level(board.shapes[c, q], c == 0 and renju)
            assert board.level[c, q] == level
            combination = tuple(sorted(int(s) for s in shapes))
            moving = FITTED_WORTH.get(combination, formula_worth(combination))
            waiting = FITTED_WAITING_WORTH.get(combination, 9 * moving)
            worth = 0 if level == L_FORBIDDEN else moving + (waiting << WORTH_BITS)
            assert board.value[c, q] == worth
            totals[c] += worth
    assert list(board.total) == totals
    assert [list(row) for row in board.level_count] == [
        [int(np.sum((board.level[c, board.points] == lv) & (board.cells[board.points] == EMPTY)))
         + (int(np.sum(board.cells[board.points] != EMPTY)) if lv == 0 else 0)
         for lv in range(8)] for c in range(2)]


def test_the_worth_table_is_the_hand_set_reckoning_where_nothing_was_fitted():
    """Every ordering of four shapes reads one worth to move and one waiting: a fitted
    combination's (as a set) or, for the rest, the shapes' worths plus the level's bonus, and
    waiting nine tenths of that (in tenths)."""
    fitted = {(0, 0, 1, 4): 123_457}  # (a two beside an open three)
    fitted_waiting = {(0, 0, 1, 4): 765, (0, 1, 1, 2): 4321}
    table = worth_table(fitted, fitted_waiting)
    moving, waiting = table & MOVING_WORTH, table >> WORTH_BITS
    for index, shapes in enumerate(itertools.product(range(len(SHAPE_WORTH)), repeat=4)):
        if tuple(sorted(shapes)) == (0, 0, 1, 4):
            assert (moving[index], waiting[index]) == (123_457, 765)
            continue
        level = cell_level(np.array(shapes, dtype=np.int8), False)
        assert moving[index] == sum(SHAPE_WORTH[s] for s in shapes) + LEVEL_BONUS[level]
        if tuple(sorted(shapes)) == (0, 1, 1, 2):
            assert waiting[index] == 4321
        else:
            assert waiting[index] == 9 * moving[index]
    assert sum(moving == 123_457) == 12  # the orderings of {none, none, two, open three}
    assert sum(waiting == 4321) == 12  # and of {none, two, two, open two}
    assert not table.flags.writeable


def scatter_stones(board, rng, count, keep):
    """Up to ``count`` stones, black and white by turns, on shuffled points; a stone after
    which ``keep()`` is false is taken back (its colour plays the next point instead)."""
    cells = [int(c) for c in board.points]
    rng.shuffle(cells)
    placed = 0
    for cell in cells[:count]:
        place(board, cell, placed % 2)
        placed += 1
        if not keep():
            remove(board, cell)
            placed -= 1


def stops_by_playing(board, q, defender):
    """Whether the attacker had an open four (or two fours) to make and, after a stone of
    the defender on ``q``, has none."""
    attacker = 1 - defender
    if board.level_count[attacker, L_OPEN_FOUR] == 0:
        return False
    place(board, q, defender)
    stops = board.level_count[attacker, L_OPEN_FOUR] == 0
    remove(board, q)
    return bool(stops)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["freestyle", "standard", "caro",
                                                    "caro-exact"]))
def test_stops_open_fours_reads_what_playing_the_stone_would_do(seed, rule):
    """``stops_open_fours`` (from the tables, no stone placed) agrees with placing the stone
    and looking, at every empty point for both sides, on crowded random positions of every
    rule without forbidden points."""
    rng = random.Random(seed)
    board = new_board(11, rule)
    scatter_stones(board, rng, rng.randint(10, 60),
                   lambda: not board.level_count[:, L_FIVE].any())
    for defender in (0, 1):
        for q in (int(c) for c in board.points):
            if board.cells[q] == EMPTY:
                assert stops_open_fours(board, q, defender) == stops_by_playing(
                    board, q, defender), (q, defender)


def test_under_caro_a_stone_beyond_the_end_of_a_five_to_be_defends():
    """White makes two fours at c6 (a row and a column). Under caro, black on c5 leaves the
    column's five blocked at both ends (c5 and c11): that alone stops the double four,
    though white makes no four on c5; the candidates and the threat search's defences list
    it. In freestyle it stops nothing and is not listed."""
    black = [(2, 10), (10, 10), (12, 12), (10, 13), (13, 8), (8, 13)]
    white = [(2, 6), (2, 7), (2, 9), (0, 5), (1, 5), (4, 5)]
    for rule, listed in (("caro", True), ("freestyle", False)):
        engine = engine_with(15, black, white, rule)
        board, context = engine.board, engine.context
        c5 = int(board.points[4 * 15 + 2])
        assert board.level[1, int(board.points[5 * 15 + 2])] == L_OPEN_FOUR
        assert stops_by_playing(board, c5, 0) == listed
        context.stats[BRANCH] = MAX_MOVES
        count = generate(board, context, 0, 1, -1)
        assert (c5 in {int(m) for m in context.moves[1, :count]}) == listed
        count = _defences(board, context, 1, 1)
        assert (c5 in {int(m) for m in context.moves[1, :count]}) == listed


def engine_with(size, black, white, rule="freestyle"):
    """An engine whose board holds the given (x, y) stones; black to move if counts are equal."""
    engine = Engine(size, rule, memory_bytes=1 << 20)
    for x, y in black:
        engine.play(y * size + x, 0)
    for x, y in white:
        engine.play(y * size + x, 1)
    return engine


def xy(engine, point):
    return point % engine.size, point // engine.size


def test_an_immediate_five_is_taken():
    # black: four with one end open at the left; white threatens its own five elsewhere
    engine = engine_with(15, [(5, 7), (6, 7), (7, 7), (8, 7)],
                         [(9, 7), (3, 3), (3, 4), (3, 5)])
    engine.side = 0
    decision = engine.think(seconds=None, nodes=NODE_BUDGET)
    assert xy(engine, decision.move) == (4, 7)
    assert decision.result.value == WIN - 1


def test_a_four_of_the_opponent_is_blocked():
    engine = engine_with(15, [(7, 7), (7, 8), (2, 2)],
                         [(5, 5), (6, 5), (7, 5), (8, 5)])
    engine.side = 0
    assert xy(engine, engine.think(seconds=None, nodes=NODE_BUDGET).move) in {(4, 5), (9, 5)}
    engine = engine_with(15, [(7, 7), (7, 8), (4, 5), (2, 2)],
                         [(5, 5), (6, 5), (7, 5), (8, 5)])
    engine.side = 0
    assert xy(engine, engine.think(seconds=None, nodes=NODE_BUDGET).move) == (9, 5)


def test_an_open_three_is_stopped_before_it_becomes_an_open_four():
    # white threatens an open four on row 5; black has nothing of its own
    engine = engine_with(15, [(7, 9), (11, 11), (2, 12)], [(5, 5), (6, 5), (7, 5)])
    engine.side = 0
    move = xy(engine, engine.think(seconds=None, nodes=NODE_BUDGET, max_depth=4).move)
    assert move in {(3, 5), (4, 5), (8, 5), (9, 5)}


def test_an_open_four_wins_and_a_double_five_threat_loses():
    engine = engine_with(15, [(5, 7), (6, 7), (7, 7), (2, 2)], [(1, 1), (12, 1), (1, 12)])
    engine.side = 0
    assert engine.board.level_count[0, L_OPEN_FOUR] > 0
    decision = engine.think(seconds=None, nodes=NODE_BUDGET)
    assert xy(engine, decision.move) in {(4, 7), (8, 7)}
    assert decision.result.value > 0 and decision.threat is not None


def test_under_the_exact_five_rule_an_overline_does_not_win():
    black = [(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)]  # x x x _ x x: the gap makes six
    white = [(1, 1), (13, 1), (1, 13), (13, 13), (7, 1)]
    free = engine_with(15, black, white, "freestyle")
    exact = engine_with(15, black, white, "standard")
    gap = exact.cell(7 * 15 + 6)
    assert free.board.level[0, gap] == L_FIVE
    assert exact.board.level[0, gap] != L_FIVE
    assert exact.board.level_count[0, L_FIVE] == 0
    free.side = exact.side = 0
    assert free.think(seconds=None, nodes=NODE_BUDGET).reason == "five"
    assert exact.think(seconds=None, nodes=NODE_BUDGET).move != 7 * 15 + 6


@pytest.mark.parametrize("four_plies", [0, 8])
@pytest.mark.parametrize(("seed", "depth"), [(1, 2), (2, 2), (3, 2), (4, 3), (5, 3)])
def test_alpha_beta_kernel_agrees_with_the_reference_search(seed, depth, four_plies):
    """Fixed-depth negamax (table, killers, PVS; reductions and futility pruning off) gives
    plain negamax's value, with and without the fours past the horizon. Every candidate is
    searched (no cap on the lists): a capped list keeps the best-ordered cells, and the
    kernel's killers and history reorder them as it goes, so the two would search different
    moves."""
    rng = random.Random(seed)
    engine = Engine(9, memory_bytes=1 << 20)
    engine.context.stats[FOUR_PLIES] = four_plies
    engine.context.stats[BRANCH] = engine.context.stats[ROOT_BRANCH] = 81
    while len(engine.moves) < 6:
        point = rng.choice([p for p in range(81) if engine.is_empty(p)])
        engine.play(point)
        if engine.board.level_count[:, L_OPEN_FOUR].any() or engine.winner() is not None:
            engine.undo()
    plain = reference_search(engine, depth)
    engine.context.stats[LMR] = 0
    engine.context.stats[FUTILITY] = 0
    start_budget(engine.context, NODES, MAX_NODES, None, None)
    value = negamax(engine.board, engine.context, depth, 0, -INFINITY, INFINITY,
                    engine.to_move)
    assert value == plain.value
    assert engine.context.stats[NODES] < plain.stats.nodes


def test_reference_search_reports_every_node_to_the_trace():
    engine = engine_with(9, [(4, 4)], [(4, 5)])
    events = []
    result = reference_search(engine, 2, trace=events.append)
    nodes = [e for e in events if e.kind == "node"]
    assert len(nodes) == result.stats.nodes
    assert max(e.ply for e in events) == 2
    assert any(e.horizon for e in events)


def test_the_opponents_vcf_is_stopped():
    # puzzle P027's position, but black to move: white threatens a VCF of three fours
    pairs = "9,9 8,7 8,5 7,8 9,6 10,7 7,6 9,7 7,7 8,8 9,5 9,8 6,8 8,6 8,9"
    engine = Engine(15, memory_bytes=1 << 20)
    for index, pair in enumerate(pairs.split()):
        x, y = map(int, pair.split(","))
        engine.play(y * 15 + x, index % 2)
    assert engine.threat_win(1, threes=False, max_depth=8, nodes=100_000, seconds=None)
    engine.side = 0
    decision = engine.think(seconds=None, nodes=NODE_BUDGET)
    if decision.reason in ("five", "VCF", "VCT"):
        return  # black wins first: also right
    engine.play(decision.move, 0)
    assert engine.threat_win(1, threes=False, max_depth=12, nodes=200_000, seconds=None) is None


def test_search_with_a_trace_prints_the_tree_of_the_plain_search():
    import io

    from yipan.search import TracePrinter

    engine = engine_with(9, [(4, 4)], [(4, 5)])
    out = io.StringIO()
    result = engine.search(max_depth=1, trace=TracePrinter(engine.game, 1, out=out))
    lines = out.getvalue().splitlines()
    assert lines[0] == "MAX d0 []" and lines[-1].endswith("[]")
    assert f"{result.value:+g}" in lines[-1]
    assert sum(line.strip().startswith("MIN d1") for line in lines) == result.stats.nodes - 1


PREPARE_AND_THINK = """
from yipan.games.gomoku.engine import Engine

engine = Engine.prepared(15, "freestyle", memory_bytes=1 << 20)
for point in (112, 113, 127, 97, 128):  # a position with threats for both searches
    engine.play(point)
report["move"] = engine.think(seconds=None, nodes=20_000, max_depth=4).move
"""

KERNELS = ("place", "remove", "_update_lines", "find_level", "out_of_budget", "negamax",
           "threat_node", "_board_struct", "_context_struct", "initialise", "generate",
           "evaluate", "from_table", "to_table")


def test_the_costly_kernels_are_compiled_once_and_then_loaded(count_compilations):
    """One compiled version each of the board's update and the two recursive searches, on a
    machine's first run (a fresh numba cache): a caller passing a point as int32 or a literal
    would add seconds to every first run. The next run loads them all from numba's cache
    (``now`` reads the clock in Python's object mode, which numba compiles on every run: it is
    not among them) and plays the same move."""
    cold = count_compilations(PREPARE_AND_THINK)
    for kernel in KERNELS:
        assert cold["compiled"].get(kernel) == 1, (kernel, cold)
    warm = count_compilations(PREPARE_AND_THINK)  # (the same cache)
    assert not set(KERNELS) & set(warm["compiled"]), warm
    assert warm["move"] == cold["move"]


@settings(max_examples=200, deadline=None)
@given(st.integers(-(2**31), 2**31 - 1), st.integers(-128, 127), st.integers(0, 2),
       st.integers(-1, 2**15 - 1))
def test_a_table_entry_gives_back_its_value_depth_flag_and_move(value, depth, flag, move):
    """One int64 holds what five arrays held (int32 value, int8 depth and flag, int16
    move), each read back unchanged."""
    assert entry_parts(tt_entry(value, depth, flag, move)) == (value, depth, flag, move)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULES))
def test_candidates_are_every_near_point_best_first_after_any_stones(seed, rule):
    """``generate`` reads only the rows and columns near the stones' span (``bounds``, kept
    through stones placed and taken back in any order): its list is every empty point near
    a stone (not forbidden; stopping the opponent's open four when there is one), best
    score first, ties in the order of the points, as a scan of the whole board gives."""
    rng = random.Random(seed)
    engine = Engine(11, rule, memory_bytes=1 << 16)
    board, context = engine.board, engine.context
    cells = [int(c) for c in board.points]
    rng.shuffle(cells)
    played = cells[:rng.randint(1, 40)]
    for index, cell in enumerate(played):
        place(board, cell, index % 2)
    for _ in range(rng.randint(0, len(played) - 1)):
        remove(board, played.pop(rng.randrange(len(played))))
    stones = [int(c) for c in board.points if board.cells[c] != EMPTY]
    width = int(board.meta[WIDTH])
    rows, columns = [c // width for c in stones], [c % width for c in stones]
    span = board.bounds[board.meta[STONES]]
    assert list(span) == [min(rows), max(rows), min(columns), max(columns)]
    context.history[:] = rng.randrange(3)
    context.stats[BRANCH] = MAX_MOVES
    for me in (0, 1):
        them = 1 - me
        defending = board.level_count[them, L_OPEN_FOUR] > 0
        expected = []
        for order, q in enumerate(int(c) for c in board.points):
            if (board.cells[q] != EMPTY or board.near[q] == 0
                    or board.level[me, q] == L_FORBIDDEN):
                continue
            if defending and board.level[me, q] < L_FOUR and not any(
                    board.shapes[them, q, d] >= FOUR for d in range(4)):
                continue
            score = (int(board.value[me, q] & MOVING_WORTH) * 5
                     + int(board.value[them, q] & MOVING_WORTH) * 4
                     + int(context.history[me, q]))
            expected.append((-score, order, q))
        count = generate(board, context, me, 1, -1)
        assert [int(m) for m in context.moves[1, :count]] == [q for _, _, q in sorted(expected)]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULES))
def test_threat_moves_are_every_four_and_three_best_first(seed, rule):
    """The threat search's attacker moves: every empty point where the attacker makes a
    four (and, for VCT, a three), higher level and worth first, ties in the order of the
    points."""
    rng = random.Random(seed)
    board = new_board(11, rule)
    context = Engine(11, rule, memory_bytes=1 << 16).context
    cells = [int(c) for c in board.points]
    rng.shuffle(cells)
    for index, cell in enumerate(cells[:rng.randint(1, 45)]):
        place(board, cell, index % 2)
    for attacker in (0, 1):
        for threes in (0, 1):
            lowest = L_THREE if threes else L_FOUR
            expected = []
            for order, q in enumerate(int(c) for c in board.points):
                level = int(board.level[attacker, q])
                if board.cells[q] == EMPTY and lowest <= level < L_FIVE:
                    score = (level * 1_000_000 + int(board.value[attacker, q] & MOVING_WORTH)
                             + int(board.value[1 - attacker, q] & MOVING_WORTH))
                    expected.append((-score, order, q))
            count = _threat_moves(board, context, attacker, 1, threes)
            assert [int(m) for m in context.moves[1, :count]] == [q for _, _, q in
                                                                 sorted(expected)]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULES))
def test_defences_are_every_four_cell_of_the_attacker_and_four_of_the_defender(seed, rule):
    """The defender's answers to a three (read from the cells' levels, the shapes only at
    forbidden cells): every empty point where one of the attacker's shapes is a four or
    more, or where the defender makes a four or more, never a point forbidden to the
    defender, in the order of the points; then, under caro, every other point that leaves
    the attacker no open four (found by playing it)."""
    rng = random.Random(seed)
    board = new_board(11, rule)
    context = Engine(11, rule, memory_bytes=1 << 16).context
    cells = [int(c) for c in board.points]
    rng.shuffle(cells)
    for index, cell in enumerate(cells[:rng.randint(1, 50)]):
        place(board, cell, index % 2)
    for attacker in (0, 1):
        defender = 1 - attacker
        expected = [q for q in (int(c) for c in board.points)
                    if board.cells[q] == EMPTY and board.level[defender, q] != L_FORBIDDEN
                    and (board.level[defender, q] >= L_FOUR
                         or any(board.shapes[attacker, q, d] >= FOUR for d in range(4)))]
        caro = {q for q in (int(c) for c in board.points)
                if rule in ("caro", "caro-exact") and board.cells[q] == EMPTY
                and q not in expected and stops_by_playing(board, q, defender)}
        count = _defences(board, context, attacker, 1)
        listed = [int(m) for m in context.moves[1, :count]]
        assert listed[:len(expected)] == expected
        assert sorted(listed[len(expected):]) == sorted(caro)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULES))
def test_fours_past_the_horizon_are_every_four_four_threes_first(seed, rule):
    """The moves past the horizon: every empty point where the side to move makes a four or
    a four-three (never a forbidden point: its level is L_FORBIDDEN), four-threes first,
    then by ``generate``'s worth, ties in the order of the points; with ``FOUR_RANGE`` only
    those in the 5x5 square of the side's last stone or on its lines up to four cells away.
    A brute-force scan of the whole board gives the same list."""
    rng = random.Random(seed)
    engine = Engine(11, rule, memory_bytes=1 << 16)
    board, context = engine.board, engine.context
    width = int(board.meta[WIDTH])
    cells = [int(c) for c in board.points]
    rng.shuffle(cells)
    for index, cell in enumerate(cells[:rng.randint(2, 50)]):
        place(board, cell, index % 2)
    mine_last = int(board.stack[board.meta[STONES] - 2])

    def near_last(q: int) -> bool:
        dy, dx = abs(q // width - mine_last // width), abs(q % width - mine_last % width)
        return max(dy, dx) <= 2 or (max(dy, dx) <= 4 and (dy == 0 or dx == 0 or dy == dx))

    for local in (0, 1):
        context.stats[FOUR_RANGE] = local
        for me in (0, 1):
            expected = []
            for order, q in enumerate(int(c) for c in board.points):
                level = int(board.level[me, q])
                if (board.cells[q] == EMPTY and level in (L_FOUR, L_FOUR_THREE)
                        and (not local or near_last(q))):
                    score = (int(board.value[me, q] & MOVING_WORTH) * 5
                             + int(board.value[1 - me, q] & MOVING_WORTH) * 4
                             + (1 << 30) * (level == L_FOUR_THREE))
                    expected.append((-score, order, q))
            count = generate_fours(board, context, me, 1, -1)
            moves = [int(m) for m in context.moves[1, :count]]
            assert moves == [q for _, _, q in sorted(expected)]
            assert all(board.level[me, q] != L_FORBIDDEN for q in moves)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULES))
def test_against_an_open_three_no_defence_is_left_out(seed, rule):
    """Where the opponent threatens an open four (or two fours), ``generate`` lists only
    defences and one's own fours, and leaves out none: every allowed point after which the
    opponent has no such threat left (found by playing it), and every four, is listed. Under
    caro some of those stand where the opponent makes no four (a constructed one below)."""
    rng = random.Random(seed)
    engine = Engine(11, rule, memory_bytes=1 << 16)
    board, context = engine.board, engine.context
    context.stats[BRANCH] = MAX_MOVES
    scatter_stones(board, rng, rng.randint(4, 40),
                   lambda: not (board.level_count[:, L_FIVE].any()
                                or board.level_count[:, L_OPEN_FOUR].all()))
    for me in (0, 1):
        them = 1 - me
        if board.level_count[them, L_OPEN_FOUR] == 0 or board.level_count[me, L_FIVE] > 0:
            continue
        count = generate(board, context, me, 1, -1)
        listed = {int(m) for m in context.moves[1, :count]}
        for q in (int(c) for c in board.points):
            if board.cells[q] != EMPTY or board.level[me, q] == L_FORBIDDEN:
                continue
            place(board, q, me)
            stops = board.level_count[them, L_OPEN_FOUR] == 0
            remove(board, q)
            if stops or L_FOUR <= board.level[me, q] <= L_FIVE:
                assert q in listed, (q, rule)
        # and nothing that makes no four of mine and neither stands where they make a four nor
        # (caro: a stone beyond the end of their five-to-be blocks it at both ends) stops it
        for q in listed:
            place(board, q, me)
            stops = board.level_count[them, L_OPEN_FOUR] == 0
            remove(board, q)
            assert board.level[me, q] >= L_FOUR or any(
                board.shapes[them, q, d] >= FOUR for d in range(4)) or (
                    stops and rule in ("caro", "caro-exact"))


def test_a_four_of_the_opponent_leaves_one_answer_in_the_tree():
    """At a node where the opponent threatens five, the only child searched is the block
    (and it costs no depth: the tree goes on below it)."""
    engine = engine_with(15, [(7, 7), (7, 8), (4, 5), (2, 2)],
                         [(5, 5), (6, 5), (7, 5), (8, 5)])
    engine.side = 0
    events = []
    reference_search(engine, 1, trace=events.append)
    children = [e.path for e in events if e.kind == "node" and e.ply == 1]
    assert children == [(5 * 15 + 9,)]
    assert any(e.ply >= 2 for e in events if e.kind == "node")


# puzzle P076 of the reference data: black wins by a VCF of six moves, no shorter
P076_BLACK_VCF = ("5,5 7,5 5,7 6,8 6,4 7,3 5,6 5,4 7,6 6,7 6,6 4,6 4,7 5,8 4,8 3,9 8,9 7,7 3,8 "
                  "6,5 5,9 4,9 6,10 7,11 9,9 9,5 7,9 6,9 8,6 9,6 8,7 8,5 10,5 3,10 2,11 8,10 "
                  "10,9 11,9 9,8 11,10 10,7 11,6")


def test_a_vcf_past_the_horizon_is_read_to_its_five():
    """Black has a VCF of six moves: a search of depth 1 sees it through (the fours past
    the horizon, each answered by the forced block), the kernel and the plain search alike;
    with no fours past the horizon (``FOUR_PLIES`` 0) the same search sees no win."""
    values = {}
    for four_plies in (8, 0):
        engine = Engine(15, memory_bytes=1 << 20)
        for pair in P076_BLACK_VCF.split():
            x, y = map(int, pair.split(","))
            engine.play(y * 15 + x)
        assert engine.to_move == 0 and engine.board.level_count[0, L_OPEN_FOUR] == 0
        engine.context.stats[FOUR_PLIES] = four_plies
        engine.context.stats[LMR] = engine.context.stats[FUTILITY] = 0
        start_budget(engine.context, NODES, MAX_NODES, None, None)
        value = negamax(engine.board, engine.context, 1, 0, -INFINITY, INFINITY, 0)
        assert value == reference_search(engine, 1).value
        values[four_plies] = value
    assert values[8] == WIN - 11  # the five on the eleventh ply
    assert values[0] < WIN - MAX_PLY * 2


def nodes_to_search(engine: Engine, depth: int, beta: int) -> tuple[int, int]:
    """The value and node count of a null-window search below the root (``ply`` 1, where
    futility pruning may act) of ``engine``'s position, on a fresh table and history."""
    engine.context.tt[:] = 0
    engine.context.history[:] = 0
    engine.context.killers[:] = -1
    start_budget(engine.context, NODES, MAX_NODES, None, None)
    value = negamax(engine.board, engine.context, depth, 1, beta - 1, beta, engine.to_move)
    return value, int(engine.context.stats[NODES])


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_a_static_value_far_above_beta_stands_near_the_horizon(depth):
    """Reverse futility: within three plies of the horizon, with nothing of the opponent's
    to answer, a static value ``FUTILITY`` x depth or more above beta is the node's value,
    no move searched; a beta one higher, or the pruning switched off, searches the moves."""
    engine = engine_with(15, [(7, 7), (8, 8)], [(6, 9)])
    margin = int(engine.context.stats[FUTILITY])
    assert margin > 0
    static = int(evaluate(engine.board, engine.to_move))
    assert nodes_to_search(engine, depth, static - margin * depth) == (static, 1)
    value, nodes = nodes_to_search(engine, depth, static - margin * depth + 1)
    assert nodes > 1
    engine.context.stats[FUTILITY] = 0
    assert nodes_to_search(engine, depth, static - margin * depth)[1] > 1
    engine.context.stats[FUTILITY] = margin
    assert nodes_to_search(engine, 4, static - margin * 4)[1] > 1  # too far from the horizon


def test_no_static_value_stands_against_an_open_three():
    """With the opponent's open three on the board (an open four to make), the moves are
    searched however far the static value is above beta."""
    engine = engine_with(15, [(7, 7), (8, 8), (2, 12)], [(5, 5), (6, 5), (7, 5)])
    assert engine.to_move == 0 and engine.board.level_count[1, L_OPEN_FOUR] > 0
    static = int(evaluate(engine.board, 0))
    assert nodes_to_search(engine, 1, static - 100 * int(engine.context.stats[FUTILITY]))[1] > 1

