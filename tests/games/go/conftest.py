"""Go positions written as diagrams: rows from the top, ``X`` black, ``O`` white, ``.`` empty."""

from __future__ import annotations

import pytest

from yipan.games.go.rules import BLACK, Go, Position


def from_diagram(game: Go, diagram: str, to_move: int = BLACK) -> Position:
    rows = [row.replace(" ", "") for row in diagram.strip().splitlines()]
    assert len(rows) == game.size and all(len(row) == game.size for row in rows), diagram
    black = white = 0
    for r, row in enumerate(rows):
        for c, mark in enumerate(row):
            bit = 1 << game.grid.bit(r, c)
            if mark == "X":
                black |= bit
            elif mark == "O":
                white |= bit
    return game.position(black, white, to_move)


@pytest.fixture
def diagram():
    return from_diagram
