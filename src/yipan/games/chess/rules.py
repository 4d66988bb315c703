"""Chess as a ``Game``: the rules, over the numba move generator of ``board``.

State encoding: ``Position``, a NamedTuple of ints (immutable, hashable)::

    pawns knights bishops rooks queens kings white black   bitboards, unsigned 64-bit
    turn castling ep halfmove key                            as in board.py's position row
    fullmove                                                 the FEN's move number
    history                                                  keys of the earlier positions
                                                             since the last capture or pawn
                                                             move (oldest first)

The first 13 fields are exactly a kernel position row (``board.POSITION_SIZE``), so a state
becomes a row with one array copy. Squares are numbered a1 = 0 .. h8 = 63 (board.py draws it).

The game ends, as engines and arbiters adjudicate it (automatic, not claimed): checkmate,
stalemate, insufficient material (python-chess's rule), the fifty-move rule (100 plies without
a capture or pawn move) and threefold repetition (the same position, side to move, castling
rights and legal en-passant capture for the third time).

Moves are ints (board.py: from, to, promotion, kind). ``format_move`` writes UCI (``e2e4``,
``e7e8q``, castling ``e1g1``): it needs no position, so the same text names the move
everywhere (CLI, web, UCI, recorded games). ``parse_move`` reads UCI or SAN (``Nf3``,
``O-O``, ``exd8=Q+``); ``describe_move`` gives SAN for people.

Chess960 positions come from their FEN (notation.py says which FENs are read so): their
castling is written and read as the king taking its own rook (``b1a1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, cast

import chess
import numpy as np

from ...chess_family.rules import FamilyGame, Kernel
from ...core import DRAW, GameInfo, IllegalMoveError, InvalidMoveError, Outcome
from ...core.drawing import notebook_html
from ...core.text import quote
from . import board as kernel
from .board import (
    BISHOP,
    CASTLE,
    KEY,
    KING,
    KNIGHT,
    MAX_MOVES,
    NO_SQUARE,
    PAWN,
    POSITION_SIZE,
    QUEEN,
    ROOK,
)
from .notation import (
    START_FEN,
    UCI_MOVE,
    castling_bits,
    fen_of,
    is_chess960,
    read_board,
    square_name,
    square_of,
    uci,
)

MAX_MOVE_TEXT = 16  # the longest SAN is "exd8=Q+" with annotations; more is not a move
MAX_HALFMOVE = 1 << 20  # a FEN's halfmove clock is read up to this (100 is the rule's)


class Position(NamedTuple):
    """A chess position with what the rules need of its past (module docstring)."""

    pawns: int
    knights: int
    bishops: int
    rooks: int
    queens: int
    kings: int
    white: int
    black: int
    turn: int  # 0 white, 1 black
    castling: int
    ep: int
    halfmove: int
    key: int
    fullmove: int = 1
    history: tuple[int, ...] = ()

    def _repr_html_(self) -> str:
        """Drawn in a notebook."""
        return notebook_html("chess", self)


def bitboard(state: Position, index: int) -> int:
    """One of the eight bitboards (``state[index]`` for index 0-7), typed as the int it is."""
    return cast(int, state[index])


def to_row(state: Position) -> np.ndarray:
    """The kernel's position row of a state."""
    row = np.empty(POSITION_SIZE, dtype=np.int64)
    row[:8] = np.array(state[:8], dtype=np.uint64).view(np.int64)
    row[8:] = state[8:POSITION_SIZE]
    return row


def from_row(row: np.ndarray, fullmove: int, history: tuple[int, ...]) -> Position:
    fields = [*row[:8].view(np.uint64).tolist(), *row[8:POSITION_SIZE].tolist(), fullmove,
              history]
    return Position._make(fields)


def position_from_board(board: chess.Board) -> Position:
    """A state from a python-chess board (its move stack is not read: no history)."""
    row = np.zeros(POSITION_SIZE, dtype=np.int64)
    pieces = (board.pawns, board.knights, board.bishops, board.rooks, board.queens,
              board.kings, board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK])
    row[:8] = np.array(pieces, dtype=np.uint64).view(np.int64)
    row[kernel.SIDE] = 0 if board.turn == chess.WHITE else 1
    row[kernel.CASTLING] = castling_bits(board)
    row[kernel.HALFMOVE] = min(board.halfmove_clock, MAX_HALFMOVE)
    kernel.finish_setup(row, NO_SQUARE if board.ep_square is None else board.ep_square)
    return from_row(row, board.fullmove_number, ())


