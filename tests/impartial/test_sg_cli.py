"""``yipan sg`` and ``yipan nim`` through the real command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def yipan(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run([sys.executable, "-m", "yipan", *args], capture_output=True,
                          text=True, env=env, input=stdin, timeout=120)


def json_of(*args: str) -> dict:
    done = yipan(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_values_of_octal_subtraction_and_grundys_game():
    kayles = json_of("sg", "octal", "0.77", "--upto", "11")
    assert kayles == {"values": [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]}
    assert json_of("sg", "subtraction", "1,3,4", "--upto", "7") == {
        "values": [0, 1, 0, 1, 2, 3, 2, 0]}
    assert json_of("sg", "grundy-game", "--upto", "9") == {
        "values": [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]}


def test_values_text():
    done = yipan("sg", "octal", "0.07", "--upto", "12")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "Dawson's Kayles: G(0..12)", " 0: 0 0 1 1 2 0 3 1 1 0", "10: 3 3 2"]


def test_period_json_and_text():
    assert json_of("sg", "period", "0.77") == {"preperiod": 71, "period": 12, "proved": True}
    assert json_of("sg", "period", "--subtraction", "2,5,7") == {
        "preperiod": 0, "period": 22, "proved": True}
    done = yipan("sg", "period", "0.16", "--bound", "600")
    assert done.returncode == 0
    assert "no period proved from the first 600 values" in done.stdout


def test_wythoff():
    answer = json_of("sg", "wythoff", "3", "5")
    assert (answer["value"], answer["p_position"]) == (0, True)
    assert answer["values"][1] == [1, 2, 0, 4, 5, 3]  # G(1, 0..5): mex along row, column, diagonal
    assert len(answer["values"]) == 4
    done = yipan("sg", "wythoff", "2", "2")
    assert done.stdout.startswith("Wythoff's game (2, 2): G = 1, an N-position")


def test_nim_winner_and_moves():
    first = json_of("nim", "3", "4", "5")
    assert (first["to_move"], first["outcome"], first["move"]) == (0, "win", "1:2")
    assert first["extra"]["winning_moves"] == ["1:2"] and first["extra"]["grundy"] == 2
    assert first == json_of("analyze", "nim", "3", "4", "5") | {"seconds": first["seconds"]}
    second = json_of("nim", "1", "2", "3")
    assert second["outcome"] == "loss" and second["extra"]["winning_moves"] == []
    misere = json_of("nim", "1", "1", "2", "--misere")
    assert misere["extra"]["winning_moves"] == ["3:1"] and misere["extra"]["rule"] == "misere"
    assert json_of("nim", "1", "1", "2", "--rule", "misere")["move"] == "3:1"
    done = yipan("nim", "3", "4", "5")
    assert "take 2 from heap 1 (3 -> 1)" in done.stdout


def test_nim_with_no_tokens_left_is_a_finished_game():
    """Misère: the player who took the last token lost, so the side to move has won."""
    over = json_of("nim", "0", "--misere")
    assert over["game_over"] is True and over["winner"] == 0 and over["move"] is None
    done = yipan("nim", "0", "--misere")
    assert "The game is over: first player has won." in done.stdout
    assert "wins with" not in done.stdout


@pytest.mark.parametrize("args", [
    ["sg", "octal", "0.7z"], ["sg", "subtraction", "0,1"], ["nim", "3", "-4"], ["nim", "x"],
    ["sg", "period"], ["sg", "octal", "0.77", "--upto", "-3"], ["sg", "nope"],
    ["play", "nim", "3", "-1"], ["play", "octal", "--code", "9"],
])
def test_bad_input_is_one_line_and_status_2(args):
    done = yipan(*args)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_play_nim_through_the_generic_loop():
    # the AI moves first from 3 4 5 (a won position) and answers every reply: it wins
    replies = "\n".join(["1:1", "2:1", "3:1"] * 12) + "\n"  # some illegal: re-prompted
    done = yipan("play", "nim", "3", "4", "5", "--first", "ai", "--seed", "1", stdin=replies)
    assert done.returncode == 0
    assert "Game over: the AI wins" in done.stdout


def test_play_kayles_starts_with_the_row():
    done = yipan("play", "kayles", "12", stdin="quit\n")
    assert done.returncode == 0
    assert "heap 1:  12" in done.stdout


def test_analyze_answers_by_theory_what_search_could_not():
    from yipan.core import get_game

    answer = json_of("analyze", "kayles", "40")
    game = get_game("kayles", heaps=[40])
    state = game.initial_state()
    assert answer["extra"]["grundy"] == game.rule.value(40) != 0
    assert answer["to_move"] == 0 and answer["outcome"] == "win" and answer["value"] is None
    assert answer["extra"]["winning_moves"] and answer["move"] in answer["extra"]["winning_moves"]
    for text in answer["extra"]["winning_moves"]:
        assert game.grundy_value(game.play(state, game.parse_move(state, text))) == 0


def test_solve_with_search_falls_back_to_the_generic_engine():
    done = yipan("solve", "kayles", "5", "--algorithm", "alphabeta-tt")
    assert done.returncode == 0
    assert "win in" in done.stdout  # the search's words, not theory's
