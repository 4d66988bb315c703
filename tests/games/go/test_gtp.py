"""GTP: each command's answer, errors answered with ``?``, garbage that never stops the engine
(a fuzz test), and a whole game played through the script as a subprocess."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.games.go.sgf import read_sgf
from yipan.protocols.gtp import COMMANDS, GtpEngine, clean

SRC = Path(__file__).resolve().parents[3] / "src"


@pytest.fixture
def gtp() -> GtpEngine:
    return GtpEngine(playouts=300, rng=random.Random(1))


def ok(engine: GtpEngine, line: str) -> str:
    answer = engine.handle(line)
    assert answer.startswith("=") and answer.endswith("\n\n"), (line, answer)
    return answer[1:].strip()


def refused(engine: GtpEngine, line: str) -> str:
    answer = engine.handle(line)
    assert answer.startswith("?") and answer.endswith("\n\n"), (line, answer)
    return answer[1:].strip()


def test_administrative_commands(gtp):
    assert ok(gtp, "protocol_version") == "2"
    assert ok(gtp, "name") == "yipan"
    assert gtp.handle("7 version").startswith("=7 ")
    assert ok(gtp, "known_command genmove") == "true"
    assert ok(gtp, "known_command frobnicate") == "false"
    assert set(ok(gtp, "list_commands").split()) == set(COMMANDS)
    assert refused(gtp, "frobnicate") == "unknown command"
    assert gtp.handle("12 frobnicate").startswith("?12 ")


def test_setup_play_undo_and_errors(gtp):
    assert refused(gtp, "boardsize 4").startswith("unacceptable size")
    assert refused(gtp, "boardsize nine").startswith("syntax error")
    ok(gtp, "boardsize 7")
    ok(gtp, "komi 0.5")
    assert refused(gtp, "komi lots").startswith("syntax error")
    assert ok(gtp, "fixed_handicap 2") == "C3 E5"
    assert refused(gtp, "fixed_handicap 2") == "board not empty"
    ok(gtp, "clear_board")
    assert refused(gtp, "fixed_handicap 9") == "invalid number of stones"
    ok(gtp, "play black D4")
    assert refused(gtp, "play white D4").startswith("illegal move")
    assert refused(gtp, "play purple D5").startswith("syntax error")
    assert refused(gtp, "play b Z99").startswith("syntax error")
    ok(gtp, "play b C4")  # the same colour twice: GTP allows it
    ok(gtp, "undo")
    ok(gtp, "undo")
    assert refused(gtp, "undo") == "cannot undo"
    assert "A B C D E F G" in ok(gtp, "showboard")


def test_free_handicap(gtp):
    ok(gtp, "boardsize 9")
    placed = ok(gtp, "place_free_handicap 3").split()
    assert len(set(placed)) == 3
    ok(gtp, "clear_board")
    assert refused(gtp, "set_free_handicap A1") == "bad vertex list"
    assert refused(gtp, "set_free_handicap A1 A1") == "bad vertex list"
    assert refused(gtp, "set_free_handicap A1 pass") == "bad vertex list"
    ok(gtp, "set_free_handicap A1 J9 E5")
    assert gtp.state.to_move == 1
    assert refused(gtp, "set_free_handicap C3 D4") == "board not empty"


def test_genmove_plays_a_legal_move_and_time_commands_are_read(gtp):
    ok(gtp, "boardsize 5")
    ok(gtp, "time_settings 60 5 10")
    ok(gtp, "time_left black 30 0")
    ok(gtp, "kgs-time_settings byoyomi 10 5 3")
    assert refused(gtp, "time_settings 1 2").startswith("syntax error")
    assert refused(gtp, "time_left b lots 0").startswith("syntax error")
    assert refused(gtp, "kgs-time_settings sudden").startswith("syntax error")
    gtp.playouts = 300
    gtp.clocks[0].set_none()
    move = ok(gtp, "genmove b")
    assert move.lower() == "pass" or gtp.game.parse_move(None, move) is not None
    assert len(gtp.moves) == 1
    ok(gtp, "reg_genmove w")  # a move, not played
    assert len(gtp.moves) == 1
    ok(gtp, "kgs-genmove_cleanup w")
    assert len(gtp.moves) == 2


def test_cleanup_captures_dead_stones_instead_of_passing():
    gtp = GtpEngine(playouts=600, rng=random.Random(5))
    ok(gtp, "boardsize 5")
    ok(gtp, "komi 0.5")
    for move in ("b B5", "w D5", "b B4", "w D4", "b B3", "w D3", "b B2", "w D2", "b B1",
                 "w D1", "b E3", "w pass"):  # a dead black stone in white's area
        ok(gtp, f"play {move}")
    ok(gtp, "play b pass")
    for _ in range(8):  # white takes the dead stone (filling the dame too) before it passes
        if not gtp.state.black >> gtp.game.grid.bit(2, 4) & 1:
            break
        assert ok(gtp, "kgs-genmove_cleanup w") != "pass"
        ok(gtp, "play b pass")
    assert not gtp.state.black >> gtp.game.grid.bit(2, 4) & 1


def test_final_score_and_status_of_a_settled_position(gtp):
    ok(gtp, "boardsize 5")
    ok(gtp, "komi 0.5")
    for move in ("b B5", "w D5", "b B4", "w D4", "b B3", "w D3", "b B2", "w D2", "b B1",
                 "w D1", "b E3"):  # a black stone lost in white's area
        ok(gtp, f"play {move}")
    assert ok(gtp, "final_status_list dead") == "E3"
    assert "B5" in ok(gtp, "final_status_list alive").split()
    assert ok(gtp, "final_status_list seki") == ""
    assert ok(gtp, "final_score") == "W+0.5"  # 10 - 10 - 0.5 once E3 is removed
    assert refused(gtp, "final_status_list undead").startswith("syntax error")


def test_sgf_in_and_out(gtp, tmp_path):
    ok(gtp, "boardsize 9")
    for move in ("b E5", "w C3", "b pass"):
        ok(gtp, f"play {move}")
    path = tmp_path / "game.sgf"
    ok(gtp, f"printsgf {path}")
    record = read_sgf(path.read_bytes())
    assert [record.game.format_move(m) for m in record.moves] == ["E5", "C3", "pass"]
    assert "SZ[9]" in ok(gtp, "printsgf")
    other = GtpEngine(playouts=100)
    assert ok(other, f"loadsgf {path}") == "white"
    assert len(other.moves) == 3
    assert ok(other, f"loadsgf {path} 2") == "white"  # the position before move 2
    assert [other.game.format_move(m) for m in other.moves] == ["E5"]
    assert refused(other, f"loadsgf {tmp_path / 'missing.sgf'}") == "cannot load file"
    (tmp_path / "bad.sgf").write_bytes(b"(;GM[1]SZ[99])")
    assert refused(other, f"loadsgf {tmp_path / 'bad.sgf'}").startswith("cannot load file")


def test_special_files_are_refused_by_loadsgf_and_printsgf(gtp, tmp_path):
    os.mkfifo(tmp_path / "fifo")  # no writer: an ordinary open would wait for ever
    (tmp_path / "zero").symlink_to("/dev/zero")  # endless, only ever read
    (tmp_path / "folder").mkdir()
    (tmp_path / "kept.sgf").write_text("kept")
    (tmp_path / "link").symlink_to(tmp_path / "kept.sgf")  # a link to a file: not replaced
    for name in ("fifo", "zero", "folder"):
        assert refused(gtp, f"loadsgf {tmp_path / name}").startswith("cannot load file")
    for name in ("fifo", "zero", "folder", "link"):
        assert refused(gtp, f"printsgf {tmp_path / name}").startswith("cannot write file")
    assert os.readlink(tmp_path / "zero") == "/dev/zero"
    assert os.readlink(tmp_path / "link") == str(tmp_path / "kept.sgf")
    assert (tmp_path / "fifo").is_fifo() and (tmp_path / "folder").is_dir()
    assert (tmp_path / "kept.sgf").read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "folder", "kept.sgf", "link",
                                                          "zero"]


def test_lines_are_cleaned_as_gtp_asks():
    assert clean("genmove\tb # a comment\x01\r") == "genmove b"
    assert clean("  # only a comment") == ""
    engine = GtpEngine(playouts=50)
    assert engine.handle("") == "" and engine.handle("# note") == ""
    assert engine.handle("name\x00").startswith("= yipan")


COMMAND_WORDS = st.sampled_from(sorted(COMMANDS) + ["play", "genmove", "boardsize", "??"])
WORD = st.one_of(st.text(max_size=12), st.sampled_from(["b", "w", "A1", "T19", "pass", "9",
                                                        "-1", "99999999999999999999", "0.5",
                                                        "nan", "inf", "resign"]))


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(st.one_of(st.text(max_size=40),
                                st.tuples(COMMAND_WORDS, st.lists(WORD, max_size=4)).map(
                                    lambda t: " ".join([t[0], *t[1]]))),
                      max_size=8))
def test_garbage_never_stops_the_engine(lines):
    engine = GtpEngine(playouts=16, rng=random.Random(0))
    for line in lines:
        if clean(line).split()[:1] in (["loadsgf"], ["printsgf"]):
            continue  # they read and write files: covered above
        answer = engine.handle(line)
        assert answer == "" or (answer[0] in "=?" and answer.endswith("\n\n"))
        assert "internal error" not in answer, (line, answer)
        assert len(answer) < 5000
    assert engine.handle("name").startswith("= yipan")


def test_a_whole_game_through_the_script():
    """Two passes end a game the script plays with itself; then final_score and quit."""
    env = dict(os.environ, PYTHONPATH=str(SRC))
    process = subprocess.Popen(
        [sys.executable, "-m", "yipan.protocols.gtp", "--playouts", "200", "--seed", "3"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env)
    assert process.stdin and process.stdout

    def send(command: str) -> str:
        process.stdin.write(command + "\n")
        process.stdin.flush()
        lines = []
        while True:
            line = process.stdout.readline()
            assert line, f"the engine closed its output after {command!r}"
            if not line.strip():
                break
            lines.append(line.rstrip("\n"))
        answer = "\n".join(lines)
        assert answer.startswith("="), (command, answer)
        return answer[1:].strip()

    try:
        send("boardsize 5")
        send("komi 0.5")
        send("clear_board")
        colour, passes, moves = "b", 0, 0
        while passes < 2 and moves < 120:
            move = send(f"genmove {colour}").lower()
            if move == "resign":
                break
            passes = passes + 1 if move == "pass" else 0
            colour = "w" if colour == "b" else "b"
            moves += 1
        assert moves < 120
        score = send("final_score")
        assert score == "0" or score[:2] in ("B+", "W+")
        assert send("printsgf").startswith("(;FF[4]")
        send("quit")
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
        process.wait()
