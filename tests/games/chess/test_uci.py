"""``yipan uci`` driven as a GUI drives it: python-chess's engine client over a pipe, then
the protocol's answers line by line in process."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import chess
import chess.engine
import chess.polyglot
import pytest

from yipan.core import IllegalMoveError
from yipan.games.chess import Chess
from yipan.protocols.uci import UciEngine

SRC = Path(__file__).resolve().parents[3] / "src"


def test_a_gui_plays_a_few_moves_and_reads_the_analysis(engine):
    assert engine.id["name"].startswith("yipan")
    assert {"Hash", "Threads", "Move Overhead", "OwnBook"} <= set(engine.options)
    engine.configure({"Hash": 16, "Move Overhead": 10})
    board = chess.Board()
    for _ in range(6):
        result = engine.play(board, chess.engine.Limit(nodes=3000))
        assert result.move in board.legal_moves
        board.push(result.move)
    info = engine.analyse(board, chess.engine.Limit(depth=5))
    assert info["depth"] == 5 and info["pv"] and info["pv"][0] in board.legal_moves
    assert "score" in info and info["nodes"] > 0


def test_a_mate_is_announced_in_moves(engine):
    board = chess.Board("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1")
    # depth 9: the shipped network finds this mate from there (test_chess_cli.py says why)
    info = engine.analyse(board, chess.engine.Limit(depth=9))
    assert info["score"].white() == chess.engine.Mate(2)
    assert info["pv"][0] == chess.Move.from_uci("g3g6")


def test_stop_ends_an_infinite_search_at_once(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 3:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move in board.legal_moves


def test_clock_fields_and_checkmated_positions(engine):
    board = chess.Board()
    result = engine.play(board, chess.engine.Limit(white_clock=1.0, black_clock=1.0,
                                                    white_inc=0.01, black_inc=0.01))
    assert result.move in board.legal_moves
    mated = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert not engine.play(mated, chess.engine.Limit(nodes=100)).move  # "bestmove 0000"


# -- line by line, in process -------------------------------------------------------------------
class Transcript:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, line: str) -> None:
        with self.lock:
            self.lines.append(line)


def test_position_moves_and_go_in_process(compiled):
    out = Transcript()
    uci = UciEngine(out, hash_mb=1)
    uci.handle("uci")
    assert out.lines[-1] == "uciok"
    uci.handle("position startpos moves e2e4 e7e5 g1f3")
    assert uci.game.fen(uci.state).startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/")
    uci.handle("go depth 3")
    uci.handle("isready")
    uci.stop_search()
    bestmoves = [line for line in out.lines if line.startswith("bestmove")]
    assert len(bestmoves) == 1
    move = chess.Move.from_uci(bestmoves[0].split()[1])
    assert move in chess.Board(uci.game.fen(uci.state)).legal_moves
    assert uci.handle("quit") is False


def test_bad_lines_are_ignored_with_a_short_note(compiled):
    out = Transcript()
    uci = UciEngine(out, hash_mb=1)
    for line in ("hello", "position fen nonsense", "position startpos moves e2e5",
                 "setoption name Hash value -3", "setoption name Nope value 1",
                 "go depth 99999999999999999999", "go nodes x", "x" * 50_000):
        assert uci.handle(line) is True
    assert all(len(line) < 300 for line in out.lines)
    assert uci.game.fen(uci.state) == chess.STARTING_FEN
    uci.handle("go nodes 500")
    uci.stop_search()
    assert out.lines[-1].startswith("bestmove ")


def test_a_polyglot_book_is_played_from_when_asked(compiled, tmp_path):
    book = tmp_path / "book.bin"
    board = chess.Board()
    key = chess.polyglot.zobrist_hash(board)
    move = chess.Move.from_uci("g1f3")
    raw = (move.to_square | (move.from_square << 6))
    book.write_bytes(key.to_bytes(8, "big") + raw.to_bytes(2, "big") + (1).to_bytes(2, "big")
                     + (0).to_bytes(4, "big"))
    out = Transcript()
    uci = UciEngine(out, hash_mb=1)
    uci.handle(f"setoption name BookFile value {book}")
    uci.handle("setoption name OwnBook value true")
    uci.handle("position startpos")
    uci.handle("go movetime 50")
    uci.stop_search()
    assert out.lines[-1] == "bestmove g1f3"


def test_the_script_runs_as_a_process(compiled):
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-m", "yipan.protocols.uci"],
                          input="uci\nposition startpos moves e2e4 0000 e7e5\nisready\nquit\n",
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0 and "uciok" in done.stdout and "readyok" in done.stdout
    assert "Traceback" not in done.stderr


# -- hostile input --------------------------------------------------------------------------------
SEARCH_ENDS = 120  # seconds: a bounded go that has not answered by then hangs


def run_session(*lines: str, **options) -> tuple[UciEngine, list[str]]:
    """The lines handled in order, each search left to end by its own limit."""
    out = Transcript()
    uci = UciEngine(out, hash_mb=1, **options)
    for line in lines:
        assert uci.handle(line) is True
        if uci.search_thread is not None:
            uci.search_thread.join(SEARCH_ENDS)
            assert not uci.search_thread.is_alive(), f"{line!r} did not end by its limit"
    uci.handle("isready")
    assert out.lines[-1] == "readyok"
    return uci, out.lines


def bestmoves(lines: list[str]) -> list[str]:
    return [line.split()[1] for line in lines if line.startswith("bestmove")]


def test_the_null_move_is_no_move_of_chess():
    game = Chess()
    for text in ("0000", "--", "Z0"):
        with pytest.raises(IllegalMoveError, match="null move"):
            game.parse_move(game.initial_state(), text)


def test_a_null_move_ends_a_move_list_as_in_stockfish(compiled):
    uci, lines = run_session("position startpos moves e2e4 0000 e7e5")
    board = chess.Board()
    board.push_uci("e2e4")
    assert uci.game.fen(uci.state) == board.fen()
    assert any(line.startswith("info string move 2 is the null move") for line in lines)


def test_the_cli_refuses_a_null_move_in_one_line(capsys):
    from yipan.cli.main import main

    assert main(["analyze", "chess", "e4", "0000"]) == 2
    error = capsys.readouterr().err
    assert "null move" in error and "Traceback" not in error and error.count("\n") == 1


def test_an_error_in_a_handler_is_one_line_and_the_engine_lives(compiled, monkeypatch):
    out = Transcript()
    uci = UciEngine(out, hash_mb=1)
    uci.ready.wait()

    def broken() -> None:
        raise RuntimeError("the table is gone")

    monkeypatch.setattr(uci.engine, "clear", broken)
    assert uci.handle("ucinewgame") is True
    assert out.lines[-1] == ("info string ucinewgame: internal error: RuntimeError: "
                             "the table is gone")
    assert uci.handle("isready") is True and out.lines[-1] == "readyok"


def test_a_huge_halfmove_clock_in_a_fen_is_read(compiled):
    uci, lines = run_session(
        "position fen 4k3/8/8/8/8/8/8/4K2R w K - 99999999999999999999999 1", "go depth 2")
    assert not any("error" in line for line in lines)
    assert chess.Move.from_uci(bestmoves(lines)[0]) in chess.Board(uci.game.fen(uci.state)
                                                                   ).legal_moves


def test_searchmoves_restricts_the_root_and_keeps_the_other_limits(compiled):
    _, lines = run_session("go searchmoves e2e4 movetime 50",
                           "go searchmoves a2a3 h2h3 depth 3",
                           "go searchmoves a2a3 h7h6 nodes 2000")
    assert bestmoves(lines)[0] == "e2e4"
    assert bestmoves(lines)[1] in {"a2a3", "h2h3"}
    assert any(line.startswith("info depth 3 ") and (" pv a2a3" in line or " pv h2h3" in line)
               for line in lines)
    assert bestmoves(lines)[2] == "a2a3"
    assert "info string searchmoves: illegal move 'h7h6'" in lines


def test_searchmoves_leaving_out_the_mate_play_the_best_of_the_rest(compiled):
    mate_in_two = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"
    _, lines = run_session(f"position fen {mate_in_two}", "go searchmoves g3g6 g3h3 depth 5",
                           "go searchmoves g3h3 g3g4 e5f7 depth 3")
    assert bestmoves(lines)[0] == "g3g6"
    assert any(" score mate 2 " in line for line in lines)
    assert bestmoves(lines)[1] in {"g3h3", "g3g4", "e5f7"}


def test_a_damaged_table_is_set_aside_and_the_search_goes_on(compiled, tmp_path):
    (tmp_path / "KQK.tb").write_bytes(b"yipan-tablebase 1\nnot a table")
    board = chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
    _, lines = run_session(f"setoption name TablebasePath value {tmp_path}",
                           f"position fen {board.fen()}", "go depth 4")
    assert any(line.startswith("info string endgame tables not used: KQK") for line in lines)
    assert any(line.startswith("info depth 4 ") for line in lines)
    assert not any("search failed" in line for line in lines)
    assert chess.Move.from_uci(bestmoves(lines)[0]) in board.legal_moves


@pytest.mark.parametrize("fen", [
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1",  # bare kings: drawn by rule, the kings still move
    "r3k3/8/8/8/8/8/8/4K2R w - - 100 80",  # the fifty-move rule reached
])
def test_a_position_drawn_by_rule_still_gets_a_legal_move(compiled, fen):
    _, lines = run_session(f"position fen {fen}", "go depth 3", "go movetime 30")
    board = chess.Board(fen)
    assert len(bestmoves(lines)) == 2
    assert all(chess.Move.from_uci(move) in board.legal_moves for move in bestmoves(lines))


def test_moves_after_a_draw_by_rule_are_played(compiled):
    uci, lines = run_session("position fen r3k3/8/8/8/8/8/8/4K2R w - - 99 80 moves h1h2 a8a7",
                             "go depth 2")
    board = chess.Board("r3k3/8/8/8/8/8/8/4K2R w - - 99 80")
    board.push_uci("h1h2")
    board.push_uci("a8a7")
    assert uci.game.fen(uci.state) == board.fen()
    assert chess.Move.from_uci(bestmoves(lines)[0]) in board.legal_moves


def test_ponderhit_puts_a_pondering_search_on_its_clock(compiled):
    out = Transcript()
    uci = UciEngine(out, hash_mb=1)
    uci.handle("position startpos moves e2e4")
    uci.handle("go ponder wtime 2000 btime 2000")
    assert uci.search_thread is not None
    uci.handle("ponderhit")
    uci.search_thread.join(SEARCH_ENDS)  # no stop: the clock's share ends it
    assert not uci.search_thread.is_alive()
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(bestmoves(out.lines)[0]) in board.legal_moves
