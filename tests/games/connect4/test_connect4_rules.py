"""The rules of Connect Four on bitboards: moves, wins, notation, the web view."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yipan.core import GameOptionError, IllegalMoveError, InvalidMoveError, get_game, replay
from yipan.games.connect4 import ConnectFour, Position
from yipan.games.connect4.rules import has_four


def play_all(game: ConnectFour, moves: str) -> Position:
    return replay(game, game.split_moves(moves))[-1]


def test_split_moves_gives_one_move_per_digit(game):
    assert game.split_moves("4453") == ["4", "4", "5", "3"]
    assert game.split_moves("44 53") == ["4", "4", "5", "3"]


def test_layout_is_column_major_with_a_sentinel_bit(game):
    position = play_all(game, "41")
    # X on the bottom of column 4 (bit 3 * 7), O on the bottom of column 1 (bit 0); X to move
    assert position.mask == (1 << 21) | 1
    assert position.current == 1 << 21
    assert position.moves == 2


def test_vertical_horizontal_and_diagonal_fours(game):
    assert game.outcome(play_all(game, "4545454")).winner == 0  # vertical
    assert game.outcome(play_all(game, "1122334")).winner == 0  # horizontal
    assert game.outcome(play_all(game, "12234334544")).winner == 0  # diagonal /
    assert game.outcome(play_all(game, "76654554344")).winner == 0  # diagonal \
    assert game.outcome(play_all(game, "112233")) is None


def test_a_full_board_without_four_is_a_draw():
    game = ConnectFour(4, 4)
    moves = "1234" * 0 + "1212343421214343"
    position = play_all(game, moves)
    assert position.moves == 16
    assert not has_four(position.mask ^ position.current, 4)
    assert game.outcome(position).winner is None


@pytest.mark.parametrize(("moves", "needle"), [
    ("4444444", "move 7 (4): column 4 is full"),
    ("448", "move 3 (8): column 8 is not on the board"),
    ("40", "move 2 (0)"),
    ("4x", "move 2 (x)"),
    ("45454545", "move 8 (5): the game is over"),
])
def test_illegal_sequences_name_the_bad_move(game, moves, needle):
    with pytest.raises((IllegalMoveError, InvalidMoveError), match=needle.replace("(", r"\(")
                       .replace(")", r"\)")):
        play_all(game, moves)


def test_sizes_and_options():
    assert get_game("connect4").info.grid == (6, 7)
    assert get_game("connect4", size="8x6").width == 8
    assert get_game("connect4", width="6", height="5").cells == 30
    with pytest.raises(GameOptionError):
        get_game("connect4", size="9x7")  # 9 * 8 = 72 bits: too wide for the bitboard
    with pytest.raises(GameOptionError):
        get_game("connect4", size="seven")


def test_view_has_gravity_and_every_cell_of_a_playable_column_plays_it(game):
    position = play_all(game, "444444")
    view = game.view(position)
    assert view["kind"] == "grid" and view["gravity"] is True
    assert (view["rows"], view["cols"]) == (6, 7)
    assert view["cells"][5][3] == 0 and view["cells"][4][3] == 1 and view["cells"][0][3] == 1
    assert all(row[3] is None for row in view["move_at"])  # column 4 is full
    assert all(row[0] == "1" for row in view["move_at"])


def test_view_highlights_the_winning_four(game):
    view = game.view(play_all(game, "1122334"))
    assert sorted(map(tuple, view["highlight"])) == [(5, 0), (5, 1), (5, 2), (5, 3)]
    assert all(cell is None for row in view["move_at"] for cell in row)


@given(st.integers(0, 2**32))
def test_mirror_image_has_the_same_outcome_and_key(seed):
    game = ConnectFour()
    rng = random.Random(seed)
    position = game.initial_state()
    mirrored = position
    while game.outcome(position) is None and position.moves < 20:
        col = rng.choice(game.legal_moves(position))
        position = game.play(position, col)
        mirrored = game.play(mirrored, game.width - 1 - col)
    assert game.key(position) == game.key(mirrored)
    assert game.canonical(position) == game.canonical(mirrored)
    assert game.outcome(position) == game.outcome(mirrored)


@given(st.integers(0, 2**32))
def test_non_losing_moves_are_exactly_those_the_opponent_cannot_punish_at_once(seed):
    game = ConnectFour()
    rng = random.Random(seed)
    position = game.initial_state()
    for _ in range(rng.randrange(4, 30)):
        going = [game.play(position, c) for c in game.legal_moves(position)]
        going = [child for child in going if game.outcome(child) is None]
        if not going:
            break
        position = rng.choice(going)
    if any(game.is_winning_move(position, col) for col in game.legal_moves(position)):
        return  # the side to move wins at once; the rule is about the other moves

    def punished(col: int) -> bool:
        child = game.play(position, col)
        return any(game.is_winning_move(child, reply) for reply in game.legal_moves(child))

    assert game.non_losing_moves(position) == [
        col for col in game.legal_moves(position) if not punished(col)]
