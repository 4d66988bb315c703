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

``trace`` receives one ``TraceEvent`` per node, as the other searches send them: a player's
node with its value from its side to move, a chance node (``chance=True``) with its value
from MAX's side, each child of a chance node with the ``probability`` of its draw.
"""

from __future__ import annotations

import time
from types import MappingProxyType
from typing import Any

from ..core import CHANCE, WIN, CapabilityError, Game, SearchResult, SearchStats, require
from .trace import Trace, TraceEvent


class _Expectimax:
    def __init__(self, game: Game, cutoff: float, trace: Trace | None = None,
                 root_player: int = 0) -> None:
        self.game = game
        self.trace = trace
        self.root_player = root_player
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

    def value(self, state: Any, depth: int, ply: int, probability: float,
              path: tuple = (), drawn: float | None = None) -> float:
        """The expected value of ``state`` for player 0, searching ``depth`` more moves.

        ``path`` and ``drawn`` (the probability of the chance draw that led here) only
        label the node in the trace."""
        game = self.game
        trace = self.trace
        self.nodes += 1
        mover = game.to_move(state)
        if trace:
            # the event's ply is the node's depth in the tree (chance draws count there)
            trace(TraceEvent("node", len(path), path, self.maximizing(mover),
                             chance=mover == CHANCE,
                             probability=drawn))
        if game.outcome(state) is not None:
            return self.report(state, path, mover, self.terminal(state, ply), terminal=True)
        if mover == CHANCE:
            if depth <= 0 or probability < self.cutoff:
                return self.report(state, path, mover, self.estimate(state), horizon=True)
            key = (state, depth)
            stored = self.table.get(key)
            if stored is not None:
                self.hits += 1
                return self.report(state, path, mover, stored, table=True)
            total = 0.0
            for outcome, chance in game.chance_outcomes(state):
                total += chance * self.value(game.play(state, outcome), depth, ply,
                                             probability * chance,
                                             (*path, outcome) if trace else path, chance)
            self.table[key] = total
            return self.report(state, path, mover, total)
        if depth <= 0:
            return self.report(state, path, mover, self.estimate(state), horizon=True)
        values = [self.value(game.play(state, move), depth - 1, ply + 1, probability,
                             (*path, move) if trace else path)
                  for move in game.legal_moves(state)]
        return self.report(state, path, mover, min(values) if mover == 1 else max(values))

    def maximizing(self, mover: int) -> bool:
        """MAX's node (the root's side to move), as the trace calls it; a chance node too."""
        return mover == CHANCE or mover == self.root_player

    def report(self, state: Any, path: tuple, mover: int, value: float,
               **details: Any) -> float:
        """Send a node's value (player 0's view here) to the trace, turned to the node's side
        to move (a chance node: MAX's side); returns the value as it was."""
        if self.trace:
            if mover == CHANCE:
                seen = value if self.root_player == 0 else -value
            else:
                seen = value if mover == 0 else -value
            if self.game.info.players == 1:
                seen = value
            self.trace(TraceEvent("value", len(path), path, self.maximizing(mover), seen,
                                  chance=mover == CHANCE, **details))
        return value


def expectimax(game: Game, state: Any, *, depth: int, cutoff: float = 0.0,
               trace: Trace | None = None) -> SearchResult:
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
    search = _Expectimax(game, cutoff, trace, mover)
    sign = -1 if mover == 1 else 1
    if trace:
        trace(TraceEvent("node", 0, (), True))
    move_values: dict[Any, float] = {}
    for move in game.legal_moves(state):
        move_values[move] = sign * search.value(game.play(state, move), depth - 1, 1, 1.0,
                                                (move,) if trace else ())
    search.nodes += 1
    best_move = max(move_values, key=move_values.__getitem__, default=None)
    value = sign * search.terminal(state, 0) if best_move is None else move_values[best_move]
    if trace:
        trace(TraceEvent("value", 0, (), True, value, terminal=best_move is None))
    return SearchResult(
        move=best_move, value=value, pv=(best_move,) if best_move is not None else (),
        move_values=MappingProxyType(move_values), depth=depth, exact=search.horizon == 0,
        stats=SearchStats(nodes=search.nodes, tt_hits=search.hits,
                          elapsed=time.perf_counter() - start),
        scale="expected" if info.players == 1 else "minimax")
