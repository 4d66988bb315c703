"""Counterfactual regret minimisation: equilibria of two-player zero-sum games where a player
does not see everything (poker), checked by their exploitability.

Minimax needs the state; a poker player knows only their *information state* (their cards
and the public actions: ``Game.information_state``). CFR learns a strategy per information
state by playing the game against itself: at each one it keeps, for every move, the regret of
not having always played it, weighted by the chance that the others led there, and plays in
proportion to the positive regrets. The *average* strategy over the iterations converges to a
Nash equilibrium (Zinkevich et al., 2007). The family here:

    cfr             vanilla CFR (alternating updates, as all the tabular ones)
    cfr+            regret matching+ (regrets floored at 0) and a linearly weighted average
                    (Tammelin, 2014): the fastest here on poker
    linear-cfr      iteration t's regrets and strategy weighted by t (Brown & Sandholm, 2019)
    dcfr            discounted CFR, alpha 1.5, beta 0, gamma 2 (the same paper)
    mccfr-external  Monte Carlo CFR, external sampling: one sampled chance draw and opponent
                    move at each node, every move of the updating player (Lanctot et al., 2009)
    mccfr-outcome   Monte Carlo CFR, outcome sampling: one sampled path per iteration,
                    corrected by importance weights (epsilon-greedy at the updating player)

The tabular variants run on a ``GameTree``: the game's tree enumerated once through the Game
protocol and laid out in arrays, which a numba kernel (``cfr_kernel``) iterates over; the
Monte Carlo ones walk the Game protocol itself, so they also run on games too large to list.

A strategy is judged exactly on the tree: ``exploitability`` is NashConv / 2, the mean of
what each player would gain by switching to a best response (0 at an equilibrium), in the
game's units (chips); ``expected_values`` are what each player wins under a profile.
Strategies are saved and loaded as checksummed text files (``save_strategy``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from ..core import CHANCE, Analysis, CapabilityError, Game, Limit, YipanError, require
from ..core.files import read_capped, write_atomically
from . import cfr_kernel
from .cfr_kernel import CHANCE as CHANCE_NODE
from .cfr_kernel import DECISION, TERMINAL

TABULAR = ("cfr", "cfr+", "linear-cfr", "dcfr")
SAMPLED = ("mccfr-external", "mccfr-outcome")
ALGORITHMS = TABULAR + SAMPLED
MAX_TREE_NODES = 2_000_000
"""The largest tree ``GameTree`` lays out (a few hundred bytes a node while it is built)."""
OUTCOME_EXPLORATION = 0.6  # epsilon of outcome sampling at the updating player's nodes
SLICE_SECONDS = 0.05
"""Under a time limit, iterations run in batches of about this long between looks at the
clock (the kernel runs a batch without stopping)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """The knobs of the tabular kernel (``cfr_kernel`` docstring); a negative one is off."""

    clamp: bool = False
    alpha: float = -1.0
    beta: float = -1.0
    gamma: float = -1.0
    average_power: float = 0.0


VARIANTS = {
    "cfr": Variant(),
    "cfr+": Variant(clamp=True, average_power=1.0),
    "linear-cfr": Variant(alpha=1.0, beta=1.0, gamma=1.0),
    "dcfr": Variant(alpha=1.5, beta=0.0, gamma=2.0),
}


class CorruptStrategyError(YipanError, ValueError):
    """A strategy file that is truncated, altered, or written for another game."""


def check_game(game: Game, algorithm: str = "CFR") -> None:
    """CFR needs two players, zero-sum (chance and hidden information are what it is for)."""
    require(game, two_player_zero_sum=True, algorithm=algorithm)


# -- the tree ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class InfoSet:
    """One information state: its key, whose it is, and the moves there (in the tree's order)."""

    key: Hashable
    player: int
    moves: tuple


