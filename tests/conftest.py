"""Shared fixtures: where the reference data lives (read-only, beside the repository)."""

from __future__ import annotations

import os
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The learning tests run last: training imports JAX, which starts threads, and a process
    that forks after that may deadlock (MCTS root parallelism, the web app's and the book
    builder's worker processes fork)."""
    learning = [item for item in items if "tests/learning/" in item.nodeid
                or item.nodeid.startswith("learning/")]
    others = [item for item in items if item not in learning]
    items[:] = others + learning
