"""Go games as SGF (FF[4], GM[1]) through ``sgfmill``: a game record read into the rules'
positions, and written back.

sgfmill numbers a point (row, col) with row 0 at the *bottom*; the rules' row 0 is the top.
Setup stones (AB/AW) that are the fixed handicap become the ``handicap`` option; any other
setup is a position of its own (``Go.position``), white to move after black's setup alone
unless PL says who. Moves are replayed by the rules (an illegal move is an error naming it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sgfmill import sgf, sgf_moves

from ...core import GameOptionError, IllegalMoveError
from .rules import BLACK, MAX_SIZE, MIN_SIZE, PASS, WHITE, Go, Position, handicap_points

MAX_SGF_BYTES = 4 << 20


class SgfError(GameOptionError):
    """A file that is not an SGF record of a Go game this program plays."""


@dataclass(frozen=True)
class Record:
    """A game read from SGF: the rules, the states from the start, the moves between them."""

    game: Go
    states: tuple[Position, ...]
    moves: tuple[int, ...]
    result: str | None = None


def _colour(name: str) -> int:
    return BLACK if name == "b" else WHITE


def read_sgf(data: bytes) -> Record:
    """Read an SGF game (its main line); raises SgfError or IllegalMoveError."""
    if len(data) > MAX_SGF_BYTES:
        raise SgfError(f"the SGF file is too large ({len(data)} bytes)")
    try:
        record = sgf.Sgf_game.from_bytes(data)
    except ValueError as error:
        why = str(error) or "it is not an SGF game record"
        raise SgfError(f"cannot read the SGF: {why[:100]}") from None
    root = record.get_root()
    if root.has_property("GM") and _raw(root, "GM").strip() != "1":
        raise SgfError("the SGF record is not of a Go game (GM is not 1)")
    size = record.get_size()
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise SgfError(f"board size {size} is out of range ({MIN_SIZE}..{MAX_SIZE})")
    board, plays, komi = _setup_moves_and_komi(record, size)
    occupied = board.list_occupied_points()  # [(colour, (row from the bottom, col)), ...]
    black = {(size - 1 - r, c) for colour, (r, c) in occupied if colour == "b"}
    white = {(size - 1 - r, c) for colour, (r, c) in occupied if colour == "w"}
    handicap = len(black) if not white and len(black) >= 2 else 0
    fixed = handicap and set(_safe_handicap(size, handicap)) == black
    game = Go(size, komi, handicap if fixed else 0)
    if fixed or not (black or white):
        state = game.initial_state()
    else:
        grid = game.grid
        to_move = WHITE if black and not white else BLACK
        if root.has_property("PL"):
            to_move = _colour(root.get("PL"))
        state = game.position(sum(1 << grid.bit(r, c) for r, c in black),
                              sum(1 << grid.bit(r, c) for r, c in white), to_move)
    states = [state]
    moves = []
    for number, (colour, point) in enumerate(plays, 1):
        if colour is None:
            continue
        move = PASS if point is None else game.point(size - 1 - point[0], point[1])
        current = states[-1]
        if _colour(colour) != current.to_move:
            current = current._replace(to_move=_colour(colour), passes=0)
        try:
            states.append(game.play_checked(current, move))
        except (IllegalMoveError, ValueError) as error:
            raise IllegalMoveError(f"SGF move {number} ({game.format_move(move)}): "
                                   f"{error}") from None
        moves.append(move)
    result = root.get("RE") if root.has_property("RE") else None
    return Record(game, tuple(states), tuple(moves), result)


def _setup_moves_and_komi(record: sgf.Sgf_game, size: int) -> tuple[Any, list, float]:
    """sgfmill's setup and moves, with what is wrong said in words: its own errors name
    neither the property nor the node (a point off the board raises a bare ValueError)."""
    root = record.get_root()
    board_name = f"the {size}x{size} board"
    try:
        komi = float(record.get_komi())
    except ValueError:
        raise SgfError(f"cannot read the SGF: the komi KM[{_raw(root, 'KM')}] is not a "
                       "number") from None
    for identifier in ("AB", "AW", "AE"):
        if root.has_property(identifier):
            try:
                root.get(identifier)
            except ValueError:
                raise SgfError(f"cannot read the SGF: the setup {identifier}"
                               f"[{_raw(root, identifier)}] is not a list of points of "
                               f"{board_name}") from None
    for number, node in enumerate(record.get_main_sequence()[1:], 1):
        for identifier in ("B", "W"):
            if node.has_property(identifier):
                try:
                    node.get(identifier)
                except ValueError:
                    raise SgfError(f"cannot read the SGF: move {number}, {identifier}"
                                   f"[{_raw(node, identifier)}], is not a point of "
                                   f"{board_name}") from None
    try:
        board, plays = sgf_moves.get_setup_and_moves(record)
    except ValueError as error:
        why = str(error) or "a property of the game is malformed"
        raise SgfError(f"cannot read the SGF: {why[:100]}") from None
    return board, plays, komi


def _raw(node: Any, identifier: str) -> str:
    """A property's text as written in the file, short."""
    try:
        text = node.get_raw(identifier).decode("utf-8", "replace")
    except (KeyError, ValueError):
        return ""
    return text if len(text) <= 20 else text[:20] + "…"


def _safe_handicap(size: int, stones: int) -> list[tuple[int, int]]:
    try:
        return handicap_points(size, stones)
    except GameOptionError:
        return []


def write_sgf(game: Go, states: Sequence[Position], moves: Sequence[int], *,
              result: str | None = None, names: tuple[str, str] | None = None) -> bytes:
    """The game as SGF: size, komi, handicap stones (or the first position's stones), the
    moves with their colours (from the states), and RE when the result is given."""
    record = sgf.Sgf_game(size=game.size)
    root = record.get_root()
    root.set("KM", game.komi)
    root.set("RU", "Chinese")
    start = states[0]
    size = game.size
    black = [(size - 1 - r, c) for r, c in _points(game, start.black)]
    white = [(size - 1 - r, c) for r, c in _points(game, start.white)]
    if game.handicap:
        root.set("HA", game.handicap)
    if black or white:
        root.set_setup_stones(black, white)
    if start.to_move == WHITE and not game.handicap:
        root.set("PL", "w")
    if names:
        root.set("PB", names[0])
        root.set("PW", names[1])
    if result:
        root.set("RE", result)
    for state, move in zip(states, moves, strict=False):
        node = record.extend_main_sequence()
        colour = "b" if state.to_move == BLACK else "w"
        if move == PASS:
            node.set_move(colour, None)
        else:
            row, col = divmod(move, size)
            node.set_move(colour, (size - 1 - row, col))
    return record.serialise()


def _points(game: Go, stones: int) -> list[tuple[int, int]]:
    return [divmod(p, game.size) for p, bit in enumerate(game.bits) if stones >> bit & 1]