class GameTree:
    """A game's whole tree in arrays (the layout is drawn in ``cfr_kernel``), built breadth
    first through the Game protocol from ``state`` (default: the start).

    Refuses a game larger than ``max_nodes`` (CapabilityError: use Monte Carlo CFR).
    """

    def __init__(self, game: Game, state: Any = None, max_nodes: int = MAX_TREE_NODES) -> None:
        check_game(game)
        self.game = game
        root = game.initial_state() if state is None else state
        kinds: list[int] = []
        players: list[int] = []
        infosets: list[int] = []
        first_child: list[int] = []
        child_count: list[int] = []
        edge_prob: list[float] = [1.0]
        payoff: list[float] = []
        self.infosets: list[InfoSet] = []
        self.index: dict[Hashable, int] = {}
        set_depth: list[int] = []
        frontier = [(root, (0, 0))]  # states of one depth, with each player's own moves so far
        next_id = 1
        while frontier:
            following = []
            for state, own in frontier:
                outcome = game.outcome(state)
                if outcome is not None:
                    kinds.append(TERMINAL)
                    players.append(-1)
                    infosets.append(-1)
                    first_child.append(0)
                    child_count.append(0)
                    payoff.append(float(game.returns(state)[0]))
                    continue
                mover = game.to_move(state)
                payoff.append(0.0)
                first_child.append(next_id)
                if mover == CHANCE:
                    outcomes = game.chance_outcomes(state)
                    kinds.append(CHANCE_NODE)
                    players.append(-1)
                    infosets.append(-1)
                    child_count.append(len(outcomes))
                    for draw, probability in outcomes:
                        following.append((game.play(state, draw), own))
                        edge_prob.append(float(probability))
                else:
                    key = game.information_state(state, mover)
                    number = self.index.get(key)
                    if number is None:
                        number = len(self.infosets)
                        self.index[key] = number
                        self.infosets.append(InfoSet(key, mover, tuple(game.legal_moves(state))))
                        set_depth.append(own[mover])
                    moves = self.infosets[number].moves
                    kinds.append(DECISION)
                    players.append(mover)
                    infosets.append(number)
                    child_count.append(len(moves))
                    deeper = (own[0] + 1, own[1]) if mover == 0 else (own[0], own[1] + 1)
                    for move in moves:
                        following.append((game.play(state, move), deeper))
                        edge_prob.append(1.0)
                next_id += child_count[-1]
                if next_id > max_nodes:
                    raise CapabilityError(
                        f"{game.info.name} has more than {max_nodes:,} nodes: too large for "
                        "tabular CFR here (try mccfr-external or mccfr-outcome)")
            frontier = following
        self.kind = np.array(kinds, np.int8)
        self.player = np.array(players, np.int8)
        self.infoset = np.array(infosets, np.int32)
        self.first_child = np.array(first_child, np.int32)
        self.child_count = np.array(child_count, np.int32)
        self.edge_prob = np.array(edge_prob, np.float64)
        self.payoff = np.array(payoff, np.float64)
        sizes = [len(s.moves) for s in self.infosets]
        self.size = np.array(sizes, np.int32)
        self.offset = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int32) \
            if sizes else np.zeros(0, np.int32)
        self.set_player = np.array([s.player for s in self.infosets], np.int8)
        self.set_depth = np.array(set_depth, np.int32)
        self.slots = int(sum(sizes))

    @property
    def nodes(self) -> int:
        return int(self.kind.shape[0])

    def arrays(self) -> tuple:
        """The node arrays, in the order the kernels take them."""
        return (self.kind, self.player, self.infoset, self.first_child, self.child_count,
                self.edge_prob, self.payoff)

    def policy(self, strategy: Strategy) -> np.ndarray:
        """A strategy as one probability a slot (sets it does not know: uniform)."""
        out = np.empty(self.slots)
        for number, infoset in enumerate(self.infosets):
            start, count = int(self.offset[number]), len(infoset.moves)
            known = strategy.table.get(infoset.key)
            if known is None:
                out[start:start + count] = 1.0 / count
            else:
                out[start:start + count] = [known.get(move, 0.0) for move in infoset.moves]
        return out

    def strategy(self, policy: np.ndarray) -> Strategy:
        """Slots back into a Strategy (each set normalised; an all-zero set uniform)."""
        table = {}
        for number, infoset in enumerate(self.infosets):
            start, count = int(self.offset[number]), len(infoset.moves)
            probabilities = _normalised(policy[start:start + count])
            table[infoset.key] = MappingProxyType(dict(zip(infoset.moves, probabilities,
                                                           strict=True)))
        return Strategy(self.game.info.name, MappingProxyType(table))


