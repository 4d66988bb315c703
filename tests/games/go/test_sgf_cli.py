"""SGF through sgfmill (round trips, handicap, setup, errors) and the command line: perft,
play resumed from a file and saved, analyze from a file."""

from __future__ import annotations

import io
import random

import pytest
from sgfmill import sgf

from yipan.cli.main import main
from yipan.core import IllegalMoveError, replay
from yipan.games.go.rules import WHITE, Go
from yipan.games.go.sgf import SgfError, read_sgf, write_sgf


def random_game(game: Go, seed: int, length: int = 60):
    rng = random.Random(seed)
    states = [game.initial_state()]
    moves = []
    while len(moves) < length and game.outcome(states[-1]) is None:
        move = rng.choice(game.legal_moves(states[-1]))
        moves.append(move)
        states.append(game.play(states[-1], move))
    return states, moves


@pytest.mark.parametrize("size,handicap", [(9, 0), (13, 4), (19, 9), (5, 0)])
def test_games_round_trip_through_sgf(size, handicap):
    game = Go(size, komi=6.5 if not handicap else 0.5, handicap=handicap)
    states, moves = random_game(game, size)
    data = write_sgf(game, states, moves, result="B+R")
    record = read_sgf(data)
    assert record.game.size == size and record.game.komi == game.komi
    assert record.game.handicap == handicap
    assert list(record.moves) == moves and list(record.states) == states
    assert record.result == "B+R"
    parsed = sgf.Sgf_game.from_bytes(data)
    assert parsed.get_size() == size and len(parsed.get_main_sequence()) == len(moves) + 1


def test_free_setup_stones_and_the_player_to_move():
    game = Go(9)
    record = sgf.Sgf_game(size=9)
    record.get_root().set_setup_stones([(0, 0), (4, 4), (8, 8)], [(2, 2)])
    record.get_root().set("PL", "w")
    node = record.extend_main_sequence()
    node.set_move("w", (3, 3))
    loaded = read_sgf(record.serialise())
    assert loaded.game.handicap == 0
    start = loaded.states[0]
    assert start.to_move == WHITE and start.black.bit_count() == 3
    assert loaded.game.format_move(loaded.moves[0]) == "D4"
    del game


def test_bad_records_are_refused_in_one_line():
    with pytest.raises(SgfError):
        read_sgf(b"not sgf at all")
    with pytest.raises(SgfError):
        read_sgf(b"(;GM[1]SZ[25])")
    with pytest.raises(SgfError):
        read_sgf(b"(;GM[3]SZ[9])")
    with pytest.raises(IllegalMoveError, match="SGF move 2"):
        read_sgf(b"(;GM[1]SZ[9];B[ee];W[ee])")


def test_perft_on_nine_by_nine(capsys):
    assert main(["perft", "go", "--size", "9", "--depth", "2"]) == 0
    assert "nodes: 6643" in capsys.readouterr().out  # 82 first moves, 81 replies each, +1


def test_play_resumes_a_game_from_sgf_and_saves_it(tmp_path, monkeypatch, capsys):
    game = Go(5, komi=0.5)
    states = replay(game, ["C3", "C4", "D4"])
    path = tmp_path / "game.sgf"
    path.write_bytes(write_sgf(game, states, [game.parse_move(None, m)
                                              for m in ("C3", "C4", "D4")]))
    monkeypatch.setattr("sys.stdin", io.StringIO("C3\npass\nquit\n"))
    saved = tmp_path / "out.sgf"
    assert main(["play", "go", "--sgf", str(path), "--level", "easy", "--first", "ai",
                 "--seed", "1", "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "C3 is taken" in out  # the resumed board
    record = read_sgf(saved.read_bytes())
    texts = [record.game.format_move(m) for m in record.moves]
    assert texts[:3] == ["C3", "C4", "D4"] and texts[4] == "pass"  # the AI, then the human
    assert f"game saved to {saved}" in out


def test_analyze_reads_an_sgf(tmp_path, capsys):
    game = Go(5, komi=0.5)
    path = tmp_path / "game.sgf"
    moves = [game.parse_move(None, m) for m in ("C3", "C4")]
    path.write_bytes(write_sgf(game, replay(game, ["C3", "C4"]), moves))
    assert main(["analyze", "go", "--sgf", str(path), "--nodes", "500", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"to_move": 0' in out and '"best_moves"' in out
    assert main(["analyze", "go", "--sgf", str(tmp_path / "missing.sgf")]) == 2
