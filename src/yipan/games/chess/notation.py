"""Chess notation through python-chess: FEN in and out, SAN, UCI, and PGN.

A state converts to a ``chess.Board`` by its FEN (with the moves that led to it when a PGN is
asked for); python-chess is the referee for what it reads: a FEN it refuses, or a position it
calls invalid (two kings in check, pawns on the back rank, a wrong en-passant square), is
refused here too. Moves are written in UCI (``e2e4``, ``e7e8q``, castling as the king's move
``e1g1``) and read in UCI or SAN (``e4``, ``Nf3``, ``O-O``, ``exd8=Q+``).
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
    KEY,
    PIECE_LETTERS,
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
    """A move in UCI: from-square, to-square, promotion letter."""
    promotion = (move >> 12) & 7
    text = square_name(move & 63) + square_name((move >> 6) & 63)
    return text + PROMOTION_LETTERS[promotion] if promotion else text


def read_board(fen: str) -> chess.Board:
    """A python-chess board from FEN text, or a GameOptionError saying why not."""
    text = " ".join(str(fen).split())
    if not text or len(text) > MAX_FEN_LENGTH or not text.isascii():
        raise GameOptionError(f"not a FEN: {quote(text)}")
    try:
        board = chess.Board(text)
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


def castling_bits(board: chess.Board) -> int:
    rights = board.clean_castling_rights()
    bits = 0
    for square, bit in ((chess.H1, WHITE_KING_SIDE), (chess.A1, WHITE_QUEEN_SIDE),
                        (chess.H8, BLACK_KING_SIDE), (chess.A8, BLACK_QUEEN_SIDE)):
        if rights & chess.BB_SQUARES[square]:
            bits |= bit
    return bits


def castling_text(bits: int) -> str:
    text = "".join(letter for letter, bit in (("K", WHITE_KING_SIDE), ("Q", WHITE_QUEEN_SIDE),
                                              ("k", BLACK_KING_SIDE), ("q", BLACK_QUEEN_SIDE))
                   if bits & bit)
    return text or "-"


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
    return (f"{'/'.join(rows)} {'wb'[side]} {castling_text(castling)} {ep_text} "
            f"{halfmove} {fullmove}")
