"""Impartial games: Sprague-Grundy theory, from Nim to octal games, with proved periods.

- ``mex``, ``grundy(position, options)`` for any finite impartial game (iterative, memoised);
- sums: ``nim_sum`` and the ``winning_moves`` of a sum of any components;
- Nim (normal and misère), heap rules (``NimRule``, ``BashRule``, ``SubtractionRule``,
  ``OctalRule`` from codes such as ``0.77``, ``GrundyRule``) with fast Grundy tables;
- ``Periodicity``: (pre-period, least period, proved) by the octal periodicity theorem or the
  window argument;
- Wythoff's game: Grundy table and P-positions from the golden ratio.
"""

from .mex import CycleError, grundy, mex
from .nim import NimMove, is_lost
from .nim import winning_moves as nim_winning_moves
from .periodicity import Periodicity, ProofBound, apparent_period, prove_period
from .rules import (
    BashRule,
    GrundyRule,
    HeapMove,
    HeapRule,
    NimRule,
    OctalRule,
    SubtractionRule,
    format_code,
    parse_amounts,
    parse_code,
)
from .sums import SumMove, nim_sum, winning_moves
from .wythoff import wythoff_p_positions, wythoff_table, wythoff_value

__all__ = [
    "BashRule", "CycleError", "GrundyRule", "HeapMove", "HeapRule", "NimMove", "NimRule",
    "OctalRule", "Periodicity", "ProofBound", "SubtractionRule", "SumMove", "apparent_period",
    "format_code", "grundy", "is_lost", "mex", "nim_sum", "nim_winning_moves", "parse_amounts",
    "parse_code", "prove_period", "winning_moves", "wythoff_p_positions", "wythoff_table",
    "wythoff_value",
]
