"""Fixtures for the Connect Four tests: one solver (its table is large) shared per module."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from yipan.games.connect4 import ConnectFour
from yipan.games.connect4.solver import Solver


@pytest.fixture(scope="module")
def game() -> ConnectFour:
    return ConnectFour()


@pytest.fixture(scope="module")
def solver(game: ConnectFour) -> Solver:
    return Solver(game, table_bits=20)


@pytest.fixture(scope="session")
def benchmark_set(shared_data: Path) -> Callable[[str], list[tuple[str, int]]]:
    """Lines ``(moves, expected score)`` of one of the shared benchmark sets."""
    def read(name: str) -> list[tuple[str, int]]:
        lines = (shared_data / "connect4" / name).read_text().split("\n")
        return [(moves, int(score)) for moves, score in (line.split() for line in lines if line)]
    return read
