"""Kuhn poker: three cards, one each, one bet (Kuhn, 1950), the smallest poker worth solving.

The rules: a deck of J, Q, K; each player antes 1 chip and is dealt one card face down. The
first player checks or bets 1. After a check the second player checks (showdown: the higher
card takes the pot) or bets 1; facing a bet a player folds (the other takes the pot) or calls
(showdown). Its equilibria are known: the first player's value is -1/18.

State encoding (a NamedTuple, hashable)::

    cards    the cards dealt so far: () -> (first player's,) -> (first's, second's);
             0 = J, 1 = Q, 2 = K; HIDDEN (-1) in a state from as_seen_by
    history  the public actions, one letter each: x check, b bet, c call, f fold
             ("" at the start; the hand ends after xx, bc, bf, xbc, xbf)

Moves: the words ``check``, ``bet``, ``call``, ``fold``; a deal is the card's letter.
Information state of a player: their card and the actions, e.g. ``"K:xb"``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ...core import CHANCE, GameInfo, InvalidMoveError, Outcome
from ...core.drawing import notebook_html
from ...core.text import quote
from ..hidden import HIDDEN, HiddenInformationGame, seat, table_view
from ..poker_words import action_word

RANKS = "JQK"
ACTIONS = {"check": "x", "bet": "b", "call": "c", "fold": "f"}
WORDS = {letter: word for word, letter in ACTIONS.items()}
ANTE = 1
BET = 1
ENDINGS = ("xx", "bc", "bf", "xbc", "xbf")


class KuhnState(NamedTuple):
    cards: tuple[int, ...] = ()
    history: str = ""

    def _repr_html_(self) -> str:
        """Drawn in a notebook."""
        return notebook_html("kuhn", self)


class KuhnPoker(HiddenInformationGame):
    info = GameInfo(name="kuhn", title="Kuhn poker", chance=True, perfect_information=False,
                    max_moves=5, max_branching=2)  # 3 actions, 2 deals

    def initial_state(self) -> KuhnState:
        return KuhnState()

    def to_move(self, state: KuhnState) -> int:
        if len(state.cards) < 2:
            return CHANCE
        return len(state.history) % 2

    def legal_moves(self, state: KuhnState) -> list[str]:
        if len(state.cards) < 2 or state.history in ENDINGS:
            return []
        if state.history.endswith("b"):
            return ["fold", "call"]
        return ["check", "bet"]

    def chance_outcomes(self, state: KuhnState) -> list[tuple[int, float]]:
        left = [card for card in range(3) if card not in state.cards]
        return [(card, 1.0 / len(left)) for card in left]

    def play(self, state: KuhnState, move: Any) -> KuhnState:
        if len(state.cards) < 2:
            return KuhnState(state.cards + (move,), state.history)
        return KuhnState(state.cards, state.history + ACTIONS[move])

    def outcome(self, state: KuhnState) -> Outcome | None:
        if state.history not in ENDINGS:
            return None
        return Outcome(0 if self.returns(state)[0] > 0 else 1)

    def returns(self, state: KuhnState) -> tuple[float, float]:
        history = state.history
        if history == "bf":
            won = ANTE
            first_wins = True
        elif history == "xbf":
            won = ANTE
            first_wins = False
        else:
            won = ANTE + (BET if "b" in history else 0)
            first_wins = state.cards[0] > state.cards[1]
        return (float(won), -float(won)) if first_wins else (-float(won), float(won))

    # -- hidden information ---------------------------------------------------------------------
    def information_state(self, state: KuhnState, player: int) -> str:
        card = RANKS[state.cards[player]] if len(state.cards) > player else "?"
        return f"{card}:{state.history}"

    def as_seen_by(self, state: KuhnState, player: int | None) -> KuhnState:
        if player is None or self._shown_down(state):
            return state
        return KuhnState(tuple(card if seat_ == player else HIDDEN
                               for seat_, card in enumerate(state.cards)), state.history)

    @staticmethod
    def _shown_down(state: KuhnState) -> bool:
        return state.history in ENDINGS and not state.history.endswith("f")

    # -- notation -------------------------------------------------------------------------------
    def format_move(self, move: Any) -> str:
        if isinstance(move, int):
            return RANKS[move] if 0 <= move < 3 else str(move)
        return str(move)

    def parse_move(self, state: Any, text: str) -> Any:
        word = text.strip()
        if word.upper() in RANKS and len(word) == 1:
            return RANKS.index(word.upper())
        action = action_word(word, [m for m in self.legal_moves(state) if isinstance(m, str)])
        if action in ACTIONS:
            return action
        raise InvalidMoveError(f"cannot read move {quote(word)} (check, bet, call, fold; a "
                               "deal is J, Q or K)")

    def staked(self, state: KuhnState) -> tuple[int, int]:
        """Chips each player has put in."""
        stakes = [ANTE, ANTE]
        for number, letter in enumerate(state.history):
            if letter in "bc":
                stakes[number % 2] += BET
        return stakes[0], stakes[1]

    def render(self, state: KuhnState) -> str:
        names = self.player_names
        lines = []
        stakes = self.staked(state)
        for player in (0, 1):
            card = "-" if len(state.cards) <= player else \
                "?" if state.cards[player] == HIDDEN else RANKS[state.cards[player]]
            lines.append(f"{names[player]:>14}: {card}   staked {stakes[player]}")
        actions = " ".join(WORDS[letter] for letter in state.history) or "(none yet)"
        lines.append(f"{'actions':>14}: {actions}")
        lines.append(f"{'pot':>14}: {sum(stakes)}")
        return "\n".join(lines)

    def view(self, state: KuhnState) -> dict[str, Any]:
        stakes = self.staked(state)
        mover = self.to_move(state) if self.outcome(state) is None else None
        seats = []
        for player in (0, 1):
            hand = [] if len(state.cards) <= player else \
                ["?" if state.cards[player] == HIDDEN else RANKS[state.cards[player]]]
            folded = state.history.endswith("f") and (len(state.history) - 1) % 2 == player
            seats.append(seat(self.player_names[player], hand, stakes[player],
                              mover == player, folded))
        return table_view(seats, pot=sum(stakes),
                          history=[WORDS[letter] for letter in state.history],
                          status=self._status(state))

    def _status(self, state: KuhnState) -> str:
        names = self.player_names
        if self.outcome(state) is None:
            mover = self.to_move(state)
            return "dealing" if mover == CHANCE else f"{names[mover]} to act"
        won = self.returns(state)
        winner = 0 if won[0] > 0 else 1
        how = "the other folded" if state.history.endswith("f") else "showdown"
        return f"{names[winner]} wins {won[winner]:g} ({how})"
