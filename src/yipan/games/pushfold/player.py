"""The push-or-fold AI: it shoves and calls with the equilibrium's probability for its hand's
class (``yipan.poker.pushfold``), at the game's stack and ante; levels: ``perfect`` the
equilibrium, ``medium`` the equilibrium of a stack twice as deep (too tight), ``easy`` at
random."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ...core import Analysis, AnalysisRequest, Choice, check_level
from ...poker import pushfold
from ...poker.cards import class_of
from .rules import PushFoldHoldem, PushFoldState


@lru_cache(maxsize=16)
def solution(stack: float, ante: float) -> pushfold.PushFoldSolution:
    return pushfold.solve(stack, ante)


class PushFoldPlayer:
    def __init__(self, level: str, rng: random.Random) -> None:
        self.level = check_level(level)
        self.rng = rng
        self.name = f"push/fold equilibrium ({level})"

    def probabilities(self, game: PushFoldHoldem, state: PushFoldState) -> dict[str, float]:
        mover = game.to_move(state)
        if self.level == "easy":
            return dict.fromkeys(game.legal_moves(state), 0.5)
        stack = game.stack if self.level == "perfect" else min(2 * game.stack, 100.0)
        equilibrium = solution(stack, game.ante)
        hand = class_of(*state.cards[2 * mover:2 * mover + 2])
        act = float(equilibrium.push[hand] if mover == 0 else equilibrium.call[hand])
        return {"shove" if mover == 0 else "call": act, "fold": 1.0 - act}

    def choose(self, game: PushFoldHoldem, state: Any) -> Choice:
        probabilities = self.probabilities(game, state)
        moves = list(probabilities)
        return Choice(self.rng.choices(moves, [probabilities[m] for m in moves])[0])

    def appraise(self, game: PushFoldHoldem, state: PushFoldState, move: str) -> Analysis:
        """The move chosen, with the equilibrium's expected value of each move (in big blinds,
        for the side to move) and of the one chosen: what a front end shows as the AI's
        value."""
        known = analyze(game, state, AnalysisRequest())
        return replace(known, move=move, pv=(move,), value=known.move_values.get(move, known.value),
                       engine=self.name)


def make_ai(game: PushFoldHoldem, level: str, rng: random.Random,
            time: float | None) -> PushFoldPlayer:
    return PushFoldPlayer(level, rng)


def analyze(game: PushFoldHoldem, state: PushFoldState, request: AnalysisRequest) -> Analysis:
    """The equilibrium's action for the side to move's hand, with each action's value in big
    blinds against the other's equilibrium (``scale`` "payoff")."""
    mover = game.to_move(state)
    equilibrium = solution(game.stack, game.ante)
    matrices = pushfold.PushFoldGame(game.stack, game.ante)
    hand = class_of(*state.cards[2 * mover:2 * mover + 2])
    if mover == 0:
        fold, shove = matrices.small_blind_values(equilibrium.call)
        held = matrices.held[hand]
        values = {"shove": float(shove[hand] / held), "fold": float(fold[hand] / held)}
    else:
        fold, call = matrices.big_blind_values(equilibrium.push)
        reach = (matrices.deals[:, hand] * equilibrium.push).sum()
        values = {"call": float(call[hand] / reach), "fold": float(fold[hand] / reach)} \
            if reach > 0 else {}
    probabilities = PushFoldPlayer("perfect", random.Random(0)).probabilities(game, state)
    best = max(probabilities, key=lambda m: probabilities[m])
    return Analysis(move=best, value=values.get(best), pv=(best,), move_values=values,
                    scale="payoff", engine="push/fold equilibrium",
                    extra={"strategy": probabilities})


def solve(game: PushFoldHoldem, state: PushFoldState, request: AnalysisRequest) -> Analysis:
    """The game's value for the small blind and the equilibrium's exploitability (CFR+ over
    the 169 classes)."""
    start = time.process_time()
    equilibrium = pushfold.solve(game.stack, game.ante)
    return Analysis(move=None, value=equilibrium.value, scale="payoff", engine="cfr+",
                    seconds=time.process_time() - start,
                    extra={"exploitability": equilibrium.exploitability,
                           "iterations": equilibrium.iterations, "algorithm": "cfr+",
                           "push": equilibrium.push_range(), "call": equilibrium.call_range()})


def prepare(game: object = None) -> None:
    """Load the equity table and solve the game's stack (the default one without a game)."""
    stack = float(getattr(game, "stack", 10.0))
    ante = float(getattr(game, "ante", 0.0))
    solution(stack, ante)
    solution(min(2 * stack, 100.0), ante)  # the medium level's
