"""The tree a search explored, recorded from its trace events (``yipan explain``).

``TreeRecorder`` is a trace hook (``trace=recorder`` on minimax, alpha-beta, expectimax): it
builds one ``TreeNode`` per "node" event, in the order the search entered them, so the tree
holds exactly the nodes the search counted and nothing is searched twice to draw it. A
principal-variation search tries some moves twice (a null window, then a re-search): both
tries are children, labelled by ``window``, as both are nodes the search visited. Alpha-beta's
follow-up searches (``TraceEvent.origin``: the principal variation completed after a table
hit) are kept apart in ``follow_ups``.

Every value and window here is from MAX's side (MAX: the side to move at the root), whatever
the side to move at the node, as ``TracePrinter`` prints them; a bound says so (``bound``:
``"lower"``, MAX can get at least this, or ``"upper"``).

The recording is capped (``max_nodes``): past the cap, nodes are counted (``seen``) but not
kept, and ``truncated`` says so. ``mcts_tree`` reads an MCTS tree (``search.mcts.Node``) the
same way, with each node's visits, mean and UCB1 score.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field

from ..core import CHANCE
from .mcts import Node
from .trace import TraceEvent

DEFAULT_MAX_NODES = 20_000


@dataclass(slots=True)
class TreeNode:
    """One node of an explained tree; fields an algorithm has no use for stay None."""

    move: Hashable | None  # the move (or chance draw) that led here; None at the root
    maximizing: bool = True  # MAX (the root's side) to move here; a chance node counts as MAX
    value: float | None = None  # from MAX's side
    bound: str = ""  # "", "lower" (the true value is at least value) or "upper"
    source: str = ""  # where a leaf's value came from: terminal, horizon, table, ...
    window: str = ""  # PVS: "null window" or "re-search"
    alpha: float | None = None  # alpha-beta: the window on entry, from MAX's side
    beta: float | None = None
    cutoff: bool = False  # alpha-beta: the moves after the last child were pruned
    pruned: tuple = ()  # those moves, in the order they would have been tried
    chance: bool = False  # expectimax: nobody chooses here, the value is the expectation
    probability: float | None = None  # the chance draw's probability that led here
    visits: int | None = None  # MCTS
    mean: float | None = None  # MCTS: the mean result, from MAX's side, in [-1, 1]
    ucb: float | None = None  # MCTS: the UCB1 score its parent's chooser saw (their side)
    proven: bool | None = None  # MCTS-solver: the value is proven
    options: tuple[int, ...] | None = None  # Sprague-Grundy: the options' Grundy values
    known: bool = False  # Sprague-Grundy: the value was already computed elsewhere in the tree
    children: list[TreeNode] = field(default_factory=list)

    def walk(self) -> Iterator[TreeNode]:
        """This node and every node below it, depth first, in the order searched."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def size(self) -> int:
        return sum(1 for _ in self.walk())


@dataclass(slots=True)
class FollowUp:
    """A search run after the main one, from ``origin`` (moves from the root)."""

    origin: tuple
    root: TreeNode


def _max_view(value: float | None, maximizing: bool) -> float | None:
    """A negamax value (side to move at the node) from MAX's side."""
    if value is None:
        return None
    return value if maximizing else -value


