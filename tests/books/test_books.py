"""Opening books round-trip, refuse damage, and agree with the solver."""

from __future__ import annotations

from importlib import resources

import pytest

import yipan
from yipan.books import CorruptBookError, build_book, load_book
from yipan.search import alphabeta

GAME = yipan.get_game("tictactoe")


def test_shipped_book_covers_every_position_with_the_solver_values():
    with resources.as_file(resources.files("yipan.data") / "tictactoe-3x3.book") as path:
        book = load_book(path, GAME)
    assert len(book) == 765
    state = GAME.initial_state()
    assert book.probe(GAME, state) == 0
    for move in GAME.legal_moves(state)[:3]:
        child = GAME.play(state, move)
        assert book.probe(GAME, child) == alphabeta(GAME, child).value


def test_round_trip_and_atomic_write(tmp_path):
    path = tmp_path / "small.book"
    book = build_book(GAME, path, max_ply=2)
    assert not list(tmp_path.glob("*.tmp"))
    loaded = load_book(path, GAME)
    assert loaded.values == book.values
    assert loaded.max_ply == 2
    assert len(book) == 1 + 3 + 12  # positions within 2 plies, up to symmetry


@pytest.mark.parametrize("damage", ["flip", "truncate", "header", "binary"])
def test_damaged_book_is_refused(tmp_path, damage):
    path = tmp_path / "damaged.book"
    build_book(GAME, path, max_ply=2)
    data = path.read_bytes()
    if damage == "flip":
        data = data[:-3] + (b"9" if data[-3:-2] != b"9" else b"8") + data[-2:]
    elif damage == "truncate":
        data = data[: len(data) - 20]
    elif damage == "header":
        data = data.replace(b"yipan-book 1", b"yipan-book 7")
    else:
        data = b"\x00\xff" + data
    path.write_bytes(data)
    with pytest.raises(CorruptBookError):
        load_book(path, GAME)


def test_book_for_another_game_is_refused(tmp_path):
    path = tmp_path / "other.book"
    book = build_book(GAME, None, max_ply=1)
    book.game_name = "connect4"
    from yipan.books import save_book

    save_book(book, path)
    with pytest.raises(CorruptBookError, match="connect4"):
        load_book(path, GAME)


def test_written_books_are_readable_by_others(tmp_path):
    path = tmp_path / "shared.book"
    build_book(GAME, path, max_ply=1)
    assert path.stat().st_mode & 0o044 == 0o044  # not the 0600 of a bare temporary file
