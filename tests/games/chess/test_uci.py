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

from yipan.protocols.uci import UciEngine

SRC = Path(__file__).resolve().parents[3] / "src"


@pytest.fixture(scope="module")
def compiled() -> None:
    """The kernels compiled here first, so the engine process only loads them."""
    from yipan.games.chess.hooks import prepare

    prepare()


@pytest.fixture(scope="module")
def engine(compiled):
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    client = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "yipan", "uci"],
                                                 timeout=120, env=env)
    yield client
    client.quit()


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
    info = engine.analyse(board, chess.engine.Limit(depth=8))
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
    done = subprocess.run([sys.executable, "-m", "yipan.protocols.uci"], input="uci\nquit\n",
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0 and "uciok" in done.stdout
