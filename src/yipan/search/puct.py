"""PUCT: Monte Carlo tree search guided by a policy and a value (the AlphaZero selection rule).

Generic over any two-player zero-sum game of perfect information without chance. Where UCT
plays a random game out at each new leaf, PUCT asks an *evaluator* once per leaf::

    evaluator(states) -> [(priors, value), ...]
        priors: {legal move: probability} (summing to 1); value: in [-1, 1], for the
        side to move at that state (+1 a win)

(``yipan.learning`` makes one from a trained network; ``rollout_evaluator`` here is uniform
priors with a random playout's result, which makes PUCT a UCT with a different bonus.)

Selection from a node ``s`` of visits ``N`` takes the child ``a`` maximising::

    Q(a) + c_puct * P(a) * sqrt(N) / (1 + n(a))

``Q(a)`` the mean value of ``a`` for the player choosing it (``fpu``, by default 0, for a child
not yet visited), ``P(a)`` its prior, ``n(a)`` its visits. Leaves are evaluated in batches of
``batch`` (one call of the evaluator, as a network prefers): each descent adds a *virtual
loss* to the path, so the next descents of the batch spread to other leaves; the losses are
taken back when the values arrive. A finished game is valued by its outcome, never the
evaluator.

For self-play, ``noise`` mixes Dirichlet noise into the root's priors
(``(1 - eps) P + eps Dir(alpha)``, drawn from an injected ``numpy.random.Generator``) and
``choose_move(visits, temperature, rng)`` picks a move with probability ``n(a)^(1/T)``
(``T = 0``: the most visited).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from ..core import CHANCE, Choice, Game, Limit, SearchResult, require
from .mcts import MCTSStats

Evaluation = tuple[dict[Any, float], float]
Evaluator = Callable[[Sequence[Any]], Sequence[Evaluation]]
"""``evaluator(states) -> [(priors over the legal moves, value for the side to move)]``."""

DEFAULT_C_PUCT = 1.5
DEFAULT_SIMULATIONS = 800


@dataclass(frozen=True, slots=True)
class Noise:
    """Dirichlet noise at the root, for self-play: ``(1 - fraction) P + fraction Dir(alpha)``."""

    rng: np.random.Generator
    alpha: float = 1.0
    fraction: float = 0.25


class Node:
    """One state. ``total`` sums values for the player who chose this node (its parent's
    mover); ``prior`` is the parent's prior for it. A child's state is made when it is first
    chosen (``state`` None until then: most children of a node are never visited)."""

    __slots__ = ("state", "move", "mover", "prior", "children", "visits", "total", "terminal",
                 "expanded", "pending")

    def __init__(self, state: Any, mover: int, prior: float, move: Any = None) -> None:
        self.state = state
        self.move = move  # the move from the parent
        self.mover = mover
        self.prior = prior
        self.children: dict[Hashable, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.terminal: float | None = None  # value for player 0 at a finished game
        self.expanded = False
        self.pending = False  # waiting in the current batch for its evaluation


def rollout_evaluator(game: Game, rng: random.Random) -> Evaluator:
    """Uniform priors and the result of one random playout (the game's own when it declares
    one): with it PUCT is a UCT that explores by ``P sqrt(N) / (1 + n)``."""

    def playout(state: Any) -> float:
        if game.info.playout:
            return game.playout(state, rng)
        while (outcome := game.outcome(state)) is None:
            state = game.play(state, rng.choice(list(game.legal_moves(state))))
        return float(outcome.result_for(0))

    def evaluate(states: Sequence[Any]) -> list[Evaluation]:
        answers = []
        for state in states:
            moves = list(game.legal_moves(state))
            result0 = playout(state)
            value = result0 if game.to_move(state) == 0 else -result0
            answers.append(({move: 1.0 / len(moves) for move in moves}, value))
        return answers

    return evaluate


class PUCT:
    """One search tree and its settings; ``run`` adds simulations to it."""

    def __init__(self, game: Game, evaluator: Evaluator, *, c_puct: float = DEFAULT_C_PUCT,
                 batch: int = 8, noise: Noise | None = None, fpu: float = 0.0,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        require(game, two_player_zero_sum=True, perfect_information=True, no_chance=True,
                algorithm="PUCT")
        self.game = game
        self.evaluator = evaluator
        self.c_puct = c_puct
        self.batch = max(1, batch)
        self.noise = noise
        self.fpu = fpu
        self.clock = clock  # what a time limit counts (benchmarks: CPU time)
        self.evaluations = 0  # states sent to the evaluator
        self.root: Node | None = None
        self._noised: Node | None = None  # the root that has had its noise

    # -- the tree -----------------------------------------------------------------------------
    def new_node(self, state: Any, prior: float) -> Node:
        node = Node(state, self.game.to_move(state), prior)
        outcome = self.game.outcome(state)
        if outcome is not None:
            node.terminal = float(outcome.result_for(0))
        return node

    def make_state(self, child: Node, parent: Node) -> None:
        """The child's state, mover and outcome, made on its first visit."""
        state = self.game.play(parent.state, child.move)
        child.state = state
        child.mover = self.game.to_move(state)
        outcome = self.game.outcome(state)
        if outcome is not None:
            child.terminal = float(outcome.result_for(0))

    def descend(self, root: Node) -> list[Node]:
        """A path from the root to a leaf (unexpanded or finished), virtual losses added.
        Each step takes the child of the largest ``Q + c P sqrt(N) / (1 + n)`` (the first
        of equals), written out: this loop is most of the search's time."""
        path = [root]
        node = root
        c_puct, fpu = self.c_puct, self.fpu
        while node.expanded and node.terminal is None:
            bonus = c_puct * math.sqrt(max(node.visits, 1))
            best: Node | None = None
            best_score = -math.inf
            for child in node.children.values():
                n = child.visits
                score = (child.total / n if n else fpu) + bonus * child.prior / (1 + n)
                if score > best_score:
                    best, best_score = child, score
            assert best is not None  # an expanded node of a game going on has moves
            if best.state is None:
                self.make_state(best, node)
            node = best
            path.append(node)
        for step in path:  # virtual loss: the path looks lost to whoever chose it
            step.visits += 1
            step.total -= 1.0
        return path

    def expand(self, node: Node, priors: dict[Any, float]) -> None:
        for move, prior in priors.items():
            node.children[move] = Node(None, -1, prior, move)
        node.expanded = True

    def backup(self, path: list[Node], value0: float) -> None:
        """Add the leaf's value (for player 0) to the path, replacing the virtual losses."""
        for i, node in enumerate(path):
            chooser = path[i - 1].mover if i else 1 - node.mover
            node.total += 1.0 + (value0 if chooser == 0 else -value0)

    def add_noise(self, root: Node) -> None:
        if self.noise is None or not root.children:
            return
        children = list(root.children.values())
        draw = self.noise.rng.dirichlet([self.noise.alpha] * len(children))
        for child, eta in zip(children, draw, strict=True):
            child.prior = (1 - self.noise.fraction) * child.prior + self.noise.fraction * eta

    # -- searching ----------------------------------------------------------------------------
    def run(self, state: Any, limit: Limit) -> SearchResult:
        """Simulations from ``state`` (the tree kept when it is the same root) until ``limit``
        (``nodes``: simulations) runs out; the root's figures as a SearchResult."""
        start = self.clock()
        if self.game.outcome(state) is not None:
            raise ValueError("the game is over; there is nothing to search")
        if self.game.to_move(state) == CHANCE:
            raise ValueError("PUCT cannot search from a chance node")
        if self.root is None or self.root.state != state:
            self.root = self.new_node(state, 1.0)
        root = self.root
        if not root.expanded:
            self.evaluate_leaves([[root]])
        if root is not self._noised:
            self.add_noise(root)
            self._noised = root
        deadline = None if limit.time is None else start + limit.time
        done = 0
        target = limit.nodes
        while target is None or done < target:
            if (deadline is not None and self.clock() >= deadline) or limit.stopped():
                break
            size = self.batch if target is None else min(self.batch, target - done)
            paths = []
            for _ in range(size):
                path = self.descend(root)
                leaf = path[-1]
                if leaf.terminal is not None:
                    self.backup(path, leaf.terminal)
                elif leaf.pending:  # already in this batch: take the virtual loss back
                    for step in path:
                        step.visits -= 1
                        step.total += 1.0
                    break
                else:
                    leaf.pending = True
                    paths.append(path)
                done += 1
            self.evaluate_leaves(paths)
            if len(root.children) == 1 and limit.nodes is None:
                break  # one legal move: nothing to think about under a clock
        return self.result(root, done, self.clock() - start)

    def evaluate_leaves(self, paths: list[list[Node]]) -> None:
        if not paths:
            return
        leaves = [path[-1] for path in paths]
        answers = self.evaluator([leaf.state for leaf in leaves])
        self.evaluations += len(leaves)
        for path, leaf, (priors, value) in zip(paths, leaves, answers, strict=True):
            leaf.pending = False
            self.expand(leaf, priors)
            if len(path) > 1 or leaf.visits:
                self.backup(path, value if leaf.mover == 0 else -value)

    def result(self, root: Node, simulations: int, elapsed: float) -> SearchResult:
        children = root.children
        visits = {move: child.visits for move, child in children.items()}
        values = {move: child.total / child.visits for move, child in children.items()
                  if child.visits}
        move = max(children, key=lambda m: (children[m].visits, children[m].prior))
        pv: list[Any] = [move]
        node = children[move]
        while node.children and node.visits > 1:
            best = max(node.children, key=lambda m: node.children[m].visits)
            pv.append(best)
            node = node.children[best]
        stats = MCTSStats(nodes=simulations, elapsed=elapsed,
                          visits=MappingProxyType(visits), tree_size=root.visits)
        return SearchResult(move=move, value=values.get(move, 0.0), pv=tuple(pv),
                            move_values=MappingProxyType(values), depth=len(pv), stats=stats,
                            scale="mean")

    def priors(self) -> dict[Any, float]:
        """The root's priors (after noise), for showing a policy."""
        assert self.root is not None
        return {move: child.prior for move, child in self.root.children.items()}

    def advance(self, state: Any) -> None:
        """Keep the subtree of ``state`` when it is a child or grandchild of the root."""
        root = self.root
        if root is None:
            return
        for child in root.children.values():
            if child.state == state:
                self.root = child
                return
            for grandchild in child.children.values():
                if grandchild.state == state:
                    self.root = grandchild
                    return
        self.root = None


