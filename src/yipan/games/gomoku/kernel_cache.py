"""Keeps numba's on-disk cache of the engine's kernels consistent with their sources.

Numba caches a kernel together with every kernel it calls (compiled in), but it checks only
the time stamp of the kernel's *own* file: after ``board.py`` changes, a cached kernel of
``search.py`` would go on running the old board code. So the whole cache of this package's
kernels is dropped when any kernel source differs from the digest recorded beside the cache.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

KERNEL_MODULES = ("patterns.py", "board.py", "context.py", "search.py", "threats.py")
HERE = Path(__file__).resolve().parent
CACHE = HERE / "__pycache__"  # numba's default cache folder, beside the sources
STAMP = CACHE / "kernels.digest"


def sources_digest() -> str:
    digest = hashlib.sha256()
    for name in KERNEL_MODULES:
        digest.update((HERE / name).read_bytes())
    return digest.hexdigest()


def drop_stale_cache() -> bool:
    """Delete the cached kernels if their sources changed since they were cached; returns
    whether it did. Quietly does nothing where the folder cannot be written."""
    digest = sources_digest()
    try:
        if STAMP.read_text() == digest:
            return False
    except OSError:
        pass
    try:
        CACHE.mkdir(exist_ok=True)
        for path in CACHE.glob("*.nb[ic]"):
            path.unlink(missing_ok=True)
        temporary = STAMP.with_suffix(f".{os.getpid()}.tmp")
        with open(temporary, "w") as stamp:
            stamp.write(digest)
            stamp.flush()
            os.fsync(stamp.fileno())
        os.replace(temporary, STAMP)
    except OSError:
        return False
    return True
