"""The UCI options GUIs and bots ask for (MultiPV, Ponder), driven through python-chess's
engine client as python-chess, cutechess and lichess-bot drive an engine, and line by line."""

from __future__ import annotations

import threading

import chess
import chess.engine
import pytest

from yipan.protocols import strength
from yipan.protocols.uci import UciEngine

SEARCH_ENDS = 120  # seconds: a search with a depth or node limit has ended long before

# a winning capture: white's queen takes the undefended black queen on d5
WINNING_CAPTURE = "4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1"
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"


class Transcript:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, line: str) -> None:
        with self.lock:
            self.lines.append(line)


def run_session(*lines: str) -> list[str]:
    """The lines handled in order, each search left to end by its own limit."""
    out = Transcript()
    uci = UciEngine(out, hash_mb=1)
    for line in lines:
        assert uci.handle(line) is True
        if uci.search_thread is not None and not uci.pondering \
                and not line.endswith("infinite"):
            uci.search_thread.join(SEARCH_ENDS)
            assert not uci.search_thread.is_alive(), f"{line!r} did not end by its limit"
    uci.handle("isready")
    assert out.lines[-1] == "readyok"
    return out.lines


def wait_for_depth(out: Transcript, depth: int) -> None:
    """Until the search has reported ``depth`` (it is running)."""
    finished = threading.Event()
    while not finished.wait(0.01):
        with out.lock:
            if any(line.startswith(f"info depth {depth} ") for line in out.lines):
                return


# -- MultiPV --------------------------------------------------------------------------------------
def test_multipv_is_declared_with_its_range(engine):
    option = engine.options["MultiPV"]
    assert (option.type, option.default, option.min) == ("spin", 1, 1)
    assert option.max >= 3


@pytest.mark.parametrize("fen", [WINNING_CAPTURE, MATE_IN_ONE])
def test_multipv_gives_distinct_lines_best_first(engine, fen):
    board = chess.Board(fen)
    limit = chess.engine.Limit(depth=4)
    best = engine.analyse(board, limit)["pv"][0]
    infos = engine.analyse(board, limit, multipv=3)
    assert len(infos) == 3
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3 and all(move in board.legal_moves for move in firsts)
    scores = [info["score"].relative for info in infos]
    assert scores == sorted(scores, reverse=True)
    assert firsts[0] == best
    assert all(info["depth"] == 4 and info["multipv"] == rank
               for rank, info in enumerate(infos, 1))


def test_multipv_reports_every_line_at_every_depth_and_is_capped_by_the_moves():
    lines = run_session("setoption name MultiPV value 5",
                        "position fen 7k/8/8/8/8/8/8/K7 w - - 0 1", "go depth 3")
    infos = [line.split() for line in lines if line.startswith("info depth")]
    # the lone king has three moves: three lines a depth, ranked 1 to 3
    assert [(words[2], words[words.index("multipv") + 1]) for words in infos] == [
        (str(depth), str(rank)) for depth in (1, 2, 3) for rank in (1, 2, 3)]
    assert {words[words.index("pv") + 1] for words in infos} == {"a1a2", "a1b1", "a1b2"}
    assert lines[-2].startswith("bestmove ")


def test_multipv_with_searchmoves_stays_among_them():
    lines = run_session("setoption name MultiPV value 3", "position startpos",
                        "go depth 3 searchmoves a2a3 h2h3")
    last = [line.split() for line in lines if line.startswith("info depth 3")]
    assert sorted(words[words.index("pv") + 1] for words in last) == ["a2a3", "h2h3"]


def test_multipv_in_xiangqi_gives_distinct_legal_lines():
    from yipan.games.xiangqi import Xiangqi

    out = Transcript()
    uci = UciEngine(out, hash_mb=1, variant="xiangqi")
    for line in ("setoption name MultiPV value 3", "position startpos", "go depth 3"):
        uci.handle(line)
    assert uci.search_thread is not None
    uci.search_thread.join(SEARCH_ENDS)
    last = [line.split() for line in out.lines if line.startswith("info depth 3 ")]
    firsts = [words[words.index("pv") + 1] for words in last]
    assert len(set(firsts)) == 3
    game = Xiangqi()
    state = game.initial_state()
    for text in firsts:
        uci.variant.read_move(game, state, text)  # legal, or IllegalMoveError


