"""Syzygy tables through python-chess: a folder without tables is refused (command line, UCI),
a damaged file is one error, and the root move rule (keep the result, zeroing and the
smallest DTZ first when winning) checked on a stand-in prober.

Real Syzygy files are not available offline here, so the rule is checked on a stand-in with
python-chess's probing interface (``probe_wdl``, ``probe_dtz``) backed by yipan's own KRK
table: in KRK no winning line captures or moves a pawn, so its DTZ is the distance to mate."""

from __future__ import annotations

import random

import chess
import pytest

from yipan.cli.main import main
from yipan.core import Limit
from yipan.games.chess import Chess
from yipan.games.chess.engine import Engine
from yipan.games.chess.syzygy import SYZYGY_WIN, Syzygy
from yipan.games.chess.tablebase import DamagedTableError, Tablebase, TablebaseError, build
from yipan.protocols.uci import UciEngine

KRK = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> Tablebase:
    folder = tmp_path_factory.mktemp("krk")
    build(["KRK"], folder)
    return Tablebase(folder)


class StandIn:
    """python-chess's Syzygy probing interface over yipan's KRK table (WDL 2/0/-2; DTZ in
    plies, signed as Syzygy signs it); other material is a missing table."""

    def __init__(self, tables: Tablebase) -> None:
        self.tables = tables

    def _value(self, board: chess.Board) -> int:
        verdict = self.tables.probe(Chess(board.fen()).initial_state())
        if verdict is None:
            raise KeyError("no table")
        return verdict.value

    def probe_wdl(self, board: chess.Board) -> int:
        value = self._value(board)
        return 2 if value > 0 else -2 if value < 0 else 0

    def probe_dtz(self, board: chess.Board) -> int:
        value = self._value(board)
        return value if value > 0 else value + 1 if value < 0 else 0


def stand_in(tables: Tablebase) -> Syzygy:
    syzygy = object.__new__(Syzygy)
    syzygy._tables = StandIn(tables)  # type: ignore[assignment]
    return syzygy


def test_a_folder_without_tables_is_refused(tmp_path):
    with pytest.raises(TablebaseError, match="no Syzygy tables"):
        Syzygy(tmp_path)
    with pytest.raises(TablebaseError, match="no Syzygy folder"):
        Syzygy(tmp_path / "absent")


def test_the_command_line_refuses_it_in_one_line(tmp_path, capsys):
    for command in ("analyze", "solve", "play"):
        status = main([command, "chess", "--fen", KRK, "--syzygy", str(tmp_path)])
        out, err = capsys.readouterr()
        assert status == 2, (command, out, err)
        assert err.strip().count("\n") == 0 and "no Syzygy tables" in err


def test_a_damaged_file_is_one_error(tmp_path):
    (tmp_path / "KRvK.rtbw").write_bytes(b"not a table" * 50)
    (tmp_path / "KRvK.rtbz").write_bytes(b"not a table" * 50)
    syzygy = Syzygy(tmp_path)
    assert syzygy.files == 2
    with pytest.raises(DamagedTableError, match="Syzygy"):
        syzygy.root(Chess(KRK).initial_state())
    # material it has no file for is simply not covered
    assert syzygy.root(Chess("8/8/8/4k3/8/8/8/KQ6 w - - 0 1").initial_state()) is None


def test_uci_refuses_the_folder_and_keeps_running(tmp_path):
    lines: list[str] = []
    uci = UciEngine(lines.append, hash_mb=1)
    uci.handle("uci")
    assert "option name SyzygyPath type string default <empty>" in lines
    uci.handle(f"setoption name SyzygyPath value {tmp_path}")
    assert any(line.startswith("info string") and "no Syzygy tables" in line for line in lines)
    assert uci.engine.syzygy is None
    uci.handle("position fen 8/8/8/4k3/8/8/8/KR6 w - - 0 1")
    uci.handle("go depth 2")
    uci.stop_search()
    assert lines[-1].startswith("bestmove ")
    assert any(" tbhits " in line for line in lines if line.startswith("info depth"))


def test_the_root_move_keeps_the_result_fastest(tables):
    syzygy = stand_in(tables)
    rng = random.Random(5)
    checked = 0
    while checked < 12:
        squares = rng.sample(range(64), 3)
        board = chess.Board(None)
        for letter, square in zip("KRk", squares, strict=True):
            board.set_piece_at(square, chess.Piece.from_symbol(letter))
        board.turn = rng.random() < 0.5
        if not board.is_valid() or board.is_game_over():
            continue
        state = Chess(board.fen()).initial_state()
        answer = syzygy.root(state)
        value = tables.probe(state).value
        assert answer is not None
        child = Chess(board.fen()).play(state, answer.move)
        after = tables.probe(child).value
        if value > 0:  # a win: the move mates or leaves a loss one ply shorter
            assert answer.wdl == 2 and answer.score == SYZYGY_WIN - value
            assert after == -value or (value == 1 and after == -1)
        elif value < 0:  # a loss: the longest resistance the table knows
            assert answer.wdl == -2 and after == -value - 2
        else:
            assert answer.wdl == 0 and answer.score == 0 and after == 0
        checked += 1


def test_the_engine_answers_from_syzygy_after_its_own_tables(tables):
    engine = Engine(1, tables=None)
    engine.syzygy = stand_in(tables)
    found = engine.think(Chess(KRK).initial_state(), Limit(depth=3))
    assert found.endgame_table == "syzygy KRvK" and found.nodes == 0
    assert found.score == SYZYGY_WIN - 29
    own = Engine(1, tables=tables)
    own.syzygy = engine.syzygy
    assert own.think(Chess(KRK).initial_state(), Limit(depth=3)).endgame_table == "KRK"


def test_analyze_reports_a_syzygy_win_without_a_length(tables, monkeypatch):
    from yipan.core import AnalysisRequest
    from yipan.games.chess import hooks

    monkeypatch.setattr(hooks, "open_syzygy", lambda folder: stand_in(tables))
    monkeypatch.setattr(hooks, "analysis_engine",
                        lambda syzygy, network: Engine(8, tables=None, syzygy=syzygy))
    game = Chess(KRK)
    analysis = hooks.analyze(game, game.initial_state(),
                             AnalysisRequest(options={"syzygy": "somewhere"}))
    assert analysis.extra["tablebase"] == {"table": "syzygy KRvK", "outcome": "win",
                                           "moves_to_mate": None}
    assert not analysis.exact and analysis.engine == "Syzygy tables (python-chess)"
    child = game.play(game.initial_state(), analysis.move)
    assert tables.probe(child).value == -29  # the move keeps the fastest win


def test_each_analysis_has_its_own_syzygy_setting(tables, monkeypatch):
    from yipan.core import AnalysisRequest
    from yipan.games.chess import hooks

    monkeypatch.setattr(hooks, "open_syzygy", lambda folder: stand_in(tables))
    made: list[Engine] = []

    def engine_of(syzygy, network):
        made.append(Engine(1, tables=None, syzygy=syzygy))
        return made[-1]

    monkeypatch.setattr(hooks, "analysis_engine", engine_of)
    game = Chess(KRK)
    limit = Limit(depth=3)
    with_tables = hooks.analyze(game, game.initial_state(),
                                AnalysisRequest(limit=limit, options={"syzygy": "somewhere"}))
    without = hooks.analyze(game, game.initial_state(), AnalysisRequest(limit=limit))
    assert with_tables.extra["tablebase"]["table"] == "syzygy KRvK"
    assert without.extra["tablebase"] is None and without.nodes > 0
    assert len(made) == 2 and made[0].syzygy is not None and made[1].syzygy is None
