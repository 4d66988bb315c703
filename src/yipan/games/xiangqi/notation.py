"""Xiangqi's notations: FEN, ICCS coordinates and the traditional (Chinese and WXF) moves.

FEN (the convention of UCCI and Pikafish/Fairy-Stockfish): ranks from black's back rank (9)
down to red's (0), red upper case, ``K A B N R C P`` (``E`` and ``H`` read too), then the side
to move, ``w`` (or ``r``) red, ``b`` black; later fields are read and ignored. ICCS: files
``a``-``i`` from red's left, ranks ``0``-``9`` from red's side: ``h2e2``.

Traditional notation names the piece, its file, the direction and a number: 炮二平五 (WXF
``C2=5``). Files are counted from each player's own right: red writes them in Chinese
numerals (一..九; file ``i`` is 一), black in digits (1..9; file ``a`` is 1). 进 (``+``)
forward, 退 (``-``) back, 平 (``=`` or ``.``) along the rank; after 进/退 a piece that moves
along lines (general, rook, cannon, soldier) gives how many ranks, one that moves
diagonally (advisor, elephant, horse) the file it lands on. Two pieces of a kind on one file
are 前 (``+``, front) and 后 (``-``, rear), three 前 中 后; advisors and elephants never
need it (their moves tell them apart).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...core import IllegalMoveError, InvalidMoveError
from ...core.text import quote
from .board import ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, ROOK, SQUARES

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
FEN_PIECES = {"k": KING, "a": ADVISOR, "b": ELEPHANT, "e": ELEPHANT, "n": HORSE, "h": HORSE,
              "r": ROOK, "c": CANNON, "p": PAWN}
FEN_OF_KIND = {KING: "k", ADVISOR: "a", ELEPHANT: "b", HORSE: "n", ROOK: "r", CANNON: "c",
               PAWN: "p"}
ICCS_MOVE = re.compile(r"^([a-i])([0-9])-?([a-i])([0-9])$")
FILES = "abcdefghi"

# Chinese names: red, black (and the variants seen in books and software)
RED_NAMES = {KING: "帅", ADVISOR: "仕", ELEPHANT: "相", HORSE: "马", ROOK: "车", CANNON: "炮",
             PAWN: "兵"}
BLACK_NAMES = {KING: "将", ADVISOR: "士", ELEPHANT: "象", HORSE: "马", ROOK: "车", CANNON: "炮",
               PAWN: "卒"}
NAME_KINDS = {"帅": KING, "帥": KING, "将": KING, "將": KING, "仕": ADVISOR, "士": ADVISOR,
              "相": ELEPHANT, "象": ELEPHANT, "马": HORSE, "馬": HORSE, "傌": HORSE,
              "车": ROOK, "車": ROOK, "俥": ROOK, "炮": CANNON, "砲": CANNON, "兵": PAWN,
              "卒": PAWN}
WXF_LETTERS = {KING: "K", ADVISOR: "A", ELEPHANT: "E", HORSE: "H", ROOK: "R", CANNON: "C",
               PAWN: "P"}
WXF_KINDS = {"K": KING, "G": KING, "A": ADVISOR, "E": ELEPHANT, "B": ELEPHANT, "M": ELEPHANT,
             "H": HORSE, "N": HORSE, "R": ROOK, "C": CANNON, "P": PAWN}
CHINESE_DIGITS = "一二三四五六七八九"
FULL_WIDTH_DIGITS = "１２３４５６７８９"
OPERATIONS = {"进": "+", "進": "+", "退": "-", "平": "=", "+": "+", "-": "-", "=": "=",
              ".": "="}
CHINESE_OPERATIONS = {"+": "进", "-": "退", "=": "平"}
POSITIONS = {"前": "+", "后": "-", "後": "-", "中": "m"}
STRAIGHT = (KING, ROOK, CANNON, PAWN)


def square_name(square: int) -> str:
    return f"{FILES[square % 9]}{square // 9}"


def iccs(move: int) -> str:
    """A move as ICCS coordinates, ``h2e2``."""
    return square_name(move & 127) + square_name((move >> 7) & 127)


def read_fen(text: str) -> tuple[list[int], int]:
    """The 90 squares (board.py's codes) and the side to move of a FEN; a ValueError says
    what is wrong (the caller turns it into the GameOptionError people see)."""
    fields = str(text).split()
    if not fields:
        raise ValueError("an empty FEN")
    rows = fields[0].split("/")
    if len(rows) != 10:
        raise ValueError(f"a xiangqi FEN has 10 ranks, not {len(rows)}")
    squares = [0] * SQUARES
    for index, row in enumerate(rows):
        rank = 9 - index
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
            elif char.lower() in FEN_PIECES:
                if file >= 9:
                    break
                kind = FEN_PIECES[char.lower()]
                squares[9 * rank + file] = kind + (8 if char.islower() else 0)
                file += 1
            else:
                raise ValueError(f"unknown piece {char!r} in the FEN")
        if file != 9:
            raise ValueError(f"rank {rank} of the FEN has {file} files, not 9")
    side = fields[1].lower() if len(fields) > 1 else "w"
    if side not in ("w", "r", "b"):
        raise ValueError(f"the side to move is w or b, not {side!r}")
    return squares, 1 if side == "b" else 0


def write_fen(squares: Sequence[int], side: int, quiet: int = 0, fullmove: int = 1) -> str:
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(9):
            piece = squares[9 * rank + file]
            if piece == 0:
                empty += 1
                continue
            if empty:
                row, empty = row + str(empty), 0
            letter = FEN_OF_KIND[piece & 7]
            row += letter if piece >> 3 else letter.upper()
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {'b' if side else 'w'} - - {quiet} {fullmove}"


# -- traditional notation --------------------------------------------------------------------------
def file_number(square: int, colour: int) -> int:
    """The file as its player counts it (from their own right), 1..9."""
    return 9 - square % 9 if colour == 0 else square % 9 + 1


def _forward(colour: int) -> int:
    return 1 if colour == 0 else -1


def _tandem(squares: Sequence[int], origin: int) -> str:
    """'' when the piece is alone of its kind on its file, else '+', '-' or 'm' (middle)."""
    piece = squares[origin]
    kind, colour = piece & 7, piece >> 3
    if kind in (ADVISOR, ELEPHANT, KING):
        return ""
    file = origin % 9
    ranks = sorted((r for r in range(10) if squares[9 * r + file] == piece),
                   reverse=colour == 0)  # front first
    if len(ranks) < 2:
        return ""
    position = ranks.index(origin // 9)
    if position == 0:
        return "+"
    if position == len(ranks) - 1:
        return "-"
    return "m"


def _parts(squares: Sequence[int], move: int) -> tuple[int, int, str, str, int]:
    """(kind, colour, tandem mark, operation, number) of a move."""
    origin, target = move & 127, (move >> 7) & 127
    piece = squares[origin]
    kind, colour = piece & 7, piece >> 3
    ranks = (target // 9 - origin // 9) * _forward(colour)
    if ranks == 0:
        operation, number = "=", file_number(target, colour)
    else:
        operation = "+" if ranks > 0 else "-"
        number = abs(ranks) if kind in STRAIGHT else file_number(target, colour)
    return kind, colour, _tandem(squares, origin), operation, number


def wxf(squares: Sequence[int], move: int) -> str:
    """The move in WXF notation (``C2=5``, ``R+=3``, ``H2+3``)."""
    kind, colour, tandem, operation, number = _parts(squares, move)
    origin = move & 127
    where = str(file_number(origin, colour)) if tandem in ("", "m") else tandem
    return f"{WXF_LETTERS[kind]}{where}{operation}{number}"


def chinese(squares: Sequence[int], move: int) -> str:
    """The move in Chinese (炮二平五; black 马8进7; 前车进一)."""
    kind, colour, tandem, operation, number = _parts(squares, move)
    origin = move & 127
    name = (RED_NAMES if colour == 0 else BLACK_NAMES)[kind]

    def numeral(value: int) -> str:
        return CHINESE_DIGITS[value - 1] if colour == 0 else str(value)

    if tandem in ("+", "-", "m"):
        head = {"+": "前", "-": "后", "m": "中"}[tandem] + name
    else:
        head = name + numeral(file_number(origin, colour))
    return f"{head}{CHINESE_OPERATIONS[operation]}{numeral(number)}"


TRADITIONAL = re.compile(r"^([KGAEBMHNRCP])([1-9+\-])([+\-=.])([1-9])$")


def _digit(char: str) -> int | None:
    if char in CHINESE_DIGITS:
        return CHINESE_DIGITS.index(char) + 1
    if char in FULL_WIDTH_DIGITS:
        return FULL_WIDTH_DIGITS.index(char) + 1
    if char in "123456789":
        return int(char)
    return None


def _read_traditional(text: str) -> tuple[int, str, int | None, str, int] | None:
    """(kind, tandem mark or '', file or None, operation, number) of a traditional move, or
    None when the text is not one."""
    written = text.strip().rstrip("!?#")
    shape = TRADITIONAL.match(written.upper())
    if shape:
        letter, where, operation, number = shape.groups()
        kind = WXF_KINDS[letter]
        if where in "+-":
            return kind, where, None, OPERATIONS[operation], int(number)
        return kind, "", int(where), OPERATIONS[operation], int(number)
    shape = re.match(r"^([+\-])([KGAEBMHNRCP])([+\-=.])([1-9])$", written.upper())
    if shape:  # +R=3: the tandem mark written first
        where, letter, operation, number = shape.groups()
        return WXF_KINDS[letter], where, None, OPERATIONS[operation], int(number)
    if len(written) != 4:
        return None
    first, second, operation, last = written[0], written[1], written[2], written[3]
    if operation not in ("进", "進", "退", "平"):
        return None
    number = _digit(last)
    if number is None:
        return None
    if first in POSITIONS and second in NAME_KINDS:
        return NAME_KINDS[second], POSITIONS[first], None, OPERATIONS[operation], number
    if first in NAME_KINDS:
        if second in POSITIONS:  # 车前进一: the older order
            return NAME_KINDS[first], POSITIONS[second], None, OPERATIONS[operation], number
        file = _digit(second)
        if file is not None:
            return NAME_KINDS[first], "", file, OPERATIONS[operation], number
    return None


def looks_traditional(text: str) -> bool:
    return _read_traditional(text) is not None


def parse_traditional(squares: Sequence[int], side: int, legal: Sequence[int],
                      text: str) -> int:
    """The legal move a traditional move names (Chinese or WXF); InvalidMoveError when the
    text is not one, IllegalMoveError when no legal move (or more than one) fits."""
    read = _read_traditional(text)
    if read is None:
        raise InvalidMoveError(f"cannot read move {quote(text)}")
    kind, tandem, file, operation, number = read
    fits = []
    for move in legal:
        origin = move & 127
        piece = squares[origin]
        if piece & 7 != kind or piece >> 3 != side:
            continue
        _, _, mark, op, count = _parts(squares, move)
        if op != operation or count != number:
            continue
        if file is not None and file_number(origin, side) != file:
            continue
        if tandem and mark != tandem:
            continue
        fits.append(move)
    if len(fits) == 1:
        return fits[0]
    if not fits:
        raise IllegalMoveError(f"no legal move is {quote(text)}")
    raise InvalidMoveError(f"ambiguous move {quote(text)} (say 前 or 后: +R or -R)")