def test_the_chess_engine_never_plays_a_banned_root_move(compiled):
    from yipan.core import Limit
    from yipan.games.chess import Chess
    from yipan.games.chess.engine import Engine
    from yipan.games.chess.rules import legal_moves_of

    engine = Engine(1, tables=None)
    state = Chess(MATE_IN_ONE).initial_state()
    mate = engine.think(state, Limit(depth=3))
    assert mate is not None and Chess().format_move(mate.move) == "a1a8"
    banned = (mate.move,)
    second = engine.think(state, Limit(depth=3), banned=banned)
    assert second is not None and second.move not in banned and second.score < mate.score
    everything = legal_moves_of(state)
    alone = engine.think(state, Limit(depth=3), banned=everything[1:])
    assert alone is not None and alone.move == everything[0]


def test_stop_ends_an_infinite_multipv_search_with_one_answer(compiled):
    out = Transcript()
    uci = UciEngine(out, hash_mb=1)
    for line in ("setoption name MultiPV value 3", "position startpos", "go infinite"):
        uci.handle(line)
    wait_for_depth(out, 3)
    uci.handle("stop")
    answers = [line.split() for line in out.lines if line.startswith("bestmove")]
    assert len(answers) == 1
    assert chess.Move.from_uci(answers[0][1]) in chess.Board().legal_moves
    infos = [line.split() for line in out.lines if line.startswith("info depth 3 ")]
    ranks = [words[words.index("multipv") + 1] for words in infos]
    assert ranks[:3] == ["1", "2", "3"]


def test_a_bad_multipv_is_refused_and_one_line_kept():
    lines = run_session("setoption name MultiPV value 0", "position startpos", "go depth 2")
    assert any(line.startswith("info string setoption: MultiPV is 1 to") for line in lines)
    assert not any("multipv" in line for line in lines if line.startswith("info depth"))


# -- pondering ------------------------------------------------------------------------------------
def test_ponder_is_declared_and_a_game_ponders_on_the_expected_reply(engine):
    assert engine.options["Ponder"].type == "check"
    assert engine.options["Ponder"].default is False
    board = chess.Board()
    for _ in range(3):
        # python-chess sends go ponder on the expected reply after each bestmove ... ponder
        result = engine.play(board, chess.engine.Limit(depth=4), ponder=True)
        assert result.move in board.legal_moves
        board.push(result.move)
        assert result.ponder is not None and result.ponder in board.legal_moves
        board.push(result.ponder)


@pytest.mark.parametrize("ending", ["ponderhit", "stop"])
def test_go_ponder_answers_only_after_ponderhit_or_stop(compiled, ending):
    out = Transcript()
    uci = UciEngine(out, hash_mb=1)
    uci.handle("setoption name Ponder value true")
    uci.handle("position startpos moves e2e4 e7e5")
    uci.handle("go ponder wtime 1000 btime 1000")
    wait_for_depth(out, 3)
    assert not any(line.startswith("bestmove") for line in out.lines)
    thread = uci.search_thread
    assert thread is not None
    uci.handle(ending)  # stop waits for the answer; ponderhit lets the clock end it
    thread.join(SEARCH_ENDS)
    assert not thread.is_alive()
    answers = [line.split() for line in out.lines if line.startswith("bestmove")]
    assert len(answers) == 1
    words = answers[0]
    board = chess.Board()
    for move in ("e2e4", "e7e5", words[1]):
        board.push_uci(move)
    # a search stopped inside a depth that had just raised a new best move ponders on the
    # table's reply to it; where the table holds none, UCI allows a bestmove without ponder;
    # a ponder move given must be legal
    assert words[2:3] in ([], ["ponder"]) and len(words) in (2, 4)
    if len(words) == 4:
        assert chess.Move.from_uci(words[3]) in board.legal_moves
    assert not any(line.startswith("info string") for line in out.lines)


def test_a_line_of_one_move_ponders_on_the_tables_reply(compiled):
    """A depth stopped at a new best move leaves a line of one move: the reply the search
    stored for the position after it is pondered on, when it is legal there."""
    from dataclasses import replace

    from yipan.core import Limit

    uci = UciEngine(Transcript(), hash_mb=1)
    # the protocol warms its engine up in a thread; a search of ours must not share its memory
    assert uci.ready.wait(SEARCH_ENDS)
    engine = uci.variant.engine
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    state = uci.variant.new_game(board.fen()).initial_state()
    found = engine.think(state, Limit(depth=5))
    assert found is not None and len(found.pv) > 1
    cut = replace(found, pv=found.pv[:1])
    reply = uci.variant.ponder_move(state, cut)
    assert reply is not None
    board.push_uci(uci.variant.move_text(found.move))
    assert chess.Move.from_uci(uci.variant.move_text(reply)) in board.legal_moves
    assert uci.variant.ponder_move(state, found) == found.pv[1]
    engine.clear()  # nothing stored: no reply is made up
    assert uci.variant.ponder_move(state, cut) is None


