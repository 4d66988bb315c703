"""Leduc hold'em: six cards, a private card each, one community card, two betting rounds
(Southey et al., 2005), the rules of OpenSpiel's ``leduc_poker``.

The rules: a deck of two jacks, two queens and two kings; each player antes 1 chip and gets
one card face down. Betting round 1, then one community card face up, then round 2. In a
round the first player acts first; a bet or raise is 2 chips in round 1 and 4 in round 2, at
most two of them a round (a bet and a raise). With no bet to answer a player checks or bets;
facing one, they fold (the other takes the pot), call, or raise. A round ends when both
have checked or a bet is called. At the showdown a card that pairs the community card wins,
else the higher card; equal cards split the pot.

Cards are dealt by rank (the suits never matter here): a rank's chance is its share of the
cards left, so the tree is smaller than with six distinct cards and the game the same.

State encoding (a NamedTuple, hashable)::

    cards    ranks dealt so far: (first player's, second's, community); 0 = J, 1 = Q, 2 = K;
             HIDDEN (-1) in a state from as_seen_by
    history  the public actions, one letter each: k check, b bet, r raise, c call, f fold,
             with "/" where the community card was dealt ("kbc/bf": round 1 check, bet, call;
             round 2 bet, fold)

Moves: the words ``check``, ``bet``, ``call``, ``raise``, ``fold``; a deal is the rank's
letter. Information state of a player: their card, the community card, the actions
(``"KQ:kbc/b"``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ...core import CHANCE, GameInfo, InvalidMoveError, Outcome
from ...core.drawing import notebook_html
from ...core.text import quote
from ..hidden import HIDDEN, HiddenInformationGame, seat, table_view
from ..poker_words import action_word

RANKS = "JQK"
COPIES = 2  # of each rank
ACTIONS = {"check": "k", "bet": "b", "raise": "r", "call": "c", "fold": "f"}
WORDS = {letter: word for word, letter in ACTIONS.items()}
ANTE = 1
BET_SIZES = (2, 4)  # a bet or raise in round 1, round 2
MAX_RAISES = 2  # bets and raises in one round


class LeducState(NamedTuple):
    cards: tuple[int, ...] = ()
    history: str = ""

    def _repr_html_(self) -> str:
        """Drawn in a notebook."""
        return notebook_html("leduc", self)


def round_over(actions: str) -> bool:
    """Whether a round's actions close it: check-check, or a call."""
    return actions == "kk" or actions.endswith("c")


