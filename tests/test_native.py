"""The numba toolkit: the generator against a pure-Python reference of its recurrence, the
bounded insertion sort against ``sorted``, and the kernel-cache guard (digests, and numba's own
cache in a real package of two files)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import yipan
from yipan import native

MASK64 = (1 << 64) - 1


def reference_stream(state: int, count: int) -> list[tuple[int, int]]:
    """(state, draw) after each of ``count`` steps: the recurrence of ``yipan.native``'s
    docstring in plain Python integers."""
    out = []
    for _ in range(count):
        state ^= state >> 12
        state ^= (state << 25) & MASK64
        state ^= state >> 27
        out.append((state, ((state * 0x2545F4914F6CDD1D) & MASK64) >> 32))
    return out


# -- random numbers ------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.integers(1, MASK64))
def test_the_generator_follows_the_documented_recurrence(seed):
    state = np.uint64(seed)
    for expected_state, expected_draw in reference_stream(seed, 5):
        state, draw = native.next_random(np.uint64(state))
        assert (int(state), int(draw)) == (expected_state, expected_draw)
        assert 0 <= int(draw) < 2**32


def test_the_first_draws_from_state_one():
    """The stream's first values written down, as test vectors: a change to the generator (or
    to the reference above) shows here."""
    state, draws = np.uint64(1), []
    for _ in range(3):
        state, draw = native.next_random(np.uint64(state))
        draws.append(int(draw))
    assert draws == [1206177355, 2882512552, 3117485455]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, MASK64), st.integers(1, 2**32))
def test_random_below_scales_one_draw(seed, n):
    state, index = native.random_below(np.uint64(seed), n)
    expected_state, draw = reference_stream(seed, 1)[0]
    assert (int(state), index) == (expected_state, (draw * n) >> 32)
    assert 0 <= index < n


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 2**63 - 1), st.integers(1, 50))
def test_a_python_int_seed_counts_by_its_bits(seed, n):
    """Numba types a Python int below 2**63 as int64 (a kernel hands its state back as a
    Python int): the stream is the same as from the uint64."""
    assert native.next_random(seed) == native.next_random(np.uint64(seed))
    assert native.random_below(seed, n) == native.random_below(np.uint64(seed), n)


def test_random_below_spreads_evenly():
    """70000 draws among 7: every share within 5 standard errors of 1/7."""
    state = native.seed_from(random.Random(3))
    counts = [0] * 7
    for _ in range(70_000):
        state, index = native.random_below(np.uint64(state), 7)
        counts[index] += 1
    error = (1 / 7 * 6 / 7 / 70_000) ** 0.5
    assert all(abs(c / 70_000 - 1 / 7) < 5 * error for c in counts)


def test_a_seed_comes_from_the_injected_generator_and_is_never_zero():
    first, second = (native.seed_from(random.Random(9)) for _ in range(2))
    assert first == second and first.dtype == np.uint64
    assert all(int(native.seed_from(random.Random(s))) & 1 for s in range(50))


# -- sorting -------------------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 1 << 40) | st.integers(0, 3), max_size=40), st.integers(0, 45))
def test_insert_key_keeps_the_best_keys_with_their_items_in_a_stable_order(scores, capacity):
    """Items 0, 1, 2, ... arrive with their scores, packed as ``score * 64 + 63 - item``:
    the kept keys unpack to the first ``capacity`` items of a stable sort by decreasing
    score."""
    stored = np.zeros(capacity, np.int64)
    count = 0
    for item, score in enumerate(scores):
        count = native.insert_key(stored, count, capacity, score * 64 + 63 - item)
    expected = sorted(range(len(scores)), key=lambda i: -scores[i])[:capacity]
    assert count == len(expected)
    assert [63 - int(key) % 64 for key in stored[:count]] == expected
    assert [int(key) // 64 for key in stored[:count]] == [scores[i] for i in expected]


# -- the kernel-cache guard ----------------------------------------------------------------------
def write_package(folder: Path) -> Path:
    """A package of two kernel files: ``caller.twice`` calls ``callee.value``."""
    package = folder / "toykernels"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "callee.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True)\ndef value():\n    return 1\n")
    (package / "caller.py").write_text(
        "from numba import njit\n\nfrom .callee import value\n\n\n"
        "@njit(cache=True)\ndef twice():\n    return 2 * value()\n")
    return package


MODULES = ("callee.py", "caller.py")


def test_a_changed_callee_changes_the_digest_and_drops_the_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(native.numba.config, "CACHE_DIR", "")
    package = write_package(tmp_path)
    cache = package / "__pycache__"
    assert native.cache_dir(package) == cache
    assert native.drop_stale_cache(package, MODULES) is True  # nothing recorded yet
    (cache / "caller.twice-5.py311.nbi").write_text("index")
    (cache / "caller.twice-5.py311.1.nbc").write_text("code")
    (cache / "caller.cpython-311.pyc").write_text("bytecode")
    before = native.sources_digest(package, MODULES)
    assert native.drop_stale_cache(package, MODULES) is False  # unchanged: the cache stays
    assert len(list(cache.glob("*.nb[ic]"))) == 2
    (package / "callee.py").write_text((package / "callee.py").read_text() + "# edited\n")
    assert native.sources_digest(package, MODULES) != before
    assert native.drop_stale_cache(package, MODULES) is True
    assert list(cache.glob("*.nb[ic]")) == [] and (cache / "caller.cpython-311.pyc").exists()
    assert (cache / native.DIGEST_NAME).read_text() == native.sources_digest(package, MODULES)


def test_a_change_to_the_toolkit_itself_drops_every_package_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(native.numba.config, "CACHE_DIR", "")
    package = write_package(tmp_path)
    toolkit = tmp_path / "native.py"
    toolkit.write_bytes(Path(native.__file__).read_bytes())
    monkeypatch.setattr(native, "NATIVE_SOURCES", (toolkit,))
    native.drop_stale_cache(package, MODULES)
    (package / "__pycache__" / "caller.twice-5.py311.nbi").write_text("index")
    toolkit.write_text(toolkit.read_text() + "# a helper changed\n")
    assert native.drop_stale_cache(package, MODULES) is True
    assert list((package / "__pycache__").glob("*.nbi")) == []


def test_the_cache_folder_follows_numba_cache_dir(tmp_path, monkeypatch):
    package = write_package(tmp_path)
    monkeypatch.setattr(native.numba.config, "CACHE_DIR", str(tmp_path / "elsewhere"))
    folder = native.cache_dir(package)
    assert folder.parent == tmp_path / "elsewhere" and folder.name.startswith("toykernels_")
    assert native.drop_stale_cache(package, MODULES) is True
    assert (folder / native.DIGEST_NAME).exists() and not (package / "__pycache__").exists()


RUN = """
import json, sys
from pathlib import Path
from yipan.native import cache_dir, drop_stale_cache
package = Path(sys.argv[1])
dropped = drop_stale_cache(package, ("callee.py", "caller.py")) if sys.argv[2] == "guard" else None
from toykernels.caller import twice
value = int(twice())
print(json.dumps({"dropped": dropped, "value": value,
                  "indexes": sorted(p.name for p in cache_dir(package).glob("*.nbi"))}))
