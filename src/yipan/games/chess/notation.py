"""Chess notation through python-chess: FEN in and out, SAN, UCI, and PGN.

A state converts to a ``chess.Board`` by its FEN (with the moves that led to it when a PGN is
asked for); python-chess is the referee for what it reads: a FEN it refuses, or a position it
calls invalid (two kings in check, pawns on the back rank, a wrong en-passant square), is
refused here too. Moves are written in UCI (``e2e4``, ``e7e8q``, castling as the king's move
``e1g1``) and read in UCI or SAN (``e4``, ``Nf3``, ``O-O``, ``exd8=Q+``).

Chess960: a FEN whose castling rights python-chess refuses in chess but accepts in Chess960
(Shredder-FEN ``HAha``, X-FEN ``KQkq`` with the king off e1, or a file letter naming one of
two rooks) is read as a Chess960 position; its castling is the king taking its own rook
(``b1a1``), as python-chess and the UCI protocol write it, and its FEN is written as X-FEN
(``KQkq``, a file letter where two rooks stand on one side of the king), as python-chess
writes it.
"""

from __future__ import annotations

import re

import chess

from ...core import GameOptionError
from ...core.text import quote
from .board import (
    BLACK,
    BLACK_KING_SIDE,
    BLACK_QUEEN_SIDE,
    CASTLE,
    CHESS960,
    KEY,
    PIECE_LETTERS,
    ROOK,
    ROOK_FILE_SHIFT,
    WHITE,
    WHITE_KING_SIDE,
    WHITE_QUEEN_SIDE,
)

START_FEN = chess.STARTING_FEN
MAX_FEN_LENGTH = 120  # the longest sensible FEN is about 90 characters
UCI_MOVE = re.compile(r"^([a-h][1-8])([a-h][1-8])([qrbn]?)$")
PROMOTION_LETTERS = " nbrq"  # by the promotion field of a move (KNIGHT = 1 .. QUEEN = 4)
FILES = "abcdefgh"
TOLERATED = chess.STATUS_IMPOSSIBLE_CHECK | chess.STATUS_TOO_MANY_CHECKERS
"""Flags python-chess raises on positions no game reaches but the rules still cover (the
classic perft test positions have them): such positions are played as given."""


def square_name(square: int) -> str:
    return FILES[square & 7] + str((square >> 3) + 1)


def square_of(name: str) -> int:
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def uci(move: int) -> str:
    """A move in UCI: from-square, to-square, promotion letter (a Chess960 castling: the
    king's square and its rook's)."""
    promotion = (move >> 12) & 7
    text = square_name(move & 63) + square_name((move >> 6) & 63)
    if promotion and (move >> 15) & 3 != CASTLE:
        return text + PROMOTION_LETTERS[promotion]
    return text


def king_takes_rook(move: int) -> str:
    """A move in UCI as Chess960 writes it (UCI_Chess960): castling as the king taking its
    rook, ``e1h1`` for the usual layout's ``e1g1``; other moves as ``uci``."""
    if (move >> 15) & 3 == CASTLE and not (move >> 12) & 7:
        origin, target = move & 63, (move >> 6) & 63
        return square_name(origin) + square_name((target & 56) | (7 if target & 7 > 4 else 0))
    return uci(move)


def read_board(fen: str) -> chess.Board:
    """A python-chess board from FEN text, or a GameOptionError saying why not."""
    text = " ".join(str(fen).split())
    if not text or len(text) > MAX_FEN_LENGTH or not text.isascii():
        raise GameOptionError(f"not a FEN: {quote(text)}")
    try:
        board = chess.Board(text)
        if board.status() & chess.STATUS_BAD_CASTLING_RIGHTS:
            chess960 = chess.Board(text, chess960=True)
            if not chess960.status() & chess.STATUS_BAD_CASTLING_RIGHTS:
                board = chess960  # rights that only Chess960 gives
    except ValueError as error:
        raise GameOptionError(f"not a FEN ({str(error)[:80]}): {quote(text)}") from None
    status = board.status() & ~TOLERATED
    if status != chess.STATUS_VALID:
        problems = [flag.name.lower().replace("_", " ") for flag in chess.Status
                    if flag and flag in status and flag.name]
        raise GameOptionError(f"not a legal chess position ({', '.join(problems[:3])}): "
                              f"{quote(text)}")
    return board


