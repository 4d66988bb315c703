"""The kernels' cache is dropped when a kernel source changes (numba alone would not see it)."""

from __future__ import annotations

from yipan.games.gomoku import kernel_cache


def test_a_changed_source_drops_the_cache(tmp_path, monkeypatch):
    for name in kernel_cache.KERNEL_MODULES:
        (tmp_path / name).write_text(f"# {name}\n")
    cache = tmp_path / "__pycache__"
    monkeypatch.setattr(kernel_cache, "HERE", tmp_path)
    monkeypatch.setattr(kernel_cache, "CACHE", cache)
    monkeypatch.setattr(kernel_cache, "STAMP", cache / "kernels.digest")
    assert kernel_cache.drop_stale_cache() is True  # no stamp yet
    (cache / "search.negamax-1.py311.nbi").write_text("index")
    (cache / "search.negamax-1.py311.1.nbc").write_text("code")
    (cache / "other.pyc").write_text("bytecode")
    assert kernel_cache.drop_stale_cache() is False  # unchanged sources: the cache stays
    assert len(list(cache.glob("*.nb[ic]"))) == 2
    (tmp_path / "board.py").write_text("# board.py, edited\n")
    assert kernel_cache.drop_stale_cache() is True
    assert list(cache.glob("*.nb[ic]")) == [] and (cache / "other.pyc").exists()
