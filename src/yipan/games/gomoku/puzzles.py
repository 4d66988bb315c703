"""The Gomoku VCF puzzle file of the reference data (``$YIPAN_DATA/gomoku/vcf_puzzles.txt``).

The tests and two benchmarks read it; one reader here keeps them agreeing on the format, and a
malformed line stops with the file and the line number (``ValueError``) instead of a
``KeyError`` somewhere in a search loop. One puzzle a line, fields separated by ``|``; a line
starting with ``#`` is a comment, a blank line is skipped::

    P027 | VCF | rule=freestyle size=15 | to_move=white | len=3 attacker moves | moves=9,9 8,7 ...
    |      |     |                        |               |                       |
    id     kind  rule and board size      black or white  attacker moves in the   the game so far
                                                          shortest VCF

      ... | answers=10,8 11,7 12,7 | line=10,8 11,8 7,5 6,4 11,9 | verified=... | rapfi=...
            |                        |                             |
            winning first moves      one shortest winning line     key=value, ignored

The first five fields are positional; the rest are ``key=value`` in any order, ``moves`` and
``answers`` required, other keys ignored. Points are ``x,y`` pairs, 0-based, x the column and
y the row from the top (Gomocup's order, so the engine's point is ``y * size + x``); the moves
alternate, black first.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ...core.files import read_capped
from .rules import MAX_SIZE, MIN_SIZE, RULES

MAX_FILE_BYTES = 1 << 20  # the file holds a few dozen lines; anything near this is not it
SIDES = ("black", "white")

XY = tuple[int, int]


@dataclass(frozen=True)
class Puzzle:
    """One line of the file: the position (``moves``) and every first move that wins."""

    id: str
    rule: str
    size: int
    to_move: str  # "black" or "white", as the file says
    attacker_moves: int  # in the shortest VCF, counting the five-making move
    moves: tuple[XY, ...]
    answers: frozenset[XY]
    line: tuple[XY, ...]  # one shortest winning line: attacker, defender, attacker, ...

    def points(self) -> list[int]:
        """The moves as the engine's points (``y * size + x``), for ``Engine.reset``."""
        return [y * self.size + x for x, y in self.moves]


def read_puzzles(path: str | os.PathLike) -> list[Puzzle]:
    """The puzzles of the file at ``path``, in its order. ``ValueError`` naming the file and
    line on a malformed line; ``FileRefusedError`` (a ``ValueError`` too) when the path is not
    a regular file."""
    text = read_capped(path, MAX_FILE_BYTES, "puzzle file").decode("utf-8")
    puzzles = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            puzzles.append(_parse(raw))
        except ValueError as error:
            raise ValueError(f"{Path(path)}, line {number}: {error}: {raw[:80]!r}") from None
    return puzzles


def _parse(raw: str) -> Puzzle:
    fields = [field.strip() for field in raw.split("|")]
    if len(fields) < 6:
        raise ValueError(f"{len(fields)} fields separated by '|', at least 6 expected")
    ident, _kind, board, side, length, *rest = fields
    if not ident:
        raise ValueError("no puzzle id")
    setting = _pairs_of(board.split(), "rule/size")
    if set(setting) != {"rule", "size"}:
        raise ValueError(f"the third field is {board!r}, not 'rule=R size=N'")
    rule = setting["rule"]
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r} (rules: {', '.join(RULES)})")
    size = _integer(setting["size"], "size")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size {size} outside {MIN_SIZE}..{MAX_SIZE}")
    to_move = _pairs_of([side], "to_move").get("to_move")
    if to_move not in SIDES:
        raise ValueError(f"the fourth field is {side!r}, not 'to_move=black' or 'to_move=white'")
    if not length.startswith("len="):
        raise ValueError(f"the fifth field is {length!r}, not 'len=N attacker moves'")
    attacker_moves = _integer(length[4:].split(" ", 1)[0], "len")
    values = _pairs_of(rest, "field")
    for key in ("moves", "answers"):
        if key not in values:
            raise ValueError(f"no {key}= field")
    moves = _points(values["moves"], size, "moves")
    answers = _points(values["answers"], size, "answers")
    if not answers:
        raise ValueError("no answers")
    return Puzzle(ident, rule, size, to_move, attacker_moves, tuple(moves), frozenset(answers),
                  tuple(_points(values.get("line", ""), size, "line")))


def _pairs_of(items: list[str], what: str) -> dict[str, str]:
    pairs = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise ValueError(f"{what} {item!r} is not key=value")
        pairs[key.strip()] = value.strip()
    return pairs


def _integer(text: str, what: str) -> int:
    if not text.isdigit():
        raise ValueError(f"{what} {text!r} is not a whole number")
    return int(text)


def _points(text: str, size: int, what: str) -> list[XY]:
    points = []
    for pair in text.split():
        x, comma, y = pair.partition(",")
        if not comma or not x.isdigit() or not y.isdigit():
            raise ValueError(f"{what}: {pair!r} is not an x,y pair")
        if int(x) >= size or int(y) >= size:
            raise ValueError(f"{what}: {pair} is off the {size}x{size} board")
        points.append((int(x), int(y)))
    return points
