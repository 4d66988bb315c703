"""Gomoku's kernels are guarded by ``yipan.native.drop_stale_cache`` (numba alone would not see a
change to a callee in another file; tests/test_native.py checks the guard itself)."""

from __future__ import annotations

from pathlib import Path

from yipan import native
from yipan.games import gomoku


def test_the_package_lists_every_file_with_a_kernel():
    package = Path(gomoku.__file__).parent
    with_kernels = {path.name for path in package.glob("*.py") if "@njit" in path.read_text()}
    assert set(gomoku.KERNEL_MODULES) == with_kernels


def test_the_guard_ran_on_import_with_the_current_sources():
    package = Path(gomoku.__file__).parent  # (the source tree: tests run on src, writable)
    assert native.drop_stale_cache(package, gomoku.KERNEL_MODULES) is False
    stamp = native.cache_dir(package) / native.DIGEST_NAME
    assert stamp.read_text() == native.sources_digest(package, gomoku.KERNEL_MODULES)