class LeducHoldem(HiddenInformationGame):
    info = GameInfo(name="leduc", title="Leduc hold'em", chance=True,
                    perfect_information=False, max_moves=11,  # 8 actions, 3 deals
                    max_branching=3)

    def initial_state(self) -> LeducState:
        return LeducState()

    def _round(self, state: LeducState) -> tuple[int, str]:
        """(the round being played: 0 or 1, its actions so far)."""
        rounds = state.history.split("/")
        return len(rounds) - 1, rounds[-1]

    def to_move(self, state: LeducState) -> int:
        if len(state.cards) < 2:
            return CHANCE
        number, actions = self._round(state)
        if number == 0 and round_over(actions):
            return CHANCE  # the community card
        return len(actions) % 2

    def outcome(self, state: LeducState) -> Outcome | None:
        if not self._finished(state):
            return None
        won = self.returns(state)[0]
        return Outcome(None if won == 0 else 0 if won > 0 else 1)

    def _finished(self, state: LeducState) -> bool:
        if state.history.endswith("f"):
            return True
        number, actions = self._round(state)
        return number == 1 and round_over(actions)

    def legal_moves(self, state: LeducState) -> list[str]:
        if len(state.cards) < 2 or self._finished(state):
            return []
        number, actions = self._round(state)
        if number == 0 and round_over(actions):
            return []
        raises = sum(letter in "br" for letter in actions)
        if actions.endswith(("b", "r")):
            return ["fold", "call", "raise"] if raises < MAX_RAISES else ["fold", "call"]
        return ["check", "bet"]

    def chance_outcomes(self, state: LeducState) -> list[tuple[int, float]]:
        left = [COPIES - state.cards.count(rank) for rank in range(3)]
        total = sum(left)
        return [(rank, count / total) for rank, count in enumerate(left) if count]

    def play(self, state: LeducState, move: Any) -> LeducState:
        if isinstance(move, int):
            history = state.history + "/" if len(state.cards) == 2 else state.history
            return LeducState(state.cards + (move,), history)
        return LeducState(state.cards, state.history + ACTIONS[move])

    def staked(self, state: LeducState) -> tuple[int, int]:
        """Chips each player has put in the pot."""
        stakes = [ANTE, ANTE]
        for number, actions in enumerate(state.history.split("/")):
            for turn, letter in enumerate(actions):
                player = turn % 2
                if letter in "br":
                    stakes[player] = stakes[1 - player] + BET_SIZES[number]
                elif letter == "c":
                    stakes[player] = stakes[1 - player]
        return stakes[0], stakes[1]

    def returns(self, state: LeducState) -> tuple[float, float]:
        stakes = self.staked(state)
        if state.history.endswith("f"):
            _, actions = self._round(state)
            folder = (len(actions) - 1) % 2
            won = float(stakes[folder])
            return (-won, won) if folder == 0 else (won, -won)
        first, second, board = state.cards
        strength = [(card == board, card) for card in (first, second)]
        if strength[0] == strength[1]:
            return (0.0, 0.0)
        won = float(stakes[1] if strength[0] > strength[1] else stakes[0])
        return (won, -won) if strength[0] > strength[1] else (-won, won)

    # -- hidden information ---------------------------------------------------------------------
    def information_state(self, state: LeducState, player: int) -> str:
        own = RANKS[state.cards[player]] if len(state.cards) > player else "?"
        board = RANKS[state.cards[2]] if len(state.cards) > 2 else ""
        return f"{own}{board}:{state.history}"

    def as_seen_by(self, state: LeducState, player: int | None) -> LeducState:
        if player is None or (self._finished(state) and not state.history.endswith("f")):
            return state
        cards = tuple(card if index in (player, 2) else HIDDEN
                      for index, card in enumerate(state.cards))
        return LeducState(cards, state.history)

    # -- notation -------------------------------------------------------------------------------
    def format_move(self, move: Any) -> str:
        if isinstance(move, int):
            return RANKS[move] if 0 <= move < 3 else str(move)
        return str(move)

    def parse_move(self, state: Any, text: str) -> Any:
        word = text.strip()
        if len(word) == 1 and word.upper() in RANKS:
            return RANKS.index(word.upper())
        action = action_word(word, [m for m in self.legal_moves(state) if isinstance(m, str)])
        if action in ACTIONS:
            return action
        raise InvalidMoveError(f"cannot read move {quote(word)} (check, bet, call, raise, "
                               "fold; a deal is J, Q or K)")

    def _card(self, state: LeducState, index: int) -> str:
        if len(state.cards) <= index:
            return "-"
        return "?" if state.cards[index] == HIDDEN else RANKS[state.cards[index]]

    def render(self, state: LeducState) -> str:
        names = self.player_names
        stakes = self.staked(state)
        lines = [f"{names[p]:>14}: {self._card(state, p)}   staked {stakes[p]}" for p in (0, 1)]
        lines.append(f"{'board':>14}: {self._card(state, 2)}")
        rounds = [" ".join(WORDS[letter] for letter in actions)
                  for actions in state.history.split("/")]
        lines.append(f"{'actions':>14}: {' / '.join(rounds).strip() or '(none yet)'}")
        lines.append(f"{'pot':>14}: {sum(stakes)}")
        return "\n".join(lines)

    def view(self, state: LeducState) -> dict[str, Any]:
        stakes = self.staked(state)
        over = self.outcome(state) is not None
        mover = None if over else self.to_move(state)
        folder = None
        if state.history.endswith("f"):
            folder = (len(self._round(state)[1]) - 1) % 2
        seats = [seat(self.player_names[p], [] if len(state.cards) <= p
                      else [self._card(state, p)], stakes[p], mover == p, folder == p)
                 for p in (0, 1)]
        board = [self._card(state, 2)] if len(state.cards) > 2 else []
        history = ["/" if letter == "/" else WORDS[letter] for letter in state.history]
        return table_view(seats, board=board, pot=sum(stakes), history=history,
                          status=self._status(state))

    def _status(self, state: LeducState) -> str:
        names = self.player_names
        if self.outcome(state) is None:
            mover = self.to_move(state)
            return "dealing" if mover == CHANCE else f"{names[mover]} to act"
        won = self.returns(state)
        if won[0] == 0:
            return "showdown: a split pot"
        winner = 0 if won[0] > 0 else 1
        how = "the other folded" if state.history.endswith("f") else "showdown"
        return f"{names[winner]} wins {won[winner]:g} ({how})"