def position_from_fen(fen: str) -> Position:
    return position_from_board(read_board(fen))


def fen(state: Position) -> str:
    return fen_of(tuple(state[:KEY]), state.fullmove)


def to_board(state: Position) -> chess.Board:
    """The state as a python-chess board, in Chess960 mode for a Chess960 layout (whose
    castling moves python-chess writes as this module does)."""
    return chess.Board(fen(state), chess960=is_chess960(state.castling))


KERNEL = Kernel(to_row, lambda row, out: kernel.generate(row, out, False, False),
                kernel.in_check, kernel.make_move, MAX_MOVES, POSITION_SIZE)
legal_moves_of = KERNEL.legal_moves
is_check = KERNEL.is_check
_moves_and_check = KERNEL.moves_and_check


def play_move(state: Position, move: int) -> Position:
    """The state after a legal move (unchecked)."""
    _, child = KERNEL.after(state, move)
    fullmove = state.fullmove + state.turn  # after black's move the number goes up
    history = () if child[kernel.HALFMOVE] == 0 else (*state.history, state.key)
    return from_row(child, fullmove, history)


def repetitions(state: Position) -> int:
    """How many times this position occurred before (the same key, within the history)."""
    return state.history.count(state.key)


def insufficient_material(state: Position) -> bool:
    return bool(kernel.insufficient_material(to_row(state)))


