"""The UCCI engine under generated protocol lines: no line stops it or makes it crash, every
answer is one short line, and it still answers a real search with a legal move."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yipan.games.xiangqi import Xiangqi
from yipan.protocols.ucci import UcciEngine

WORDS = ["ucci", "isready", "position", "startpos", "fen", "moves", "go", "stop", "banmoves",
         "setoption", "hashsize", "usemillisec", "true", "newgame", "ponder", "draw",
         "ponderhit", "probe", "depth", "infinite", "nodes", "time", "movestogo",
         "increment", "opptime", "h2e2", "h9g7", "b0c2", "a0a9", "z9z9", "炮二平五", "C2=5",
         "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "9/9", "w", "b",
         "-", "0", "1", "-5", "99999999999999999999", "٣", ""]
LINE = st.lists(st.sampled_from(WORDS) | st.text(max_size=8), max_size=7).map(" ".join)
answers: list[str] = []


@pytest.fixture(scope="module")
def ucci() -> UcciEngine:
    from yipan.games.xiangqi.hooks import prepare

    prepare()
    return UcciEngine(lambda line: answers.append(line), hash_mb=1)


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(lines=st.lists(LINE, max_size=6))
def test_any_lines_leave_the_engine_answering(ucci: UcciEngine, lines: list[str]) -> None:
    answers.clear()
    ucci.handle("setoption newgame")
    for line in lines:
        if line.split()[:1] == ["quit"]:
            continue
        assert ucci.handle(line) is True
        ucci.stop_search()  # a "go" (ponder, infinite, or a deep one) ends here
    assert all("\n" not in answer and len(answer) < 2000 for answer in answers)
    answers.clear()
    ucci.handle("position startpos moves h2e2")
    ucci.handle("go nodes 300")
    ucci.stop_search()
    game = Xiangqi()
    state = game.play(game.initial_state(), game.parse_move(game.initial_state(), "h2e2"))
    assert game.parse_move(state, answers[-1].split()[1]) in game.legal_moves(state)
