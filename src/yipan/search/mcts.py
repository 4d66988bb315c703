"""Monte Carlo tree search: UCT, the MCTS-solver, chance nodes, tree reuse, root parallelism.

One iteration, as in the textbook figure:

1. *selection*: from the root, follow the child with the best UCB1 score
   ``Q + c * sqrt(ln N / n)`` (``Q`` the child's mean result for the player choosing it,
   ``n`` its visits, ``N`` the parent's, ``c`` the exploration constant); at a chance node
   draw the outcome with its probability instead;
2. *expansion*: add one untried child (or the newly drawn chance outcome);
3. *playout*: play to the end at random, or with the game's own policy when its
   ``GameInfo.playout`` says it has one (``Game.playout``), or with a ``playout`` function given;
4. *back-propagation*: add the result to every node on the path.

Results are kept for player 0 (+1 win, 0 draw, -1 loss) and turned to the chooser's view at
selection. In a one-player game the result is the game's reward (2048: the final score),
rescaled to [-1, 1] by the smallest and largest reward seen so far, so one constant ``c``
serves both kinds of game.

MCTS-solver (``solver=True``, two-player games without chance), with score bounds: every node
keeps a lower and an upper bound on its exact value (player 0's view, WIN - ply convention, ply
counted from the node). A finished game is exact; a node of player 0 takes the largest lower
bound of its children and, once all are expanded, the largest upper bound (player 1: the
smallest), each a ply further; it is proven when the bounds meet. Selection skips a child
whose upper bound (for the chooser) cannot beat what the chooser already holds, and clamps a
child's mean into its bounds. So a proven draw does not take the iterations: OpenSpiel's
solver gives it an exact 0 with no exploration bonus, which beats its unproven siblings'
negative means for ever; they are starved and a drawn root is never proven. Here the draw
becomes the node's lower bound, the siblings are searched until each is shown to be no better,
and a draw is proven with one refutation per move, as alpha-beta would (not the whole tree).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..core import (
    CHANCE,
    HEURISTIC_LIMIT,
    WIN,
    CapabilityError,
    Game,
    Limit,
    SearchResult,
    SearchStats,
    add_plies,
    require,
)
from ..core.player import Choice

DEFAULT_EXPLORATION = 1.0  # for results in [-1, 1] (0.5 on the [0, 1] scale of UCB1's sqrt(2))

Playout = Callable[[Any, random.Random], float]
"""``playout(state, rng) -> result for player 0`` (a one-player game: its reward)."""


@dataclass(frozen=True, slots=True)
class MCTSStats(SearchStats):
    """SearchStats (``nodes`` counts iterations) with the figures particular to MCTS."""

    visits: Mapping[Hashable, int] = field(default_factory=lambda: MappingProxyType({}))
    tree_size: int = 0  # nodes in the tree at the end (summed over workers)
    reused: int = 0  # root visits carried over from an earlier search (tree reuse)
    workers: int = 1

    @property
    def iterations_per_second(self) -> float:
        return self.nodes_per_second


class Node:
    """One state in the tree. ``total`` sums results for player 0; ``lower`` and ``upper``
    bound the exact value for player 0 in the WIN - ply convention, ply counted from here."""

    __slots__ = ("state", "mover", "children", "untried", "visits", "total", "lower", "upper",
                 "terminal_result", "outcomes", "weights")

    def __init__(self, state: Any, mover: int) -> None:
        self.state = state
        self.mover = mover  # 0, 1 or CHANCE: who chooses among this node's children
        self.children: dict[Hashable, Node] = {}
        self.untried: list[Hashable] = []
        self.visits = 0
        self.total = 0.0
        self.lower = -math.inf
        self.upper = math.inf
        self.terminal_result: float | None = None  # the result when the game is over here
        self.outcomes: list[Hashable] = []  # at a chance node: outcomes and cumulative weights
        self.weights: list[float] = []

    @property
    def proven(self) -> bool:
        return self.lower == self.upper


class Tree:
    """A search tree that outlives one search: pass it to ``mcts`` again for the next move."""

    def __init__(self) -> None:
        self.root: Node | None = None
        # a list to record each iteration in (``yipan explain``): its path of nodes from the
        # root and its result for player 0; None records nothing
        self.iterations: list[tuple[list[Node], float]] | None = None

    def reroot(self, state: Any, reach: int = 3) -> int:
        """Make the node of ``state`` the root if it lies within ``reach`` plies of the old root
        (my move, a chance draw, the opponent's move); returns the visits kept (0: none)."""
        if self.root is None:
            return 0
        frontier = [self.root]
        for _ in range(reach + 1):
            for node in frontier:
                if node.state == state:
                    self.root = node
                    return node.visits
            frontier = [child for node in frontier for child in node.children.values()]
        self.root = None
        return 0


def tree_size(node: Node) -> int:
    size, stack = 0, [node]
    while stack:
        current = stack.pop()
        size += 1
        stack.extend(current.children.values())
    return size


class _Search:
    """One search's settings and the operations of an iteration."""

    def __init__(self, game: Game, rng: random.Random, exploration: float, solver: bool,
                 playout: Playout | None) -> None:
        self.game = game
        self.rng = rng
        self.exploration = exploration
        self.solver = solver
        self.one_player = game.info.players == 1
        if playout is None and game.info.playout:
            playout = game.playout
        self.playout = playout or self.random_playout
        self.low = math.inf  # rewards seen (one-player games), for rescaling
        self.high = -math.inf
        self.record: list[tuple[list[Node], float]] | None = None  # Tree.iterations

    # -- nodes ---------------------------------------------------------------------------------
    def new_node(self, state: Any) -> Node:
        game = self.game
        node = Node(state, game.to_move(state))
        outcome = game.outcome(state)
        if outcome is not None:
            if self.one_player:
                node.terminal_result = self.playout(state, self.rng)
            else:
                node.terminal_result = float(outcome.result_for(0))
                if self.solver:
                    node.lower = node.upper = 0 if outcome.winner is None else (
                        WIN if outcome.winner == 0 else -WIN)
        elif node.mover == CHANCE:
            total = 0.0
            for outcome_move, probability in game.chance_outcomes(state):
                total += probability
                node.outcomes.append(outcome_move)
                node.weights.append(total)
        else:
            node.untried = list(game.legal_moves(state))
            self.rng.shuffle(node.untried)
        return node

    def random_playout(self, state: Any, rng: random.Random) -> float:
        """Uniformly random moves (chance drawn with its probabilities) to the end."""
        game = self.game
        while (outcome := game.outcome(state)) is None:
            if game.to_move(state) == CHANCE:
                outcomes, probabilities = zip(*game.chance_outcomes(state), strict=True)
                move = rng.choices(outcomes, weights=probabilities)[0]
            else:
                move = rng.choice(game.legal_moves(state))
            state = game.play(state, move)
        if self.one_player:
            return game.evaluate(state) if game.info.heuristic else 0.0
        return float(outcome.result_for(0))

    # -- one iteration -----------------------------------------------------------------------------
    def iterate(self, root: Node) -> None:
        node = root
        path = [root]
        while node.terminal_result is None and node.lower != node.upper:  # (not proven)
            if node.mover == CHANCE:
                outcome = self.rng.choices(node.outcomes, cum_weights=node.weights)[0]
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = self.new_node(
                        self.game.play(node.state, outcome))
                    path.append(child)
                    break
                node = child
            elif node.untried:
                move = node.untried.pop()
                child = node.children[move] = self.new_node(self.game.play(node.state, move))
                path.append(child)
                break
            else:
                node = self.select(node)
            path.append(node)
        leaf = path[-1]
        if leaf.proven:
            result = float((leaf.lower > 0) - (leaf.lower < 0))
        elif leaf.terminal_result is not None:
            result = leaf.terminal_result
        else:
            result = self.playout(leaf.state, self.rng)
        if self.one_player:
            self.low = min(self.low, result)
            self.high = max(self.high, result)
        for visited in path:
            visited.visits += 1
            visited.total += result
        if self.record is not None:
            self.record.append((path, result))
        if self.solver:
            for parent in reversed(path[:-1]):
                if not update_bounds(parent):
                    break

    def value_for(self, child: Node, sign: int) -> float:
        """The child's mean result for the chooser (sign +1: player 0), in [-1, 1]."""
        mean = child.total / child.visits
        if self.one_player:
            spread = self.high - self.low
            return 2 * (mean - self.low) / spread - 1 if spread > 0 else 0.0
        return sign * mean

    def select(self, node: Node) -> Node:
        """The child with the best UCB1 score, among those that may still beat what the chooser
        holds (solver: see the module doc); its mean is clamped into its bounds."""
        sign = -1 if node.mover == 1 else 1
        log_visits = math.log(node.visits)
        exploration = self.exploration
        if not self.solver:  # the plain UCB1 loop: no bounds to respect
            # Q + c * sqrt(ln N / n), written as Q + (c * sqrt(ln N)) / sqrt(n): the hottest
            # loop of the search, so the constant part is computed once per node
            bonus = exploration * math.sqrt(log_visits)
            sqrt = math.sqrt
            best, best_score = None, -math.inf
            for child in node.children.values():
                visits = child.visits
                mean = (self.value_for(child, sign) if self.one_player
                        else sign * child.total / visits)
                score = mean + bonus / sqrt(visits)
                if score > best_score:
                    best, best_score = child, score
            assert best is not None  # a node being selected through has children
            return best
        held = node.lower if sign == 1 else -node.upper
        best, best_score = None, -math.inf
        for child in node.children.values():
            low, high = chooser_bounds(child, sign)
            if high <= held:
                continue
            exploit = min(max(self.value_for(child, sign), result_of(low)), result_of(high))
            score = exploit + exploration * math.sqrt(log_visits / child.visits)
            if score > best_score:
                best, best_score = child, score
        if best is None:  # nothing can improve: the node is proven (or about to be)
            best = max(node.children.values(), key=lambda c: chooser_bounds(c, sign)[0])
        return best


def chooser_bounds(child: Node, sign: int) -> tuple[float, float]:
    """A child's bounds for the player choosing it (sign +1: player 0), a ply further."""
    if sign == 1:
        return add_plies(child.lower, 1), add_plies(child.upper, 1)
    return -add_plies(child.upper, 1), -add_plies(child.lower, 1)


def result_of(bound: float) -> float:
    """A bound on the value as a bound on the result: -1, 0 or +1."""
    return float((bound > 0) - (bound < 0))


def update_bounds(node: Node) -> bool:
    """Recompute a decision node's bounds from its children; True if they changed."""
    if node.mover == CHANCE or not node.children:
        return False
    lowers = [add_plies(c.lower, 1) for c in node.children.values()]
    uppers = [add_plies(c.upper, 1) for c in node.children.values()]
    if node.mover == 0:
        lower, upper = max(lowers), (max(uppers) if not node.untried else math.inf)
    else:
        lower, upper = (min(lowers) if not node.untried else -math.inf), min(uppers)
    changed = (lower, upper) != (node.lower, node.upper)
    node.lower, node.upper = lower, upper
    return changed


@dataclass(frozen=True, slots=True)
class RootSummary:
    """What a search learnt about the root's moves; the parts that workers' searches add up."""

    mover: int
    visits: dict[Hashable, int]
    totals: dict[Hashable, float]
    bounds: dict[Hashable, tuple[float, float]]  # each child's (lower, upper), as in Node
    root_bounds: tuple[float, float]
    iterations: int
    tree_size: int
    pv: tuple = ()


def principal_variation(root: Node) -> tuple:
    """The line from the root, up to the first chance node or leaf: through a proven node the
    move that holds its proven value, elsewhere the most visited move."""
    line: list[Hashable] = []
    node = root
    while node.children and node.mover != CHANCE:
        sign = -1 if node.mover == 1 else 1
        if node.proven:
            value = node.lower * sign
            holding = [(m, c) for m, c in node.children.items()
                       if chooser_bounds(c, sign) == (value, value)]
            if holding:
                move, node = holding[0]
                line.append(move)
                continue
        move, node = max(node.children.items(), key=lambda item: item[1].visits)
        line.append(move)
    return tuple(line)


def _summarise(root: Node, iterations: int) -> RootSummary:
    children = root.children
    return RootSummary(
        mover=root.mover,
        visits={m: c.visits for m, c in children.items()},
        totals={m: c.total for m, c in children.items()},
        bounds={m: (c.lower, c.upper) for m, c in children.items()},
        root_bounds=(root.lower, root.upper), iterations=iterations,
        tree_size=tree_size(root), pv=principal_variation(root))


def _merge(summaries: list[RootSummary]) -> RootSummary:
    """Root parallelism: visits and totals add up; bounds from any worker hold for all."""
    visits: dict[Hashable, int] = {}
    totals: dict[Hashable, float] = {}
    bounds: dict[Hashable, tuple[float, float]] = {}
    for summary in summaries:
        for move, count in summary.visits.items():
            visits[move] = visits.get(move, 0) + count
            totals[move] = totals.get(move, 0.0) + summary.totals[move]
            low, high = summary.bounds[move]
            old_low, old_high = bounds.get(move, (-math.inf, math.inf))
            bounds[move] = (max(low, old_low), min(high, old_high))
    root_bounds = (max(s.root_bounds[0] for s in summaries),
                   min(s.root_bounds[1] for s in summaries))
    return RootSummary(summaries[0].mover, visits, totals, bounds, root_bounds,
                       sum(s.iterations for s in summaries),
                       sum(s.tree_size for s in summaries),
                       max((s.pv for s in summaries), key=len))


def _run(game: Game, state: Any, limit: Limit, rng: random.Random, solver: bool,
         exploration: float, playout: Playout | None, tree: Tree | None
         ) -> tuple[RootSummary, int]:
    """Search until the limit (or a proven root); returns the summary and the visits reused."""
    search = _Search(game, rng, exploration, solver, playout)
    tree = tree if tree is not None else Tree()
    search.record = tree.iterations
    reused = tree.reroot(state)
    if tree.root is None:
        tree.root = search.new_node(state)
    root = tree.root
    if solver:
        update_bounds(root)
    deadline = None if limit.time is None else time.perf_counter() + limit.time
    iterations = 0
    while not root.proven:
        if limit.nodes is not None and iterations >= limit.nodes:
            break
        # the clock every iteration: one may be slow (a playout through a large position)
        if (deadline is not None and time.perf_counter() >= deadline) or limit.stopped():
            break
        if root.terminal_result is not None:
            break
        search.iterate(root)
        iterations += 1
    return _summarise(root, iterations), reused


def _worker(args: tuple) -> RootSummary:
    game, state, limit, seed, solver, exploration, playout = args
    summary, _ = _run(game, state, limit, random.Random(seed), solver, exploration, playout,
                      None)
    return summary


def _mp_context() -> Any:
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def mcts(game: Game, state: Any, *, limit: Limit, rng: random.Random, solver: bool = False,
         workers: int = 1, exploration: float = DEFAULT_EXPLORATION,
         playout: Playout | None = None, tree: Tree | None = None) -> SearchResult:
    """Monte Carlo tree search of ``state`` (the method in the module docstring).

    ``limit.nodes`` bounds the iterations (playouts) and ``limit.time`` the seconds; one of them
    is needed. With ``solver=True`` the search stops early once the root is proven; the result
    is then ``exact`` with the proven value (WIN - ply: the fastest win, the slowest loss; a
    draw is 0). Otherwise ``value`` is the chosen move's
    mean result for the side to move, in [-1, 1] (a one-player game: its mean reward).
    ``workers=N`` runs N independent searches in processes and adds up their root statistics
    (root parallelism; each gets the whole limit). ``tree`` keeps the tree between moves (one
    worker only). ``stats`` is an ``MCTSStats``: visits per root move, iterations/s, tree size.
    """
    if limit.nodes is None and limit.time is None and limit.stop is None:
        raise ValueError("mcts needs a limit on iterations (Limit(nodes=...)), time or stop")
    require(game, perfect_information=True, algorithm="mcts")  # it would see hidden cards
    if solver:
        require(game, two_player_zero_sum=True, no_chance=True, algorithm="the MCTS-solver")
    elif game.info.players not in (1, 2) or (game.info.players == 2 and not game.info.zero_sum):
        raise CapabilityError(f"mcts plays one-player or two-player zero-sum games; "
                              f"{game.info.name} is neither")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if game.outcome(state) is None and game.to_move(state) == CHANCE:
        raise CapabilityError("mcts searches from a player's move; this position waits for "
                              "chance (play its outcome first)")
    start = time.perf_counter()
    if workers == 1:
        summary, reused = _run(game, state, limit, rng, solver, exploration, playout, tree)
    else:
        jobs = [(game, state, limit, rng.getrandbits(64), solver, exploration, playout)
                for _ in range(workers)]
        with ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context()) as pool:
            summary = _merge(list(pool.map(_worker, jobs)))
        reused = 0
    return _result(game, summary, rng, reused, workers, time.perf_counter() - start)


