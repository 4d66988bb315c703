"""Search algorithms over the Game protocol: plain functions returning a SearchResult."""

from .alphabeta import PLAIN, Options, alphabeta
from .iterative import iterate
from .minimax import minimax
from .trace import TraceEvent, TracePrinter
from .tt import TranspositionTable

__all__ = [
    "PLAIN", "Options", "TraceEvent", "TracePrinter", "TranspositionTable",
    "alphabeta", "iterate", "minimax",
]
