"""The search debug trace: a hook that receives one event per node, and a printer for it.

Every search takes ``trace=``, a callable. It receives a ``TraceEvent`` when a node is entered
(``kind="node"``), when its value is known (``"value"``, with ``terminal`` or ``horizon`` set
for leaves), and when a cut-off prunes the rest of its moves (``"cutoff"``). ``TracePrinter``
writes the indented tree of the seed's debug log, down to a depth bound::

    MAX d0 []
      MIN d1 [a3]
        MAX d2 [a3 c3]  terminal: loss in 2 for the side to move -999998
        cut-off at [a3]: +999998 >= beta +999998, 2 move(s) pruned
      = -999998 [a3]
    = -999998 []

Scores are shown from MAX's side (the root's side to move), as in the seed's log.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from ..core import describe_value


@dataclass(frozen=True, slots=True)
class TraceEvent:
    kind: str  # "node", "value" or "cutoff"
    ply: int
    path: tuple  # moves from the root
    maximizing: bool  # the root's side is to move here (MAX), as the seed's log calls it
    value: float | None = None  # from the side to move at this node (negamax view)
    alpha: float | None = None
    beta: float | None = None
    terminal: bool = False
    horizon: bool = False
    table: bool = False  # the value came from the transposition table
    bound: bool = False  # the window was already decided (mate-distance pruning)
    pruned: int = 0  # moves left unsearched by a cut-off


Trace = Callable[[TraceEvent], None]


class TracePrinter:
    """Writes trace events as an indented tree, showing nodes down to ``max_depth`` plies."""

    def __init__(self, game: Any, max_depth: int = 2, out: TextIO | None = None) -> None:
        self.game = game
        self.max_depth = max_depth
        self.out = out or sys.stdout
        self.events = 0
        self.pending: TraceEvent | None = None

    def _path(self, path: tuple) -> str:
        return "[" + " ".join(self.game.format_move(m) for m in path) + "]"

    def __call__(self, event: TraceEvent) -> None:
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
            indent = "  " * (event.ply + 1)
            print(f"{indent}cut-off at {self._path(event.path)}: {event.value:+g} >= beta "
                  f"{event.beta:+g}, {event.pruned} move(s) pruned", file=self.out)

    def _line(self, event: TraceEvent) -> str:
        side = "MAX" if event.maximizing else "MIN"
        return f"{'  ' * event.ply}{side} d{event.ply} {self._path(event.path)}"

    def _flush(self) -> None:
        if self.pending is not None:
            print(self._line(self.pending), file=self.out)
            self.pending = None

    def _value(self, event: TraceEvent) -> None:
        # the seed prints scores from MAX's point of view: flip MIN nodes' negamax values
        root_view = event.value if event.maximizing else -event.value
        if event.terminal:
            note = f"terminal: {describe_value(event.value)} for the side to move"
        elif event.horizon:
            note = "horizon: heuristic"
        elif event.table:
            note = "from the table"
        elif event.bound:
            note = "bound"
        else:
            note = "value"
        if self.pending is not None and self.pending.path == event.path:
            self.pending = None
            print(f"{self._line(event)}  {note} {root_view:+g}", file=self.out)
        else:
            self._flush()
            print(f"{'  ' * event.ply}= {root_view:+g} {self._path(event.path)}", file=self.out)
