"""Files the user names: a write replaces only a regular file (or makes a new one in a folder
that exists); a read takes only a regular file, and never more than its cap."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core.files import (
    CHUNK,
    FileRefusedError,
    check_input,
    check_output,
    read_capped,
    read_stream_capped,
    write_atomically,
)


def special_files(folder: Path) -> dict[str, Path]:
    """One of each kind of path a write must not replace, all inside ``folder``."""
    (folder / "target").write_text("kept")
    made = {"fifo": folder / "fifo", "folder": folder / "folder",
            "link to a file": folder / "link", "link to a device": folder / "null",
            "dangling link": folder / "dangling"}
    os.mkfifo(made["fifo"])
    made["folder"].mkdir()
    made["link to a file"].symlink_to(folder / "target")
    made["link to a device"].symlink_to("/dev/null")  # only looked at, never written
    made["dangling link"].symlink_to(folder / "nowhere")
    return made


def what_it_is(path: Path) -> tuple[int, str | None]:
    """A path's kind and, for a link, where it points: what a refused write must leave."""
    mode = os.lstat(path).st_mode
    return stat.S_IFMT(mode), os.readlink(path) if stat.S_ISLNK(mode) else None


def test_a_write_replaces_a_regular_file_and_makes_a_new_one(tmp_path):
    old = tmp_path / "old.txt"
    old.write_text("before")
    write_atomically(old, "after")
    write_atomically(tmp_path / "new.txt", b"made")
    assert old.read_text() == "after" and (tmp_path / "new.txt").read_bytes() == b"made"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.txt", "old.txt"]


def test_a_write_over_anything_but_a_regular_file_is_refused_and_leaves_it(tmp_path):
    for kind, path in special_files(tmp_path).items():
        before = what_it_is(path)
        with pytest.raises(FileRefusedError) as refused:
            check_output(path, "--output")
        with pytest.raises(FileRefusedError):
            write_atomically(path, "data")
        assert what_it_is(path) == before, kind
        assert str(path) in str(refused.value) and "\n" not in str(refused.value)
    assert (tmp_path / "target").read_text() == "kept"
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_write_makes_no_folder(tmp_path):
    with pytest.raises(FileRefusedError, match="does not exist"):
        write_atomically(tmp_path / "a" / "b" / "file", "data")
    with pytest.raises(FileRefusedError, match="not a folder"):
        check_output(f"{tmp_path}/new/")
    assert list(tmp_path.iterdir()) == []


def test_a_write_that_fails_names_the_file_not_a_temporary_one(tmp_path, monkeypatch):
    def full(*_args: object) -> None:
        raise OSError(28, "No space left on device", str(tmp_path / ".x.123.tmp"))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as failed:
        write_atomically(tmp_path / "book", "data")
    assert failed.value.filename == str(tmp_path / "book")
    assert not list(tmp_path.iterdir())


def test_a_name_no_file_can_have_is_refused_in_words():
    for check in (check_output, check_input, lambda path: read_capped(path, 10)):
        with pytest.raises(FileRefusedError, match="NUL character"):
            check("a\0b")


def test_a_read_takes_only_a_regular_file(tmp_path):
    made = special_files(tmp_path)
    (tmp_path / "zero").symlink_to("/dev/zero")  # an endless device, only as an input
    for kind in ("fifo", "folder", "link to a device", "dangling link"):
        with pytest.raises(FileRefusedError):
            check_input(made[kind])
        with pytest.raises(FileRefusedError):  # a fifo with no writer: refused, not waited on
            read_capped(made[kind], 1 << 20, "--network")
    with pytest.raises(FileRefusedError, match="is a device"):
        read_capped(tmp_path / "zero", 1 << 30)
    assert read_capped(made["link to a file"], 10) == b"kept"
    assert check_input(made["link to a file"]) == made["link to a file"]


@settings(max_examples=30, deadline=None)
@given(size=st.integers(0, 3 * CHUNK // 2), cap=st.integers(0, 3 * CHUNK // 2))
def test_a_read_returns_the_whole_file_up_to_its_cap(tmp_path_factory, size, cap):
    path = tmp_path_factory.mktemp("read") / "data"
    path.write_bytes(bytes(range(256)) * (size // 256) + bytes(size % 256))
    if size <= cap:
        assert read_capped(path, cap) == path.read_bytes()
    else:
        with pytest.raises(FileRefusedError, match="larger than"):
            read_capped(path, cap)


class Endless(io.RawIOBase):
    """A stream that never ends (standard input fed by /dev/zero), counting what was asked."""

    def __init__(self) -> None:
        self.largest_read = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        self.largest_read = max(self.largest_read, len(buffer))
        buffer[:] = bytes(len(buffer))
        return len(buffer)


def test_an_endless_stream_is_read_in_chunks_up_to_its_cap():
    stream = Endless()
    with pytest.raises(FileRefusedError, match="larger than 3 MiB"):
        read_stream_capped(stream, 3 << 20, "standard input")  # type: ignore[arg-type]
    assert stream.largest_read <= CHUNK