def _normalised(weights: Sequence[float] | np.ndarray) -> list[float]:
    total = float(sum(weights))
    if total <= 0.0 or not math.isfinite(total):
        return [1.0 / len(weights)] * len(weights)
    return [float(w) / total for w in weights]


@dataclass(frozen=True, slots=True)
class Strategy:
    """A behaviour strategy for both players: at each information state, each move's
    probability. States it does not list are played uniformly."""

    game: str
    table: Mapping[Hashable, Mapping[Hashable, float]]

    def probabilities(self, game: Game, state: Any) -> dict[Hashable, float]:
        """The move probabilities at ``state`` for the side to move (from what it knows)."""
        key = game.information_state(state, game.to_move(state))
        moves = list(game.legal_moves(state))
        known = self.table.get(key)
        if known is None:
            return dict.fromkeys(moves, 1.0 / len(moves))
        return dict(zip(moves, _normalised([known.get(m, 0.0) for m in moves]), strict=True))

    def sample(self, game: Game, state: Any, rng: random.Random) -> Hashable:
        """A move drawn from the strategy at ``state``, by the injected generator."""
        probabilities = self.probabilities(game, state)
        return rng.choices(list(probabilities), list(probabilities.values()))[0]

    def __len__(self) -> int:
        return len(self.table)


# -- judging a strategy --------------------------------------------------------------------------
def expected_values(tree: GameTree, strategy: Strategy) -> tuple[float, float]:
    """What each player wins on average when both play ``strategy`` (from the tree's root)."""
    reach = np.empty(tree.nodes)
    value = np.empty(tree.nodes)
    cfr_kernel.profile_values(*tree.arrays(), tree.offset, tree.policy(strategy), reach, value)
    return float(value[0]), -float(value[0])


def best_response_value(tree: GameTree, strategy: Strategy, player: int) -> float:
    """What ``player`` wins at best against the other playing ``strategy`` (exact)."""
    return float(cfr_kernel.best_response_value(
        *tree.arrays(), tree.offset, tree.size, tree.set_player, tree.set_depth,
        tree.policy(strategy), player))


def exploitability(tree: GameTree, strategy: Strategy) -> float:
    """NashConv / 2: the mean gain of a best response against each side of ``strategy``
    (0 exactly at an equilibrium; in the game's units)."""
    return (best_response_value(tree, strategy, 0) + best_response_value(tree, strategy, 1)) / 2


# -- the tabular solvers -------------------------------------------------------------------------
class TabularCFR:
    """Vanilla CFR, CFR+, linear CFR or DCFR on a tree: ``run(n)`` more iterations, then read
    ``average_strategy()``; ``current_strategy()`` is the last iterate's."""

    def __init__(self, tree: GameTree, algorithm: str = "cfr+") -> None:
        if algorithm not in VARIANTS:
            raise CapabilityError(f"unknown tabular algorithm {algorithm!r}; "
                                  f"algorithms: {', '.join(VARIANTS)}")
        self.tree = tree
        self.algorithm = algorithm
        self.variant = VARIANTS[algorithm]
        self.regrets = np.zeros(tree.slots)
        self.strategy_sum = np.zeros(tree.slots)
        self.iterations = 0

    def run(self, iterations: int) -> None:
        v, tree = self.variant, self.tree
        if iterations <= 0 or not tree.slots:
            self.iterations += max(iterations, 0)
            return
        cfr_kernel.cfr_iterations(*tree.arrays(), tree.offset, tree.size, tree.set_player,
                                  self.regrets, self.strategy_sum, self.iterations + 1,
                                  iterations, v.clamp, v.alpha, v.beta, v.gamma,
                                  v.average_power)
        self.iterations += iterations

    def average_strategy(self) -> Strategy:
        return self.tree.strategy(self.strategy_sum)

    def current_strategy(self) -> Strategy:
        sigma = np.empty(self.tree.slots)
        cfr_kernel.current_strategy(self.regrets, self.tree.offset, self.tree.size, sigma)
        return self.tree.strategy(sigma)


