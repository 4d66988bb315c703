"""Endgame tables by retrograde analysis: the known facts of the 3- and 4-piece endings, the
agreement of the tables with a plain alpha-beta search, the files and the command line."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from yipan.cli.main import main
from yipan.core import WIN, AnalysisRequest, Limit
from yipan.games.chess import Chess
from yipan.games.chess.engine import Engine, table_score
from yipan.games.chess.retrograde import ILLEGAL, decode
from yipan.games.chess.search import MATE, MATE_BOUND
from yipan.games.chess.tablebase import (
    DamagedTableError,
    Tablebase,
    TablebaseError,
    build,
    load_table,
    parse_signature,
)
from yipan.search import alphabeta


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables")
    build(["KQK", "KRK", "KPK", "KNNK"], path)
    return path


@pytest.fixture(scope="module")
def tables(folder) -> Tablebase:
    return Tablebase(folder)


def board_of(table, index: int) -> chess.Board | None:
    """The position of an index, or None when two pieces would share a square."""
    squares = np.zeros(4, dtype=np.int64)
    side = decode(index, table.material.pieces, squares)
    if len(set(squares[:table.material.pieces].tolist())) < table.material.pieces:
        return None
    board = chess.Board(None)
    letters = table.material.white + table.material.black.lower()
    for letter, square in zip(letters, squares[:len(letters)], strict=True):
        board.set_piece_at(int(square), chess.Piece.from_symbol(letter))
    board.turn = side == 0
    return board


@pytest.mark.parametrize("name", ["KQK", "KRK"])
def test_kqk_and_krk_are_won_unless_the_defender_takes_or_is_stalemated(tables, name):
    table = tables.table(name)
    values = table.values
    half = values.shape[0] // 2
    assert not (values[:half] == 0).any()  # the strong side to move always wins
    legal = values != ILLEGAL
    assert legal.sum() > 0.6 * values.shape[0]
    for index in np.flatnonzero(values[half:] == 0) + half:
        board = board_of(table, int(index))
        assert board is not None and board.is_valid()
        takes = any(board.is_capture(move) for move in board.legal_moves)
        assert takes or board.is_stalemate(), board.fen()


def test_the_longest_mates(tables):
    assert tables.table("KQK").longest_mate_plies == 19  # mate in 10
    assert tables.table("KRK").longest_mate_plies == 31  # mate in 16
    assert tables.table("KPK").longest_mate_plies == 55  # mate in 28 (queening first)


def test_knnk_is_a_draw(tables):
    table = tables.table("KNNK")
    values = table.values
    half = values.shape[0] // 2
    assert table.longest_mate_plies == 1  # only a mate on the move, never a forced one
    assert (values[:half] > 0).sum() < 0.001 * (values[:half] != ILLEGAL).sum()
    state = Chess("8/8/8/3k4/8/8/8/1NN1K3 w - - 0 1").initial_state()
    assert tables.probe(state).value == 0


def test_the_tables_agree_with_a_plain_alpha_beta_search(tables):
    rng = random.Random(7)
    checked = 0
    for name in ("KQK", "KRK", "KPK"):
        table = tables.table(name)
        short = np.flatnonzero((table.values > 0) & (table.values <= 3))
        for index in rng.sample(list(short), 4):
            board = board_of(table, int(index))
            game = Chess(board.fen())
            state = game.initial_state()
            plies = int(table.values[index])
            assert tables.probe(state).value == plies
            found = alphabeta(game, state, depth=plies)
            assert found.value == WIN - plies, board.fen()
            if plies > 1:  # and no faster mate
                assert alphabeta(game, state, depth=plies - 1).value < WIN - plies
            checked += 1
    assert checked == 12


def test_mirrored_colours_are_probed_from_the_same_table(tables):
    white = Chess("8/8/8/4k3/8/8/8/KR6 w - - 0 1").initial_state()
    black = Chess("kr6/8/8/8/4K3/8/8/8 b - - 0 1").initial_state()
    assert tables.probe(white) == tables.probe(black)
    assert tables.probe(white).value == 29


def test_the_engine_plays_the_tables_mate(tables):
    engine = Engine(1, tables=tables)
    game = Chess("8/8/8/4k3/8/8/8/KR6 w - - 0 1")
    state = game.initial_state()
    plies = 0
    while game.outcome(state) is None:
        found = engine.think(state)
        assert found.endgame_table == "KRK"
        state = game.play_checked(state, found.move)
        plies += 1
    assert game.termination(state) == "checkmate" and plies == 29


def test_analyze_reports_the_verdict(tables, monkeypatch):
    from yipan.games.chess import hooks

    monkeypatch.setattr(hooks, "analysis_engine",
                        lambda syzygy, network: Engine(8, tables=tables, syzygy=syzygy))
    game = Chess("8/8/8/4k3/8/8/8/KR6 b - - 0 1")
    analysis = hooks.analyze(game, game.initial_state(), AnalysisRequest())
    assert analysis.exact and analysis.outcome == -1
    assert analysis.extra["tablebase"] == {"table": "KRK", "outcome": "loss",
                                           "moves_to_mate": 15}


def test_damaged_files_are_refused(folder, tmp_path):
    data = (folder / "KRK.tb").read_bytes()
    broken = tmp_path / "KRK.tb"
    broken.write_bytes(data[:500] + bytes([data[500] ^ 1]) + data[501:])
    with pytest.raises(DamagedTableError):
        load_table(broken)
    broken.write_bytes(data[: len(data) // 2])
    with pytest.raises(DamagedTableError):
        load_table(broken)
    renamed = tmp_path / "KQK.tb"
    renamed.write_bytes(data)
    with pytest.raises(DamagedTableError):
        load_table(renamed)


def test_table_names_are_checked():
    assert parse_signature("kpkr").name == "KPKR"
    assert parse_signature("KPKR").canonical()[0].name == "KRKP"
    for name in ("KQ", "KQKRN", "KPPK", "QKK", "xyz", "K" * 50):
        with pytest.raises(TablebaseError):
            parse_signature(name)


def test_the_command_line_builds_lists_and_refuses(tmp_path, capsys):
    assert main(["tablebase", "build", "chess", "KRK", "--output", str(tmp_path)]) == 0
    assert (tmp_path / "KRK.tb").exists()
    assert main(["tablebase", "info", "chess", "--folder", str(tmp_path)]) == 0
    assert "KRK: 524,288 positions, longest mate 16 moves" in capsys.readouterr().out
    path = tmp_path / "KRK.tb"
    path.write_bytes(path.read_bytes()[:-10])
    assert main(["tablebase", "info", "chess", "--folder", str(tmp_path)]) == 2
    assert main(["tablebase", "build", "chess", "KPPK"]) == 2
    assert main(["tablebase", "build", "gomoku", "KQK"]) == 2
    # a damaged table is built again
    assert main(["tablebase", "build", "chess", "KRK", "--output", str(tmp_path)]) == 0
    assert load_table(path).longest_mate_plies == 31


def test_a_uci_gui_gets_the_tables_mate(folder):
    from yipan.protocols.uci import UciEngine

    lines: list[str] = []
    uci = UciEngine(lines.append, hash_mb=1)
    uci.handle(f"setoption name TablebasePath value {folder}")
    uci.handle("position fen 8/8/8/4k3/8/8/8/KR6 w - - 0 1")
    uci.handle("go movetime 100")
    uci.stop_search()
    assert any(" score mate 15 " in line for line in lines)
    assert lines[-1].startswith("bestmove a1b2")


# -- the tables inside the search -----------------------------------------------------------------
def _exact_by_tables(tables: Tablebase, board: chess.Board, plies: int) -> int | None:
    """A referee for the search with tables: negamax over python-chess's moves for ``plies``
    plies, each position of three pieces valued by the tables' own (Python) probe; None when
    a line leaves both the tables and the horizon, unless a mate is known anyway."""
    if len(board.piece_map()) <= 3:
        return table_score(tables.probe(Chess(board.fen()).initial_state()).value)
    if board.is_checkmate():
        return -MATE
    if board.is_stalemate():
        return 0
    if plies == 0:
        return None
    best, unknown = None, False
    for move in board.legal_moves:
        board.push(move)
        child = _exact_by_tables(tables, board, plies - 1)
        board.pop()
        if child is None:
            unknown = True
            continue
        score = -child
        score += -1 if score > MATE_BOUND else 1 if score < -MATE_BOUND else 0
        best = score if best is None else max(best, score)
    if unknown and (best is None or best < MATE_BOUND):
        return None  # the side to move may prefer a line the tables do not cover
    return best


def test_the_search_reaches_a_tables_exact_mate_from_outside_them(tables):
    # KQ v KN, no table for it: Qf4+ forks king and knight, and after Qxa4 the KQK table
    # knows the mate's length; a 3-ply referee over python-chess and the table agrees
    fen = "8/8/8/8/n6k/8/3Q4/4K3 w - - 0 1"
    state = Chess(fen).initial_state()
    assert tables.probe(state) is None
    expected = _exact_by_tables(tables, chess.Board(fen), 3)
    assert expected is not None and expected > MATE_BOUND
    with_tables = Engine(1, tables=tables).think(state, Limit(depth=4))
    assert with_tables.score == expected  # mate in 17 plies
    assert with_tables.tablebase_hits > 0 and with_tables.endgame_table is None
    assert Chess(fen).format_move(with_tables.move) == "d2f4"
    without = Engine(1, tables=None).think(state, Limit(depth=4))
    assert abs(without.score) < MATE_BOUND and without.tablebase_hits == 0


def _random_board(rng: random.Random, letters: str) -> chess.Board | None:
    board = chess.Board(None)
    for letter, square in zip(letters, rng.sample(range(64), len(letters)), strict=True):
        board.set_piece_at(square, chess.Piece.from_symbol(letter))
    board.turn = rng.random() < 0.5
    if rng.random() < 0.5:
        board = board.mirror()  # black the stronger side: the table is probed mirrored
    if not board.is_valid() or board.is_game_over():
        return None
    return board


def test_the_search_with_tables_agrees_with_them_on_random_positions(tables):
    # the root searched (not answered from the tables): one ply, every child valued by the
    # kernel's probe, must give the Python probe's value of the root
    engine = Engine(1, tables=tables)
    rng = random.Random(11)
    checked = 0
    for letters in ("KQk", "KRk", "KPk", "KNNk"):
        found = 0
        while found < 8:
            board = _random_board(rng, letters)
            if board is None:
                continue
            state = Chess(board.fen()).initial_state()
            verdict = tables.probe(state)
            iteration = engine.think(state, Limit(depth=1), root_tables=False)
            assert iteration.score == table_score(verdict.value), board.fen()
            found += 1
        checked += found
    assert checked == 32


def test_analyze_prints_the_tables_verdict(tables, monkeypatch, capsys):
    from yipan.games.chess import hooks

    monkeypatch.setattr(hooks, "analysis_engine",
                        lambda syzygy, network: Engine(8, tables=tables, syzygy=syzygy))
    assert main(["analyze", "chess", "--fen", "8/8/8/4k3/8/8/8/KR6 b - - 0 1"]) == 0
    out = capsys.readouterr().out
    assert "endgame table KRK: loss for black, mated in 15 moves" in out
    assert main(["analyze", "chess", "--fen", "8/8/8/3k4/8/8/8/1NN1K3 w - - 0 1"]) == 0
    assert "endgame table KNNK: draw for white" in capsys.readouterr().out


def test_the_engine_plays_the_mate_out_in_the_fewest_moves(tables):
    # from outside the tables (KQ v KN) into KQK: both sides, searching 4 plies with the
    # tables below the root, play the mate the search announced, no longer
    game = Chess("8/8/8/8/n6k/8/3Q4/4K3 w - - 0 1")
    state = game.initial_state()
    engine = Engine(1, tables=tables)
    announced = MATE - engine.think(state, Limit(depth=4)).score
    plies = 0
    while game.outcome(state) is None and plies < 40:
        state = game.play_checked(state, engine.think(state, Limit(depth=4)).move)
        plies += 1
    assert game.termination(state) == "checkmate" and plies == announced == 17
