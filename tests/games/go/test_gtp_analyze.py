"""GTP for the analysis GUIs: lz-analyze and kata-analyze streamed to a ``gtp-yipan``
subprocess and read back as Sabaki reads them, the genmove_analyze commands, GoGui's analyze
commands, and showboard's result counted as final_score counts it."""

from __future__ import annotations

import io
import os
import queue
import random
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from yipan.games.go.rules import PASS, Go, Position
from yipan.protocols.gtp import GOGUI_ANALYZE_COMMANDS, GtpEngine

SRC = Path(__file__).resolve().parents[3] / "src"
GUARD_SECONDS = 120  # only so that a broken engine fails the test instead of hanging it
OPENING = ("b E5", "w C3", "b G7")


def sabaki_parse(line: str) -> list[dict[str, str | list[str]]]:
    """An ``info`` line as Sabaki's engine syncer parses it: segments after each ``info``,
    the trailing run of vertices the pv (cut at a pass), the tokens before ``pv`` key-value
    pairs; pass candidates dropped."""
    found: list[dict[str, str | list[str]]] = []
    for segment in re.split(r"\s*info\s+", line)[1:]:
        segment = segment.strip()
        match = re.search(r"(pass|[A-Za-z]\d+)(\s+(pass|[A-Za-z]\d+))*$", segment)
        if match is None:
            continue
        tokens = segment[:match.start()].strip().split()[:-1]
        run = match.group(0)
        cut = run.find("pass")
        pv = [v for v in (run if cut < 0 else run[:cut]).split() if len(v) >= 2]
        entry: dict[str, str | list[str]] = dict(zip(tokens[::2], tokens[1::2], strict=False))
        entry["pv"] = pv
        if re.fullmatch(r"[A-Za-z]\d+", str(entry.get("move", ""))):
            found.append(entry)
    return found


def position_after(game: Go, moves: tuple[str, ...]) -> Position:
    state = game.initial_state()
    for move in moves:
        state = game.play_checked(state, game.parse_move(state, move.split()[1]))
    return state


def assert_line_legal(game: Go, state: Position, line: list[str]) -> None:
    for vertex in line:
        state = game.play_checked(state, game.parse_move(state, vertex))


class Session:
    """``gtp-yipan`` as a GUI drives it: commands written, lines read as they come."""

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(SRC))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "yipan.protocols.gtp", "--seed", "5"],  # no playouts cap
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, env=env)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, command: str) -> None:
        assert self.process.stdin
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def line(self) -> str:
        line = self.lines.get(timeout=GUARD_SECONDS)
        assert line is not None, "the engine closed its output"
        return line

    def answer(self, command: str) -> str:
        """A whole ordinary answer: ``=`` and its lines up to the empty line."""
        self.send(command)
        lines = [self.line()]
        while lines[-1]:
            lines.append(self.line())
        text = "\n".join(lines).strip()
        assert text.startswith("="), (command, text)
        return text[1:].strip()

    def close(self) -> None:
        self.send("quit")
        assert self.process.wait(timeout=GUARD_SECONDS) == 0


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    session = Session()
    try:
        yield session
        session.close()
    finally:
        session.process.kill()
        session.process.wait()


def start_game(session: Session) -> tuple[Go, Position]:
    for command in ("boardsize 9", "komi 7.5", "clear_board", *(f"play {m}" for m in OPENING)):
        session.answer(command)
    game = Go(9, 7.5)
    return game, position_after(game, OPENING)


def stop_and_check_the_next_answer(session: Session, command: str = "name",
                                   answer: str = "= yipan") -> None:
    """A command stops the analysis: the stream ends with an empty line, the command is
    answered, and nothing is streamed after that answer."""
    session.send(command)
    line = session.line()
    while line:
        assert line.startswith("info "), line
        line = session.line()
    assert session.line() == answer
    assert session.line() == ""
    assert session.answer("protocol_version") == "2"


