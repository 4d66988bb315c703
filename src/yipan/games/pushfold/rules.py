"""Heads-up push-or-fold no-limit hold'em, dealt card by card: the game of
``yipan.poker.pushfold`` as a person plays it.

The rules: the small blind posts 0.5 big blinds and the big blind 1 (each also an ``ante``);
both have ``stack`` big blinds. Each gets two cards face down. The small blind shoves all in
or folds (losing the blind); facing a shove the big blind calls or folds (losing theirs).
After a call five community cards are dealt and the better hand of seven cards takes the pot
(equal hands split it). Returns are in big blinds.

State encoding (a NamedTuple, hashable)::

    cards    the cards dealt so far, in order: the small blind's two, the big blind's two,
             then the board's five; a card is 4 * rank + suit (``yipan.poker.cards``);
             HIDDEN (-1) in a state from as_seen_by
    actions  "" -> "f" (fold) or "s" (shove) -> "sf" or "sc" (call)

Moves: ``shove``, ``fold``, ``call``; a dealt card is written ``As``, ``Td``, ``2c``.
Information state of a player: their two cards (in order of rank) and the actions.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from ...core import CHANCE, GameInfo, GameOptionError, InvalidMoveError, Outcome
from ...core.drawing import notebook_html
from ...core.text import quote
from ...poker.cards import DECK, card, card_text
from ...poker.evaluator import category, strength
from ..hidden import HIDDEN, HiddenInformationGame, seat, table_view
from ..poker_words import action_word

ACTIONS = {"shove": "s", "fold": "f", "call": "c"}
WORDS = {letter: word for word, letter in ACTIONS.items()}
HOLE = 4  # cards dealt before anyone acts
ALL_CARDS = 9
SMALL_BLIND = 0.5


class PushFoldState(NamedTuple):
    cards: tuple[int, ...] = ()
    actions: str = ""

    def _repr_html_(self) -> str:
        """Drawn in a notebook."""
        return notebook_html("pushfold", self)


def read_big_blinds(text: str) -> float:
    """A number of big blinds typed by a person: ASCII, finite, 0 to 1000."""
    try:
        if not str(text).isascii() or len(str(text)) > 16:
            raise ValueError
        value = float(text)
    except ValueError:
        raise GameOptionError(f"not a number of big blinds: {quote(str(text))}") from None
    if not (math.isfinite(value) and 0 <= value <= 1000):
        raise GameOptionError(f"big blinds must be from 0 to 1000, got {text}")
    return value


class PushFoldHoldem(HiddenInformationGame):
    player_names = ("small blind", "big blind")

    def __init__(self, stack: float = 10.0, ante: float = 0.0) -> None:
        if not (1 <= stack <= 100) or not (0 <= ante <= 1):
            raise GameOptionError(f"the stack must be 1 to 100 big blinds and the ante 0 to 1; "
                                  f"got {stack:g} and {ante:g}")
        self.stack = stack
        self.ante = ante
        self.info = GameInfo(name="pushfold", title="Push or fold hold'em", chance=True,
                             perfect_information=False, max_moves=ALL_CARDS + 2,
                             max_branching=2)

    def initial_state(self) -> PushFoldState:
        return PushFoldState()

    def to_move(self, state: PushFoldState) -> int:
        if len(state.cards) < HOLE or (state.actions == "sc" and len(state.cards) < ALL_CARDS):
            return CHANCE
        return len(state.actions) % 2

    def _finished(self, state: PushFoldState) -> bool:
        return state.actions in ("f", "sf") or len(state.cards) == ALL_CARDS

    def legal_moves(self, state: PushFoldState) -> list[str]:
        if len(state.cards) < HOLE or self._finished(state) or state.actions == "sc":
            return []
        return ["shove", "fold"] if state.actions == "" else ["call", "fold"]

    def chance_outcomes(self, state: PushFoldState) -> list[tuple[int, float]]:
        left = [c for c in range(DECK) if c not in state.cards]
        return [(c, 1.0 / len(left)) for c in left]

    def play(self, state: PushFoldState, move: Any) -> PushFoldState:
        if isinstance(move, int):
            return PushFoldState(state.cards + (move,), state.actions)
        return PushFoldState(state.cards, state.actions + ACTIONS[move])

    def outcome(self, state: PushFoldState) -> Outcome | None:
        if not self._finished(state):
            return None
        won = self.returns(state)[0]
        return Outcome(None if won == 0 else 0 if won > 0 else 1)

    def strengths(self, state: PushFoldState) -> tuple[int, int]:
        board = list(state.cards[HOLE:])
        return (strength(np.array(list(state.cards[:2]) + board)),
                strength(np.array(list(state.cards[2:4]) + board)))

    def returns(self, state: PushFoldState) -> tuple[float, float]:
        if state.actions == "f":
            lost = SMALL_BLIND + self.ante
            return (-lost, lost)
        if state.actions == "sf":
            won = 1.0 + self.ante
            return (won, -won)
        small, big = self.strengths(state)
        at_stake = self.stack + self.ante
        if small == big:
            return (0.0, 0.0)
        return (at_stake, -at_stake) if small > big else (-at_stake, at_stake)

    # -- hidden information ---------------------------------------------------------------------
    def information_state(self, state: PushFoldState, player: int) -> str:
        own = sorted(state.cards[2 * player:2 * player + 2], reverse=True)
        board = "".join(card_text(c) for c in state.cards[HOLE:])
        return "".join(card_text(c) for c in own) + f":{state.actions}:{board}"

    def as_seen_by(self, state: PushFoldState, player: int | None) -> PushFoldState:
        if player is None or len(state.cards) == ALL_CARDS:
            return state
        cards = tuple(c if index >= HOLE or index // 2 == player else HIDDEN
                      for index, c in enumerate(state.cards))
        return PushFoldState(cards, state.actions)

    # -- notation -------------------------------------------------------------------------------
    def format_move(self, move: Any) -> str:
        if isinstance(move, int):
            return card_text(move) if 0 <= move < DECK else str(move)
        return str(move)

    def parse_move(self, state: Any, text: str) -> Any:
        word = text.strip()
        action = action_word(word, [m for m in self.legal_moves(state) if isinstance(m, str)])
        if action in ACTIONS:
            return action
        try:
            return card(word)
        except InvalidMoveError:
            raise InvalidMoveError(f"cannot read move {quote(word)} (shove or push, fold, "
                                   "call; a card such as As)") from None

    def staked(self, state: PushFoldState) -> tuple[float, float]:
        small, big = SMALL_BLIND + self.ante, 1.0 + self.ante
        if "s" in state.actions:
            small = self.stack + self.ante
        if state.actions == "sc":
            big = self.stack + self.ante
        return small, big

    def _hand(self, state: PushFoldState, player: int) -> list[str]:
        hole = sorted(state.cards[2 * player:2 * player + 2], reverse=True)  # by rank
        return ["?" if c == HIDDEN else card_text(c) for c in hole]

    def render(self, state: PushFoldState) -> str:
        stakes = self.staked(state)
        lines = [f"{self.player_names[p]:>12}: {' '.join(self._hand(state, p)) or '-':<6}  "
                 f"staked {stakes[p]:g} of {self.stack + self.ante:g}" for p in (0, 1)]
        board = " ".join(card_text(c) for c in state.cards[HOLE:])
        lines.append(f"{'board':>12}: {board or '-'}")
        actions = " ".join(WORDS[a] for a in state.actions)
        lines.append(f"{'actions':>12}: {actions or '(none yet)'}")
        if self.outcome(state) is not None:
            lines.append(f"{'result':>12}: {self._status(state)}")
        return "\n".join(lines)

    def view(self, state: PushFoldState) -> dict[str, Any]:
        over = self.outcome(state) is not None
        mover = None if over else self.to_move(state)
        stakes = self.staked(state)
        folder = 0 if state.actions == "f" else 1 if state.actions == "sf" else None
        seats = [seat(self.player_names[p], self._hand(state, p), stakes[p], mover == p,
                      folder == p) for p in (0, 1)]
        return table_view(seats, board=[card_text(c) for c in state.cards[HOLE:]],
                          pot=sum(stakes), history=[WORDS[a] for a in state.actions],
                          status=self._status(state))

    def _status(self, state: PushFoldState) -> str:
        names = self.player_names
        if self.outcome(state) is None:
            mover = self.to_move(state)
            return "dealing" if mover == CHANCE else f"{names[mover]} to act"
        won = self.returns(state)
        if state.actions != "sc":
            winner = 0 if won[0] > 0 else 1
            return f"{names[winner]} wins {won[winner]:g} bb (the other folded)"
        small, big = self.strengths(state)
        hands = f"{category(small)} against {category(big)}"
        if won[0] == 0:
            return f"a split pot ({hands})"
        winner = 0 if won[0] > 0 else 1
        return f"{names[winner]} wins {won[winner]:g} bb ({hands})"