# -- Monte Carlo CFR -----------------------------------------------------------------------------
class MonteCarloCFR:
    """External or outcome sampling over the Game protocol, with tables keyed by information
    state (filled as they are visited). Each ``run`` iteration updates player 0, then 1."""

    def __init__(self, game: Game, algorithm: str = "mccfr-external",
                 rng: random.Random | None = None, state: Any = None) -> None:
        check_game(game, algorithm)
        if algorithm not in SAMPLED:
            raise CapabilityError(f"unknown sampling algorithm {algorithm!r}; "
                                  f"algorithms: {', '.join(SAMPLED)}")
        self.game = game
        self.algorithm = algorithm
        self.rng = rng or random.Random()
        self.root = game.initial_state() if state is None else state
        self.regrets: dict[Hashable, list[float]] = {}
        self.strategy_sum: dict[Hashable, list[float]] = {}
        self.moves: dict[Hashable, tuple] = {}
        self.iterations = 0
        self.visits = 0

    def _table(self, state: Any, player: int) -> tuple[Hashable, tuple, list[float]]:
        key = self.game.information_state(state, player)
        moves = self.moves.get(key)
        if moves is None:
            moves = self.moves[key] = tuple(self.game.legal_moves(state))
            self.regrets[key] = [0.0] * len(moves)
            self.strategy_sum[key] = [0.0] * len(moves)
        regrets = self.regrets[key]
        positive = [r if r > 0.0 else 0.0 for r in regrets]
        return key, moves, _normalised(positive)

    def _draw(self, state: Any) -> tuple[Any, float]:
        outcomes = self.game.chance_outcomes(state)
        index = self.rng.choices(range(len(outcomes)), [p for _, p in outcomes])[0]
        return outcomes[index]

    def run(self, iterations: int) -> None:
        for _ in range(iterations):
            for player in (0, 1):
                if self.algorithm == "mccfr-external":
                    self._external(self.root, player)
                else:
                    self._outcome(self.root, player, 1.0, 1.0, 1.0)
            self.iterations += 1

    def _external(self, state: Any, player: int) -> float:
        """The sampled counterfactual value of ``state`` for ``player`` (external sampling)."""
        game = self.game
        self.visits += 1
        if game.outcome(state) is not None:
            return game.returns(state)[player]
        mover = game.to_move(state)
        if mover == CHANCE:
            draw, _ = self._draw(state)
            return self._external(game.play(state, draw), player)
        key, moves, sigma = self._table(state, mover)
        if mover != player:
            total = self.strategy_sum[key]
            for a, p in enumerate(sigma):
                total[a] += p
            move = moves[self.rng.choices(range(len(moves)), sigma)[0]]
            return self._external(game.play(state, move), player)
        values = [self._external(game.play(state, move), player) for move in moves]
        expected = sum(p * v for p, v in zip(sigma, values, strict=True))
        regrets = self.regrets[key]
        for a, v in enumerate(values):
            regrets[a] += v - expected
        return expected

    def _outcome(self, state: Any, player: int, mine: float, others: float,
                 sampled: float) -> float:
        """Outcome sampling (as in OpenSpiel's): one path, epsilon-greedy at ``player``'s
        nodes and on-policy elsewhere; returns an unbiased estimate of the value of ``state``
        for ``player`` given the path so far. ``mine`` and ``others`` are the reaches of
        ``player`` and of the other player (chance cancels: it is sampled on-policy),
        ``sampled`` the probability of having sampled the path."""
        game = self.game
        self.visits += 1
        if game.outcome(state) is not None:
            return game.returns(state)[player]
        mover = game.to_move(state)
        if mover == CHANCE:
            draw, _ = self._draw(state)
            return self._outcome(game.play(state, draw), player, mine, others, sampled)
        key, moves, sigma = self._table(state, mover)
        count = len(moves)
        if mover == player:
            epsilon = OUTCOME_EXPLORATION
            sampling = [epsilon / count + (1.0 - epsilon) * p for p in sigma]
        else:
            sampling = sigma
        a = self.rng.choices(range(count), sampling)[0]
        child = game.play(state, moves[a])
        if mover == player:
            child_value = self._outcome(child, player, mine * sigma[a], others,
                                        sampled * sampling[a])
        else:
            child_value = self._outcome(child, player, mine, others * sigma[a],
                                        sampled * sampling[a])
        estimate = child_value / sampling[a]  # the sampled move's value; the others' are 0
        value = sigma[a] * estimate
        if mover == player:
            weight = others / sampled
            regrets = self.regrets[key]
            total = self.strategy_sum[key]
            for b in range(count):
                regrets[b] += weight * ((estimate if b == a else 0.0) - value)
                total[b] += mine * sigma[b] / sampled
        return value

    def average_strategy(self) -> Strategy:
        table = {key: MappingProxyType(dict(zip(self.moves[key], _normalised(total),
                                                strict=True)))
                 for key, total in self.strategy_sum.items()}
        return Strategy(self.game.info.name, MappingProxyType(table))


