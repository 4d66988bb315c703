"""``yipan perft``: counts, the divide lines, the JSON shape, and one-line errors (exit 2)."""

from __future__ import annotations

import json

import pytest

import yipan
from yipan.cli.main import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["perft", *args])
    out, err = capsys.readouterr()
    return status, out, err


def as_json(capsys, *args: str) -> dict:
    status, out, err = run(capsys, *args, "--json")
    assert status == 0, err
    return json.loads(out)


def test_count_time_and_speed(capsys):
    status, out, err = run(capsys, "tictactoe", "--depth", "3")
    assert status == 0, err
    lines = dict(line.split(": ", 1) for line in out.splitlines())
    assert lines["nodes"] == "504"
    assert lines["time"].endswith(" s") and float(lines["time"][:-2]) >= 0
    assert set(lines) == {"nodes", "time", "nodes/s"}


def test_json_shape(capsys):
    data = as_json(capsys, "tictactoe", "b2", "--depth", "2")
    assert set(data) == {"game", "moves", "depth", "nodes", "seconds", "nodes_per_second",
                         "divide"}
    assert data["game"] == "tictactoe" and data["moves"] == ["b2"] and data["depth"] == 2
    assert data["nodes"] == 8 * 7
    assert data["divide"] == {move: 7 for move in
                              ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]}
    assert data["seconds"] >= 0
    assert data["nodes_per_second"] is None or data["nodes_per_second"] >= 0


def test_divide_prints_one_line_per_move_then_the_total(capsys):
    status, out, err = run(capsys, "connect4", "4453", "--depth", "3", "--divide")
    assert status == 0, err
    head, _, tail = out.partition("\n\n")
    per_move = dict(line.split(": ") for line in head.splitlines())
    assert list(per_move) == [str(column) for column in range(1, 8)]
    nodes = int(dict(line.split(": ", 1) for line in tail.splitlines())["nodes"])
    assert nodes == sum(map(int, per_move.values())) == 343


def test_game_options_and_positional_heaps(capsys):
    assert as_json(capsys, "tictactoe", "--size", "4x4", "--k", "3", "--depth", "2")["nodes"] \
        == 16 * 15
    # a 4x4 board: the 4 ways to play one column five times are gone at depth 5
    assert as_json(capsys, "connect4", "--size", "4x4", "--depth", "5")["nodes"] == 4 ** 5 - 4
    data = as_json(capsys, "nim", "3", "4", "5", "1:3", "--depth", "1")
    assert data["moves"] == ["1:3"] and data["nodes"] == 4 + 5
    # heaps 1 and 2, three plies: one token a ply, the lone heap's token on ply 1, 2 or 3
    assert as_json(capsys, "nim", "1", "2", "--rule", "misere", "--depth", "3")["nodes"] == 3


def test_chance_outcomes_are_branches(capsys):
    data = as_json(capsys, "2048", "--depth", "2")
    assert data["nodes"] == 32 * 30 and len(data["divide"]) == 32 and "4@d4" in data["divide"]
    assert as_json(capsys, "2048", "2@a1", "4@b1", "--depth", "1")["divide"] == \
        {"down": 1, "right": 1}


def test_depth_zero_and_a_finished_game(capsys):
    data = as_json(capsys, "tictactoe", "--depth", "0")
    assert data["nodes"] == 1 and data["divide"] == {}
    data = as_json(capsys, "tictactoe", "a1", "a2", "b1", "b2", "c1", "--depth", "3")
    assert data["nodes"] == 0 and data["divide"] == {}


@pytest.mark.parametrize("name", yipan.list_games())
def test_every_registered_game(capsys, name):
    data = as_json(capsys, name, "--depth", "1")
    assert data["game"] == name
    assert data["nodes"] == sum(data["divide"].values()) > 0


@pytest.mark.parametrize("args", [
    ["tictactoe"],  # no depth
    ["tictactoe", "--depth", "-1"],
    ["tictactoe", "--depth", "31"],
    ["tictactoe", "--depth", "two"],
    ["tictactoe", "--depth", "1e9"],
    ["tictactoe", "a1", "a1", "--depth", "1"],
    ["tictactoe", "zz", "--depth", "1"],
    ["tictactoe", "", "--depth", "1"],
    ["tictactoe", "--size", "0x0", "--depth", "1"],
    ["tictactoe", "--depth", "1", "--bogus"],
    ["nim", "3", "-4", "--depth", "1"],
    ["2048", "up", "--depth", "1"],
    ["checkers", "--depth", "1"],
    [],
])
def test_bad_input_is_one_line_and_exit_2(capsys, args):
    status, out, err = run(capsys, *args)
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("yipan: error:")
    assert "Traceback" not in err + out