class TreeRecorder:
    """A trace hook that records the tree of the search it is given to (module doc)."""

    def __init__(self, max_nodes: int = DEFAULT_MAX_NODES) -> None:
        if max_nodes < 1:
            raise ValueError(f"a recorded tree holds at least one node, got {max_nodes}")
        self.max_nodes = max_nodes
        self.root: TreeNode | None = None
        self.follow_ups: list[FollowUp] = []
        self.seen = 0  # "node" events: every node the search counted
        self.kept = 0
        self._open: list[TreeNode | None] = []  # the nodes entered and not yet valued

    @property
    def truncated(self) -> bool:
        return self.kept < self.seen

    def __call__(self, event: TraceEvent) -> None:
        if event.kind == "node":
            self._enter(event)
        elif event.kind == "value":
            node = self._current(event)
            if node is not None:
                self._value(node, event)
            del self._open[event.ply:]
        elif event.kind == "cutoff":
            node = self._current(event)
            if node is not None:
                node.cutoff = True
                node.pruned = event.pruned_moves

    def _current(self, event: TraceEvent) -> TreeNode | None:
        return self._open[event.ply] if event.ply < len(self._open) else None

    def _enter(self, event: TraceEvent) -> None:
        self.seen += 1
        del self._open[event.ply:]  # (a node's value closes it; this only guards)
        parent = self._open[-1] if self._open else None
        node: TreeNode | None = None
        if self.kept < self.max_nodes and (event.ply == 0 or parent is not None):
            node = TreeNode(event.path[-1] if event.path else None, event.maximizing,
                            chance=event.chance, probability=event.probability,
                            window=event.window)
            if event.alpha is not None or event.beta is not None:
                node.alpha, node.beta = _window(event)
            self.kept += 1
            if event.ply == 0:
                if event.origin is None and self.root is None:
                    self.root = node
                else:
                    self.follow_ups.append(FollowUp(event.origin or (), node))
            else:
                assert parent is not None
                parent.children.append(node)
        while len(self._open) < event.ply:  # a node whose parent was not kept
            self._open.append(None)
        self._open.append(node)

    @staticmethod
    def _value(node: TreeNode, event: TraceEvent) -> None:
        node.value = _max_view(event.value, event.maximizing)
        lower = event.lower if event.maximizing else event.upper
        upper = event.upper if event.maximizing else event.lower
        node.bound = "lower" if lower else "upper" if upper else ""
        node.source = ("terminal" if event.terminal else "horizon" if event.horizon
                       else "table" if event.table else "proven bounds" if event.bound
                       else "mate distance" if event.mate_distance else "")


def _window(event: TraceEvent) -> tuple[float, float]:
    """The window (alpha, beta) of a negamax node, from MAX's side: a MIN node's is turned
    round (its alpha is MAX's beta, negated)."""
    alpha = -math.inf if event.alpha is None else event.alpha
    beta = math.inf if event.beta is None else event.beta
    return (alpha, beta) if event.maximizing else (-beta, -alpha)


def mcts_tree(root: Node, root_player: int, exploration: float,
              max_nodes: int = DEFAULT_MAX_NODES, index: dict[int, int] | None = None
              ) -> tuple[TreeNode, int]:
    """An MCTS tree as a TreeNode tree (children in the order they were expanded), and how
    many of its nodes there were. ``index``, when given, is filled with each kept node's
    place in the order ``TreeNode.walk`` visits (by ``id`` of the search's node), so that an
    iteration's path can name the nodes it went through. ``mean`` is from MAX's side; ``ucb``
    is the UCB1 score of the node among its siblings, for the player choosing there, as
    selection computes it (a one-player game's means are rescaled by the search, so only
    two-player ones have it)."""
    size = 0
    kept = 0
    top = TreeNode(None)
    stack: list[tuple[Node, Hashable | None, TreeNode, Node | None]] = [(root, None, top, None)]
    while stack:
        node, move, parent_copy, parent = stack.pop()
        size += 1
        if kept >= max_nodes:
            stack.extend((child, m, parent_copy, node) for m, child in node.children.items())
            continue
        if index is not None:
            index[id(node)] = kept
        kept += 1
        copy = TreeNode(move, node.mover in (root_player, CHANCE), chance=node.mover == CHANCE,
                        visits=node.visits)
        if node.visits:
            mean0 = node.total / node.visits  # player 0's view
            copy.mean = mean0 if root_player == 0 else -mean0
            copy.value = copy.mean
        if math.isfinite(node.lower) and node.lower == node.upper:
            copy.proven = True
            copy.value = node.lower if root_player == 0 else -node.lower
        if parent is not None and parent.mover != CHANCE and node.visits and parent.visits:
            sign = -1 if parent.mover == 1 else 1
            copy.ucb = _ucb(sign * node.total / node.visits, node.visits, parent.visits,
                            exploration)
        if move is None:
            top = copy
        else:
            parent_copy.children.append(copy)
        stack.extend((child, m, copy, node) for m, child in reversed(node.children.items()))
    return top, size


def _ucb(mean: float, visits: int, parent_visits: int, exploration: float) -> float:
    """UCB1 as ``search.mcts`` selects: ``Q + c * sqrt(ln N / n)``."""
    return mean + exploration * math.sqrt(math.log(parent_visits) / visits)