def puct(game: Game, state: Any, evaluator: Evaluator, *, limit: Limit,
         c_puct: float = DEFAULT_C_PUCT, batch: int = 8, noise: Noise | None = None
         ) -> SearchResult:
    """One PUCT search of ``state`` under ``limit`` (``nodes``: simulations)."""
    return PUCT(game, evaluator, c_puct=c_puct, batch=batch, noise=noise).run(state, limit)


def visits_of(result: SearchResult) -> dict[Any, int]:
    """The root's visits per move of a PUCT (or MCTS) result."""
    stats = result.stats
    assert isinstance(stats, MCTSStats)
    return dict(stats.visits)


def choose_move(visits: dict[Any, int], temperature: float, rng: random.Random) -> Any:
    """A move drawn with probability ``visits^(1/temperature)``; at 0 the most visited (ties
    drawn at random)."""
    moves = list(visits)
    if temperature <= 0:
        most = max(visits.values())
        return rng.choice([m for m in moves if visits[m] == most])
    weights = [visits[m] ** (1.0 / temperature) for m in moves]
    if not any(weights):
        return rng.choice(moves)
    return rng.choices(moves, weights)[0]


class PUCTPlayer:
    """A Player that searches by PUCT under a fixed limit, keeping its tree between moves."""

    def __init__(self, evaluator: Evaluator, limit: Limit, *, name: str = "puct",
                 c_puct: float = DEFAULT_C_PUCT, batch: int = 8,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.evaluator = evaluator
        self.clock = clock
        self.limit = limit
        self.name = name
        self.c_puct = c_puct
        self.batch = batch
        self._search: PUCT | None = None

    def search_for(self, game: Game) -> PUCT:
        if self._search is None or self._search.game is not game:
            self._search = PUCT(game, self.evaluator, c_puct=self.c_puct, batch=self.batch,
                                clock=self.clock)
        return self._search

    def choose(self, game: Game, state: Any) -> Choice:
        search = self.search_for(game)
        search.advance(state)
        result = search.run(state, self.limit)
        return Choice(result.move, result)
