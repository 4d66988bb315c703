"""The search debug trace: a hook that receives one event per node, and a printer for it.

Every search takes ``trace=``, a callable. It receives a ``TraceEvent`` when a node is entered
(``kind="node"``), when its value is known (``"value"``, with ``terminal`` or ``horizon`` set
for leaves), and when a cut-off prunes the rest of its moves (``"cutoff"``). Events carry
values as the search sees them, from the side to move at that node (negamax view).

``TracePrinter`` writes the indented tree of a textbook minimax debug log, down to a depth
bound, with every score from MAX's point of view (MAX: the side to move at the root), which
reads most easily by hand.
Tic-tac-toe after ``c1 c3``, to depth 1 (``yipan solve tictactoe c1 c3 --trace 1``)::

    MAX d0 []
      MIN d1 [b2]  value +0
      MIN d1 [b1] (null window)  value >= +999995
      MIN d1 [b1] (re-search)
        cut-off at [b1]: +999995 <= alpha +999995, 5 move(s) pruned
      <= +999995 [b1] (re-search)
      MIN d1 [a2] (null window)
        cut-off at [a2]: +999995 <= alpha +999995, 5 move(s) pruned
      <= +999995 [a2] (null window)
      ...
    = +999995 []

A value that is only a bound says so: ``>= v`` when the node failed high for MAX (MAX can get
at least v there), ``<= v`` when it failed low. A move that principal-variation search first
tries with a null window and then searches again shows up twice, labelled ``(null window)``
and ``(re-search)``. Leaves say where their value comes from: ``terminal`` (as in
``terminal: loss in 2 for MAX -999998``), ``horizon``, ``from the table``, ``proven bounds``
(the game's own bounds decided the window) or ``mate distance`` (no win or loss this far from
the root can fall inside the window); ``value`` is a node whose children are not shown.

Events of a follow-up search carry its ``origin`` (the moves from the root to where it
started): alpha-beta searches again from the end of a principal variation that a table hit
cut short. They count in the search's nodes; the printer leaves them out (its tree is the
search proper), ``yipan.search.tree.TreeRecorder`` keeps them apart.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from ..core import describe_value

NULL_WINDOW = "null window"  # PVS: a later move's first, one-point-wide try ("is it better?")
RE_SEARCH = "re-search"  # PVS: the same move again with a full window, after the try said yes


@dataclass(frozen=True, slots=True)
class TraceEvent:
    kind: str  # "node", "value" or "cutoff"
    ply: int
    path: tuple  # moves from the root
    maximizing: bool  # the root's side is to move here (MAX, as the printed tree says)
    value: float | None = None  # from the side to move at this node (negamax view)
    alpha: float | None = None  # the window the node was searched with, in the same view
    beta: float | None = None
    terminal: bool = False
    horizon: bool = False
    table: bool = False  # the value came from the transposition table
    bound: bool = False  # the game's proven value bounds decided it before any move was tried
    pruned: int = 0  # moves left unsearched by a cut-off
    lower: bool = False  # failed high: the true value is >= value (a lower bound)
    upper: bool = False  # failed low: the true value is <= value (an upper bound)
    mate_distance: bool = False  # decided by mate-distance pruning before any move was tried
    window: str = ""  # "" or, under PVS, NULL_WINDOW or RE_SEARCH: which try of this node
    pruned_moves: tuple = ()  # at a cut-off: the moves left unsearched, in the order planned
    # expectimax: a chance node (nobody moves: its value is from MAX's side, maximizing True)
    chance: bool = False
    probability: float | None = None  # the chance draw's probability that led here
    origin: tuple | None = None  # a follow-up search's start, as moves from the root


Trace = Callable[[TraceEvent], None]


class TracePrinter:
    """Writes trace events as an indented tree, showing nodes down to ``max_depth`` plies.

    Every score printed is from MAX's point of view (the root's side to move), whatever the
    side to move at the node; bounds are printed as ``>= v`` or ``<= v``.
    """

    def __init__(self, game: Any, max_depth: int = 2, out: TextIO | None = None) -> None:
        self.game = game
        self.max_depth = max_depth
        self.out = out or sys.stdout
        self.events = 0
        self.pending: TraceEvent | None = None  # a node entered, printed with its value if a leaf

    def _path(self, path: tuple) -> str:
        return "[" + " ".join(self.game.format_move(m) for m in path) + "]"

    def __call__(self, event: TraceEvent) -> None:
        if event.origin is not None:  # a follow-up search: not part of the printed tree
            return
        self.events += 1
        if event.ply > self.max_depth:
            return
        if event.kind == "node":
            self._flush()
            self.pending = event
        elif event.kind == "value":
            self._value(event)
        elif event.kind == "cutoff":
            self._flush()
            self._cutoff(event)

    def _line(self, event: TraceEvent) -> str:
        side = "MAX" if event.maximizing else "MIN"
        label = f" ({event.window})" if event.window else ""
        return f"{'  ' * event.ply}{side} d{event.ply} {self._path(event.path)}{label}"

    def _flush(self) -> None:
        if self.pending is not None:
            print(self._line(self.pending), file=self.out)
            self.pending = None

    @staticmethod
    def _score(event: TraceEvent) -> str:
        """The event's value from MAX's side: a MIN node's negamax value is negated, and its
        bounds turn round with it (MIN failing high is MAX's ``<=``)."""
        value = _root_view(event)
        at_least = event.lower if event.maximizing else event.upper
        at_most = event.upper if event.maximizing else event.lower
        relation = ">= " if at_least else "<= " if at_most else ""
        return f"{relation}{value:+g}"

    def _cutoff(self, event: TraceEvent) -> None:
        # MAX cuts off when its value reaches beta (MIN has a better line elsewhere); MIN when
        # the value falls to alpha: both said from MAX's side, so MIN's window is turned round
        if event.maximizing:
            test = f"{_root_view(event):+g} >= beta {event.beta:+g}"
        else:
            test = f"{_root_view(event):+g} <= alpha {-(event.beta or 0):+g}"
        print(f"{'  ' * (event.ply + 1)}cut-off at {self._path(event.path)}: {test}, "
              f"{event.pruned} move(s) pruned", file=self.out)

    def _value(self, event: TraceEvent) -> None:
        score = self._score(event)
        if event.terminal:
            note = f"terminal: {describe_value(_root_view(event))} for MAX"
        elif event.horizon:
            note = "horizon: heuristic"
        elif event.table:
            note = "from the table"
        elif event.bound:
            note = "proven bounds"
        elif event.mate_distance:
            note = "mate distance"
        else:
            note = "value"
        if self.pending is not None and self.pending.path == event.path:
            node, self.pending = self.pending, None
            print(f"{self._line(node)}  {note} {score}", file=self.out)
        else:
            self._flush()
            label = f" ({event.window})" if event.window else ""
            if not score.startswith((">", "<")):
                score = f"= {score}"
            print(f"{'  ' * event.ply}{score} {self._path(event.path)}{label}", file=self.out)


def _root_view(event: TraceEvent) -> float:
    """The event's value from MAX's side (a MIN node's negamax value, negated)."""
    value = event.value if event.value is not None else 0.0
    return value if event.maximizing else -value
