"""Xiangqi as a ``Game``: the rules, over the numba move generator of ``board``.

State encoding: ``Position``, a NamedTuple (immutable, hashable)::

    squares   bytes of 90: the piece on each square, board.py's codes and numbering
              (9 * rank + file, rank 0 red's back rank; 0 empty, colour * 8 + kind)
    turn      0 red to move, 1 black
    key       the Zobrist key (board.py), the identity of a position for repetitions
    quiet     plies since the last capture
    fullmove  the FEN's move number
    history   keys of the earlier positions since the last capture (oldest first)
    checks    for each of them, whether its side to move was in check (the moves that
              gave check, for the perpetual-check rule)
    chases    for each of them, whether the move that led to it was a chase (below)
    chased    whether the move that led to this position was a chase

The rule set is in the package docstring (``yipan.games.xiangqi``): no legal move loses;
the third occurrence of a position ends the game, lost by a side that checked with every move
since the first, else drawn; 120 plies without a capture draw.

Moves are ints (``from | to << 7``). ``format_move`` writes ICCS (``h2e2``), which needs no
position; ``parse_move`` reads ICCS, Chinese (炮二平五) and WXF (``C2=5``);
``describe_move`` gives the Chinese and ``wxf_move`` the WXF for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ...chess_family.rules import FamilyGame, Kernel
from ...core import (
    DRAW,
    GameInfo,
    GameOptionError,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
)
from ...core.drawing import notebook_html
from ...core.text import quote
from . import board as kernel
from .board import KEY, MAX_MOVES, POSITION_SIZE, QUIET, SIDE, SQUARES
from .notation import (
    BLACK_NAMES,
    ICCS_MOVE,
    RED_NAMES,
    START_FEN,
    chinese,
    iccs,
    looks_traditional,
    parse_traditional,
    read_fen,
    square_name,
    write_fen,
    wxf,
)

MAX_MOVE_TEXT = 12
NULL_MOVES = ("0000", "--")  # a pass, as UCI and PGN write it
QUIET_LIMIT = 120  # plies without a capture: a draw (the sixty-move rule)


class Position(NamedTuple):
    """A xiangqi position with what the rules need of its past (module docstring)."""

    squares: bytes
    turn: int
    key: int
    quiet: int = 0
    fullmove: int = 1
    history: tuple[int, ...] = ()
    checks: tuple[bool, ...] = ()
    chases: tuple[bool, ...] = ()
    chased: bool = False

    def _repr_html_(self) -> str:
        """Drawn in a notebook."""
        return notebook_html("xiangqi", self)


def to_row(state: Position) -> np.ndarray:
    """The kernel's position row of a state."""
    row = np.zeros(POSITION_SIZE, dtype=np.int64)
    row[:SQUARES] = np.frombuffer(state.squares, dtype=np.uint8)
    row[SIDE] = state.turn
    kernel.finish_setup(row)
    row[QUIET] = state.quiet
    return row


def position_from_fen(fen: str) -> Position:
    """A state from a FEN (GameOptionError when it is not a playable position)."""
    try:
        squares, side = read_fen(fen)
    except ValueError as error:
        raise GameOptionError(f"bad FEN {quote(str(fen), 60)}: {error}") from None
    for colour, name in ((0, "red"), (1, "black")):
        if squares.count(colour * 8 + kernel.KING) != 1:
            raise GameOptionError(f"bad FEN: {name} needs exactly one general")
    fields = str(fen).split()
    quiet = int(fields[4]) if len(fields) > 4 and fields[4].isdigit() else 0
    fullmove = int(fields[5]) if len(fields) > 5 and fields[5].isdigit() else 1
    row = np.zeros(POSITION_SIZE, dtype=np.int64)
    row[:SQUARES] = squares
    row[SIDE] = side
    kernel.finish_setup(row)
    for colour in (0, 1):
        king = row[kernel.KINGS + colour]
        if not _in_palace(colour, king):
            raise GameOptionError(f"bad FEN: the {('red', 'black')[colour]} general is "
                                  "outside its palace")
    if kernel.attacked(row, row[kernel.KINGS + 1 - side], side):
        raise GameOptionError("bad FEN: the side not to move is in check")
    return Position(bytes(squares), side, int(row[KEY]), min(quiet, QUIET_LIMIT), fullmove)