def test_lz_analyze_streams_candidates_until_the_next_command(session):
    game, state = start_game(session)
    session.send("lz-analyze 10")
    assert session.line() == "="
    totals = []
    for _ in range(3):
        line = session.line()
        assert line.startswith("info move ")
        parsed = sabaki_parse(line)
        assert parsed
        assert line.count("info move ") == len(parsed) + line.count("info move pass ")
        for order, entry in enumerate(parsed):
            assert set(entry) == {"move", "visits", "winrate", "prior", "lcb", "order", "pv"}
            assert int(entry["order"]) >= order  # a pass candidate may sit among them
            visits, winrate = int(str(entry["visits"])), int(str(entry["winrate"]))
            assert visits >= 1
            assert 0 <= int(str(entry["lcb"])) <= winrate <= 10000
            assert 0 <= int(str(entry["prior"])) <= 10000
            pv = entry["pv"]
            assert isinstance(pv, list) and pv[0] == entry["move"]
            assert game.is_legal(state, game.parse_move(state, str(entry["move"])))
            assert_line_legal(game, state, pv)
        visits_in_order = [int(str(e["visits"])) for e in parsed]
        assert visits_in_order == sorted(visits_in_order, reverse=True)
        totals.append(sum(visits_in_order))
    assert totals == sorted(totals)  # the search goes on between reports
    assert totals[-1] > totals[0]
    stop_and_check_the_next_answer(session)
    assert session.answer("play w D4") == ""  # the game goes on from the same position


def test_kata_analyze_with_ownership_and_root_info(session):
    game, state = start_game(session)
    session.send("kata-analyze w 10 ownership true rootInfo true minmoves 2 pvVisits true")
    assert session.line() == "="
    for _ in range(2):
        line = session.line()
        info, _, ownership = line.partition(" ownership ")
        values = [float(x) for x in ownership.split()]
        assert len(values) == 81 and all(-1 <= v <= 1 for v in values)
        info, _, root = info.partition(" rootInfo ")
        root_fields = dict(zip(root.split()[::2], root.split()[1::2], strict=True))
        assert 0 <= float(root_fields["winrate"]) <= 1
        parsed = sabaki_parse(info)
        assert len(parsed) >= 2
        for entry in parsed:
            assert 0 <= float(str(entry["winrate"])) <= 1
            assert 0 <= float(str(entry["lcb"])) <= float(str(entry["winrate"]))
            assert 0 <= float(str(entry["prior"])) <= 1
            assert float(str(entry["scoreLead"])) == float(str(entry["scoreMean"]))
            assert abs(float(str(entry["scoreLead"]))) <= 81 + 7.5
            pv = entry["pv"]
            assert isinstance(pv, list) and pv[0] == entry["move"]
            assert_line_legal(game, state, pv)  # white to move, as asked
        assert sum(int(str(e["visits"])) for e in parsed) <= int(root_fields["visits"])
    stop_and_check_the_next_answer(session, "stop", "=")  # KataGo's own way to stop


def test_an_empty_line_stops_the_analysis(session):
    start_game(session)
    session.send("lz-analyze 5")
    assert session.line() == "="
    assert session.line().startswith("info move ")
    session.send("")
    line = session.line()
    while line:
        assert line.startswith("info ")
        line = session.line()
    assert session.answer("name") == "yipan"


@pytest.fixture
def gtp() -> GtpEngine:
    return GtpEngine(playouts=200, rng=random.Random(2))


def test_genmove_analyze_ends_with_a_legal_play(gtp):
    gtp.handle("boardsize 7")
    gtp.handle("play b D4")
    for command, kind in (("lz-genmove_analyze w 1", "lz"), ("kata-genmove_analyze 1", "kata")):
        before = gtp.state
        answer = gtp.handle(command)
        lines = answer.split("\n")
        assert lines[0] == "=" and answer.endswith("\n\n")
        assert all(line.startswith("info move ") for line in lines[1:-3])
        for line in lines[1:-3]:
            winrate = sabaki_parse(line)[0]["winrate"]
            assert ("." in str(winrate)) == (kind == "kata")
        word, _, vertex = lines[-3].partition(" ")
        assert word == "play"
        move = gtp.game.parse_move(None, vertex)
        assert move == PASS or gtp.game.is_legal(before, move)
        assert gtp.moves[-1] == move


def test_analyze_alone_reports_once_and_refuses_bad_keys(gtp):
    answer = gtp.handle("lz-analyze 50 maxmoves 3")
    lines = answer.split("\n")
    assert lines[0] == "=" and lines[-2:] == ["", ""]
    assert len(lines) == 4 and lines[1].count("info move ") == 3
    assert gtp.handle("7 kata-analyze 10 minmoves 81").split("\n")[1].count("info move ") == 81
    for bad in ("lz-analyze 10 minmoves", "lz-analyze -1", "kata-analyze 10 ownership maybe",
                "kata-analyze 10 avoid b D4"):
        assert gtp.handle(bad).startswith("? syntax error"), bad