# -- one entry point -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Checkpoint:
    """Progress of a solve: iterations done, seconds of CPU so far, exploitability then."""

    iterations: int
    seconds: float
    exploitability: float


@dataclass(frozen=True, slots=True)
class CFRResult:
    """A solved game: the average strategy, the first player's value under it (the game's
    value at an equilibrium), its exploitability, and the figures of the run."""

    algorithm: str
    strategy: Strategy
    iterations: int
    value: float
    exploitability: float
    seconds: float
    nodes: int  # nodes visited
    infosets: int
    tree_nodes: int
    checkpoints: tuple[Checkpoint, ...] = field(default=())
    stopped: bool = False  # a limit ended the run before its iterations were done


def checkpoints_between(iterations: int, count: int) -> list[int]:
    """About ``count`` iteration numbers, spaced geometrically up to ``iterations`` (where
    exploitability is measured: it falls roughly as a power of the iterations)."""
    marks = {iterations}
    for k in range(1, count):
        marks.add(max(1, round(iterations ** (k / count))))
    return sorted(marks)


def solve(game: Game, algorithm: str = "cfr+", iterations: int = 1000, *,
          rng: random.Random | None = None, progress: Callable[[Checkpoint], None] | None = None,
          checkpoints: int = 0, tree: GameTree | None = None,
          limit: Limit | None = None) -> CFRResult:
    """Run ``algorithm`` for ``iterations`` and judge its average strategy on the game's tree.

    ``checkpoints`` > 0 measures the exploitability that many times on the way (geometrically
    spaced) and reports each to ``progress``; seconds are CPU seconds of the solver alone.
    ``limit`` (its time, in seconds of the wall clock, and its ``stop``) may end the run
    sooner, after at least one iteration: the result says ``stopped`` and counts the
    iterations done.
    """
    if algorithm not in ALGORITHMS:
        raise CapabilityError(f"unknown algorithm {algorithm!r}; algorithms: "
                              f"{', '.join(ALGORITHMS)}")
    check_game(game, algorithm)
    tree = tree or GameTree(game)
    load_kernels()  # compiled or loaded from numba's cache before the clock starts
    solver: TabularCFR | MonteCarloCFR
    solver = TabularCFR(tree, algorithm) if algorithm in TABULAR else \
        MonteCarloCFR(game, algorithm, rng or random.Random())
    marks = checkpoints_between(iterations, checkpoints) if checkpoints > 0 else [iterations]
    clock = _Clock(limit)
    spent = 0.0
    measured: list[Checkpoint] = []
    for mark in marks:
        while solver.iterations < mark and not (solver.iterations and clock.out()):
            start = time.process_time()
            solver.run(clock.batch(mark - solver.iterations))
            spent += time.process_time() - start
        if checkpoints > 0:
            point = Checkpoint(solver.iterations, spent,
                               exploitability(tree, solver.average_strategy()))
            measured.append(point)
            if progress is not None:
                progress(point)
        if solver.iterations < mark:
            break
    strategy = solver.average_strategy()
    gap = measured[-1].exploitability if measured else exploitability(tree, strategy)
    visits = solver.visits if isinstance(solver, MonteCarloCFR) else \
        2 * tree.nodes * solver.iterations  # each iteration: a pass per updating player
    return CFRResult(algorithm=algorithm, strategy=strategy, iterations=solver.iterations,
                     value=expected_values(tree, strategy)[0], exploitability=gap,
                     seconds=spent, nodes=visits, infosets=len(tree.infosets),
                     tree_nodes=tree.nodes, checkpoints=tuple(measured),
                     stopped=solver.iterations < iterations)


