"""A gallery of small games, each broken in one classic way (``yipan check`` must catch each).

Every game is the pile of stones of the README (take 1 or 2; whoever takes the last stone
wins; state ``(stones, player to move)``) with one fault planted; ``Pile`` itself is sound.
"""

from __future__ import annotations

from dataclasses import dataclass

from yipan import Game, GameInfo, Outcome


class Pile(Game):
    """Sound: the reference the broken games change one thing of."""

    info = GameInfo(name="pile", title="Pile of stones")

    def initial_state(self):
        return (7, 0)

    def to_move(self, s):
        return s[1]

    def legal_moves(self, s):
        return [n for n in (1, 2) if n <= s[0]] if self.outcome(s) is None else []

    def play(self, s, m):
        return (s[0] - m, 1 - s[1])

    def outcome(self, s):
        return Outcome(1 - s[1]) if s[0] == 0 else None


class WinForTheWrongSide(Pile):
    """The winner named is the player to move at the end: the one who did not take the last."""

    def outcome(self, s):
        return Outcome(s[1]) if s[0] == 0 else None


class NeverEnds(Pile):
    """With two stones or fewer a player must put stones back, so nobody ever takes the last
    one; the rule that makes that a draw is missing."""

    def legal_moves(self, s):
        return [1, 2] if s[0] > 2 else [-1, -2]


class PlayersSwapped(Pile):
    """Player 1 moves first."""

    def to_move(self, s):
        return 1 - s[1]


class SwappedAtTheEnd(Pile):
    """A finished game says the winner is to move, so a search reads every win as a loss."""

    def to_move(self, s):
        return 1 - s[1] if s[0] == 0 else s[1]


class MutatingPlay(Pile):
    """The state is a list that ``play`` changes in place."""

    def initial_state(self):
        return [7, 0]

    def play(self, s, m):
        s[0] -= m
        s[1] = 1 - s[1]
        return s


class UnhashableState(Pile):
    """The state is a list: ``play`` copies it, but no table can store it."""

    def initial_state(self):
        return [7, 0]

    def play(self, s, m):
        return [s[0] - m, 1 - s[1]]


class MovesAfterTheEnd(Pile):
    """``legal_moves`` forgets to stop at the end: leaving one stone wins here."""

    def legal_moves(self, s):
        return [n for n in (1, 2) if n <= s[0]]

    def outcome(self, s):
        return Outcome(1 - s[1]) if s[0] <= 1 else None


class NoMovesBeforeTheEnd(Pile):
    """Only two stones may be taken, so one stone left is stuck, and nobody has won."""

    def legal_moves(self, s):
        return [2] if s[0] >= 2 else []


class Stones:
    """Equal by value, but hashed by identity (the default ``__hash__`` of an object)."""

    def __init__(self, stones: int, mover: int) -> None:
        self.stones, self.mover = stones, mover

    def __eq__(self, other):
        return isinstance(other, Stones) and (self.stones, self.mover) == (other.stones,
                                                                            other.mover)

    __hash__ = object.__hash__

    def __repr__(self):
        return f"Stones({self.stones}, {self.mover})"


class HashDisagrees(Pile):
    def initial_state(self):
        return Stones(7, 0)

    def to_move(self, s):
        return s.mover

    def legal_moves(self, s):
        return [n for n in (1, 2) if n <= s.stones]

    def play(self, s, m):
        return Stones(s.stones - m, 1 - s.mover)

    def outcome(self, s):
        return Outcome(1 - s.mover) if s.stones == 0 else None


class NotationBroken(Pile):
    """``format_move`` writes words that the default ``parse_move`` (a number) cannot read."""

    def format_move(self, move):
        return f"take {move}"


class NotZeroSum(Pile):
    """Declared zero-sum (the default), but both players are paid at the end."""

    def returns(self, s):
        return (1.0, 1.0)


class SecondPlayerNeverMoves(Pile):
    def to_move(self, s):
        return 0


@dataclass(frozen=True)
class Heap:
    stones: int
    mover: int
    taken: list  # a list inside a frozen dataclass: the fields are fixed, the list is not

    def __hash__(self):
        return hash((self.stones, self.mover))


class MutableInside(Pile):
    def initial_state(self):
        return Heap(7, 0, [])

    def to_move(self, s):
        return s.mover

    def legal_moves(self, s):
        return [n for n in (1, 2) if n <= s.stones]

    def play(self, s, m):
        return Heap(s.stones - m, 1 - s.mover, [*s.taken, m])

    def outcome(self, s):
        return Outcome(1 - s.mover) if s.stones == 0 else None


class Counter:
    """A state compared by identity: no __eq__, so two equal positions never match."""

    def __init__(self, stones: int, mover: int) -> None:
        self.stones, self.mover = stones, mover


class IdentityState(HashDisagrees):
    def initial_state(self):
        return Counter(7, 0)

    def play(self, s, m):
        return Counter(s.stones - m, 1 - s.mover)


class CrashesSomewhere(Pile):
    """``legal_moves`` reads a table that misses the entry for three stones."""

    MOST = {7: 2, 6: 2, 5: 2, 4: 2, 2: 2, 1: 1}

    def legal_moves(self, s):
        return list(range(1, self.MOST[s[0]] + 1)) if s[0] else []


def make_pile() -> Game:
    """A factory, as ``yipan check broken_games.py:make_pile`` names it."""
    return Pile()
