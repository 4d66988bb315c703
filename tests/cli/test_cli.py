"""The command line as a user meets it: a scripted game, JSON shapes, errors and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[2] / "src")


def yipan(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "yipan", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120)


def test_scripted_game_with_bad_input_ends_without_a_loss_for_the_ai():
    # nonsense, an occupied square, an off-board square, help, undo, then real moves
    script = "\n".join(["hello", "5", "5", "z9", "help", "undo", "1", "9", "3", "7", "4",
                        "6", "2", "8", ""])
    run = yipan("play", "tictactoe", "--seed", "3", stdin=script)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "cannot read 'hello'" in out
    assert "is taken" in out
    assert "off the board" in out
    assert "undo" in out and "quit" in out  # the help text
    assert "Game over: you win" not in out
    assert "Game over" in out or "bye" in out


def test_end_of_input_leaves_cleanly():
    run = yipan("play", "tictactoe", stdin="5\n")
    assert run.returncode == 0
    assert "bye" in run.stdout
    assert "Traceback" not in run.stderr


def test_ai_moves_first_when_asked():
    run = yipan("play", "tictactoe", "--first", "ai", "--seed", "1", stdin="quit\n")
    assert run.returncode == 0
    assert run.stdout.index("AI plays") < run.stdout.index("your move")


def test_solve_json_shape():
    run = yipan("solve", "tictactoe", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["value"] == 0
    assert data["description"] == "draw"
    assert data["exact"] is True
    assert data["nodes"] > 0 and data["seconds"] >= 0
    assert len(data["pv"]) == 9 and all(isinstance(m, str) for m in data["pv"])
    assert data["move"] == data["pv"][0]


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "alphabeta-tt", "iterative"])
def test_solve_algorithms_agree(algorithm):
    run = yipan("solve", "tictactoe", "a1", "b2", "c3", "--algorithm", algorithm, "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["value"] == 0


def test_analyze_lists_every_move_with_its_value():
    run = yipan("analyze", "tictactoe", "a1", "b1", "--json")
    data = json.loads(run.stdout)
    assert len(data["move_values"]) == 7
    best = max(data["move_values"].values())
    assert data["move_values"][data["move"]] == best
    assert best > 0  # X wins after a1 b1 (an edge reply to a corner loses)
    text = yipan("analyze", "tictactoe", "1 2").stdout
    assert "best move:" in text and "win in" in text and "principal variation:" in text


def test_analyze_a_finished_game():
    run = yipan("analyze", "tictactoe", "a1 a2 b1 b2 c1")
    assert run.returncode == 0
    assert "X has won" in run.stdout


def test_solve_with_trace_prints_the_tree():
    run = yipan("solve", "tictactoe", "a1 b1 c1 a2 b2", "--trace", "1")
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert lines[0] == "MAX d0 []"
    assert any(line.startswith("  MIN d1 [") for line in lines)


def test_games_lists_tictactoe():
    run = yipan("games", "--json")
    names = [g["name"] for g in json.loads(run.stdout)["games"]]
    assert "tictactoe" in names


def test_larger_board_options():
    run = yipan("analyze", "tictactoe", "--size", "4x4", "--k", "3", "a1", "--depth", "2",
                "--json")
    assert run.returncode == 0, run.stderr
    assert len(json.loads(run.stdout)["move_values"]) == 15


@pytest.mark.parametrize("args,message", [
    (["play", "checkers"], "unknown game 'checkers'"),
    (["solve", "tictactoe", "a1", "a1"], "move 2 (a1): square a1 is taken"),
    (["analyze", "tictactoe", "q7"], "q7 is off the board"),
    (["analyze", "tictactoe", "x-y"], "cannot read"),
    (["solve", "tictactoe", "--algorithm", "magic"], "invalid choice"),
    (["play", "tictactoe", "--size", "2y2"], "board size"),
    (["play", "tictactoe", "--level", "godlike"], "unknown level"),
    (["frobnicate"], "invalid choice"),
    (["solve"], "name a game"),
    (["solve", "tictactoe", "--algorithm", "mcts", "--time", "-1"], "above 0"),
    (["solve", "tictactoe", "--algorithm", "mcts", "--time", "nan"], "above 0"),
    (["solve", "tictactoe", "--algorithm", "mcts", "--iterations", "-5"], "at least 1"),
    (["solve", "tictactoe", "--algorithm", "mcts", "--trace", "1"], "not MCTS"),
    (["play", "connect4", "--time", "inf"], "above 0"),
    (["sg", "subtraction", "1,1000000000", "--upto", "10"], "at most 100,000"),
    (["analyze", "bash", "10", "--k", "1000000000"], "k <= 100,000"),
    (["sg", "period", "0.6", "--bound", "100000000000"], "1..10000000"),
    (["analyze", "tictactoe", ""], "empty move"),
])
def test_bad_arguments_give_one_line_and_exit_2(args, message):
    run = yipan(*args)
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert message in lines[0]


def test_positional_game_options_are_followed_by_moves():
    run = yipan("analyze", "nim", "3", "4", "5", "1:2", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["moves"] == ["1:2"]
    # heaps 1 4 5 have nim-sum 0: the side to move (the second player) is lost
    assert data["to_move"] == 1 and data["outcome"] == "loss"
    bad = yipan("play", "nim", "3", "-4")
    assert bad.returncode == 2 and "negative" in bad.stderr


def test_a_file_that_is_not_text_is_refused_in_one_line(tmp_path):
    garbage = tmp_path / "garbage.txt"
    garbage.write_bytes(b"hello\n\x00\xff\n")
    run = yipan("solve", "connect4", "--batch", str(garbage))
    assert run.returncode == 2
    assert len(run.stderr.strip().splitlines()) == 1 and "UTF-8" in run.stderr


def test_command_help_lists_the_games():
    run = yipan("play", "--help")
    assert run.returncode == 0
    assert "tictactoe" in run.stdout and "connect4" in run.stdout


def test_solve_with_a_clock_uses_iterative_deepening():
    run = yipan("solve", "tictactoe", "--size", "5x5", "--k", "4", "--algorithm", "iterative",
                "--time", "0.3", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["depth"] >= 1 and data["move"] is not None


@pytest.mark.parametrize("argv", [
    ["analyze", "connect4", "4", "9"],                    # an illegal move
    ["analyze", "pushfold"],                               # a chance draw is next
    ["analyze", "connect4", "--ai", "expectimax"],         # an engine the game has not
    ["solve", "connect4", "--algorithm", "minimax", "--time", "1"],   # no anytime search
    ["solve", "gomoku", "h8", "--algorithm", "mcts", "--trace", "2"],  # no trace of MCTS
    ["analyze", "connect4", "--ai", "net", "--network", "/nonexistent.npz"],  # no such file
    ["play", "connect4", "--ai", "net", "--network", "/nonexistent.npz"],
])
def test_bad_input_is_refused_before_the_engine_is_prepared(argv, monkeypatch, capsys):
    """On a machine where numba has not compiled yet, preparing says so on stderr: bad input
    must be refused before that, in its one line."""
    from yipan.cli import common
    from yipan.cli.main import main

    prepared = []
    monkeypatch.setattr(common, "prepare_for", lambda game, say: prepared.append(game))
    assert main(argv) == 2
    assert prepared == []
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