class _Clock:
    """A limit's deadline, and batches of iterations sized to end near the next look at it:
    the first batch is one iteration, the next as many as fit in ``SLICE_SECONDS`` at the
    pace seen so far (never past the deadline)."""

    def __init__(self, limit: Limit | None) -> None:
        self.limit = limit
        self.start = time.monotonic()
        self.deadline = None if limit is None or limit.time is None else \
            self.start + limit.time
        self.done = 0

    def out(self) -> bool:
        return (self.deadline is not None and time.monotonic() >= self.deadline) \
            or (self.limit is not None and self.limit.stopped())

    def batch(self, wanted: int) -> int:
        if self.limit is None:
            return wanted
        now = time.monotonic()
        if self.done == 0:
            size = 1
        else:
            pace = max(now - self.start, 1e-9) / self.done  # seconds an iteration
            window = SLICE_SECONDS if self.deadline is None else \
                min(SLICE_SECONDS, max(self.deadline - now, 0.0))
            size = max(1, int(window / pace))
        size = min(size, wanted)
        self.done += size
        return size


@functools.cache
def load_kernels() -> None:
    """Run each kernel once on a one-node tree: numba compiles it, or loads it from its cache,
    here rather than inside a timed run."""
    tree = (np.zeros(1, np.int8), np.full(1, -1, np.int8), np.full(1, -1, np.int32),
            np.zeros(1, np.int32), np.zeros(1, np.int32), np.ones(1), np.zeros(1))
    empty_i, empty_f = np.zeros(0, np.int32), np.zeros(0)
    cfr_kernel.cfr_iterations(*tree, empty_i, empty_i, np.zeros(0, np.int8), empty_f.copy(),
                              empty_f.copy(), 1, 1, True, 1.0, 1.0, 1.0, 1.0)
    cfr_kernel.profile_values(*tree, empty_i, empty_f, np.empty(1), np.empty(1))
    cfr_kernel.best_response_value(*tree, empty_i, empty_i, np.zeros(0, np.int8), empty_i,
                                   empty_f, 0)
    cfr_kernel.current_strategy(empty_f, empty_i, empty_i, empty_f.copy())