def normal_fen(fen: str) -> str:
    """A FEN checked by python-chess, written as it writes it."""
    return read_board(fen).fen(en_passant="fen")


RIGHTS = ((chess.WHITE, WHITE_KING_SIDE, WHITE_QUEEN_SIDE),
          (chess.BLACK, BLACK_KING_SIDE, BLACK_QUEEN_SIDE))


def castling_bits(board: chess.Board) -> int:
    """The CASTLING field of a board (board.py): the usual layout's four bits, or a Chess960
    layout's rights with their rook files."""
    rights = board.clean_castling_rights()
    bits = usual = 0
    for colour, king_side, queen_side in RIGHTS:
        king = board.king(colour)
        for square in chess.scan_forward(rights & chess.BB_BACKRANKS
                                         & board.occupied_co[colour]):
            file = chess.square_file(square)
            right = king_side if king is not None and file > chess.square_file(king) \
                else queen_side
            bits |= right | (file << (ROOK_FILE_SHIFT + 3 * (right.bit_length() - 1)))
            if king is not None and chess.square_file(king) == 4 and file in (0, 7):
                usual |= right
    if usual == bits & 15:
        return usual
    return bits | CHESS960


def rook_file(bits: int, right: int) -> int:
    """The file of the rook of a right (a CASTLING bit) in a Chess960 layout's field."""
    return (bits >> (ROOK_FILE_SHIFT + 3 * (right.bit_length() - 1))) & 7


def castling_text(bits: int, fields: tuple) -> str:
    """The castling field of a FEN: ``KQkq``, or for a Chess960 layout X-FEN (a rook's file
    letter where another rook of its side stands farther out on the same wing)."""
    letters = ""
    for colour, king_side, queen_side in RIGHTS:
        rank = 0 if colour == chess.WHITE else 7
        rooks = fields[ROOK] & fields[WHITE if colour == chess.WHITE else BLACK] \
            & (0xFF << (8 * rank))
        for right, letter in ((king_side, "k"), (queen_side, "q")):
            if not bits & right:
                continue
            if bits & CHESS960:
                file = rook_file(bits, right)
                files = [other & 7 for other in chess.scan_forward(rooks)]
                outer = any(other > file for other in files) if right == king_side \
                    else any(other < file for other in files)
                if outer:
                    letter = "abcdefgh"[file]
            letters += letter.upper() if colour == chess.WHITE else letter
    return letters or "-"


def is_chess960(bits: int) -> bool:
    """Whether a CASTLING field is a Chess960 layout's (the position a Chess960 one)."""
    return bool(bits & CHESS960)


def fen_of(fields: tuple, fullmove: int) -> str:
    """FEN of a position's fields (the first ``KEY`` entries of a state, bitboards unsigned)."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            bit = 1 << (8 * rank + file)
            letter = next((PIECE_LETTERS[kind] for kind in range(6) if fields[kind] & bit), None)
            if letter is None:
                empty += 1
                continue
            if empty:
                row, empty = row + str(empty), 0
            row += letter.upper() if fields[WHITE] & bit else letter
        rows.append(row + (str(empty) if empty else ""))
    side, castling, ep, halfmove = fields[BLACK + 1:KEY]
    ep_text = square_name(ep) if ep < 64 else "-"
    return (f"{'/'.join(rows)} {'wb'[side]} {castling_text(castling, fields)} {ep_text} "
            f"{halfmove} {fullmove}")
