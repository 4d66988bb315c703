"""Shared fixtures: where the reference data lives (read-only, beside the repository), and a
fresh process that counts what numba compiles."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

DATA_DIR = Path(os.environ.get("YIPAN_DATA", Path(__file__).resolve().parents[1].parent
                               / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder of reference data (``$YIPAN_DATA`` or ``../shared/data``); skip if absent."""
    if not DATA_DIR.is_dir():
        pytest.skip(f"reference data not found at {DATA_DIR} (set YIPAN_DATA to its folder)")
    return DATA_DIR


COUNTING = """
import collections, json, sys
from numba.core import event

compiled = collections.Counter()

class Count(event.Listener):
    def on_start(self, ev):
        compiled[ev.data["dispatcher"].py_func.__name__] += 1

    def on_end(self, ev):
        pass

event.register("numba:compile", Count())
report = {}
exec(sys.argv[1], {"report": report})
print(json.dumps({"compiled": compiled, **report}))
"""


@pytest.fixture
def count_compilations(tmp_path: Path) -> Callable[..., dict]:
    """``count(code, helper=False)``: run ``code`` in a fresh process on this test's numba
    cache (``tmp_path``: empty at first, kept between calls) and return what numba compiled
    there (``{"compiled": {kernel name: times}}``, with what the code put in ``report``).
    Compiling helpers (``yipan.native_helper``) are off unless ``helper``."""

    def count(code: str, helper: bool = False) -> dict:
        env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
        env.pop("YIPAN_COMPILE_HELPER", None)
        if not helper:
            env["YIPAN_COMPILE_HELPER"] = "0"
        done = subprocess.run([sys.executable, "-c", COUNTING, code], capture_output=True,
                              text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    return count


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The learning tests run last: training imports JAX, which starts threads, and a process
    that forks after that may deadlock (MCTS root parallelism, the web app's and the book
    builder's worker processes fork)."""
    learning = [item for item in items if "tests/learning/" in item.nodeid
                or item.nodeid.startswith("learning/")]
    others = [item for item in items if item not in learning]
    items[:] = others + learning
