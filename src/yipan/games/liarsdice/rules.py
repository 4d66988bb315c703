"""Liar's Dice for two: each rolls dice under a cup, then they bid on the dice of both cups.

The rules (OpenSpiel's ``liars_dice``): each player rolls ``dice`` dice of ``faces`` faces and
looks at their own. The first player bids "at least q dice show face f" (of all the dice on the
table); the players take turns, each either bidding higher or calling "liar" on the last bid.
Bids are ordered by quantity, then face: ``1x1 < 1x2 < ... < 1x6 < 2x1 < ...``. The highest
face is wild: it counts as every face (a bid on it counts only itself). On a call the cups are
lifted: if the bid holds, its bidder wins, else the caller. The winner gets 1, the loser -1.

State encoding (a NamedTuple, hashable)::

    rolls    each player's dice, sorted: ((1, 4), (2, 6)) for two dice each; () until rolled;
             HIDDEN (-1) dice in a state from as_seen_by
    bids     the bids so far as numbers, ascending: bid q x f is (q - 1) * faces + (f - 1)
    called   True once "liar" was called on the last bid (the game is over)

Moves: ``2x5`` (at least two fives), ``liar``; a roll is the dice's faces, ``14`` for a one and
a four. Information state of a player: their dice and the bids (``"3:0,5"``).
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Any, NamedTuple

from ...core import CHANCE, GameInfo, GameOptionError, InvalidMoveError, Outcome
from ...core.drawing import notebook_html
from ...core.text import quote
from ..hidden import HIDDEN, HiddenInformationGame, seat, table_view

LIAR = -1
MAX_FACES = 6
MAX_DICE = 2
MAX_BIDS = 12  # 2 * dice * faces: bid sequences double with each bid (a tree of 2^bids)


class LiarsDiceState(NamedTuple):
    rolls: tuple[tuple[int, ...], ...] = ()
    bids: tuple[int, ...] = ()
    called: bool = False

    def _repr_html_(self) -> str:
        """Drawn in a notebook."""
        return notebook_html("liars-dice", self)


def rolls_of(dice: int, faces: int) -> list[tuple[tuple[int, ...], float]]:
    """Every sorted roll of ``dice`` dice with its probability."""
    total = faces ** dice
    out = []
    for roll in itertools.combinations_with_replacement(range(1, faces + 1), dice):
        arrangements = math.factorial(dice)
        for face in set(roll):
            arrangements //= math.factorial(roll.count(face))
        out.append((roll, arrangements / total))
    return out


class LiarsDice(HiddenInformationGame):
    """``dice`` each (1 or 2) of ``faces`` faces (2 to 6), with 2 * dice * faces <= 12 so that
    the game can be solved exactly: one die of six faces, or two dice of three."""

    def __init__(self, dice: int = 1, faces: int = 6) -> None:
        if not 1 <= dice <= MAX_DICE:
            raise GameOptionError(f"dice must be 1 or {MAX_DICE}, not {dice}")
        if not 2 <= faces <= MAX_FACES:
            raise GameOptionError(f"faces must be 2 to {MAX_FACES}, not {faces}")
        if 2 * dice * faces > MAX_BIDS:
            raise GameOptionError(f"{dice} dice of {faces} faces make {2 * dice * faces} bids; "
                                  f"at most {MAX_BIDS} (one die of 6 faces, two of 3)")
        self.dice = dice
        self.faces = faces
        self.bid_count = 2 * dice * faces
        self.rolls = rolls_of(dice, faces)
        self.info = GameInfo(name="liars-dice", title="Liar's Dice", chance=True,
                             perfect_information=False,
                             max_moves=self.bid_count + 3,  # bids, liar, 2 rolls
                             max_branching=self.bid_count + 1)

    def initial_state(self) -> LiarsDiceState:
        return LiarsDiceState()

    def to_move(self, state: LiarsDiceState) -> int:
        if len(state.rolls) < 2:
            return CHANCE
        return (len(state.bids) + state.called) % 2

    def legal_moves(self, state: LiarsDiceState) -> list[int]:
        if len(state.rolls) < 2 or state.called:
            return []
        first = state.bids[-1] + 1 if state.bids else 0
        return list(range(first, self.bid_count)) + ([LIAR] if state.bids else [])

    def chance_outcomes(self, state: LiarsDiceState) -> list[tuple[tuple[int, ...], float]]:
        return list(self.rolls)

    def play(self, state: LiarsDiceState, move: Any) -> LiarsDiceState:
        if len(state.rolls) < 2:
            return LiarsDiceState(state.rolls + (tuple(move),), state.bids)
        if move == LIAR:
            return LiarsDiceState(state.rolls, state.bids, True)
        return LiarsDiceState(state.rolls, state.bids + (move,))

    def bid(self, number: int) -> tuple[int, int]:
        """(quantity, face) of a bid's number."""
        return number // self.faces + 1, number % self.faces + 1

    def count(self, rolls: tuple[tuple[int, ...], ...], face: int) -> int:
        """Dice on the table that count for ``face`` (the highest face is wild)."""
        return sum(die == face or die == self.faces for roll in rolls for die in roll)

    def outcome(self, state: LiarsDiceState) -> Outcome | None:
        if not state.called:
            return None
        return Outcome(0 if self.returns(state)[0] > 0 else 1)

    def returns(self, state: LiarsDiceState) -> tuple[float, float]:
        quantity, face = self.bid(state.bids[-1])
        bidder = (len(state.bids) - 1) % 2
        winner = bidder if self.count(state.rolls, face) >= quantity else 1 - bidder
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    # -- hidden information ---------------------------------------------------------------------
    def information_state(self, state: LiarsDiceState, player: int) -> str:
        own = "".join(map(str, state.rolls[player])) if len(state.rolls) > player else "?"
        return f"{own}:{','.join(map(str, state.bids))}"

    def as_seen_by(self, state: LiarsDiceState, player: int | None) -> LiarsDiceState:
        if player is None or state.called:
            return state
        rolls = tuple(roll if index == player else (HIDDEN,) * len(roll)
                      for index, roll in enumerate(state.rolls))
        return LiarsDiceState(rolls, state.bids, state.called)

    # -- notation -------------------------------------------------------------------------------
    def format_move(self, move: Any) -> str:
        if isinstance(move, tuple):
            return "".join(str(die) for die in move)
        if move == LIAR:
            return "liar"
        quantity, face = self.bid(move)
        return f"{quantity}x{face}"

    def parse_move(self, state: Any, text: str) -> Any:
        word = text.strip().lower()
        if word in ("liar", "call", "challenge", "doubt", "dudo"):  # the words players use
            return LIAR
        bid = re.fullmatch(r"([1-9])x([1-9])", word)
        if bid:
            quantity, face = int(bid.group(1)), int(bid.group(2))
            if quantity <= 2 * self.dice and face <= self.faces:
                return (quantity - 1) * self.faces + face - 1
        if re.fullmatch(r"[1-9]{1,2}", word) and len(word) == self.dice:
            roll = tuple(sorted(int(c) for c in word))
            if all(die <= self.faces for die in roll):
                return roll
        raise InvalidMoveError(f"cannot read move {quote(text.strip())} (a bid such as 2x5, "
                               f"or liar; a roll is {self.dice} digit(s) of 1-{self.faces})")

    def describe_move(self, state: Any, move: Any) -> str:
        if isinstance(move, int) and move != LIAR:
            quantity, face = self.bid(move)
            return f"at least {quantity} {'die shows' if quantity == 1 else 'dice show'} {face}"
        return self.format_move(move)

    def _dice(self, state: LiarsDiceState, player: int) -> list[str]:
        if len(state.rolls) <= player:
            return []
        return ["?" if die == HIDDEN else str(die) for die in state.rolls[player]]

    def render(self, state: LiarsDiceState) -> str:
        names = self.player_names
        lines = [f"{names[p]:>14}: {' '.join(self._dice(state, p)) or '-'}" for p in (0, 1)]
        bids = " ".join(self.format_move(b) for b in state.bids) or "(none yet)"
        lines.append(f"{'bids':>14}: {bids}" + ("  liar!" if state.called else ""))
        lines.append(f"{'wild':>14}: {self.faces}s count as any face")
        return "\n".join(lines)

    def view(self, state: LiarsDiceState) -> dict[str, Any]:
        over = state.called
        mover = None if over else self.to_move(state)
        seats = [seat(self.player_names[p], self._dice(state, p), 0, mover == p)
                 for p in (0, 1)]
        history = [self.format_move(b) for b in state.bids] + (["liar"] if over else [])
        return table_view(seats, pieces="dice", history=history, status=self._status(state))

    def _status(self, state: LiarsDiceState) -> str:
        names = self.player_names
        if not state.called:
            mover = self.to_move(state)
            return "rolling" if mover == CHANCE else f"{names[mover]} to bid or call"
        quantity, face = self.bid(state.bids[-1])
        counted = self.count(state.rolls, face)
        winner = 0 if self.returns(state)[0] > 0 else 1
        return (f"{counted} dice count as {face}; the bid was {quantity}x{face}: "
                f"{names[winner]} wins")