def _in_palace(colour: int, square: int) -> bool:
    rank, file = divmod(int(square), 9)
    return 3 <= file <= 5 and (rank <= 2 if colour == 0 else rank >= 7)


def fen(state: Position) -> str:
    return write_fen(state.squares, state.turn, state.quiet, state.fullmove)


KERNEL = Kernel(to_row, lambda row, out: kernel.generate(row, out, False), kernel.in_check,
                kernel.make_move, MAX_MOVES, POSITION_SIZE)
legal_moves_of = KERNEL.legal_moves
is_check = KERNEL.is_check
_moves_and_check = KERNEL.moves_and_check


def play_move(state: Position, move: int) -> Position:
    """The state after a legal move (unchecked)."""
    row, child = KERNEL.after(state, move)
    squares = bytearray(state.squares)
    origin, target = move & 127, (move >> 7) & 127
    squares[target] = squares[origin]
    squares[origin] = 0
    fullmove = state.fullmove + state.turn  # after black's move the number goes up
    if child[QUIET] == 0:
        history: tuple[int, ...] = ()
        checks: tuple[bool, ...] = ()
        chases: tuple[bool, ...] = ()
        chased = False  # a capture: no repetition reaches back past it
    else:
        history = (*state.history, state.key)
        checks = (*state.checks, is_check(state))
        chases = (*state.chases, state.chased)
        chased = is_chase(row, child, move)
    return Position(bytes(squares), 1 - state.turn, int(child[KEY]), int(child[QUIET]),
                    fullmove, history, checks, chases, chased)


def _captures(row: np.ndarray, side: int) -> dict[int, list[int]]:
    """The legal captures ``side`` would have in ``row`` if it were to move: victim square ->
    the squares of the pieces that can take it."""
    position = row.copy()
    position[SIDE] = side
    out = np.empty(MAX_MOVES, dtype=np.int64)
    found: dict[int, list[int]] = {}
    for move in out[:kernel.generate(position, out, True)].tolist():
        found.setdefault((move >> 7) & 127, []).append(move & 127)
    return found


def is_chase(before: np.ndarray, after: np.ndarray, move: int) -> bool:
    """Whether ``move`` (from ``before`` to ``after``) chases: it makes a new threat to take
    an enemy piece other than the general and the soldiers, by a piece other than the general
    and the soldiers (who may chase freely), where the piece is unprotected (no legal
    recapture on its point) or is a chariot threatened by a horse or cannon."""
    mover = int(before[SIDE])
    threatened_before = _captures(before, mover)
    for victim, attackers in _captures(after, mover).items():
        kind = int(after[victim]) & 7
        if kind in (kernel.KING, kernel.PAWN):
            continue
        if victim in threatened_before and before[victim] == after[victim]:
            continue  # not a new threat
        for origin in attackers:
            attacker = int(after[origin]) & 7
            if attacker in (kernel.KING, kernel.PAWN):
                continue
            if attacker in (kernel.HORSE, kernel.CANNON) and kind == kernel.ROOK:
                return True
            taken = after.copy()
            taken[SIDE] = mover
            reply = np.empty(POSITION_SIZE, dtype=np.int64)
            kernel.make_move(taken, reply, origin | (victim << 7))
            if victim not in _captures(reply, 1 - mover):
                return True
    return False


