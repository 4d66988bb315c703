"""What the chess tests share: python-chess as the referee of a game's end."""

from __future__ import annotations

import chess

from yipan.core import DRAW, Outcome


def reference_outcome(board: chess.Board) -> Outcome | None:
    """python-chess's verdict, with the fifty-move rule and threefold repetition automatic."""
    result = board.outcome()
    if result is not None:
        return DRAW if result.winner is None else Outcome(0 if result.winner else 1)
    if board.halfmove_clock >= 100 or board.is_repetition(3):
        return DRAW
    return None
