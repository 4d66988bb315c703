"""Tic-tac-toe and m,n,k-games: rules, notation, symmetry, heuristic."""

from __future__ import annotations

import pytest

import yipan
from yipan.core import HEURISTIC_LIMIT, GameOptionError, IllegalMoveError, InvalidMoveError, replay
from yipan.games.tictactoe import Board
from yipan.games.tictactoe.rules import MAX_SIDE


def reachable(game):
    """Every position reachable from the start."""
    seen = {game.initial_state()}
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        for move in game.legal_moves(state):
            child = game.play(state, move)
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return seen


def test_3x3_has_5478_positions_765_up_to_symmetry():
    game = yipan.get_game("tictactoe")
    positions = reachable(game)
    assert len(positions) == 5478
    assert len({game.canonical(s) for s in positions}) == 765


def test_lines_win_in_every_direction():
    game = yipan.get_game("tictactoe")
    for moves, winner in [("a1 b1 a2 b2 a3", 0), ("a1 b1 b2 c1 c3", 0),
                          ("a1 c1 a2 b2 b1 a3", 1), ("a1 a2 b1 b2 a3 c2", 1)]:
        state = replay(game, moves.split())[-1]
        assert game.outcome(state).winner == winner


def test_full_board_without_line_is_a_draw():
    game = yipan.get_game("tictactoe")
    state = replay(game, ["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"])[-1]
    assert game.outcome(state).winner is None
    assert game.legal_moves(state) == []


def test_notation_accepts_numbers_and_coordinates():
    game = yipan.get_game("tictactoe")
    state = game.initial_state()
    assert game.parse_move(state, "5") == game.parse_move(state, "b2")
    assert game.format_move(game.parse_move(state, "9")) == "c3"
    assert game.parse_move(state, " C3 ") == game.parse_move(state, "9")
    for bad in ("0", "10", "d1", "a4", "xx", "", "²", "a²", "٣", "1" * 5000, "a" + "1" * 5000):
        with pytest.raises(InvalidMoveError) as error:
            game.parse_move(state, bad)
        assert len(str(error.value)) < 100
    with pytest.raises(IllegalMoveError, match="taken"):
        replay(game, ["b2", "5"])


def test_edges_do_not_wrap_lines():
    """c1 a2 b2 is not a line although the cells are consecutive in the bit layout."""
    game = yipan.get_game("tictactoe", size="4x4", k=3)
    state = Board(0, 0)
    for text in ("c1", "a4", "d1", "c4", "a2", "b3"):
        state = game.play(state, game.parse_move(state, text))
    assert game.outcome(state) is None


@pytest.mark.parametrize("size,k", [("3x3", 3), ("4x4", 4), ("3x5", 3), ("5x5", 4)])
def test_mnk_geometry(size, k):
    game = yipan.get_game("tictactoe", size=size, k=k)
    rows, cols = (int(x) for x in size.split("x"))
    assert len(game.legal_moves(game.initial_state())) == rows * cols
    assert len(game.symmetries(game.initial_state())) == (8 if rows == cols else 4)


@pytest.mark.parametrize("options", [{"size": "0x3"}, {"size": "3y3"}, {"k": 7},
                                     {"size": "30x30"}, {"colour": "red"},
                                     {"size": "9" * 5000}, {"size": "3x²"}])
def test_bad_options_are_refused(options):
    with pytest.raises(GameOptionError):
        yipan.get_game("tictactoe", **options)


def test_heuristic_prefers_open_lines_for_the_side_to_move():
    game = yipan.get_game("tictactoe", size="5x5", k=4)
    centre = replay(game, ["c3"])[-1]  # X in the centre, O to move
    assert game.evaluate(centre) < 0
    assert game.evaluate(game.initial_state()) == 0


@pytest.mark.parametrize(("size", "k"), [
    (f"{MAX_SIDE}x{MAX_SIDE}", 1), (f"{MAX_SIDE}x{MAX_SIDE}", 2), (f"{MAX_SIDE}x{MAX_SIDE}", 5),
    (f"{MAX_SIDE}x{MAX_SIDE}", 10), (f"{MAX_SIDE}x{MAX_SIDE}", MAX_SIDE // 2),
    (f"{MAX_SIDE}x{MAX_SIDE}", MAX_SIDE), (f"1x{MAX_SIDE}", MAX_SIDE), (f"{MAX_SIDE}x1", MAX_SIDE),
    (f"{MAX_SIDE}x3", MAX_SIDE), ("11x11", 11), ("15x15", 5), ("3x3", 3)])
def test_heuristic_stays_inside_the_limit(size, k):
    """The largest sum: every line full of one side's stones (each line is worth at most
    a full line's weight, and here every line is)."""
    game = yipan.get_game("tictactoe", size=size, k=k)
    for full in (Board(game.full, 0), Board(0, game.full)):
        assert -HEURISTIC_LIMIT < game.evaluate(full) < HEURISTIC_LIMIT
    # where 4 per stone was already inside, it stays: O on a1, each line through it is 4
    corner = game.cells[0]
    if len(game.lines) * 4**k < HEURISTIC_LIMIT:
        through = sum(1 for line in game.lines if line >> corner & 1)
        assert game.evaluate(Board(0, 1 << corner)) == 4 * through


def test_heuristic_still_prefers_longer_lines_on_a_huge_board():
    game = yipan.get_game("tictactoe", size=f"{MAX_SIDE}x{MAX_SIDE}", k=MAX_SIDE)
    one, two = (replay(game, moves)[-1] for moves in (["a1", "z26", "b1"], ["a1", "z26"]))
    assert game.evaluate(one) < 0  # O to move; X's row of two is open, O's stone is lone
    assert game.evaluate(two) == 0


def test_value_bounds_are_sound():
    """Bounds never exclude the exact value (checked on every 3x3 position)."""
    from yipan.search import Options, alphabeta

    game = yipan.get_game("tictactoe")
    for state in reachable(game):
        if game.outcome(state) is not None:
            continue
        low, high = game.value_bounds(state)
        value = alphabeta(game, state, options=Options(bounds=False)).value
        assert low <= value <= high


def test_view_draws_the_board_and_the_winning_line():
    game = yipan.get_game("tictactoe")
    won = replay(game, ["a1", "a2", "b1", "b2", "c1"])[-1]
    view = game.view(won)
    assert view["pieces"] == "marks" and view["k"] == 3
    assert view["col_labels"] == ["a", "b", "c"] and view["row_labels"] == ["1", "2", "3"]
    assert view["cells"][0] == [0, 0, 0] and view["cells"][1] == [1, 1, None]
    assert view["highlight"] == [[0, 0], [0, 1], [0, 2]]
    assert all(move is None for row in view["move_at"] for move in row)  # the game is over
    playing = game.view(replay(game, ["b2"])[-1])
    assert playing["highlight"] == []
    assert playing["move_at"][0][0] == "a1" and playing["move_at"][1][1] is None


def test_view_highlights_every_line_the_last_move_made():
    """c3 completes the row and the diagonal at once: both are the win."""
    game = yipan.get_game("tictactoe")
    won = replay(game, ["a3", "b1", "b3", "c1", "a1", "c2", "b2", "a2", "c3"])[-1]
    assert game.outcome(won).winner == 0
    assert game.view(won)["highlight"] == [[0, 0], [1, 1], [2, 0], [2, 1], [2, 2]]


def test_render_writes_letters_and_row_numbers():
    game = yipan.get_game("tictactoe")
    state = replay(game, ["a1", "b2"])[-1]
    assert game.render(state) == "    a b c\n  1 X . .\n  2 . O .\n  3 . . ."
