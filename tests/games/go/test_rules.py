"""Go's rules on constructed positions: captures, suicide, ko and positional superko, passes,
area scoring with komi, handicap stones, notation."""

from __future__ import annotations

import pytest

import yipan
from yipan.core import DRAW, IllegalMoveError, InvalidMoveError, Outcome, replay
from yipan.games.go.rules import (
    BLACK,
    PASS,
    WHITE,
    Go,
    handicap_points,
    parse_komi,
    star_points,
    zobrist,
)

from .conftest import from_diagram


@pytest.fixture
def go5() -> Go:
    return Go(5, komi=0.5)


def test_a_stone_without_liberties_is_captured_and_counted(go5):
    state = from_diagram(go5, """
        .X...
        XO...
        .X...
        .....
        .....""")
    after = go5.play(state, go5.parse_move(state, "C4"))
    assert not after.white
    assert after.black_prisoners == 1 and after.white_prisoners == 0
    assert go5.render(after).count("O") == 0


def test_a_group_is_captured_whole(go5):
    state = from_diagram(go5, """
        .OOX.
        XXX..
        .....
        .....
        .....""")
    after = go5.play_checked(state, go5.parse_move(state, "A5"))
    assert not after.white and after.black_prisoners == 2


def test_suicide_is_forbidden_but_a_capture_is_not_suicide(go5):
    state = from_diagram(go5, """
        .X...
        X....
        .....
        .....
        .....""", to_move=WHITE)
    corner = go5.parse_move(state, "A5")
    assert not go5.is_legal(state, corner)
    assert corner not in go5.legal_moves(state)
    with pytest.raises(IllegalMoveError, match="suicide"):
        go5.play_checked(state, corner)
    # the same point takes a black stone in atari: legal, and it captures
    state = from_diagram(go5, """
        .XO..
        XO...
        O....
        .....
        .....""", to_move=WHITE)
    assert go5.is_legal(state, corner)
    after = go5.play(state, corner)
    assert after.white_prisoners == 2


def test_multi_stone_suicide_is_forbidden(go5):
    state = from_diagram(go5, """
        O.OX.
        OOOX.
        XXXX.
        .....
        .....""", to_move=WHITE)
    assert not go5.is_legal(state, go5.parse_move(state, "B5"))


KO = """
    .XO..
    XO.O.
    .XO..
    .....
    ....."""


def test_ko_cannot_be_retaken_at_once_but_can_after_a_threat(go5):
    state = from_diagram(go5, KO)
    take = go5.parse_move(state, "C4")
    state = go5.play_checked(state, take)  # black takes the ko
    retake = go5.parse_move(state, "B4")
    assert not go5.is_legal(state, retake)
    with pytest.raises(IllegalMoveError, match="superko"):
        go5.play_checked(state, retake)
    state = go5.play(state, go5.parse_move(state, "E1"))  # a threat elsewhere...
    state = go5.play(state, go5.parse_move(state, "D1"))  # ...answered
    assert go5.is_legal(state, retake)


def test_positional_superko_forbids_any_earlier_board_not_only_the_last(go5):
    state = from_diagram(go5, KO)
    after = go5.play(state, go5.parse_move(state, "C4"))
    # an earlier board (three moves back, say) recorded in the history is forbidden too
    start = go5.position(state.black, state.white, BLACK)
    recorded = start._replace(history=start.history | {after.key} | {12345})
    assert not go5.is_legal(recorded, go5.parse_move(recorded, "C4"))
    assert go5.is_legal(start, go5.parse_move(start, "C4"))


def test_two_passes_end_the_game_scored_by_area_with_komi(go5):
    state = from_diagram(go5, """
        .X.O.
        .X.O.
        .X.O.
        XX.OO
        .X.O.""")
    assert go5.areas(state.black, state.white)[0].bit_count() == 10
    assert go5.score(state) == 10 - 10 - 0.5
    state = go5.play(state, PASS)
    assert go5.outcome(state) is None and state.passes == 1
    state = go5.play(state, PASS)
    assert go5.outcome(state) == Outcome(WHITE)
    assert go5.legal_moves(state) == []
    assert go5.result_text(go5.score(state)) == "W+0.5"
    assert go5.figures(state)["result"] == "W+0.5"


