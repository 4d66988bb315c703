"""``yipan solve|analyze|play|book connect4`` on the command line: outputs and exit codes."""

from __future__ import annotations

import io
import json

import pytest

from yipan.cli.main import main
from yipan.core import WIN
from yipan.games.connect4.book import read_book

EASY = "2252576253462244111563365343671351441"  # Test_L3_R1, score -1


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_prints_value_score_nodes_and_time(capsys):
    status, out, _ = run(capsys, "solve", "connect4", EASY)
    lines = out.splitlines()
    assert status == 0
    # 37 stones played, score -1: the opponent makes its four with its 21st stone, on ply 41
    assert lines[0] == f"value: {-(WIN - 4)} (loss in 4 for the side to move)"
    assert "benchmark score: -1" in lines
    assert any(line.startswith("nodes: ") for line in lines)


def test_solve_weak_json(capsys):
    status, out, _ = run(capsys, "solve", "connect4", EASY, "--weak", "--json")
    record = json.loads(out)
    assert status == 0 and record["outcome"] == "loss" and record["value"] is None
    assert record["extra"]["benchmark_score"] == -1 and record["extra"]["weak"] is True


@pytest.mark.parametrize(("moves", "needle"), [
    ("4444444", "move 7 (4): column 4 is full"),
    ("4448", "move 4 (8): column 8 is not on the board (1-7)"),
    ("45454545", "move 8 (5): the game is over"),
])
def test_illegal_sequences_exit_2_with_one_line_naming_the_move(capsys, moves, needle):
    status, out, err = run(capsys, "solve", "connect4", moves)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and needle in err


def test_a_won_position_is_reported_as_over(capsys):
    status, out, _ = run(capsys, "solve", "connect4", "4545454", "--json")
    record = json.loads(out)
    assert status == 0 and record["game_over"] is True and record["winner"] == 0
    assert record["move"] is None and record["outcome"] == "loss"  # for the side to move


def test_batch_prints_each_line_and_the_summary(capsys, monkeypatch):
    lines = f"{EASY} -1\n\n271713432331713132 -11\n6672375354252731116762237724 5\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    status, out, _ = run(capsys, "solve", "connect4", "--batch", "-")
    rows = out.splitlines()
    assert rows[0].split()[:2] == [EASY, "-1"]
    assert rows[1].split()[:2] == ["271713432331713132", "-11"]
    assert rows[2].endswith("MISMATCH")  # the true score is -2
    assert rows[3].startswith("positions: 3") and rows[3].endswith("mismatches: 1")
    assert status == 1


def test_batch_json_is_one_object_a_line_and_a_summary(capsys, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text(f"{EASY} -1\n271713432331713132\n")
    status, out, _ = run(capsys, "solve", "connect4", "--batch", str(path), "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 0
    assert [(r["moves"], r["score"]) for r in records[:2]] == [(EASY, -1),
                                                            ("271713432331713132", -11)]
    assert set(records[0]) >= {"moves", "score", "nodes", "seconds"}
    assert records[2]["summary"]["positions"] == 2
    assert records[2]["summary"]["mismatches"] == 0


def test_batch_names_the_bad_line(capsys, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text(f"{EASY} -1\n4444444 0\n")
    status, out, err = run(capsys, "solve", "connect4", "--batch", str(path))
    assert status == 2 and "line 2: move 7 (4): column 4 is full" in err


def test_analyze_scores_every_column(capsys):
    status, out, _ = run(capsys, "analyze", "connect4", EASY, "--json")
    record = json.loads(out)
    scores = record["extra"]["benchmark_scores"]
    assert status == 0
    assert record["extra"]["benchmark_score"] == -1 and scores[record["move"]] == -1
    assert all(score <= -1 for score in scores.values())
    assert set(record["move_values"]) == set(scores)
    assert record["move_values"][record["move"]] == record["value"] == -(WIN - 4)
    assert all(outcome == "loss" for outcome in record["move_outcomes"].values())
    assert record["pv"][0] == record["move"] and record["exact"] is True


def test_analyze_text(capsys):
    status, out, _ = run(capsys, "analyze", "connect4", "121212")
    assert status == 0
    assert "  1  win in 1  (score +18)" in out
    assert "best move: 1 (win in 1)" in out


def test_book_build_writes_a_verified_book(capsys, tmp_path):
    path = tmp_path / "c4.book"
    status, out, _ = run(capsys, "book", "build", "connect4", "--size", "5x4", "--depth", "2",
                         "--output", str(path), "--workers", "1")
    assert status == 0 and "positions up to ply 2" in out
    book = read_book(path)
    assert (book.width, book.height, book.depth) == (5, 4, 2)


def test_book_build_for_another_game_uses_the_generic_builder(capsys, tmp_path):
    path = tmp_path / "ttt.book"
    status, out, _ = run(capsys, "book", "build", "tictactoe", "--depth", "2",
                         "--output", str(path))
    assert status == 0 and path.read_text().startswith("yipan-book 3")


def test_book_build_rejects_a_negative_depth(capsys):
    status, _, err = run(capsys, "book", "build", "connect4", "--depth", "-1")
    assert status == 2 and "--depth" in err