def _result(game: Game, summary: RootSummary, rng: random.Random, reused: int, workers: int,
            elapsed: float) -> SearchResult:
    sign = -1 if summary.mover == 1 else 1
    one_player = game.info.players == 1
    chooser: dict[Hashable, tuple[float, float]] = {}
    move_values: dict[Hashable, float] = {}
    for move, visits in summary.visits.items():
        lower, upper = summary.bounds[move]
        low, high = chooser[move] = (
            (add_plies(lower, 1), add_plies(upper, 1)) if sign == 1
            else (-add_plies(upper, 1), -add_plies(lower, 1)))
        if low == high:
            move_values[move] = low
        elif visits:
            mean = summary.totals[move] / visits
            move_values[move] = mean if one_player else sign * mean
    stats = MCTSStats(nodes=summary.iterations, elapsed=elapsed,
                      visits=MappingProxyType(dict(summary.visits)),
                      tree_size=summary.tree_size, reused=reused, workers=workers)
    root_low, root_high = summary.root_bounds if sign == 1 else (
        -summary.root_bounds[1], -summary.root_bounds[0])
    exact = root_low == root_high
    scale = "expected" if one_player else "mean"  # how to read a value that is not proven
    if not summary.visits:  # a finished game, or no iteration ran
        return SearchResult(None, root_low if exact else 0.0, exact=exact, stats=stats,
                            scale=scale)

    if exact or root_low > HEURISTIC_LIMIT:
        # proven, or a win in hand: play the move that holds the best guaranteed value
        best = max(low for low, _ in chooser.values())
        candidates = [m for m, (low, _) in chooser.items() if low == best]
    else:
        # by visits, leaving out moves proven to do worse than another move guarantees
        candidates = [m for m, (_, high) in chooser.items() if high > root_low]
        candidates = candidates or list(chooser)
    most = max(summary.visits[m] for m in candidates)
    tied = [m for m in candidates if summary.visits[m] == most]
    move = rng.choice(tied) if len(tied) > 1 else tied[0]
    value = root_low if exact else move_values.get(move, 0.0)
    pv = summary.pv if summary.pv[:1] == (move,) else (move,)
    return SearchResult(move=move, value=value, pv=pv,
                        move_values=MappingProxyType(move_values), depth=len(pv), exact=exact,
                        stats=stats, scale=scale)


class MCTSPlayer:
    """A Player that searches by MCTS under a fixed limit, keeping its tree between moves."""

    def __init__(self, limit: Limit, rng: random.Random, *, solver: bool = False,
                 workers: int = 1, exploration: float = DEFAULT_EXPLORATION,
                 playout: Playout | None = None, name: str = "mcts") -> None:
        self.limit = limit
        self.rng = rng
        self.solver = solver
        self.workers = workers
        self.exploration = exploration
        self.playout = playout
        self.tree = Tree()
        self.name = name

    def choose(self, game: Game, state: Any) -> Choice:
        result = mcts(game, state, limit=self.limit, rng=self.rng, solver=self.solver,
                      workers=self.workers, exploration=self.exploration, playout=self.playout,
                      tree=self.tree if self.workers == 1 else None)
        return Choice(result.move, result)