def repetition_verdict(state: Position) -> Outcome | None:
    """The repetition rule (package docstring): None until the position occurs for the third
    time; then the side that gave check with every move since its first occurrence loses,
    when the other did not; failing that, the side whose every move checked or chased
    (``is_chase``) loses, when the other's did not; else a draw."""
    if state.history.count(state.key) < 2:
        return None
    first = state.history.index(state.key)
    checks = [*state.checks[first + 1:], is_check(state)]  # positions after each move
    chases = [*state.chases[first + 1:], state.chased]
    # the last entries follow the opponent's move, the ones before ours, and so on back to the
    # first occurrence
    forcing = [check or chase for check, chase in zip(checks, chases, strict=True)]

    def verdict(flags: list[bool]) -> Outcome | None:
        by_opponent = flags[::-1][0::2]
        by_mover = flags[::-1][1::2]
        opponent_all = bool(by_opponent) and all(by_opponent)
        mover_all = bool(by_mover) and all(by_mover)
        if opponent_all and not mover_all:
            return Outcome(state.turn)
        if mover_all and not opponent_all:
            return Outcome(1 - state.turn)
        return DRAW if opponent_all else None

    return verdict(checks) or verdict(forcing) or DRAW


class Xiangqi(FamilyGame[Position]):
    """Chinese chess from the usual start or from a FEN (``Xiangqi(fen=...)``)."""

    info = GameInfo(name="xiangqi", title="Chinese chess (xiangqi)", heuristic=True,
                    move_ordering=True, max_branching=MAX_MOVES)
    usual_start = START_FEN
    kernel = KERNEL
    read_fen = staticmethod(position_from_fen)
    play_move = staticmethod(play_move)
    player_names = ("red", "black")

    # -- the rules ------------------------------------------------------------------------------
    def outcome(self, state: Position) -> Outcome | None:
        if not legal_moves_of(state):
            return Outcome(1 - state.turn)
        verdict = repetition_verdict(state)
        if verdict is not None:
            return verdict
        if state.quiet >= QUIET_LIMIT:
            return DRAW
        return None

    def termination(self, state: Position) -> str | None:
        """Why the game ended, in words (None while it goes on)."""
        if not legal_moves_of(state):
            return "checkmate" if is_check(state) else "no legal move (stalemate loses)"
        verdict = repetition_verdict(state)
        if verdict is not None:
            if verdict.winner is None:
                return "repetition"
            first = state.history.index(state.key)
            loser_checked = [*state.checks[first + 1:], is_check(state)][::-1][
                0 if verdict.winner == state.turn else 1::2]
            return "perpetual check" if all(loser_checked) else "perpetual chase"
        if state.quiet >= QUIET_LIMIT:
            return "sixty moves without a capture"
        return None

    # -- notation -------------------------------------------------------------------------------
    def format_move(self, move: int) -> str:
        return iccs(move)

    def parse_move(self, state: Position, text: str) -> int:
        written = str(text).strip()
        if not written or len(written) > MAX_MOVE_TEXT:
            raise InvalidMoveError(f"cannot read move {quote(written)} "
                                   "(ICCS h2e2, WXF C2=5 or 炮二平五)")
        if written in NULL_MOVES:
            raise IllegalMoveError(f"{quote(written)} is a null move (a pass), which is not "
                                   "a move of xiangqi")
        shape = ICCS_MOVE.match(written.lower())
        if shape:
            files = "abcdefghi"
            origin = 9 * int(shape.group(2)) + files.index(shape.group(1))
            target = 9 * int(shape.group(4)) + files.index(shape.group(3))
            return origin | (target << 7)  # illegal: play_checked says so
        if looks_traditional(written):
            return parse_traditional(state.squares, state.turn, legal_moves_of(state),
                                     written)
        raise InvalidMoveError(f"cannot read move {quote(written)} "
                               "(ICCS h2e2, WXF C2=5 or 炮二平五)")

    def describe_move(self, state: Position, move: int) -> str:
        """The move in Chinese notation (炮二平五)."""
        if move not in legal_moves_of(state):
            return iccs(move)
        return chinese(state.squares, move)

    def wxf_move(self, state: Position, move: int) -> str:
        """The move in WXF notation (``C2=5``)."""
        return wxf(state.squares, move)

    def line(self, state: Position, moves: Sequence[int], style: str = "chinese") -> list[str]:
        """A line of moves in traditional notation, each from the position the earlier ones
        reach (``style`` "chinese" or "wxf")."""
        out = []
        for move in moves:
            if move not in legal_moves_of(state):
                break
            out.append(chinese(state.squares, move) if style == "chinese"
                       else wxf(state.squares, move))
            state = play_move(state, move)
        return out

    def fen(self, state: Position) -> str:
        return fen(state)

    # -- people and pages ------------------------------------------------------------------------
    def render(self, state: Position) -> str:
        """The board with the Chinese characters, rank 9 (black's side) at the top: red
        pieces in brackets ``(车)``, black plain; files a-i, the river, the side to move.
        Each point is four columns (a Chinese character is two wide in a terminal)."""
        files = "  " + "".join(f" {letter}  " for letter in "abcdefghi")
        lines = [files]
        for rank in range(9, -1, -1):
            cells = []
            for file in range(9):
                piece = state.squares[9 * rank + file]
                if not piece:
                    cells.append(" ·  ")
                elif piece >> 3:
                    cells.append(f" {BLACK_NAMES[piece & 7]} ")
                else:
                    cells.append(f"({RED_NAMES[piece & 7]})")
            lines.append(f"{rank} " + "".join(cells).rstrip())
            if rank == 5:
                lines.append("  " + " ~~~" * 9 + "  river")
        lines.append(files)
        status = f"{self.player_names[state.turn]} to move"
        if is_check(state) and legal_moves_of(state):
            status += ", in check"
        lines.append(status + " (red in brackets)")
        return "\n".join(lines)

    def view(self, state: Position) -> dict[str, Any]:
        """The board for the web page: ``{"kind": "xiangqi", "board": 10 rows of 9 FEN letters
        or null (rank 9 first; red upper case), "files": "abcdefghi", "ranks": "9876543210",
        "turn": "red"|"black", "check": square of a general in check or null,
        "moves": {from: [{"to": square, "move": iccs, "name": 炮二平五}, ...]},
        "fen": FEN}``; a click on a piece then on a target plays ``move``."""
        board = []
        for rank in range(9, -1, -1):
            row: list[str | None] = []
            for file in range(9):
                piece = state.squares[9 * rank + file]
                row.append(None if not piece else
                           "kabnrcp"[(piece & 7) - 1].upper() if piece < 8
                           else "kabnrcp"[(piece & 7) - 1])
            board.append(row)
        moves: dict[str, list[dict[str, Any]]] = {}
        if self.outcome(state) is None:
            for move in legal_moves_of(state):
                text = iccs(move)
                moves.setdefault(text[:2], []).append(
                    {"to": text[2:], "move": text, "name": chinese(state.squares, move)})
        check = None
        if is_check(state):
            check = square_name(state.squares.index(bytes([state.turn * 8 + kernel.KING])))
        return {"kind": "xiangqi", "board": board, "files": "abcdefghi",
                "ranks": "9876543210", "turn": self.player_names[state.turn], "check": check,
                "moves": moves, "fen": fen(state)}

    # -- for the generic searches ----------------------------------------------------------------
    def evaluate(self, state: Position) -> float:
        from .evaluation import DEFAULT_WEIGHTS, evaluate

        return float(evaluate(to_row(state), DEFAULT_WEIGHTS))

    def order_moves(self, state: Position, moves: Sequence[int]) -> list[int]:
        """Captures first, the most valuable victim first, then the rest."""
        def key(move: int) -> int:
            victim = state.squares[(move >> 7) & 127]
            return -ORDER_VALUE[victim & 7] if victim else 0
        return sorted(moves, key=key)


ORDER_VALUE = (0, 100, 2, 2, 4, 9, 4, 1)  # by kind: capturing a general ends the game