"""


def run(package: Path, guard: bool, **environment: str) -> dict:
    """One fresh process that imports the package (after the guard, or without it) and calls
    the caller's kernel: numba loads its cache from disk, as a new session would."""
    source = Path(yipan.__file__).resolve().parents[1]
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=os.pathsep.join([str(source), str(package.parent)]), **environment)
    done = subprocess.run([sys.executable, "-c", RUN, str(package), "guard" if guard else "-"],
                          capture_output=True, text=True, env=env, timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_numba_alone_runs_a_stale_callee_and_the_guard_does_not(tmp_path):
    package = write_package(tmp_path)
    first = run(package, guard=True)
    assert first["value"] == 2 and first["dropped"] is True
    assert any(name.startswith("caller.twice") for name in first["indexes"])
    (package / "callee.py").write_text((package / "callee.py").read_text().replace(
        "return 1", "return 5"))
    stale = run(package, guard=False)
    assert stale["value"] == 2, "numba now sees a callee's change: the guard may be unneeded"
    fresh = run(package, guard=True)
    assert fresh == {**fresh, "dropped": True, "value": 10}
    again = run(package, guard=True)
    assert again["dropped"] is False and again["value"] == 10


def test_the_guard_finds_the_cache_numba_writes_under_numba_cache_dir(tmp_path):
    package = write_package(tmp_path)
    result = run(package, guard=True, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    assert any(name.startswith("caller.twice") for name in result["indexes"])
    assert not list((package / "__pycache__").glob("*.nbi"))


def kernel_files(package: Path) -> set[str]:
    return {path.name for path in package.glob("*.py") if "@njit" in path.read_text()}


@pytest.mark.parametrize("name", ["games.connect4", "games.gomoku", "games.g2048", "poker",
                                  "games.chess", "games.go", "games.xiangqi", "chess_family"])
def test_each_package_with_kernels_guards_every_kernel_file(name):
    import importlib

    module = importlib.import_module(f"yipan.{name}")
    package = Path(module.__file__).parent
    assert set(module.KERNEL_MODULES) == kernel_files(package)


def test_every_package_with_kernels_is_one_of_the_guarded_ones():
    source = Path(yipan.__file__).parent
    with_kernels = {path.relative_to(source).as_posix()
                    for path in [*(source / "games").iterdir(), source / "poker",
                                 source / "chess_family"]
                    if path.is_dir() and kernel_files(path)}
    assert with_kernels == {"games/connect4", "games/gomoku", "games/g2048", "poker",
                            "games/chess", "games/go", "games/xiangqi", "chess_family"}
