"""Files the project writes (books, tables, saved games) are written atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: str | os.PathLike, data: bytes | str) -> None:
    """Write ``data`` so that a reader sees the old file or the whole new one, never a part:
    a temporary file in the same folder, flushed to disk, renamed over ``path``, and the
    folder flushed too (so the rename itself survives a crash)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(handle, 0o644)  # shared data, not a secret (mkstemp gives 0600)
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    sync_folder(path.parent)


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
