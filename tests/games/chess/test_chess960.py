"""Chess960 (Fischer random) against python-chess, the referee: castling with the king and its
rooks on any start files, read from X-FEN and Shredder-FEN, counted by perft, written as the
king taking its own rook, keyed for the table and repetitions; and the UCI engine in
``UCI_Chess960`` mode driven by python-chess's engine client."""

from __future__ import annotations

import random
import subprocess
import sys

import chess
import chess.engine
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.games.chess import Chess
from yipan.games.chess import board as kernel
from yipan.games.chess.hooks import export, perft
from yipan.games.chess.notation import king_takes_rook
from yipan.games.chess.rules import fen, position_from_board, to_board, to_row

from .conftest import reference_outcome

GAME = Chess()


def reference_divide(board: chess.Board, depth: int) -> dict[str, int]:
    """python-chess's leaves below each legal move, by the move's UCI text."""
    def count(depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += count(depth - 1)
            board.pop()
        return total

    leaves = {}
    for move in board.legal_moves:
        board.push(move)
        leaves[board.peek().uci()] = count(depth - 1)
        board.pop()
    return leaves


def our_divide(state, depth: int) -> dict[str, int]:
    """Our leaves below each move, by its text as UCI_Chess960 writes it (python-chess's
    Chess960 board writes every castling so, the usual layout's too)."""
    return {king_takes_rook(move): leaves
            for move, leaves in perft(GAME, state, depth).items()}


def random_960_game(number: int, plies: int, rng: random.Random):
    """A Chess960 start and ``plies`` random moves, on both boards (ours chosen by index into
    our moves, played on python-chess's by our UCI text); yields (board, state) after each."""
    board = chess.Board.from_chess960_pos(number)
    game = Chess(board.fen())
    state = game.initial_state()
    yield board, state
    for _ in range(plies):
        moves = game.legal_moves(state)
        if not moves or game.outcome(state) is not None:
            return
        move = moves[rng.randrange(len(moves))]
        board.push_uci(king_takes_rook(move))
        state = game.play(state, move)
        yield board, state


# -- the rules -------------------------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 959), st.integers(0, 40), st.integers(0, 2**32 - 1))
def test_chess960_games_agree_with_python_chess_move_by_move_and_by_perft(number, plies, seed):
    rng = random.Random(seed)
    for board, state in random_960_game(number, plies, rng):
        ours = sorted(king_takes_rook(m) for m in GAME.legal_moves(state))
        assert ours == sorted(m.uci() for m in board.legal_moves), board.fen()
        assert GAME.outcome(state) == reference_outcome(board), board.fen()
        assert fen(state) == board.fen()  # X-FEN, as python-chess writes it
        assert kernel.compute_key(to_row(state)) == state.key  # kept incrementally
        assert position_from_board(board)[:13] == state[:13]
    if GAME.legal_moves(state):
        depth = 2 + (seed % 3 == 0)  # a third of the cases one ply deeper
        assert our_divide(state, depth) == reference_divide(board, depth), board.fen()


TRICKY = [
    # the king already on its destination (g1), the rook coming to f1
    "1r3rk1/8/8/8/8/8/8/6KR w Hf - 0 1",
    # the rook already on its destination (f1), the king crossing to g1
    "4k3/8/8/8/8/8/8/4KR2 w F - 0 1",
    # king and rook swapping: king f1 to g1, rook g1 to f1 (both squares the other's)
    "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
    # the king on b1: a-side castling moves it to c1, its rook from a1 to d1
    "1k6/8/8/8/8/8/8/RK5R w AH - 0 1",
    # the king on g1 with its a-side rook on b1: the king crosses five squares
    "r5kr/8/8/8/8/8/8/1R4KR w BHah - 0 1",
    # the a-side rook on b1 shields c1 from the black rook on a1: gone after castling, so no
    # a-side castling (the king would land in check), though the king is not in check now
    "4k3/8/8/8/8/8/8/rRK4R w BH - 0 1",
    # a rook between the king and its destination on the other wing: no castling that way
    "4k3/8/8/8/8/8/8/1RK2R1R w BH - 0 1",
    # two rooks on the h-side: the right belongs to the inner one (X-FEN names its file)
    "4k3/8/8/8/8/8/8/2R1K1RR w G - 0 1",
    # a square the king crosses attacked by a bishop: no h-side castling
    "4k3/8/8/8/8/8/6b1/1RK4R w BH - 0 1",
    # both sides with rights on unusual files and en passant possible
    "rk2r3/ppp2ppp/8/3pP3/8/8/PPP2PPP/RK2R3 w EAea d6 0 5",
]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_castling_positions_perft_as_python_chess(text):
    board = chess.Board(text, chess960=True)
    assert board.is_valid(), text
    state = GAME.read_fen(text)
    for depth in (1, 2, 3):
        assert our_divide(state, depth) == reference_divide(board, depth), (text, depth)


def test_castling_moves_the_king_to_g_or_c_and_the_rook_to_f_or_d():
    state = GAME.read_fen("1k6/8/8/8/8/8/8/RK5R w AH - 0 1")
    castles = {GAME.format_move(m): m for m in GAME.legal_moves(state)
               if (m >> 15) & 3 == kernel.CASTLE}
    assert set(castles) == {"b1a1", "b1h1"}
    assert fen(GAME.play(state, castles["b1a1"])).startswith("1k6/8/8/8/8/8/8/2KR3R b - ")
    assert fen(GAME.play(state, castles["b1h1"])).startswith("1k6/8/8/8/8/8/8/R4RK1 b - ")
    assert GAME.describe_move(state, castles["b1a1"]) == "O-O-O"
    assert GAME.parse_move(state, "O-O") == castles["b1h1"]


def test_the_usual_layout_stays_the_usual_chess():
    """The usual start, even as Chess960 position 518 in Shredder-FEN, castles e1g1."""
    usual = GAME.read_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1")
    assert usual.castling == 15 and fen(usual).split()[2] == "KQkq"
    assert {GAME.format_move(m) for m in GAME.legal_moves(usual)
            if (m >> 15) & 3 == kernel.CASTLE} == {"e1g1", "e1c1"}
    assert GAME.parse_move(usual, "e1g1") == kernel.encode_move(4, 6, 0, kernel.CASTLE)
    assert GAME.read_fen(chess.Board.from_chess960_pos(518).fen()).castling == 15


def test_fen_in_shredder_or_x_fen_gives_one_position_written_in_x_fen():
    shredder = GAME.read_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
    x_fen = GAME.read_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KFkf - 2 9")
    assert shredder == x_fen
    assert fen(shredder) == "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    assert to_board(shredder).chess960


def test_rights_left_in_the_usual_layout_are_the_usual_rights():
    """Once the b1 rook has moved, the h1 rook's right is the usual K: the same position and
    key as from the FEN, castling e1g1 (e1h1 in Chess960's writing)."""
    game = Chess("4k3/8/8/8/8/8/8/1R2K2R w BH - 0 1")
    state = game.play(game.initial_state(), game.parse_move(game.initial_state(), "b1b2"))
    assert state[:13] == Chess(fen(state)).initial_state()[:13]
    assert fen(state) == "4k3/8/8/8/8/8/1R6/4K2R b K - 1 1" and state.castling == 1
    state = game.play(state, game.parse_move(state, "e8d8"))
    castling = game.parse_move(state, "e1g1")
    assert king_takes_rook(castling) == "e1h1"
    assert fen(game.play(state, castling)).startswith("3k4/8/8/8/8/8/1R6/5RK1 b - ")


def test_a_chess960_game_exports_as_pgn_with_its_variant():
    game = Chess("1k6/8/8/8/8/8/8/RK5R w AH - 0 1")
    start = game.initial_state()
    pgn = export(game, start, [game.parse_move(start, "O-O-O")])["pgn"]
    assert '[Variant "Chess960"]' in pgn and "1. O-O-O" in pgn


def test_keys_tell_rights_on_different_rooks_apart_and_repetitions_count():
    inner = GAME.read_fen("4k3/8/8/8/8/8/8/2R1K1RR w G - 0 1")
    outer = GAME.read_fen("4k3/8/8/8/8/8/8/2R1K1RR w H - 0 1")
    assert inner.key != outer.key
    # knights out and back twice: the start's third occurrence is a draw, rights kept
    game = Chess(chess.Board.from_chess960_pos(0).fen())
    state = game.initial_state()
    for text in ["d1c3", "d8c6", "c3d1", "c6d8"] * 2:
        state = game.play(state, game.parse_move(state, text))
    assert state.key == game.initial_state().key
    assert game.termination(state) == "threefold repetition"


@pytest.mark.parametrize("args", [
    ["analyze", "chess", "--fen", "1k6/8/8/8/8/8/8/RK5R w AH - 0 1", "--depth", "2"],
    ["perft", "chess", "--fen", "1k6/8/8/8/8/8/8/RK5R w AH - 0 1", "--depth", "2"],
])
def test_the_cli_takes_a_chess960_fen(args):
    done = subprocess.run([sys.executable, "-m", "yipan", *args], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_the_cli_refuses_impossible_castling_rights_in_one_line():
    # a right for a rook that is not there, in chess or in Chess960
    done = subprocess.run([sys.executable, "-m", "yipan", "perft", "chess", "--fen",
                           "1k6/8/8/8/8/8/8/1K5R w AH - 0 1", "--depth", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "castling" in done.stderr


# -- UCI in Chess960 mode through python-chess's engine client ------------------------------------
# white's only legal move is castling: the king stays on g1, the rook goes from h1 to f1
ONLY_CASTLING = "k4r2/8/8/8/8/7b/7P/6KR w H - 0 1"


def castlings_played(engine, board: chess.Board, plies: int) -> int:
    """Play up to ``plies`` of the engine's moves on ``board`` (each legal in python-chess's
    Chess960 board); how many of them castled."""
    castled = 0
    for _ in range(plies):
        if board.is_game_over():
            break
        result = engine.play(board, chess.engine.Limit(nodes=1_500))
        assert result.move in board.legal_moves, board.fen()
        castled += board.is_castling(result.move)
        board.push(result.move)
    return castled


def test_a_chess960_game_through_the_engine_client_castles_as_uci_says(engine):
    """python-chess sets UCI_Chess960 itself for a Chess960 board (the option is one it
    manages) and sends Shredder-FEN and king-takes-rook moves; every answer must be legal."""
    board = chess.Board(ONLY_CASTLING, chess960=True)
    result = engine.play(board, chess.engine.Limit(nodes=2_000))
    assert result.move == chess.Move.from_uci("g1h1") and board.is_castling(result.move)
    castled = 0
    rng = random.Random(960)
    for number in (rng.randrange(960), 518):
        castled += castlings_played(engine, chess.Board.from_chess960_pos(number), 24)
    # a game through the engine in which castling is forced, then played on
    castled += castlings_played(engine, chess.Board(ONLY_CASTLING, chess960=True), 12)
    assert castled >= 1


def test_multipv_and_ponder_in_chess960_mode(engine):
    board = chess.Board("1k6/8/8/8/8/8/PPP5/RK5R w AH - 0 1", chess960=True)
    infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
    assert len(infos) == 3
    for info in infos:
        line = board.copy()
        for move in info["pv"]:
            assert move in line.legal_moves, (line.fen(), move)
            line.push(move)
    result = engine.play(board, chess.engine.Limit(nodes=2_000), ponder=True)
    assert result.move in board.legal_moves
    if result.ponder is not None:
        board.push(result.move)
        assert result.ponder in board.legal_moves