def test_a_move_after_a_pass_resets_the_count_and_integer_komi_can_draw():
    game = Go(5, komi=0)
    state = game.play(game.initial_state(), PASS)
    state = game.play(state, game.parse_move(state, "C3"))
    assert state.passes == 0
    empty = game.initial_state()
    ended = game.play(game.play(empty, PASS), PASS)
    assert game.outcome(ended) == DRAW  # no stones: nobody's area, komi 0


def test_dead_stones_count_as_they_stand_under_tromp_taylor(go5):
    state = from_diagram(go5, """
        .X.O.
        OX.O.
        .X.O.
        XX.OO
        .X.O.""")
    black, white = go5.areas(state.black, state.white)
    assert black.bit_count() == 7  # the white stone on A4 makes A5 and A3 nobody's
    assert white.bit_count() == 11  # and is white's own point
    dead = 1 << go5.grid.bit(1, 0)
    assert go5.score(state, dead) == (10 - 10) - 0.5


def test_handicap_stones_follow_gtp():
    game = Go(19, komi=0.5, handicap=9)
    state = game.initial_state()
    placed = {game.format_move(p) for p in range(361) if state.black >> game.bits[p] & 1}
    assert placed == {"D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"}
    assert game.to_move(state) == WHITE
    two = [Go(19).format_move(Go(19).point(r, c)) for r, c in handicap_points(19, 2)]
    assert two == ["D4", "Q16"]
    three = [Go(9).format_move(Go(9).point(r, c)) for r, c in handicap_points(9, 3)]
    assert three == ["C3", "G7", "C7"]
    with pytest.raises(ValueError):
        handicap_points(9, 10)
    with pytest.raises(ValueError):
        handicap_points(8, 5)


def test_star_points():
    assert sorted(star_points(9)) == [(2, 2), (2, 6), (4, 4), (6, 2), (6, 6)]
    assert len(star_points(19)) == 9 and len(star_points(13)) == 5


def test_notation_skips_i_counts_rows_from_the_bottom_and_reads_pass():
    game = Go(19)
    state = game.initial_state()
    assert game.format_move(game.parse_move(state, "q16")) == "Q16"
    assert game.parse_move(state, "A1") == game.point(18, 0)
    assert game.parse_move(state, "T19") == game.point(0, 18)
    assert game.parse_move(state, " Pass ") == PASS
    for text in ("I5", "U1", "A20", "A0", "pass1", "D 4"):
        with pytest.raises(InvalidMoveError):
            game.parse_move(state, text)
    assert "J" in game.render(state) and "I" not in game.render(state).split("\n")[0]


def test_komi_is_read_strictly():
    assert parse_komi("7.5") == 7.5 and parse_komi("-3") == -3 and parse_komi(".5") == 0.5
    for text in ("nan", "inf", "1e3", "7,5", "", "٣", "1000"):
        with pytest.raises(ValueError):
            parse_komi(text)


def test_registry_presets_and_options():
    assert yipan.get_game("go19").size == 19
    game = yipan.get_game("go", size="13", komi="6.5", handicap="4")
    assert (game.size, game.komi, game.handicap) == (13, 6.5, 4)
    with pytest.raises(yipan.core.GameOptionError):
        yipan.get_game("go", size="21")
    with pytest.raises(yipan.core.GameOptionError):
        yipan.get_game("go", size="9", handicap="12")


def test_zobrist_keys_of_the_board_follow_the_stones():
    game = Go(9)
    states = replay(game, ["E5", "D5", "pass", "C5"])
    black = game.parse_move(None, "E5")
    assert states[1].key == zobrist(*divmod(black, 9), BLACK)
    assert states[3].key == states[2].key
    assert all(game.key_of(s.black, s.white) == s.key for s in states)


def test_the_view_shows_territory_and_the_result_at_the_end(go5):
    state = from_diagram(go5, """
        .X.O.
        .X.O.
        .X.O.
        XX.OO
        .X.O.""")
    view = go5.view(state)
    assert view["kind"] == "go" and view["territory"] is None and view["pass_move"] == "pass"
    assert view["move_at"][0][0] == "A5" and view["move_at"][0][1] is None
    over = go5.play(go5.play(state, PASS), PASS)
    view = go5.view(over)
    assert view["result"] == "W+0.5" and view["pass_move"] is None
    assert view["territory"][0][0] == BLACK and view["territory"][0][4] == WHITE
    assert view["territory"][0][2] is None
