"""What the games of hidden information share (Kuhn poker, Leduc hold'em, Liar's Dice): chance
draws checked as moves, the table drawn for one seat, and the equilibrium AI's hooks.

A front end never shows a person the other side's cards: it draws
``game.as_seen_by(state, seat)``, where what that seat cannot see is ``HIDDEN``. The web
page's view is a card table::

    {"kind": "table", "pieces": "cards" | "dice",
     "seats": [{"name": "first player", "hand": ["K"] | ["?"], "staked": 1,
                "to_move": true, "folded": false}, {...}],
     "board": ["Q"],          community cards (Leduc), [] when none
     "pot": 4, "history": ["check", "bet", ...],   the public actions, in words
     "status": "second player to act" | "showdown: ..." | ...}
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from ..core import CHANCE, Game, IllegalMoveError

HIDDEN = -1
"""A card or die that the viewer cannot see, in a state from ``as_seen_by``."""


class HiddenInformationGame(Game):
    """A Game whose chance draws (deals, rolls) may be given as moves, checked like moves."""

    def is_legal(self, state: Any, move: Hashable) -> bool:
        if self.to_move(state) == CHANCE:
            return any(move == draw for draw, _ in self.chance_outcomes(state))
        return move in self.legal_moves(state)

    def play_checked(self, state: Any, move: Hashable) -> Any:
        if self.outcome(state) is None and self.to_move(state) == CHANCE \
                and not self.is_legal(state, move):
            raise IllegalMoveError(f"{self.format_move(move)} cannot be dealt here")
        return super().play_checked(state, move)


def seat(name: str, hand: Sequence[str], staked: float, to_move: bool,
         folded: bool = False) -> dict[str, Any]:
    return {"name": name, "hand": list(hand), "staked": staked, "to_move": to_move,
            "folded": folded}


def table_view(seats: list[dict[str, Any]], *, pieces: str = "cards",
               board: Sequence[str] = (), pot: float | None = None,
               history: Sequence[str] = (), status: str = "") -> dict[str, Any]:
    return {"kind": "table", "pieces": pieces, "seats": seats, "board": list(board),
            "pot": pot, "history": list(history), "status": status}
