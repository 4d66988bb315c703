"""Syzygy endgame tables, the files other engines use, probed through python-chess at the root.

yipan builds its own tables up to four pieces (``tablebase``); a user who has Syzygy files
(up to seven pieces) names their folder (``--syzygy PATH``, UCI ``SyzygyPath``) and the
engine answers a root position they cover from them, before any search:

- WDL, for the side to move: 2 win, 1 a win spoilt by the fifty-move rule ("cursed"), 0 draw,
  -1 a loss saved by it ("blessed"), -2 loss;
- DTZ: plies to the next capture or pawn move (a "zeroing" move) on the way to that result.

A move is chosen by the result it keeps (the best WDL after it, for us); among winning
moves, a mate first, then a zeroing move, then the smallest DTZ (the standard way to play a
Syzygy win under the fifty-move rule); among losing moves, the largest DTZ, zeroing last.
Syzygy knows no distance to mate: a win is scored ``SYZYGY_WIN - plies to zeroing`` (below
the engine's mate scores), a draw 0, cursed wins and blessed losses 0 as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import chess
import chess.syzygy

from ...core.text import quote
from .rules import Position, legal_moves_of, to_board
from .tablebase import DamagedTableError, TablebaseError

SYZYGY_WIN = 20_000  # the engine's score of a Syzygy win (mates are 30000 - plies)
MAX_SYZYGY_PIECES = 7


@dataclass(frozen=True, slots=True)
class SyzygyAnswer:
    """The tables' move for the root, its result for the side to move and the engine's
    score; ``table`` names the material (``KQvKR``)."""

    move: int
    wdl: int
    dtz: int
    score: int
    table: str


class Syzygy:
    """The Syzygy files of one folder (opened through python-chess)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._tables = chess.syzygy.Tablebase()
        try:
            found = self._tables.add_directory(str(self.folder))
        except OSError:
            raise TablebaseError(f"no Syzygy folder {quote(str(folder), 60)}") from None
        if found == 0:
            raise TablebaseError(f"no Syzygy tables (*.rtbw, *.rtbz) in "
                                 f"{quote(str(folder), 60)}")
        self.files = found

    def close(self) -> None:
        self._tables.close()

    def _probe(self, board: chess.Board) -> tuple[int, int] | None:
        """(WDL, DTZ) for the side to move, None when no table covers the position."""
        try:
            return self._tables.probe_wdl(board), self._tables.probe_dtz(board)
        except KeyError:  # MissingTableError, or castling rights (not in Syzygy tables)
            return None
        except OSError as error:
            raise DamagedTableError(f"Syzygy: {str(error)[:120]}") from None

    def root(self, state: Position) -> SyzygyAnswer | None:
        """The tables' move for ``state`` (the rule in the module docstring), or None when
        they do not cover it (too many pieces, castling rights, a table missing)."""
        board = to_board(state)
        if len(board.piece_map()) > MAX_SYZYGY_PIECES or board.castling_rights:
            return None
        here = self._probe(board)
        if here is None:
            return None
        best: tuple[tuple[int, int], int, int, int] | None = None
        by_text = {move.uci(): move for move in board.legal_moves}
        for yipan_move in legal_moves_of(state):
            move = chess.Move.from_uci(_uci(board, yipan_move, by_text))
            zeroing = board.is_zeroing(move)
            board.push(move)
            mate = board.is_checkmate()
            after = (-2, 0) if mate else self._probe(board)
            board.pop()
            if after is None:
                return None  # a table the move leads into is missing
            wdl, dtz = -after[0], -after[1]
            if wdl > 0:
                key = (wdl, 2 if mate else 1 if zeroing else -abs(dtz))
            elif wdl < 0:
                key = (wdl, -1 if zeroing else abs(dtz))
            else:
                key = (0, 0)
            if best is None or key > best[0]:
                best = (key, yipan_move, wdl, dtz)
        if best is None:
            return None
        wdl, dtz = here
        score = SYZYGY_WIN - abs(dtz) if wdl == 2 else -(SYZYGY_WIN - abs(dtz)) if wdl == -2 \
            else 0
        table = _material(board)
        return SyzygyAnswer(best[1], wdl, dtz, score, table)


def _uci(board: chess.Board, move: int, by_text: dict[str, chess.Move]) -> str:
    """A yipan move in UCI (its squares are python-chess's; castling is the king's move)."""
    origin, target, promotion = move & 63, (move >> 6) & 63, (move >> 12) & 7
    text = chess.square_name(origin) + chess.square_name(target)
    if promotion:
        text += "pnbrqk"[promotion]
    if text not in by_text:  # pragma: no cover - the two move generators agree (perft)
        raise ValueError(f"no move {text} in {board.fen()}")
    return text


def _material(board: chess.Board) -> str:
    """``KQvKR``: Syzygy's name of the material (white's pieces first)."""
    sides = []
    for colour in (chess.WHITE, chess.BLACK):
        sides.append("".join(symbol * len(board.pieces(piece, colour))
                             for piece, symbol in zip(range(6, 0, -1), "KQRBNP", strict=True)))
    return "v".join(sides)
