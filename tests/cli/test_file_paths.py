"""Files named on the command line: every command that writes refuses, before any work, a
path that is not a regular file or a new one in a folder that exists, and leaves it as it
was; every reader refuses a folder, a named pipe or a device in one line, and never reads an
endless input forever; a damaged record or a book of another variant says what is wrong."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import yipan
from yipan.books import CorruptBookError, build_book, load_book
from yipan.cli.main import main

SRC = str(Path(__file__).resolve().parents[2] / "src")
HANG_GUARD = 120  # seconds: only a hang reaches it (each command answers at once)


def run(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_apart(*argv: str, stdin: object = subprocess.DEVNULL) -> subprocess.CompletedProcess:
    """The command in a process of its own: a reader that hangs fails the test, not the run."""
    return subprocess.run([sys.executable, "-m", "yipan", *argv], stdin=stdin,
                          capture_output=True, text=True, timeout=HANG_GUARD,
                          env={**os.environ, "PYTHONPATH": SRC})


def refused_in_one_line(status: int, err: str) -> bool:
    return status == 2 and err.count("\n") == 1 and "Traceback" not in err \
        and ".tmp" not in err


def outputs(folder: Path) -> dict[str, Path]:
    """Paths a command must not write over, in a temporary folder: a named pipe (where a
    device would be), a link to a device, a link to a file, a folder, a missing folder."""
    (folder / "target").write_text("kept")
    os.mkfifo(folder / "fifo")
    (folder / "null").symlink_to("/dev/null")
    (folder / "link").symlink_to(folder / "target")
    (folder / "folder").mkdir()
    return {"fifo": folder / "fifo", "link to a device": folder / "null",
            "link to a file": folder / "link", "folder": folder / "folder",
            "missing folder": folder / "missing" / "deeper" / "file"}


def shape(path: Path) -> tuple[int, str | None] | None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    return stat.S_IFMT(mode), os.readlink(path) if stat.S_ISLNK(mode) else None


WRITERS = {
    "book": ["book", "build", "tictactoe", "--depth", "1", "--output"],
    "strategy": ["solve", "kuhn", "--iterations", "5", "--save"],
    "network": ["train", "tictactoe", "--from-solver", "5", "--epochs", "1", "--output"],
    "sgf": ["play", "go", "--size", "9", "--save"],
}


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_write_is_refused_before_any_work_and_leaves_the_path_as_it_was(
        capsys, tmp_path, command):
    for kind, path in outputs(tmp_path).items():
        before = shape(path)
        status, out, err = run(capsys, *WRITERS[command], str(path))
        assert refused_in_one_line(status, err), (kind, err)
        assert str(path) in err and out == "", (kind, out)  # nothing done, nothing said
        assert shape(path) == before, kind
    assert not (tmp_path / "missing").exists()
    assert (tmp_path / "target").read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "folder", "link", "null",
                                                          "target"]


def test_a_table_folder_is_refused_when_its_parent_is_missing(capsys, tmp_path):
    status, _, err = run(capsys, "tablebase", "build", "chess", "KQK", "--output",
                         str(tmp_path / "a" / "b"))
    assert refused_in_one_line(status, err) and "does not exist" in err
    assert list(tmp_path.iterdir()) == []


def endless_inputs(folder: Path) -> dict[str, Path]:
    os.mkfifo(folder / "fifo")  # no writer: an ordinary open would wait for ever
    (folder / "zero").symlink_to("/dev/zero")
    (folder / "folder").mkdir()
    return {"fifo": folder / "fifo", "device": folder / "zero", "folder": folder / "folder"}


READERS = {
    "network": ["analyze", "connect4", "--ai", "net", "--network"],
    "sgf": ["analyze", "go", "--nodes", "10", "--sgf"],
    "batch": ["solve", "tictactoe", "--batch"],
    "start": ["train", "tictactoe", "--from-solver", "5", "--output", "out.npz", "--start"],
}


@pytest.mark.parametrize("command", sorted(READERS))
def test_an_endless_or_special_input_is_refused_in_one_line(tmp_path, command):
    for kind, path in endless_inputs(tmp_path).items():
        done = run_apart(*READERS[command], str(path))
        assert refused_in_one_line(done.returncode, done.stderr), (kind, done.stderr)
        assert str(path) in done.stderr


def test_an_endless_batch_on_standard_input_is_refused(tmp_path):
    (tmp_path / "zero").symlink_to("/dev/zero")
    with open(tmp_path / "zero", "rb") as endless:
        done = run_apart("solve", "tictactoe", "--batch", "-", stdin=endless)
    assert refused_in_one_line(done.returncode, done.stderr)
    assert "larger than" in done.stderr


@pytest.mark.parametrize(("record", "words"), [
    ("(;GM[1]SZ[9];B[zz])", "move 1, B[zz], is not a point of the 9x9 board"),
    ("(;GM[1]SZ[9]AB[zz];B[aa])", "the setup AB[zz]"),
    ("(;GM[1]SZ[9]KM[lots];B[aa])", "the komi KM[lots] is not a number"),
    ("(;GM[1]SZ[9];B[a])", "move 1, B[a]"),
])
def test_a_damaged_record_says_what_is_wrong(capsys, tmp_path, record, words):
    path = tmp_path / "game.sgf"
    path.write_text(record)
    status, _, err = run(capsys, "analyze", "go", "--sgf", str(path), "--nodes", "10")
    assert refused_in_one_line(status, err) and words in err, err


def test_a_book_built_with_other_options_is_refused_naming_both(capsys, tmp_path):
    path = tmp_path / "4x4.book"
    status, _, err = run(capsys, "book", "build", "tictactoe", "--size", "4x4", "--k", "3",
                         "--depth", "1", "--output", str(path))
    assert status == 0, err
    three = yipan.get_game("tictactoe")
    with pytest.raises(CorruptBookError, match=r"a book for 4,4,3-game, not for Tic-tac-toe"):
        load_book(path, three)
    assert len(load_book(path, yipan.get_game("tictactoe", size="4x4", k=3))) == 1 + 3
    build_book(three, tmp_path / "3x3.book", max_ply=1)
    with pytest.raises(CorruptBookError, match="not for 4,4,3-game"):
        load_book(tmp_path / "3x3.book", yipan.get_game("tictactoe", size="4x4", k=3))
