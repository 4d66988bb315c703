"""The Game protocol: a stateless rules object over immutable, hashable states.

A game is a class with a handful of pure functions of the state (as in aima-python and
OpenSpiel). States are tuples or NamedTuples of ints, so a state is its own
transposition-table key, MCTS node key, test fixture and history entry.

Players are numbered 0 (the first to move) and 1; ``CHANCE`` marks a chance node.
Optional methods are *declared* in ``GameInfo`` (``heuristic``, ``move_ordering``,
``symmetry``, ``chance``, ``encoding``) and algorithms check the declaration, never ``hasattr``.

Imperfect information (poker, Liar's Dice) is declared by ``perfect_information=False``; such
a game provides three more methods, which have defaults that are right for every game of
perfect information (so CFR runs on tic-tac-toe too):

- ``information_state(s, player)``: a key shared by exactly the states that ``player`` cannot
  tell apart (their own cards and the public actions, not the opponent's cards). The legal
  moves and the player to move are the same at every state of one key (conformance checks).
- ``returns(s)``: at the end, what each player wins (chips in poker; +1/-1/0 by default).
- ``as_seen_by(s, player)``: the state with what ``player`` cannot see masked; ``render`` and
  ``view`` draw it, so a front end shows a person only their side of the table.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .errors import CapabilityError, IllegalMoveError, InvalidMoveError

WIN = 1_000_000  # re-exported by results; here for value_bounds' default

CHANCE = -1
"""``to_move(s)`` returns this at a chance node; ``chance_outcomes(s)`` then lists the draws."""

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``winner`` is 0 or 1, or None for a draw (or a one-player game's end)."""

    winner: int | None = None

    def result_for(self, player: int) -> int:
        """+1 if ``player`` won, -1 if they lost, 0 for a draw."""
        if self.winner is None:
            return 0
        return 1 if self.winner == player else -1


