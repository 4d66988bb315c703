"""The rules of Gomoku: notation, fives, the exact-five rule, the board's picture."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yipan.core import GameOptionError, IllegalMoveError, InvalidMoveError, get_game, replay
from yipan.games.gomoku import Gomoku


def test_notation_counts_rows_from_the_bottom_as_renju_does():
    game = Gomoku(15)
    assert game.parse_move(None, "h8") == game.point(7, 7)  # the centre either way
    assert game.parse_move(None, "a1") == game.point(0, 14)  # bottom left: row 1 is y = 14
    assert game.parse_move(None, "a15") == game.point(0, 0)  # top left: Gomocup's 0,0
    assert game.parse_move(None, "o3") == game.point(14, 12)
    assert game.format_move(game.point(3, 10)) == "d5"
    assert game.format_move(game.point(14, 0)) == "o15"
    assert Gomoku(9).format_move(Gomoku(9).point(0, 8)) == "a1"  # on every size
    assert game.parse_move(None, "i9") == game.point(8, 6)  # no letter skipped (Go skips i)


def test_gomocups_x_y_is_read_too_with_y_from_the_top():
    game = Gomoku(15)
    assert game.parse_move(None, "7,7") == game.parse_move(None, "h8")
    assert game.parse_move(None, "0,0") == game.parse_move(None, "a15")
    assert game.parse_move(None, "14,2") == game.parse_move(None, "o13")
    assert game.parse_move(None, " 0 , 14 ") == game.parse_move(None, "a1")
    with pytest.raises(InvalidMoveError, match="off the board"):
        game.parse_move(None, "15,0")


@given(st.integers(7, 22), st.data())
def test_both_notations_name_the_same_point(size, data):
    game = Gomoku(size)
    x, y = data.draw(st.integers(0, size - 1)), data.draw(st.integers(0, size - 1))
    point = game.point(x, y)
    assert game.parse_move(None, f"{x},{y}") == point
    assert game.format_move(point) == f"{'abcdefghijklmnopqrstuv'[x]}{size - y}"


def test_a_typed_move_list_keeps_gomocups_pairs_whole():
    game = Gomoku(15)
    assert game.split_moves("h8 i9,j10") == ["h8", "i9", "j10"]
    assert game.split_moves("7,7 8,8, 9 , 9") == ["7,7", "8,8", "9 , 9"]
    assert game.split_moves("h8,7,7") == ["h8", "7,7"]


@given(st.integers(7, 22), st.data())
def test_format_and_parse_round_trip(size, data):
    game = Gomoku(size)
    point = data.draw(st.integers(0, size * size - 1))
    assert game.parse_move(None, game.format_move(point)) == point


@pytest.mark.parametrize("text", ["", "h", "8h", "z1", "a0", "p1", "a16", "15,0", "1,2,3",
                                  "h²", "٧,7", "7,", ",7", "7;7", "1" * 5000 + ",1",
                                  "h" + "8" * 5000])
def test_bad_move_texts_are_refused(text):
    with pytest.raises(InvalidMoveError) as error:
        Gomoku(15).parse_move(None, text)
    assert len(str(error.value)) < 100  # a long text is quoted cut short


def test_notation_forgives_case_and_spaces():
    game = Gomoku(15)
    assert game.parse_move(None, " H8 ") == game.parse_move(None, "h8") == game.point(7, 7)


def test_options_are_checked():
    with pytest.raises(GameOptionError):
        Gomoku(6)
    with pytest.raises(GameOptionError):
        Gomoku(23)
    with pytest.raises(GameOptionError):
        Gomoku(15, "pente")
    game = get_game("gomoku", size="9", rule="standard")
    assert (game.size, game.rule) == (9, "standard")


def line(game, cells, black_first=True):
    """Play black on ``cells`` with white answering far away (every other point of the
    bottom rows, so white never makes a line)."""
    bottom = game.size - 1
    fillers = iter([game.point(x, y) for y in (bottom, bottom - 2) for x in range(0, game.size, 2)])
    moves = []
    for cell in cells:
        moves += [game.format_move(cell), game.format_move(next(fillers))]
    return moves[:-1] if black_first else moves


@pytest.mark.parametrize("direction", [(1, 0), (0, 1), (1, 1), (1, -1)])
def test_five_in_any_direction_wins(direction):
    game = Gomoku(15)
    dx, dy = direction
    cells = [game.point(5 + dx * i, 6 + dy * i) for i in range(5)]
    states = replay(game, line(game, cells))
    assert all(game.outcome(s) is None for s in states[:-1])
    assert game.outcome(states[-1]).winner == 0
    assert game.legal_moves(states[-1]) == []


@pytest.mark.parametrize("direction", [(1, 0), (1, 1), (1, -1)])
def test_an_overline_wins_only_in_freestyle(direction):
    dx, dy = direction
    for rule, wins in (("freestyle", True), ("standard", False)):
        game = Gomoku(15, rule)
        # x x x _ x x, then the gap: six in a row
        cells = [game.point(3 + dx * i, 7 + dy * i) for i in (0, 1, 2, 4, 5, 3)]
        state = replay(game, line(game, cells))[-1]
        outcome = game.outcome(state)
        assert (outcome is not None and outcome.winner == 0) is wins, rule


def test_exactly_five_wins_under_the_standard_rule():
    game = Gomoku(15, "standard")
    cells = [game.point(3 + i, 3) for i in range(5)]
    assert game.outcome(replay(game, line(game, cells))[-1]).winner == 0


def test_a_five_at_the_edge_is_not_carried_over_to_the_next_row():
    game = Gomoku(9)
    cells = [game.point(x, 0) for x in (6, 7, 8)] + [game.point(x, 1) for x in (0, 1)]
    assert game.outcome(replay(game, line(game, cells))[-1]) is None


def test_taken_points_are_illegal_and_play_is_pure():
    game = Gomoku(9)
    start = game.initial_state()
    after = game.play(start, game.point(4, 4))
    assert start == game.initial_state() and after != start
    with pytest.raises(IllegalMoveError):
        game.play_checked(after, game.point(4, 4))
    assert game.to_move(after) == 1 and len(game.legal_moves(after)) == 80


def test_view_is_a_grid_with_row_zero_at_the_top_labelled_from_the_bottom():
    game = Gomoku(7)
    state = replay(game, ["a1", "b3"])[-1]
    view = game.view(state)
    assert (view["kind"], view["rows"], view["cols"]) == ("grid", 7, 7)
    assert view["cells"][6][0] == 0 and view["cells"][4][1] == 1  # a1 at the bottom left
    assert view["move_at"][6][0] is None and view["move_at"][0][6] == "g7"
    assert view["move_at"][6][6] == "g1"
    assert view["pieces"] == "stones" and view["highlight"] == []
    assert view["col_labels"][-1] == "g"
    assert view["row_labels"] == ["7", "6", "5", "4", "3", "2", "1"]


def test_the_text_board_numbers_rows_from_the_bottom():
    game = Gomoku(7)
    lines = game.render(replay(game, ["a1", "g7"])[-1]).splitlines()
    assert lines[0].split() == list("abcdefg")
    assert lines[1].split() == ["7", ".", ".", ".", ".", ".", ".", "O"]
    assert lines[7].split() == ["1", "X", ".", ".", ".", ".", ".", "."]


@pytest.mark.parametrize("direction", [(1, 0), (0, 1), (1, 1), (1, -1)])
def test_view_highlights_the_winning_five(direction):
    game = Gomoku(15)
    dx, dy = direction
    cells = [game.point(5 + dx * i, 6 + dy * i) for i in range(5)]
    view = game.view(replay(game, line(game, cells))[-1])
    assert sorted(view["highlight"]) == sorted([y, x] for x, y in map(game.xy, cells))
    assert all(move is None for row in view["move_at"] for move in row)  # the game is over


def test_view_highlights_an_overline_in_freestyle_and_only_the_five_in_standard():
    # x x x _ x x on row 4, x x x x _ on row 7; the gap of row 4 is filled, then row 7's
    six = [(x, 3) for x in (2, 3, 4, 6, 7)]
    four = [(x, 6) for x in (2, 3, 4, 5)]
    for rule, stones, expected in (
            ("freestyle", six + four + [(5, 3)], [(x, 3) for x in range(2, 8)]),
            ("standard", six + four + [(5, 3), (6, 6)], [(x, 6) for x in range(2, 7)])):
        game = Gomoku(15, rule)
        state = replay(game, line(game, [game.point(x, y) for x, y in stones]))[-1]
        assert game.outcome(state).winner == 0, rule
        assert sorted(game.view(state)["highlight"]) == sorted([y, x] for x, y in expected), rule
