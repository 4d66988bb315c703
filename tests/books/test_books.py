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


@pytest.mark.parametrize("damage", ["flip", "truncate", "header", "binary", "max-ply"])
def test_damaged_book_is_refused(tmp_path, damage):
    path = tmp_path / "damaged.book"
    build_book(GAME, path, max_ply=2)
    data = path.read_bytes()
    if damage == "flip":  # a digit of a value
        index = data.rindex(b"\nsha256") - 1
        data = data[:index] + (b"9" if data[index:index + 1] != b"9" else b"8") + data[index + 1:]
    elif damage == "truncate":
        data = data[: len(data) - 20]
    elif damage == "header":
        data = data.replace(b"yipan-book 3", b"yipan-book 7")
    elif damage == "max-ply":  # the header alone: the checksum covers it too
        data = data.replace(b"max-ply 2", b"max-ply 3")
    else:
        data = b"\x00\xff" + data
    path.write_bytes(data)
    with pytest.raises(CorruptBookError):
        load_book(path, GAME)


def resealed(text: str) -> str:
    """A book's text with its checksum made right again (damage a checksum cannot catch)."""
    import hashlib

    content = text[:text.rindex("sha256 ")]
    return content + f"sha256 {hashlib.sha256(content.encode()).hexdigest()}\n"


@pytest.mark.parametrize(("old", "new", "why"), [
    ("max-ply 2", "max-ply -5", "out of range"),
    ("positions 16", "positions 15", "header says"),
    ('options {"k": 3, "size": "3x3"}', "options " + "[" * 5000 + "]" * 5000, "nested"),
    ('options {"k": 3, "size": "3x3"}', 'options {"k": [[1]]}', "flat"),
    ("game tictactoe", "game tic tac toe!", "game name"),
])
def test_a_resealed_book_with_impossible_fields_is_refused(tmp_path, old, new, why):
    path = tmp_path / "forged.book"
    build_book(GAME, path, max_ply=2, options={"k": 3, "size": "3x3"})
    text = path.read_text()
    assert old in text
    path.write_text(resealed(text.replace(old, new)))
    with pytest.raises(CorruptBookError, match=why) as refused:
        load_book(path)
    assert len(str(refused.value)) < 200


def test_a_deeply_nested_key_is_damage_not_a_crash(tmp_path):
    path = tmp_path / "nested.book"
    build_book(GAME, path, max_ply=0)
    text = path.read_text()
    lines = text.split("\n")
    body_start = lines.index("") + 1
    lines[body_start] = "[" * 100_000 + "]" * 100_000 + " 0"
    path.write_text(resealed("\n".join(lines)))
    with pytest.raises(CorruptBookError, match="line 1"):
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


def test_a_book_of_format_2_is_read_and_its_variant_found_from_its_options():
    with resources.as_file(resources.files("yipan.data") / "tictactoe-3x3.book") as path:
        assert path.read_text().startswith("yipan-book 2\n")
        assert load_book(path).variant == ""  # not needed without a game to compare
        assert load_book(path, GAME).variant == "Tic-tac-toe"
        with pytest.raises(CorruptBookError, match="a book for Tic-tac-toe, not for 4,4,4-game"):
            load_book(path, yipan.get_game("tictactoe", size="4x4"))