DRAW = Outcome(None)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is and which optional methods it provides (checked by algorithms at entry)."""

    name: str
    title: str
    players: int = 2
    zero_sum: bool = True
    chance: bool = False
    impartial: bool = False
    perfect_information: bool = True
    heuristic: bool = False  # provides evaluate(s)
    move_ordering: bool = False  # provides order_moves(s, moves)
    symmetry: bool = False  # provides canonical(s) and symmetries(s)
    bounds: bool = False  # provides value_bounds(s): what the side to move can still achieve
    playout: bool = False  # provides playout(s, rng): its own simulation policy, for MCTS
    grid: tuple[int, int] | None = None  # (rows, cols) when the board is a grid of cells
    max_moves: int | None = None  # an upper bound on a game's length, when one is known
    max_branching: int | None = None  # an upper bound on the legal moves of any position
    # provides encode(s) and move_index(s, m) for networks: the shape (planes, rows, cols)
    # of encode's array, and the number of policy outputs (move indices 0..actions-1)
    encoding: tuple[int, int, int] | None = None
    actions: int | None = None


class Game(ABC, Generic[State, Move]):
    """Rules of a game. Subclass it, fill in the abstract methods, set ``info``.

    Contracts (checked for every registered game by ``tests/conformance``):

    - ``legal_moves(s)`` is empty exactly when ``outcome(s)`` is not None (or s is a chance node);
    - ``play`` is pure: it returns a new state and never changes ``s``;
    - equal states hash equal; ``parse_move(s, format_move(m)) == m`` for every legal m.
    """

    info: GameInfo
    player_names: tuple[str, str] = ("first player", "second player")
    # how a person writes a move, where the notation needs saying (the CLI's help for the
    # moves, the game loop's ``help``); empty: the examples of ``format_move`` say enough
    notation_help: str = ""
    # a heuristic value is in centipawns (the chess family's engines): players read it in
    # pawns ("+0.35") and a proved win as a mate in moves, not as a raw score or in plies
    values_in_centipawns: bool = False

    # -- required -------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self) -> State: ...

    @abstractmethod
    def to_move(self, state: State) -> int:
        """The player to move (0 or 1), or CHANCE. Defined at terminal states too."""

    @abstractmethod
    def legal_moves(self, state: State) -> Sequence[Move]: ...

    @abstractmethod
    def play(self, state: State, move: Move) -> State:
        """The state after ``move``. Fast and unchecked: the move must be legal."""

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """None while the game goes on, else the Outcome."""

    # -- provided ---------------------------------------------------------------------------
    def play_checked(self, state: State, move: Move) -> State:
        """``play`` after checking the move is legal; raises IllegalMoveError otherwise."""
        if self.outcome(state) is not None:
            raise IllegalMoveError(f"the game is over; {self.format_move(move)} cannot be played")
        if not self.is_legal(state, move):
            raise IllegalMoveError(f"illegal move {self.format_move(move)}")
        return self.play(state, move)

    def is_legal(self, state: State, move: Move) -> bool:
        """Whether ``move`` may be played here (the game not being over). The default looks
        it up in ``legal_moves``; a game with many moves (a heap of 100,000 tokens) answers
        directly, so that replaying a move list costs time linear in its length."""
        return move in self.legal_moves(state)

    def parse_move(self, state: State, text: str) -> Move:
        """Read a move written as ``format_move`` writes it. Default: an integer."""
        try:
            return int(text.strip())  # type: ignore[return-value]
        except ValueError:
            raise InvalidMoveError(f"cannot read move {text!r}") from None

    def format_move(self, move: Move) -> str:
        return str(move)

    def render(self, state: State) -> str:
        return repr(state)

    def describe_move(self, state: State, move: Move) -> str:
        """A move in words, for people (``take 2 from heap 1 (3 -> 1)``); by default its
        notation."""
        return self.format_move(move)

    def split_moves(self, text: str) -> list[str]:
        """Split a typed move list (``"a1 b2,c3"``) into move texts; games with one-character
        moves (Connect Four's ``4453``) may split further."""
        return [part for part in re.split(r"[\s,]+", text.strip()) if part]

    def view(self, state: State) -> dict[str, Any]:
        """A JSON-ready picture of the state for boards drawn elsewhere (the web page).

        Grid games return ``{"kind": "grid", "rows": R, "cols": C, "cells": [[0|1|None,..],..],
        "move_at": [[move text or None, ..], ..]}`` with row 0 at the top, where ``move_at``
        names the move a click on that cell plays. Others may return ``{"kind": "heaps",
        "heaps": [..]}`` or another kind; the default is the text of ``render``.
        """
        return {"kind": "text", "text": self.render(state)}

    def figures(self, state: State) -> dict[str, Any]:
        """Figures a person reads besides the board (2048: ``score``, ``max_tile``); the game
        loop prints them at the end and ``yipan watch`` reports them."""
        return {}

    def is_terminal(self, state: State) -> bool:
        return self.outcome(state) is not None

    # -- optional, declared in info -----------------------------------------------------------
    def evaluate(self, state: State) -> float:
        """Heuristic value for the side to move (declare ``info.heuristic``).

        Must stay strictly inside ``(-HEURISTIC_LIMIT, HEURISTIC_LIMIT)`` of ``yipan.core``.
        """
        raise CapabilityError(f"{self.info.name} has no heuristic evaluation")

    def order_moves(self, state: State, moves: Sequence[Move]) -> Sequence[Move]:
        """The moves, most promising first (declare ``info.move_ordering``)."""
        return moves

    def canonical(self, state: State) -> Hashable:
        """A key shared by exactly the states symmetric to ``state`` (declare ``info.symmetry``).

        Searches use it as the table key, so symmetric positions are searched once.
        """
        return state

    def value_bounds(self, state: State) -> tuple[float, float]:
        """Proven bounds ``(low, high)`` on the value for the side to move (declare
        ``info.bounds``), counted from this position (a win on the next ply is ``WIN - 1``):
        e.g. ``high = 0`` once the side to move can no longer win, ``(0, 0)`` for a position
        that can only end in a draw. Searches cut off on them and stop where low == high."""
        return (-WIN, WIN)

    def symmetries(self, state: State) -> Sequence[State]:
        """Every image of the state under the board's symmetries, itself included."""
        return (state,)

    def playout(self, state: State, rng: random.Random) -> float:
        """Play to the end with the game's own policy (declare ``info.playout``); for MCTS.

        Returns the result for player 0: +1 win, 0 draw, -1 loss in a two-player game; in a
        one-player game any reward where larger is better (2048: the final score).
        """
        raise CapabilityError(f"{self.info.name} has no playout policy of its own")

    def encode(self, state: State) -> Any:
        """The state as a network sees it (declare ``info.encoding`` and ``info.actions``): a
        float32 numpy array of shape ``info.encoding``, planes seen from the side to move
        (plane 0 its stones, plane 1 the opponent's), so one network serves both sides."""
        raise CapabilityError(f"{self.info.name} has no encoding for networks")

    def encode_many(self, states: Sequence[State]) -> Any:
        """``encode`` of each state, stacked: (len(states), *info.encoding). A game whose
        planes cost something to compute does a batch at once (the searches evaluate leaves
        in batches)."""
        import numpy as np

        return np.stack([self.encode(state) for state in states])

    def move_index(self, state: State, move: Move) -> int:
        """The policy output (``0..info.actions-1``) that stands for ``move`` at ``state``;
        distinct legal moves have distinct indices (declare ``info.encoding``)."""
        raise CapabilityError(f"{self.info.name} has no encoding for networks")

    def chance_outcomes(self, state: State) -> Sequence[tuple[Any, float]]:
        """At a chance node: ``[(outcome, probability), ...]`` (declare ``info.chance``)."""
        raise CapabilityError(f"{self.info.name} has no chance nodes")

    # -- imperfect information (declare ``info.perfect_information = False``) -------------------
    def information_state(self, state: State, player: int) -> Hashable:
        """What ``player`` knows at ``state``, as a key: equal for exactly the states they
        cannot tell apart. A game of perfect information needs nothing more than the state."""
        return state

    def returns(self, state: State) -> tuple[float, ...]:
        """At the end of the game, what each player wins (one number a player; zero-sum games
        add up to 0). The default is +1 for the winner, -1 for the loser, 0 for a draw."""
        outcome = self.outcome(state)
        if outcome is None:
            raise ValueError("returns are known only at the end of the game")
        return tuple(float(outcome.result_for(p)) for p in range(self.info.players))

    def as_seen_by(self, state: State, player: int | None) -> State:
        """The state as ``player`` sees it (None: an onlooker who sees everything), to be drawn
        by ``render`` and ``view`` only: hidden cards are masked. The default hides nothing."""
        return state

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.info.name}>"