def test_the_playouts_bound_an_analysis_whose_report_then_stands(gtp):
    """With --playouts, the analysis stops searching there and waits for the next line."""
    out = io.StringIO()
    looks = []

    def waiting() -> bool:
        looks.append(len(out.getvalue()))
        return len(looks) > 3

    gtp.out, gtp.waiting = out, waiting
    assert gtp.handle("lz-analyze 0") == "\n"
    lines = out.getvalue().split("\n")
    assert lines[0] == "=" and lines[2:] == [""]
    assert len(set(looks[1:])) == 1  # nothing more is written while it waits
    assert sum(int(str(e["visits"])) for e in sabaki_parse(lines[1])) <= 200
    assert gtp.handle("name") == "= yipan\n\n"


def test_gogui_analyze_commands_each_answer(gtp):
    gtp.handle("boardsize 7")
    gtp.handle("play b D4")
    gtp.handle("play w C3")
    listed = gtp.handle("gogui-analyze_commands")[2:].strip().split("\n")
    assert tuple(listed) == GOGUI_ANALYZE_COMMANDS
    for entry in listed:
        kind, label, command = entry.split("/")
        assert label
        answer = gtp.handle(command)
        assert answer.startswith("=") and answer.endswith("\n\n"), (command, answer)
        body = answer[1:].strip()
        if kind in ("dboard", "sboard"):
            rows = body.split("\n")
            assert len(rows) == 7 and all(len(row.split()) == 7 for row in rows)
            if kind == "dboard":
                assert all(-1 <= float(x) <= 1 for row in rows for x in row.split())
            else:
                assert any(cell != '""' for row in rows for cell in row.split())
        elif kind == "gfx":
            for line in body.split("\n"):
                assert line.split()[0] in ("INFLUENCE", "LABEL", "COLOR", "VAR", "TEXT"), line
        elif kind in ("var", "plist"):
            points = [gtp.game.parse_move(None, word) for word in body.split()]
            if kind == "var":
                assert_line_legal(gtp.game, gtp.state, [gtp.game.format_move(p) for p in points])
        else:
            assert body == "0" or body[:2] in ("B+", "W+")


def test_showboard_counts_dead_stones_as_final_score_does():
    gtp = GtpEngine(playouts=600, rng=random.Random(5))
    gtp.handle("boardsize 5")
    gtp.handle("komi 0.5")
    for move in ("b B5", "w C5", "b B4", "w C4", "b B3", "w C3", "b B2", "w C2", "b B1",
                 "w C1", "b E3", "w pass", "b pass"):  # a dead black stone in white's area
        assert gtp.handle(f"play {move}").startswith("=")
    assert gtp.game.score(gtp.state) == 5.5  # Tromp-Taylor on the board as it stands
    board = gtp.handle("showboard")
    results = [line for line in board.split("\n") if line.startswith("result: ")]
    assert results == ["result: W+5.5"]  # 10 - 15 - 0.5 once E3 is removed
    assert gtp.handle("final_score") == "= W+5.5\n\n"


def test_serve_stops_an_analysis_at_the_next_line_it_was_given():
    """Lines given at once: the analysis reports once and ends, then the next is answered."""
    from yipan.protocols.gtp import serve

    out = io.StringIO()
    engine = GtpEngine(playouts=100, rng=random.Random(3))
    assert serve(["boardsize 7", "lz-analyze 1000", "name", "quit"], out, engine) == 0
    answers = out.getvalue().split("\n\n")
    assert answers[0] == "="
    head, info = answers[1].split("\n")
    assert head == "=" and info.startswith("info move ")
    assert answers[2:] == ["= yipan", "=", ""]


def test_candidates_share_out_the_root_playouts():
    """Each playout goes through one root move: the candidates' visits add up to the root's,
    the priors to 1, and the most visited is the move the engine would play."""
    from yipan.games.go.engine import Engine

    game = Go(7)
    engine = Engine(game, capacity=1 << 16, rng=random.Random(4))
    state = position_after(game, ("b D4", "w C3"))
    decision = engine.think(state, playouts=500)
    candidates = engine.candidates()
    assert engine.root_visits()[0] == 500 == sum(c.visits for c in candidates)
    assert abs(sum(c.prior for c in candidates) - 1) < 1e-9
    assert {c.move for c in candidates} <= set(game.legal_moves(state))  # own eyes left out
    assert all(c.pv[0] == c.move and 0 <= c.win_rate <= 1 for c in candidates)
    assert candidates[0].move == decision.move
