"""The first player's strategy book: every move in it is proved to win, it answers every reply
up to its depth, mirror images read back mirrored, and a damaged file is refused."""

from __future__ import annotations

import pytest

from yipan.books.book import CorruptBookError
from yipan.core import replay
from yipan.games.connect4 import ConnectFour, Position
from yipan.games.connect4.solver import Solver
from yipan.games.connect4.strategy import (
    StrategyBook,
    build_strategy,
    read_strategy,
    shipped_strategy,
    write_strategy,
)

WON = "5554224333234511764415115"  # Test_L2_R1: the side to move wins (score 4)


def at(game: ConnectFour, moves: str) -> Position:
    return replay(game, game.split_moves(moves))[-1]


@pytest.fixture(scope="module")
def built(game: ConnectFour) -> tuple[Position, StrategyBook]:
    root = at(game, WON)
    return root, build_strategy(game, root.moves + 6, root=root,
                                solver=Solver(game, table_bits=20))


def test_every_move_in_the_book_is_proved_to_win(game, built):
    root, book = built
    checker = Solver(game, table_bits=20)
    covered = [root]
    for ply in range(root.moves, book.depth + 1, 2):
        following = []
        for position in covered:
            col = book.move(game, position)
            assert col is not None, f"ply {ply}: a reply the book does not answer"
            assert checker.achieves(position, col, 1)
            if game.is_winning_move(position, col):
                continue
            child = game.play(position, col)
            following += [game.play(child, reply) for reply in game.legal_moves(child)
                          if not game.is_winning_move(child, reply)]
        covered = [p for p in following if p.moves < game.cells]
    assert len(book) > 1


def test_a_mirror_image_reads_the_mirrored_move(game, built):
    root, book = built
    mirrored = Position(game.mirror(root.current), game.mirror(root.mask), root.moves)
    assert book.move(game, mirrored) == game.width - 1 - book.move(game, root)
    assert book.move(game, game.play(root, 0)) is None  # the opponent's turn: not in it


def test_write_read_round_trip_and_damage_refused(tmp_path, built):
    _, book = built
    path = tmp_path / "s.strategy"
    write_strategy(book, path)
    again = read_strategy(path)
    assert (again.depth, list(again.keys), list(again.moves)) == \
        (book.depth, list(book.keys), list(book.moves))
    data = bytearray(path.read_bytes())
    data[-40] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptBookError, match="checksum"):
        read_strategy(path)
    path.write_bytes(b"YIPANC4S\x05")
    with pytest.raises(CorruptBookError):
        read_strategy(path)


def test_the_shipped_book_opens_in_the_centre_and_answers_every_reply(game):
    book = shipped_strategy()
    assert book is not None, "the strategy book is shipped in src/yipan/data"
    start = game.initial_state()
    assert book.move(game, start) == 3
    centre = game.play(start, 3)
    for reply in game.legal_moves(centre):
        assert book.move(game, game.play(centre, reply)) is not None
