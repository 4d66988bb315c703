"""Heap games: Nim, Bash, subtraction and octal games, Grundy's game (``rules``), Wythoff's
game (``wythoff``), all played by Sprague-Grundy theory (``player``, ``hooks``)."""

from .rules import (
    BashGame,
    DawsonsKayles,
    GrundysGame,
    HeapGame,
    HeapGameMove,
    HeapState,
    Kayles,
    Nim,
    OctalGame,
    SubtractionGame,
    parse_heap,
)
from .wythoff import WythoffGame, WythoffMove, WythoffState

__all__ = [
    "BashGame", "DawsonsKayles", "GrundysGame", "HeapGame", "HeapGameMove", "HeapState",
    "Kayles", "Nim", "OctalGame", "SubtractionGame", "WythoffGame", "WythoffMove",
    "WythoffState", "parse_heap",
]