def test_a_bad_ponder_value_is_refused_with_a_note():
    lines = run_session("setoption name Ponder value maybe")
    assert "info string setoption: Ponder is true or false" in lines


# -- Chess960 -------------------------------------------------------------------------------------
def test_chess960_castling_is_the_king_taking_its_rook_only_in_chess960_mode(engine):
    assert engine.options["UCI_Chess960"].type == "check"
    usual = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves "
    lines = run_session(
        # the king taking its own rook is no move while the option is false
        usual + "e1h1",
        "setoption name UCI_Chess960 value true",
        # in Chess960 mode it is the usual layout's castling, written so in the answer too
        usual + "e1h1 e8a8",
        usual.removesuffix(" moves "),
        "go depth 1 searchmoves e1c1",
        # a Chess960 layout in Shredder-FEN: h-side castling keeps the kings on g1 and g8
        "position fen 1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1 moves g1h1 g8h8",
        "go depth 2",
        "setoption name UCI_Chess960 value false",
        usual + "e1g1 e8a8")
    notes = [line for line in lines if line.startswith("info string")]
    assert notes[0].startswith("info string move 1 ('e1h1'): illegal move")
    assert notes[1].startswith("info string move 2 ('e8a8'): illegal move")
    assert len(notes) == 2
    answers = [line.split() for line in lines if line.startswith("bestmove")]
    assert answers[0][1] == "e1a1"  # searchmoves named it as the king's move, still castling
    board = chess.Board("1r3rk1/8/8/8/8/8/8/1R3RK1 w - - 2 2")
    assert chess.Move.from_uci(answers[1][1]) in board.legal_moves


# -- playing weaker -------------------------------------------------------------------------------
def test_strength_options_are_declared_with_their_ranges(engine):
    assert engine.options["UCI_LimitStrength"].type == "check"
    assert engine.options["UCI_LimitStrength"].default is False
    elo = engine.options["UCI_Elo"]
    assert (elo.type, elo.min, elo.max) == ("spin", strength.MIN_ELO, strength.MAX_ELO)
    assert engine.options["Seed"].min == 0


def test_a_weakened_engine_still_plays_legal_moves(engine):
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": strength.MIN_ELO, "Seed": 3})
    try:
        board = chess.Board()
        for _ in range(8):
            result = engine.play(board, chess.engine.Limit(depth=6))
            assert result.move in board.legal_moves
            board.push(result.move)
    finally:
        engine.configure({"UCI_LimitStrength": False})


def nodes_searched(elo: int) -> int:
    lines = run_session("setoption name UCI_LimitStrength value true",
                        f"setoption name UCI_Elo value {elo}", "setoption name Seed value 5",
                        "position startpos moves e2e4 e7e5 g1f3", "go depth 40")
    infos = [line.split() for line in lines if line.startswith("info depth")]
    return max(int(words[words.index("nodes") + 1]) for words in infos)


def test_a_lower_elo_searches_fewer_nodes():
    weakest, strongest = strength.MIN_ELO, strength.MAX_ELO
    low, high = nodes_searched(weakest), nodes_searched(strongest)
    assert low <= strength.node_budget(weakest) < high <= strength.node_budget(strongest)


def test_a_seed_makes_the_weak_choices_repeat():
    def moves(seed: int) -> list[str]:
        lines = run_session("setoption name UCI_LimitStrength value true",
                            f"setoption name UCI_Elo value {strength.MIN_ELO}",
                            f"setoption name Seed value {seed}", "position startpos",
                            *["go nodes 5000", "ucinewgame"] * 6)
        return [line.split()[1] for line in lines if line.startswith("bestmove")]

    first = moves(11)
    assert len(first) == 6 and first == moves(11)


def test_the_weighted_choice_prefers_the_better_lines():
    import random
    from dataclasses import dataclass

    @dataclass
    class Line:
        score: int

    lines = [Line(50), Line(40), Line(-300)]
    rng = random.Random(1)
    cold = [strength.choose(lines, strength.MAX_ELO, rng).score for _ in range(400)]
    warm = [strength.choose(lines, strength.MIN_ELO, rng).score for _ in range(400)]
    assert cold.count(-300) == 0 < warm.count(-300) < warm.count(50)
    assert cold.count(50) > cold.count(40) > 0
