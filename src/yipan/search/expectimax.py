"""Expectimax and expectiminimax: search through chance nodes by their expected value.

At a chance node (``to_move(s) == CHANCE``) the value is the probability-weighted mean of the
outcomes' values (``chance_outcomes(s)``), each outcome weighted once (aima-python's
expectiminimax weights twice). At a player's node the player picks the move best for them:
one player (expectimax) maximises; two players (expectiminimax) alternate max and min, in
negamax form: every value is from the point of view of player 0 inside, turned to the root
player's at the end.

The search is depth-limited (``depth`` counts the players' moves; chance draws are free) and
scores its horizon with the game's heuristic (``evaluate``, for the side to move there). A
branch whose cumulative probability falls below ``cutoff`` is scored by the heuristic at
once: the search spends its time where the game is likely to go. A transposition table
keyed by (state, depth) keeps the values of chance nodes met twice within one search (whose
probability above the cut-off was enough to search them).
"""

from __future__ import annotations

import time
from types import MappingProxyType
from typing import Any

from ..core import CHANCE, WIN, CapabilityError, Game, SearchResult, SearchStats, require


class _Expectimax:
    def __init__(self, game: Game, cutoff: float) -> None:
        self.game = game
        self.cutoff = cutoff
        self.heuristic = game.info.heuristic
        self.table: dict[tuple[Any, int], float] = {}
        self.nodes = 0
        self.hits = 0
        self.horizon = 0

    def terminal(self, state: Any, ply: int) -> float:
        """A finished game for player 0: WIN - ply, 0 or a loss (one player: the heuristic)."""
        game = self.game
        outcome = game.outcome(state)
        assert outcome is not None
        if game.info.players == 1:
            return game.evaluate(state) if self.heuristic else 0.0
        if outcome.winner is None:
            return 0.0
        return WIN - ply if outcome.winner == 0 else -(WIN - ply)

    def estimate(self, state: Any) -> float:
        """The heuristic for player 0 (a one-player game: its heuristic as it is)."""
        self.horizon += 1
        if not self.heuristic:
            return 0.0
        value = self.game.evaluate(state)
        return -value if self.game.to_move(state) == 1 else value

    def value(self, state: Any, depth: int, ply: int, probability: float) -> float:
        """The expected value of ``state`` for player 0, searching ``depth`` more moves."""
        game = self.game
        self.nodes += 1
        if game.outcome(state) is not None:
            return self.terminal(state, ply)
        mover = game.to_move(state)
        if mover == CHANCE:
            if depth <= 0 or probability < self.cutoff:
                return self.estimate(state)
            key = (state, depth)
            stored = self.table.get(key)
            if stored is not None:
                self.hits += 1
                return stored
            total = 0.0
            for outcome, chance in game.chance_outcomes(state):
                total += chance * self.value(game.play(state, outcome), depth, ply,
                                             probability * chance)
            self.table[key] = total
            return total
        if depth <= 0:
            return self.estimate(state)
        values = [self.value(game.play(state, move), depth - 1, ply + 1, probability)
                  for move in game.legal_moves(state)]
        return min(values) if mover == 1 else max(values)


def expectimax(game: Game, state: Any, *, depth: int, cutoff: float = 0.0) -> SearchResult:
    """Expectimax (one player) or expectiminimax (two players) of ``state`` to ``depth`` moves.

    ``value`` and ``move_values`` are expected values for the side to move at the root (a
    decision node): exact when no heuristic leaf and no cut-off was used. ``cutoff``: branches
    less likely than this are scored by the heuristic.
    """
    info = game.info
    require(game, perfect_information=True, algorithm="expectimax")  # it would see hidden cards
    if info.players not in (1, 2) or (info.players == 2 and not info.zero_sum):
        raise CapabilityError(f"expectimax needs a one-player or two-player zero-sum game; "
                              f"{info.name} is neither")
    if depth < 1:
        raise ValueError(f"expectimax needs a depth of at least 1, got {depth}")
    mover = game.to_move(state)
    if mover == CHANCE:
        raise ValueError("expectimax starts at a player's move, not a chance node")
    start = time.perf_counter()
    search = _Expectimax(game, cutoff)
    sign = -1 if mover == 1 else 1
    move_values: dict[Any, float] = {}
    for move in game.legal_moves(state):
        move_values[move] = sign * search.value(game.play(state, move), depth - 1, 1, 1.0)
    search.nodes += 1
    best_move = max(move_values, key=move_values.__getitem__, default=None)
    value = sign * search.terminal(state, 0) if best_move is None else move_values[best_move]
    return SearchResult(
        move=best_move, value=value, pv=(best_move,) if best_move is not None else (),
        move_values=MappingProxyType(move_values), depth=depth, exact=search.horizon == 0,
        stats=SearchStats(nodes=search.nodes, tt_hits=search.hits,
                          elapsed=time.perf_counter() - start),
        scale="expected" if info.players == 1 else "minimax")