def solve_analysis(game: Game, state: Any, algorithm: str, iterations: int, *,
                   progress: Callable[[str], None] | None = None,
                   rng: random.Random | None = None, tree: GameTree | None = None,
                   save_to: str | Path | None = None, limit: Limit | None = None) -> Analysis:
    """``yipan solve GAME --algorithm A``: solve from the start and report in the one schema:
    ``value`` is the first player's (the side to move once the cards are dealt), ``extra``
    has ``exploitability``, ``iterations``, ``algorithm`` (and ``information_states``).
    ``progress`` gets a line at a dozen checkpoints, the exploitability falling; ``save_to``
    writes the average strategy (``save_strategy``). ``limit`` (``--time``) may stop the
    run before ``iterations``: ``extra["stopped"]`` then says so, and ``iterations`` counts
    those done."""
    check_game(game, algorithm)
    if state != game.initial_state():
        raise CapabilityError("CFR solves a game from its start, not from a position within "
                              "it (give no moves)")

    def report(point: Checkpoint) -> None:
        if progress is not None:
            progress(f"{point.iterations}/{iterations} iterations  exploitability "
                     f"{point.exploitability:.3e}  {point.seconds:.2f} s")

    result = solve(game, algorithm, iterations, rng=rng, tree=tree, progress=report,
                   checkpoints=12 if progress is not None else 0, limit=limit)
    if save_to:
        save_strategy(save_to, game, result.strategy, about={
            "algorithm": algorithm, "iterations": result.iterations,
            "exploitability": result.exploitability})
    extra: dict[str, Any] = {"exploitability": result.exploitability,
                             "iterations": result.iterations, "algorithm": algorithm,
                             "information_states": result.infosets,
                             "tree_nodes": result.tree_nodes}
    if result.stopped:
        extra["stopped"] = _stopped_words(limit, iterations)
    return Analysis(move=None, value=result.value, exact=False, scale="payoff",
                    nodes=result.nodes, seconds=result.seconds, engine=algorithm,
                    extra=extra)


def _stopped_words(limit: Limit | None, iterations: int) -> str:
    """Why a solve ended before its iterations (what the report says)."""
    if limit is not None and limit.time is not None and not limit.stopped():
        return f"at the time limit of {limit.time:g} s, before {iterations:,} iterations"
    return f"when asked to stop, before {iterations:,} iterations"


# -- a textbook reference ------------------------------------------------------------------------
def reference_cfr(game: Game, iterations: int) -> Strategy:
    """Vanilla CFR written as the textbook recursion over the Game protocol (alternating
    updates, like the kernel): slow, for checking the kernel and for reading."""
    check_game(game)
    regrets: dict[Hashable, list[float]] = {}
    totals: dict[Hashable, list[float]] = {}
    moves_at: dict[Hashable, tuple] = {}

    def sigma_at(state: Any, mover: int) -> tuple[Hashable, tuple, list[float]]:
        key = game.information_state(state, mover)
        if key not in moves_at:
            moves_at[key] = tuple(game.legal_moves(state))
            regrets[key] = [0.0] * len(moves_at[key])
            totals[key] = [0.0] * len(moves_at[key])
        return key, moves_at[key], _normalised([max(r, 0.0) for r in regrets[key]])

    def walk(state: Any, player: int, mine: float, others: float,
             frozen: dict[Hashable, list[float]]) -> float:
        if game.outcome(state) is not None:
            return game.returns(state)[player]
        mover = game.to_move(state)
        if mover == CHANCE:
            return sum(p * walk(game.play(state, d), player, mine, others * p, frozen)
                       for d, p in game.chance_outcomes(state))
        key, moves, _ = sigma_at(state, mover)
        sigma = frozen.setdefault(key, _normalised([max(r, 0.0) for r in regrets[key]]))
        if mover != player:
            return sum(p * walk(game.play(state, m), player, mine, others * p, frozen)
                       for m, p in zip(moves, sigma, strict=True))
        values = [walk(game.play(state, m), player, mine * p, others, frozen)
                  for m, p in zip(moves, sigma, strict=True)]
        expected = sum(p * v for p, v in zip(sigma, values, strict=True))
        for a, v in enumerate(values):
            regrets[key][a] += others * (v - expected)
            totals[key][a] += mine * sigma[a]
        return expected

    for _ in range(iterations):
        for player in (0, 1):
            walk(game.initial_state(), player, 1.0, 1.0, {})
    table = {key: MappingProxyType(dict(zip(moves_at[key], _normalised(t), strict=True)))
             for key, t in totals.items()}
    return Strategy(game.info.name, MappingProxyType(table))


