"""Chess perft by the numba counter: the leaves below each legal move (bulk at the last ply).

This is chess programs' perft: move sequences under the rules of movement, ended by checkmate
and stalemate only. The draws the Game declares by rule (fifty moves, repetition,
insufficient material) do not end a line here, so on trees that reach one the count exceeds
``yipan.search.perft``'s over the Game protocol."""

from __future__ import annotations

from ...chess_family.perft import divide
from . import board
from .rules import Chess, Position, legal_moves_of, to_row


def perft(game: Chess, state: Position, depth: int) -> dict[int, int]:
    """The leaves below each legal move at ``depth`` (the hooks' ``perft``)."""
    return divide(board, to_row(state), legal_moves_of(state), depth)
