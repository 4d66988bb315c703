"""``yipan analyze gomoku`` and ``yipan play gomoku`` through the command line's main."""

from __future__ import annotations

import io
import json

import pytest

from yipan.cli.main import main
from yipan.core import WIN

# black (to move) has an open three on row 8: g8 or k8 makes an open four
OPEN_THREE_POSITION = ["h8", "a1", "i8", "a3", "j8", "o15"]
# puzzle P027 of the reference data (Gomocup's x,y pairs, y from the top): white to move wins
# by continuous fours
P027 = "9,9 8,7 8,5 7,8 9,6 10,7 7,6 9,7 7,7 8,8 9,5 9,8 6,8 8,6 8,9"


def test_analyze_prints_the_forced_win(capsys):
    status = main(["analyze", "gomoku", *P027.split(), "--nodes", "200000"])
    out = capsys.readouterr().out
    assert status == 0
    assert "white to move" in out
    assert "forced win (VCF)" in out
    best = out.split("best move: ")[1].split()[0]
    # the puzzle's answers 10,8 11,7 12,7, in renju's notation (rows from the bottom)
    assert best in {"k7", "l8", "m8"}


def test_analyze_json(capsys):
    status = main(["analyze", "gomoku", *OPEN_THREE_POSITION, "--json", "--nodes", "200000"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert data["to_move"] == 0 and data["move"] in {"g8", "k8"}
    assert data["extra"]["forced_kind"] in {"VCF", "VCT"}
    assert data["extra"]["forced_line"][0] == data["move"]
    assert data["outcome"] == "win" and data["exact"] is True


def test_analyze_trace_prints_the_tree(capsys):
    status = main(["analyze", "gomoku", "--size", "9", "e5", "e6", "--trace", "1",
                   "--time", "0.2"])
    out = capsys.readouterr().out
    assert status == 0
    assert "MAX d0 []" in out or "MIN d1 [" in out
    assert "plain search to depth 1" in out


def test_bad_input_is_one_line_and_status_2(capsys):
    assert main(["analyze", "gomoku", "h8", "h8"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "taken" in err[0]
    assert main(["analyze", "gomoku", "--size", "6"]) == 2
    assert main(["analyze", "gomoku", "--rule", "pente"]) == 2
    assert main(["analyze", "gomoku", "q99"]) == 2


def test_play_against_the_engine(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("e5\nzz\ne5\nquit\n"))
    status = main(["play", "gomoku", "--size", "9", "--level", "easy", "--time", "0.1",
                   "--seed", "3"])
    out = capsys.readouterr().out
    assert status == 0
    assert "AI plays" in out
    assert "cannot read" in out or "zz" in out
    assert "taken" in out


def test_solve_is_refused_on_a_board_far_from_full(capsys):
    assert main(["solve", "gomoku", "h8"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "analyze" in err[0]


def test_a_forced_line_reports_its_true_length(capsys):
    """An open four is a win in 3 plies (the defender blocks one end, the five comes on the
    other), not in 1; a four that is already there is a win in 1."""
    status = main(["analyze", "gomoku", "h8", "a1", "h9", "a2", "h10", "a3", "--json",
                   "--nodes", "100000"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and data["move"] in {"h7", "h11"}
    assert data["value"] == WIN - 3 and data["description"] == "win in 3"
    status = main(["analyze", "gomoku", "h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4",
                   "--json", "--nodes", "100000"])
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == WIN - 1 and data["description"] == "win in 1"


def test_points_read_as_renju_writes_them_or_as_gomocups_x_y(capsys):
    """h8 a1 (renju: rows from the bottom) and 7,7 0,14 (Gomocup: y from the top) are one
    position; the board drawn numbers its rows from the bottom, a1 at the bottom left."""
    renju = main(["analyze", "gomoku", "--size", "9", "e5", "a1", "--json", "--nodes", "2000"])
    by_renju = json.loads(capsys.readouterr().out)
    gomocup = main(["analyze", "gomoku", "--size", "9", "4,4", "0,8", "--json",
                    "--nodes", "2000"])
    by_gomocup = json.loads(capsys.readouterr().out)
    assert renju == gomocup == 0
    assert by_renju["move"] == by_gomocup["move"] and by_renju["pv"] == by_gomocup["pv"]
    assert main(["analyze", "gomoku", "--size", "9", "e5", "0,8", "--nodes", "2000"]) == 0
    board = capsys.readouterr().out.splitlines()
    assert board[0].split() == list("abcdefghi")
    assert board[1].split()[0] == "9" and board[9].split() == ["1", "O", *"." * 8]
    assert board[5].split()[0] == "5" and board[5].split()[5] == "X"


def test_a_point_off_the_board_or_unreadable_is_one_line_and_status_2(capsys):
    for text, words in [("j1", "off the board"), ("a10", "off the board"),
                        ("9,0", "off the board"), ("0,9", "off the board"),
                        ("7;7", "cannot read"), ("7,", "cannot read"), ("1,2,3", "cannot read")]:
        assert main(["analyze", "gomoku", "--size", "9", text]) == 2, text
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], (text, err)


def test_play_reprompts_after_a_bad_point_and_takes_gomocups_x_y(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("9,9\nj1\n0,8\nhelp\nquit\n"))
    status = main(["play", "gomoku", "--size", "9", "--level", "easy", "--time", "0.1",
                   "--seed", "3"])
    out = capsys.readouterr().out
    assert status == 0
    assert "9,9 is off the board" in out and "j1 is off the board" in out
    assert out.count("try again") == 2
    board = out.split("thinking...")[0].splitlines()  # the board after 0,8 was played
    assert board[-1].split() == ["1", "X", *"." * 8]  # 0,8 is a1, the bottom-left corner
    assert "row counted from the bottom" in out  # the help says how points are written


def test_help_says_how_points_are_written(capsys):
    for command in ("analyze", "play", "explain"):
        with pytest.raises(SystemExit):
            main([command, "gomoku", "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "counted from the bottom" in out and "Gomocup's x,y" in out, command
