"""Chess rules against python-chess, the referee: legal moves, perft, outcomes, notation.

Random positions come from random games (hypothesis draws the moves), so every rule a game
can reach is met: castling through and out of check, en passant (pinned or not), promotions,
repetitions, the fifty-move rule and insufficient material.
"""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import DRAW, IllegalMoveError, InvalidMoveError, Outcome
from yipan.games.chess import Chess
from yipan.games.chess.hooks import perft
from yipan.games.chess.rules import fen, position_from_board, to_board
from yipan.search.perft import perft as generic_perft

from .conftest import reference_outcome

GAME = Chess()
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def reference_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += reference_perft(board, depth - 1)
        board.pop()
    return total


def random_game(choices: list[int], start: str = chess.STARTING_FEN):
    """Play the game's moves chosen by ``choices`` (indices into the legal moves) from
    ``start`` on both boards; yields (python-chess board, our state) after each move."""
    board = chess.Board(start)
    game = Chess(start)
    state = game.initial_state()
    yield board, state
    for choice in choices:
        moves = game.legal_moves(state)
        if not moves or game.outcome(state) is not None:
            return
        move = moves[choice % len(moves)]
        board.push(chess.Move.from_uci(game.format_move(move)))
        state = game.play(state, move)
        yield board, state


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=0, max_size=120),
       st.sampled_from([chess.STARTING_FEN, KIWIPETE,
                        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                        "4k3/8/8/8/8/8/8/4K2R w K - 99 80",
                        "k7/8/8/8/8/8/1q6/K7 w - - 0 1"]))
def test_moves_outcomes_and_fen_agree_with_python_chess(choices, start):
    for board, state in random_game(choices, start):
        ours = sorted(GAME.format_move(m) for m in GAME.legal_moves(state)) \
            if GAME.outcome(state) is None else []
        theirs = sorted(m.uci() for m in board.legal_moves) \
            if reference_outcome(board) is None else []
        assert ours == theirs, board.fen()
        assert GAME.outcome(state) == reference_outcome(board), board.fen()
        assert fen(state) == board.fen(en_passant="legal")
        assert position_from_board(board)[:13] == state[:13]  # the same key from scratch


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=0, max_size=60), st.integers(1, 3))
def test_perft_of_random_positions_agrees_with_python_chess(choices, depth):
    *_, (board, state) = random_game(choices)
    if GAME.outcome(state) is not None:
        return
    assert sum(perft(GAME, state, depth).values()) == reference_perft(board, depth)


def epd_cases(path, max_leaves: int) -> list:
    cases = []
    for line in path.read_text().splitlines():
        fen_text, *counts = (part.strip() for part in line.split(";"))
        for count in counts:
            depth, leaves = count.split()
            if int(leaves) <= max_leaves:
                cases.append((fen_text, int(depth[1:]), int(leaves)))
    return cases


def test_perft_of_the_reference_positions(shared_data):
    """Every position of perft_sunfish.epd, to every depth of at most 300,000 leaves."""
    cases = epd_cases(shared_data / "chess" / "perft_sunfish.epd", 300_000)
    assert len(cases) > 300
    for fen_text, depth, leaves in cases:
        game = Chess(fen_text)
        assert sum(perft(game, game.initial_state(), depth).values()) == leaves, \
            (fen_text, depth)


def test_kernel_perft_equals_the_generic_count_over_the_game_protocol():
    game = Chess(KIWIPETE)
    state = game.initial_state()
    assert perft(game, state, 2) == {m: len(game.legal_moves(game.play(state, m)))
                                     for m in game.legal_moves(state)}
    assert sum(perft(game, state, 3).values()) == generic_perft(game, state, 3) == 97862


def test_notation_reads_uci_and_san_and_writes_uci():
    state = GAME.initial_state()
    assert GAME.format_move(GAME.parse_move(state, "Nf3")) == "g1f3"
    assert GAME.parse_move(state, "e2e4") == GAME.parse_move(state, "e4")
    castle = Chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    start = castle.initial_state()
    assert castle.parse_move(start, "O-O") == castle.parse_move(start, "e1g1")
    assert castle.describe_move(start, castle.parse_move(start, "e1c1")) == "O-O-O"
    promote = Chess("8/P6k/8/8/8/8/8/K7 w - - 0 1")
    move = promote.parse_move(promote.initial_state(), "a8=N")
    assert promote.format_move(move) == "a7a8n"
    with pytest.raises(IllegalMoveError):
        GAME.play_checked(state, GAME.parse_move(state, "e2e5"))
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(state, "Qh5")
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(state, "Nb")  # not a move at all


def test_the_end_of_a_game_by_each_rule():
    mate = Chess("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert mate.outcome(mate.initial_state()) == Outcome(0)
    assert mate.termination(mate.initial_state()) == "checkmate"
    stalemate = Chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.termination(stalemate.initial_state()) == "stalemate"
    bare = Chess("8/8/4k3/8/8/3BK3/8/8 w - - 0 1")
    assert bare.termination(bare.initial_state()) == "insufficient material"
    fifty = Chess("8/8/4k3/8/8/3RK3/8/8 w - - 100 80")
    assert fifty.termination(fifty.initial_state()) == "fifty-move rule"
    state = GAME.initial_state()
    for text in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        state = GAME.play_checked(state, GAME.parse_move(state, text))
        assert GAME.outcome(state) is None
    state = GAME.play(state, GAME.parse_move(state, "Ng8"))
    assert GAME.termination(state) == "threefold repetition" and GAME.outcome(state) == DRAW


def test_en_passant_counts_only_when_legal():
    # after d7d5 the pawn on e5 is pinned to its king along the rank? No: by the rook on a5
    game = Chess("8/8/8/r2pP2K/8/8/8/7k w - d6 0 1")
    state = game.initial_state()
    assert state.ep == 64 and "e5d6" not in map(game.format_move, game.legal_moves(state))
    assert to_board(state).fen().split()[3] == "-"
    open_file = Chess("8/8/8/3pP3/8/8/8/K6k w - d6 0 1")
    assert "e5d6" in map(open_file.format_move, open_file.legal_moves(open_file.initial_state()))


def test_a_bad_fen_is_one_clear_error():
    from yipan.core import GameOptionError, get_game

    for text in ("garbage", "8/8/8/8/8/8/8/8 w - - 0 1", "k7/8/8/8/8/8/8/K6P w - - 0 1",
                 "x" * 5000):
        with pytest.raises(GameOptionError) as raised:
            get_game("chess", fen=text)
        assert len(str(raised.value)) < 200