def require(game: Game, *, two_player_zero_sum: bool = False, perfect_information: bool = False,
            no_chance: bool = False, algorithm: str = "this algorithm") -> None:
    """Check a game's declared capabilities at an algorithm's entry (a clear CapabilityError)."""
    info = game.info
    if two_player_zero_sum and not (info.players == 2 and info.zero_sum):
        raise CapabilityError(f"{algorithm} needs a two-player zero-sum game; {info.name} is not")
    if perfect_information and not info.perfect_information:
        raise CapabilityError(f"{algorithm} needs perfect information; {info.name} hides "
                              "cards or dice (CFR plays it: yipan.search.cfr)")
    if no_chance and info.chance:
        raise CapabilityError(f"{algorithm} cannot handle chance nodes; use expectimax or mcts")


def replay(game: Game, moves: Sequence[str], state: Any = None) -> list[Any]:
    """Parse and play moves written in the game's notation, checked one by one.

    Returns every state from the start (``len(moves) + 1`` of them). The error names the
    move's number and text, e.g. ``move 3 (c2): square is taken``.
    """
    states = [game.initial_state() if state is None else state]
    for number, text in enumerate(moves, 1):
        try:
            move = game.parse_move(states[-1], text)
            states.append(game.play_checked(states[-1], move))
        except (InvalidMoveError, IllegalMoveError) as error:
            raise type(error)(f"move {number} ({text}): {error}") from None
    return states
