"""The search debug trace: a hook that receives one event per node, and a printer for it.

Every search takes ``trace=``, a callable. It receives a ``TraceEvent`` when a node is entered
(``kind="node"``), when its value is known (``"value"``, with ``terminal`` or ``horizon`` set
for leaves), and when a cut-off prunes the rest of its moves (``"cutoff"``). ``TracePrinter``
writes the indented tree of the seed's debug log, down to a depth bound::

    MAX d0 []
      MIN d1 [a1]
        MAX d2 [a1 b1]  terminal: win in 3 -> -999997
      ...
      cut-off at [a1 b2] after c3: 5 >= beta 3
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
    pruned: int = 0  # moves left unsearched by a cut-off


Trace = Callable[[TraceEvent], None]


class TracePrinter:
    """Writes trace events as an indented tree, showing nodes down to ``max_depth`` plies."""

    def __init__(self, game: Any, max_depth: int = 2, out: TextIO | None = None) -> None:
        self.game = game
        self.max_depth = max_depth
        self.out = out or sys.stdout
        self.events = 0

    def _path(self, path: tuple) -> str:
        return "[" + " ".join(self.game.format_move(m) for m in path) + "]"

    def __call__(self, event: TraceEvent) -> None:
        self.events += 1
        if event.ply > self.max_depth:
            return
        indent = "  " * event.ply
        side = "MAX" if event.maximizing else "MIN"
        where = f"{side} d{event.ply} {self._path(event.path)}"
        if event.kind == "node":
            return
        if event.kind == "value":
            if event.terminal:
                note = f"terminal: {describe_value(event.value)}"
            elif event.horizon:
                note = f"horizon: heuristic {event.value:+g}"
            else:
                note = f"value {event.value:+g}"
            # the seed prints scores from MAX's point of view: flip MIN nodes' negamax values
            root_view = event.value if event.maximizing else -event.value
            print(f"{indent}{where}  {note}  (MAX sees {root_view:+g})", file=self.out)
        elif event.kind == "cutoff":
            print(f"{indent}  cut-off at {self._path(event.path)}: {event.value:+g} >= beta "
                  f"{event.beta:+g}, {event.pruned} move(s) pruned", file=self.out)