class Chess(FamilyGame[Position]):
    """Chess from the usual start or from a FEN (``Chess(fen=...)``)."""

    info = GameInfo(name="chess", title="Chess", heuristic=True, move_ordering=True,
                    max_branching=218)
    usual_start = START_FEN
    kernel = KERNEL
    read_fen = staticmethod(position_from_fen)
    play_move = staticmethod(play_move)
    player_names = ("white", "black")

    # -- the rules ------------------------------------------------------------------------------
    def outcome(self, state: Position) -> Outcome | None:
        moves, check = _moves_and_check(state)
        if not moves:
            return Outcome(1 - state.turn) if check else DRAW
        if state.halfmove >= 100 or repetitions(state) >= 2 or insufficient_material(state):
            return DRAW
        return None

    def termination(self, state: Position) -> str | None:
        """Why the game ended, in words (None while it goes on)."""
        moves, check = _moves_and_check(state)
        if not moves:
            return "checkmate" if check else "stalemate"
        if insufficient_material(state):
            return "insufficient material"
        if state.halfmove >= 100:
            return "fifty-move rule"
        if repetitions(state) >= 2:
            return "threefold repetition"
        return None

    # -- notation -------------------------------------------------------------------------------
    def format_move(self, move: int) -> str:
        return uci(move)

    def parse_move(self, state: Position, text: str) -> int:
        written = str(text).strip()
        if not written or len(written) > MAX_MOVE_TEXT or not written.isascii():
            raise InvalidMoveError(f"cannot read move {quote(written)} (UCI e2e4 or SAN Nf3)")
        shape = UCI_MOVE.match(written.lower()) if len(written) in (4, 5) else None
        if shape:
            origin, target = square_of(shape.group(1)), square_of(shape.group(2))
            promotion = " nbrq".index(shape.group(3)) if shape.group(3) else 0
            for move in legal_moves_of(state):
                if move & 0xFFF == origin | (target << 6) and promotion == (
                        0 if is_castling(move) else (move >> 12) & 7):
                    return move
            return origin | (target << 6) | (promotion << 12)  # illegal: play_checked says so
        board = to_board(state)
        try:
            found = board.parse_san(written)
        except chess.IllegalMoveError:
            raise IllegalMoveError(f"illegal move {quote(written)}") from None
        except chess.AmbiguousMoveError:
            raise InvalidMoveError(f"ambiguous move {quote(written)}") from None
        except ValueError:
            raise InvalidMoveError(f"cannot read move {quote(written)} (UCI e2e4 or SAN Nf3)"
                                   ) from None
        if not found:  # python-chess reads 0000, --, Z0 and @@@@ as the null move
            raise IllegalMoveError(f"{quote(written)} is a null move (a pass), which is not "
                                   "a move of chess")
        return self.parse_move(state, found.uci())

    def describe_move(self, state: Position, move: int) -> str:
        """The move in SAN (``Nf3``, ``O-O``, ``exd8=Q+``)."""
        return to_board(state).san(chess.Move.from_uci(uci(move)))

    def san_line(self, state: Position, moves: Sequence[int]) -> list[str]:
        """A line of moves in SAN, each from the position the earlier ones reach."""
        board = to_board(state)
        line = []
        for move in moves:
            try:  # parse_uci: a Chess960 board reads the usual layout's e1g1 as e1h1
                played = board.parse_uci(uci(move))
            except ValueError:
                break
            line.append(board.san(played))
            board.push(played)
        return line

    def fen(self, state: Position) -> str:
        return fen(state)

    def to_board(self, state: Position) -> chess.Board:
        """The position as a python-chess board (no move stack)."""
        return to_board(state)

    # -- people and pages ------------------------------------------------------------------------
    def render(self, state: Position) -> str:
        """The board with Unicode pieces, rank 8 at the top, and who is to move."""
        lines = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                piece = piece_at(state, 8 * rank + file)
                cells.append(UNICODE_PIECES[piece] if piece else "·")
            lines.append(f"{rank + 1} {' '.join(cells)}")
        lines.append("  a b c d e f g h")
        status = f"{self.player_names[state.turn]} to move"
        if is_check(state) and _moves_and_check(state)[0]:
            status += ", in check"
        lines.append(status)
        return "\n".join(lines)

    def view(self, state: Position) -> dict[str, Any]:
        """The board for the web page: ``{"kind": "chess", "board": 8 rows of 8 piece letters
        or null (rank 8 first; white upper case), "files": "abcdefgh", "ranks": "87654321",
        "turn": "white"|"black", "check": square name of a king in check or null,
        "moves": {from: [{"to": square, "move": uci, "promotion": letter|null}, ...]},
        "fen": FEN}``; a click on a piece then on a target plays ``move`` (the page asks which
        piece when several moves differ only by promotion)."""
        board = [[piece_at(state, 8 * rank + file) or None for file in range(8)]
                 for rank in range(7, -1, -1)]
        moves: dict[str, list[dict[str, Any]]] = {}
        if self.outcome(state) is None:
            for move in legal_moves_of(state):
                text = uci(move)
                moves.setdefault(text[:2], []).append(
                    {"to": text[2:4], "move": text, "promotion": text[4:] or None})
        check = None
        if is_check(state):
            check = square_name(int(state.kings & (state.white if state.turn == 0
                                                    else state.black)).bit_length() - 1)
        return {"kind": "chess", "board": board, "files": "abcdefgh", "ranks": "87654321",
                "turn": self.player_names[state.turn], "check": check, "moves": moves,
                "fen": fen(state)}

    # -- for the generic searches ----------------------------------------------------------------
    def evaluate(self, state: Position) -> float:
        from .evaluation import evaluate_state

        return float(evaluate_state(to_row(state)))

    def order_moves(self, state: Position, moves: Sequence[int]) -> list[int]:
        """Captures first, most valuable victim first, then promotions, then the rest."""
        def key(move: int) -> int:
            victim = piece_at(state, (move >> 6) & 63)
            score = 10 * (PIECE_ORDER.index(victim.lower()) + 1) if victim else 0
            if (move >> 15) & 3 == kernel.EN_PASSANT:
                score = 10
            return -(score + ((move >> 12) & 7))
        return sorted(moves, key=key)


PIECE_ORDER = "pnbrqk"
UNICODE_PIECES = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
                  "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟"}
_KINDS = ((PAWN, "p"), (KNIGHT, "n"), (BISHOP, "b"), (ROOK, "r"), (QUEEN, "q"), (KING, "k"))


def piece_at(state: Position, square: int) -> str:
    """The piece on a square as a FEN letter (white upper case), or "" when empty."""
    bit = 1 << square
    for kind, letter in _KINDS:
        if bitboard(state, kind) & bit:
            return letter.upper() if state.white & bit else letter
    return ""


def is_castling(move: int) -> bool:
    return (move >> 15) & 3 == CASTLE
