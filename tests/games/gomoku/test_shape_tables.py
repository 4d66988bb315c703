"""The shape tables shipped in the package: the same as ``build_table`` makes, and used."""

from __future__ import annotations

import numpy as np
import pytest

from yipan.games.gomoku import patterns
from yipan.games.gomoku.board import rule_tables
from yipan.games.gomoku.patterns import (
    EDGE_PLACES,
    TABLE_SIZE,
    WAYS,
    build_edge_tables,
    edge_tables,
    shipped_path,
    way_name,
)
from yipan.games.gomoku.rules import RULES


@pytest.fixture
def fresh_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget the tables read so far, so the next read goes to the file (or builds)."""
    monkeypatch.setattr(patterns, "_EDGE_TABLES", {})


@pytest.mark.parametrize("way", WAYS, ids=[way_name(*way) for way in WAYS])
def test_shipped_tables_are_what_build_table_makes(way: tuple[bool, bool, bool]) -> None:
    with np.load(shipped_path()) as shipped:
        tables = shipped[way_name(*way)]
    exact, caro, renju = way
    assert tables.shape == (EDGE_PLACES ** 2 if caro else 1, TABLE_SIZE)
    np.testing.assert_array_equal(tables, build_edge_tables(*way))


@pytest.mark.parametrize("rule", RULES)
def test_every_rule_reads_its_tables_without_building(
        rule: str, fresh_tables: None, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> np.ndarray:
        raise AssertionError(f"built a table for {rule}: {args}")

    monkeypatch.setattr(patterns, "build_edge_tables", refuse)
    tables = rule_tables(rule)
    assert tables.shape[0] == 2 and tables.shape[2] == TABLE_SIZE
    assert tables[:, -1].any(axis=1).all()  # the tables with no edge near have shapes


def test_a_damaged_file_is_built_around(tmp_path, fresh_tables: None,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    damaged = tmp_path / "shapes.npz"
    damaged.write_bytes(b"PK\x03\x04 not a zip")
    monkeypatch.setattr(patterns, "shipped_path", lambda: damaged)
    built = edge_tables(True, False)
    assert not built.flags.writeable
    np.testing.assert_array_equal(built, build_edge_tables(True, False))


def test_a_file_damaged_inside_is_built_around(tmp_path, fresh_tables: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Bytes flipped inside the compressed data (the zip's directory intact), or tables of
    another type: each way of winning is built instead, the same tables."""
    data = bytearray(shipped_path().read_bytes())
    for at in range(200, len(data) // 2, 97):
        data[at] ^= 0x5A
    damaged = tmp_path / "shapes.npz"
    damaged.write_bytes(bytes(data))
    monkeypatch.setattr(patterns, "shipped_path", lambda: damaged)
    for way in WAYS:
        np.testing.assert_array_equal(edge_tables(*way), build_edge_tables(*way))
    retyped = tmp_path / "retyped.npz"
    np.savez(retyped, free=build_edge_tables(False, False).astype(np.int64))
    monkeypatch.setattr(patterns, "_EDGE_TABLES", {})
    monkeypatch.setattr(patterns, "shipped_path", lambda: retyped)
    assert edge_tables(False, False).dtype == np.int8


def test_write_shipped_writes_every_way(tmp_path) -> None:
    path = tmp_path / "shapes.npz"
    patterns.write_shipped(path)
    with np.load(path) as written, np.load(shipped_path()) as shipped:
        assert sorted(written.files) == sorted(shipped.files) == sorted(
            way_name(*way) for way in WAYS)
        for name in written.files:
            np.testing.assert_array_equal(written[name], shipped[name])
