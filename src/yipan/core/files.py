"""The files a user names, written and read safely.

Writing: a file the project writes (a book, a table, a saved game) replaces only a regular
file, or is made new in a folder that exists; it is written atomically (a temporary file in
the same folder, flushed, renamed over the path), so a reader sees the old file or the whole
new one. A symbolic link, a device, a named pipe, a socket or a folder in its place is
refused, never replaced, and no folder is made on the way (``check_output`` says so before
any work starts; ``write_atomically`` checks again when it writes).

Reading: a file is read only when it is a regular file, and at most a size fit for its
format, in bounded chunks (``read_capped``): a device such as ``/dev/zero`` or a named pipe
that never ends is refused in one line, never read forever.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import tempfile
import zipfile
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from .errors import YipanError

CHUNK = 1 << 20  # bytes read at a time: a stream is never read in one unbounded call


class FileRefusedError(YipanError, ValueError):
    """A path the user named cannot be used as asked: a folder, a device, a named pipe, a
    link where a file is to be written, a folder that does not exist, a file too large."""


def _kind(mode: int) -> str | None:
    """What a file that is not a regular one is, in words (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _named(path: str | os.PathLike, label: str | None) -> str:
    """The path as an error shows it (with where it came from), and refused at once when no
    file can have its name."""
    text = os.fspath(path)
    shown = text if len(text) <= 120 else text[:120] + "…"
    if "\0" in text:
        raise FileRefusedError(f"{label or 'the name'} {shown!r}: no file name holds a NUL "
                               "character")
    return f"{label} {shown}" if label else shown


def check_output(path: str | os.PathLike, label: str | None = None) -> Path:
    """``path`` if a file may be written there: a regular file (replaced), or a new name in a
    folder that exists. Anything else is refused with ``FileRefusedError``, in one line
    (``label``, such as ``--output``, names where the path came from)."""
    text = os.fspath(path)
    name = _named(text, label)
    if not text or text.endswith(os.sep) or Path(text).name in ("", ".", ".."):
        raise FileRefusedError(f"{name}: name a file to write, not a folder")
    path = Path(text)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise FileRefusedError(f"{name}: {error.strerror or error}") from None
    if mode is not None:
        kind = _kind(mode)
        if kind is not None:
            raise FileRefusedError(f"{name} is {kind}; a file is written only over a "
                                   "regular file or as a new one")
        return path
    folder = path.parent
    if not folder.is_dir():
        raise FileRefusedError(f"{name}: the folder {_named(folder, None)} does not exist "
                               "(it is not made for you)")
    return path


def check_input(path: str | os.PathLike, label: str | None = None) -> Path:
    """``path`` if it is a regular file that exists (a link to one is followed); anything
    else refused with ``FileRefusedError``, in one line."""
    path = Path(path)
    name = _named(path, label)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise FileRefusedError(f"{name}: no such file") from None
    except OSError as error:
        raise FileRefusedError(f"{name}: {error.strerror or error}") from None
    kind = _kind(mode)
    if kind is not None:
        raise FileRefusedError(f"{name} is {kind}; name a regular file to read")
    return path


def check_output_folder(path: str | os.PathLike, label: str | None = None) -> Path:
    """``path`` if files may be written into it: a folder (a link to one is followed), or a
    new name in a folder that exists (made by the writer, one level only)."""
    path = Path(path)
    name = _named(path, label)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if not path.parent.is_dir():
            raise FileRefusedError(f"{name}: the folder {_named(path.parent, None)} does not "
                                   "exist (it is not made for you)") from None
        return path
    except OSError as error:
        raise FileRefusedError(f"{name}: {error.strerror or error}") from None
    if not stat.S_ISDIR(mode):
        raise FileRefusedError(f"{name} is {_kind(mode) or 'a file'}; name a folder")
    return path


class OutputFile(str):
    """A command-line value naming a file to write, checked when it is read (``check_output``):
    a game's option (``CommandOption(kind=OutputFile)``) refused before any work starts."""

    __slots__ = ()

    def __new__(cls, text: str) -> OutputFile:
        check_output(text)
        return super().__new__(cls, text)


class InputFile(str):
    """A command-line value naming a file to read, checked when it is read (``check_input``)."""

    __slots__ = ()

    def __new__(cls, text: str) -> InputFile:
        check_input(text)
        return super().__new__(cls, text)


def read_capped(path: str | os.PathLike, limit: int, label: str | None = None) -> bytes:
    """The bytes of the regular file ``path``, refused (``FileRefusedError``) when it is not a
    regular file or holds more than ``limit`` bytes. Opened without waiting (a named pipe
    with no writer would block an ordinary open), checked on the open file itself, and read
    in chunks of at most ``CHUNK`` bytes up to the limit."""
    name = _named(path, label)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        raise FileRefusedError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise FileRefusedError(f"{name} is a folder; name a regular file to read") from None
    except OSError as error:
        raise FileRefusedError(f"{name}: {error.strerror or error}") from None
    try:
        kind = _kind(os.fstat(descriptor).st_mode)
        if kind is not None:
            raise FileRefusedError(f"{name} is {kind}; name a regular file to read")
        os.set_blocking(descriptor, True)
    except BaseException:
        os.close(descriptor)
        raise
    with open(descriptor, "rb", buffering=0, closefd=True) as stream:
        return read_stream_capped(stream, limit, name)


def read_stream_capped(stream: BinaryIO, limit: int, name: str = "the input") -> bytes:
    """At most ``limit`` bytes of ``stream`` (standard input, say), in bounded chunks;
    ``FileRefusedError`` when there are more."""
    return _read_capped_stream(stream, limit, name, b"")


def read_text_stream_capped(stream: TextIO, limit: int, name: str = "the input") -> str:
    """At most ``limit`` characters of a text stream (``sys.stdin`` when a test or a caller
    replaced it by one with no bytes beneath), in bounded chunks."""
    return _read_capped_stream(stream, limit, name, "")


def _read_capped_stream(stream: Any, limit: int, name: str, empty: Any) -> Any:
    parts: list[Any] = []
    size = 0
    while size <= limit:
        chunk = stream.read(min(CHUNK, limit + 1 - size))
        if not chunk:
            return empty.join(parts)
        parts.append(chunk)
        size += len(chunk)
    raise FileRefusedError(f"{name} is larger than {describe_size(limit)}, more than this "
                           "kind of file ever holds")


def describe_size(count: int) -> str:
    """A number of bytes in words (``64 MiB``)."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size and count % size == 0:
            return f"{count // size} {unit}"
    return f"{count:,} bytes"


def unpack_npz(data: bytes, limit: int) -> dict[str, Any]:
    """The arrays of an npz archive held in memory, its unpacked size read before any array is
    unpacked (a small file can unpack to gigabytes). Raises ValueError for one too large, and
    OSError, EOFError, zipfile.BadZipFile or KeyError for one that is not an npz archive."""
    import numpy as np  # here: listing games and checking files need no numpy

    with zipfile.ZipFile(io.BytesIO(data)) as packed:
        unpacked = sum(member.file_size for member in packed.infolist())
    if unpacked > limit:
        raise ValueError(f"its arrays would take {unpacked:,} bytes unpacked, more than "
                         f"{describe_size(limit)}")
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        return {key: archive[key] for key in archive.files}


def write_atomically(path: str | os.PathLike, data: bytes | str) -> None:
    """Write ``data`` so that a reader sees the old file or the whole new one, never a part:
    a temporary file in the same folder, flushed to disk, renamed over ``path``, and the
    folder flushed too (so the rename itself survives a crash). Only a regular file is
    replaced, and the folder must exist (``check_output``); an error names ``path``, never
    the temporary file."""
    path = check_output(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                             suffix=".tmp")
    except OSError as error:
        raise _about(error, path) from None
    try:
        os.fchmod(handle, 0o644)  # shared data, not a secret (mkstemp gives 0600)
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        check_output(path)  # still a regular file or none: what was there is not replaced
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise _about(error, path) from None
        raise
    sync_folder(path.parent)


def _about(error: OSError, path: Path) -> OSError:
    """The same failure, naming the file the user asked for (not a temporary one)."""
    code = error.errno if error.errno is not None else errno.EIO
    return OSError(code, error.strerror or os.strerror(code), os.fspath(path))


def sync_folder(folder: str | os.PathLike) -> None:
    """Flush a folder's entries (a rename or a new file in it) to disk, where the system
    allows it."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass  # some file systems refuse to sync a folder; the file itself was synced
    finally:
        os.close(descriptor)
