"""The UCI engine under generated protocol lines: no line stops it or makes it crash, every
answer is one short line, and it still answers a real search with a legal move."""

from __future__ import annotations

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yipan.protocols.uci import UciEngine

WORDS = ["uci", "isready", "ucinewgame", "position", "startpos", "fen", "moves", "go", "stop",
         "setoption", "name", "value", "Hash", "Threads", "OwnBook", "Move", "Overhead",
         "depth", "nodes", "movetime", "wtime", "btime", "winc", "movestogo", "e2e4", "e7e5",
         "g1f3", "e1g1", "a7a8q", "O-O", "Nf3", "8/8/8/8/8/8/8/8", "w", "b", "KQkq", "-", "0",
         "1", "-5", "99999999999999999999", "٣", "debug", "on", "register", "ponderhit", ""]
LINE = st.lists(st.sampled_from(WORDS) | st.text(max_size=8), max_size=7).map(" ".join)


@pytest.fixture(scope="module")
def uci() -> UciEngine:
    from yipan.games.chess.hooks import prepare

    prepare()
    return UciEngine(lambda line: answers.append(line), hash_mb=1)


answers: list[str] = []


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(lines=st.lists(LINE, max_size=6))
def test_any_lines_leave_the_engine_answering(uci: UciEngine, lines: list[str]) -> None:
    answers.clear()
    uci.handle("ucinewgame")
    for line in lines:
        if line.split()[:1] == ["quit"]:
            continue
        assert uci.handle(line) is True
        uci.stop_search()  # a "go" (infinite, or a deep one) ends here
    assert all("\n" not in answer and len(answer) < 2000 for answer in answers)
    answers.clear()
    uci.handle("position startpos moves e2e4")
    uci.handle("go nodes 300")
    uci.stop_search()
    move = chess.Move.from_uci(answers[-1].split()[1])
    assert move in chess.Board(uci.game.fen(uci.state)).legal_moves
