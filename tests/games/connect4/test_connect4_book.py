"""Opening books: built right, read back bit for bit, corrupted files refused, builds resumed."""

from __future__ import annotations

import json

import numpy as np
import pytest

from yipan.books import CorruptBookError
from yipan.games.connect4 import ConnectFour
from yipan.games.connect4.book import (
    MAGIC,
    OpeningBook,
    build,
    parse_book,
    positions_at,
    read_book,
    solve_unit,
    units_of,
    write_book,
)
from yipan.games.connect4.solver import Solver


@pytest.fixture(scope="module")
def small() -> ConnectFour:
    return ConnectFour(5, 4)


@pytest.fixture(scope="module")
def built(small, tmp_path_factory) -> tuple:
    path = tmp_path_factory.mktemp("book") / "small.book"
    report = build(small, path, 3, workers=2)
    return path, report


def test_positions_are_counted_once_per_mirror_pair():
    game = ConnectFour()
    assert [len(positions_at(game, ply)) for ply in range(4)] == [1, 4, 25, 121]


def test_the_book_holds_the_exact_score_of_every_position(small, built):
    path, report = built
    book = read_book(path)
    assert (book.width, book.height, book.depth) == (5, 4, 3)
    solver = Solver(small, table_bits=16)
    count = 0
    for ply in range(4):
        for position in positions_at(small, ply):
            assert book.score(small, position) == solver.solve(position).score
            count += 1
    assert len(book) == count == report.positions


def test_write_and_read_round_trip(tmp_path):
    table = np.array([[3, 10, 99], [1, -2, 0]], np.int64)
    path = tmp_path / "round.book"
    write_book(OpeningBook(7, 6, 2, table), path)
    again = read_book(path)
    assert (again.width, again.height, again.depth) == (7, 6, 2)
    assert np.array_equal(again.table, table)
    assert not list(tmp_path.glob(".*tmp"))  # the temporary file was renamed away


@pytest.mark.parametrize("damage", ["flip", "truncate", "magic", "header"])
def test_a_corrupted_book_is_refused(built, damage):
    data = bytearray(built[0].read_bytes())
    if damage == "flip":
        data[-40] ^= 0x40
    elif damage == "truncate":
        del data[-5:]
    elif damage == "magic":
        data[:8] = b"NOTABOOK"
    else:
        data[14] = ord("#")
    with pytest.raises(CorruptBookError):
        parse_book(bytes(data))


def forged(header: bytes, payload: bytes = b"") -> bytes:
    """A book whose checksum is right but whose header is not (a checksum cannot catch it)."""
    import hashlib

    data = MAGIC + len(header).to_bytes(4, "little") + header + payload
    return data + hashlib.sha256(data).digest()


@pytest.mark.parametrize(("header", "why"), [
    (b'{"game": "connect4", "width": 1000, "height": 6, "depth": 1, "count": 0}', "width"),
    (b'{"game": "connect4", "width": 7, "height": 6, "depth": -5, "count": 0}', "range"),
    (b'{"game": "connect4", "width": 7, "height": 6, "depth": 1, "count": true}', "whole"),
    (b'{"game": "connect4", "width": 7, "height": 6, "depth": 1}', "fields"),
    (b"[" * 900 + b"]" * 900, "damaged"),
])
def test_a_forged_header_is_refused_in_one_line(header, why):
    with pytest.raises(CorruptBookError, match=why) as refused:
        parse_book(forged(header))
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 200


def test_a_missing_book_is_a_clear_error(tmp_path):
    with pytest.raises(CorruptBookError, match="cannot read book"):
        read_book(tmp_path / "absent.book")


def test_an_interrupted_build_resumes_from_its_saved_units(small, tmp_path):
    path = tmp_path / "resumed.book"
    calls = []

    def failing_map(jobs):
        for job in jobs:
            if len(calls) == 2:
                raise KeyboardInterrupt  # the build is interrupted after two units
            calls.append(job)
            yield solve_unit(*job)

    with pytest.raises(KeyboardInterrupt):
        build(small, path, 3, unit_size=10, map_units=failing_map)
    assert len(list((tmp_path / "resumed.book.work").glob("unit-*.npy"))) == 2

    def counting_map(jobs):
        for job in jobs:
            calls.append(job)
            yield solve_unit(*job)

    report = build(small, path, 3, unit_size=10, map_units=counting_map)
    units = len(units_of(positions_at(small, 3), 10))
    assert report.units_done_before == 2 and len(calls) == units
    assert not (tmp_path / "resumed.book.work").exists()
    assert read_book(path).table.shape[1] == report.positions


def test_a_work_folder_from_other_settings_is_not_mixed_in(small, tmp_path):
    path = tmp_path / "mixed.book"
    work = tmp_path / "mixed.book.work"
    work.mkdir()
    (work / "plan.json").write_text(json.dumps({"width": 5, "height": 4, "depth": 9,
                                                "unit_size": 1}))
    with pytest.raises(Exception, match="other settings"):
        build(small, path, 3, workers=1)


def test_a_unit_of_work_is_plain_data_in_and_out(small):
    unit = [tuple(p) for p in positions_at(small, 2)[:3]]
    result = solve_unit(5, 4, unit)
    assert [key for key, _ in result] == [small.key(small.initial_state()._make(p))
                                          for p in unit]
    assert all(isinstance(score, int) for _, score in result)


@pytest.mark.parametrize("damage", ["truncated", "empty", "other positions", "plan"])
def test_a_damaged_work_folder_is_repaired_on_resume(small, tmp_path, damage):
    """A unit file cut short, empty or holding other positions is solved again (said in
    one line); a damaged plan is written again; the book comes out whole and right."""
    path = tmp_path / "repaired.book"
    work = tmp_path / "repaired.book.work"
    calls: list = []

    def interrupted(jobs):
        for job in jobs:
            if len(calls) == 2:
                raise KeyboardInterrupt
            calls.append(job)
            yield solve_unit(*job)

    with pytest.raises(KeyboardInterrupt):
        build(small, path, 3, unit_size=10, map_units=interrupted)
    first, second = sorted(work.glob("unit-*.npy"))
    if damage == "truncated":
        first.write_bytes(first.read_bytes()[:-7])
    elif damage == "empty":
        first.write_bytes(b"")
    elif damage == "other positions":
        first.write_bytes(second.read_bytes())
    else:
        (work / "plan.json").write_text('{"width": 5, "hei')
    said: list[str] = []
    report = build(small, path, 3, unit_size=10, progress=said.append,
                   map_units=lambda jobs: (solve_unit(*job) for job in jobs))
    assert report.units_done_before == (2 if damage == "plan" else 1)
    assert any("damaged" in line for line in said)
    assert read_book(path).table.shape[1] == report.positions
    reference = build(small, tmp_path / "clean.book", 3, unit_size=10,
                      map_units=lambda jobs: (solve_unit(*job) for job in jobs))
    assert np.array_equal(read_book(path).table, read_book(tmp_path / "clean.book").table)
    assert reference.positions == report.positions