# -- strategy files ------------------------------------------------------------------------------
MAGIC = "yipan-strategy 1"
MAX_LINE = 100_000  # characters of one line of a strategy file
MAX_STRATEGY_BYTES = 1 << 30  # a million information sets of long lines


def save_strategy(path: str | Path, game: Game, strategy: Strategy,
                  options: Mapping[str, Any] | None = None,
                  about: Mapping[str, Any] | None = None) -> None:
    """Write ``strategy`` atomically as text::

        yipan-strategy 1
        game kuhn
        options {}
        about {"algorithm": "cfr+", "iterations": 1000, "exploitability": 8.1e-05}
        infosets 12

        <key as JSON>\\t<move>\\t<probability>\\t<move>\\t<probability>...
        sha256 <hex digest of every byte before this line>

    Moves are in the game's notation; keys are JSON (tuples written as lists).
    """
    lines = [MAGIC, f"game {game.info.name}",
             f"options {json.dumps(dict(options or {}), sort_keys=True)}",
             f"about {json.dumps(dict(about or {}), sort_keys=True)}",
             f"infosets {len(strategy.table)}", ""]
    for key, probabilities in strategy.table.items():
        cells = [json.dumps(key)]
        for move, probability in probabilities.items():
            cells += [game.format_move(move), repr(float(probability))]
        lines.append("\t".join(cells))
    body = "\n".join(lines) + "\n"
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    write_atomically(path, body + f"sha256 {digest}\n")


def _frozen_key(value: Any) -> Hashable:
    return tuple(_frozen_key(v) for v in value) if isinstance(value, list) else value


def load_strategy(path: str | Path, game: Game) -> tuple[Strategy, dict[str, Any]]:
    """Read a file of ``save_strategy`` for ``game``: (the strategy, its ``about`` fields).

    A file that fails any check (checksum, header, game, a line, a move, a probability) is
    refused with CorruptStrategyError, in one line.
    """
    name = Path(path).name

    def bad(why: str) -> CorruptStrategyError:
        return CorruptStrategyError(f"strategy file {name[:60]!r}: {why}")

    data = read_capped(path, MAX_STRATEGY_BYTES, "strategy file")
    text, _, tail = data.rpartition(b"sha256 ")
    if not text or hashlib.sha256(text).hexdigest().encode() != tail.strip():
        raise bad("checksum mismatch (damaged or altered)")
    try:
        lines = text.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        raise bad("not UTF-8 text") from None
    if len(lines) < 6 or lines[0] != MAGIC:
        raise bad("not a yipan strategy file")
    header = dict(line.split(" ", 1) for line in lines[1:5] if " " in line)
    if header.get("game") != game.info.name:
        raise bad(f"written for {str(header.get('game'))[:40]!r}, not {game.info.name}")
    try:
        about = json.loads(header.get("about", "{}"))
        count = int(header.get("infosets", ""))
    except ValueError:
        raise bad("a malformed header") from None
    table = {}
    rows = [line for line in lines[6:] if line]
    if len(rows) != count:
        raise bad(f"{len(rows)} information states, the header says {count}")
    for number, row in enumerate(rows, 7):
        cells = row.split("\t")
        if len(row) > MAX_LINE or len(cells) < 3 or len(cells) % 2 == 0:
            raise bad(f"line {number} is malformed")
        try:
            key = _frozen_key(json.loads(cells[0]))
            probabilities = {}
            for move_text, probability in zip(cells[1::2], cells[2::2], strict=True):
                value = float(probability)
                if not 0.0 <= value <= 1.0:
                    raise ValueError
                probabilities[_read_move(game, move_text)] = value
        except (ValueError, TypeError):
            raise bad(f"line {number} has a bad key, move or probability") from None
        table[key] = MappingProxyType(probabilities)
    return Strategy(game.info.name, MappingProxyType(table)), about


def _read_move(game: Game, text: str) -> Hashable:
    """A move of a strategy file: parsed without a position (the games here do not need one)."""
    return game.parse_move(game.initial_state(), text)
