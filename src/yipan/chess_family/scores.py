"""The family's score scale: centipawns for the side to move inside an engine, a mate in n
plies ``MATE - n`` (a loss ``-(MATE - n)``); ``to_value`` gives yipan's ``WIN - n`` and
``uci_score`` the UCI/UCCI ``cp``/``mate`` words."""

from __future__ import annotations

from ..core import WIN

MATE = 30_000
MATE_BOUND = MATE - 1_000  # scores beyond are mates
INFINITE = 32_000


def to_value(score: int) -> int:
    """An engine score in yipan's convention: a mate in n plies is ``WIN - n``."""
    if score > MATE_BOUND:
        return WIN - (MATE - score)
    if score < -MATE_BOUND:
        return -(WIN - (MATE + score))
    return score


def mate_in_plies(score: int) -> int | None:
    if abs(score) > MATE_BOUND:
        return MATE - abs(score)
    return None


def uci_score(score: int) -> str:
    """``cp 35`` or ``mate 3`` / ``mate -2`` (moves, not plies, as UCI counts them)."""
    plies = mate_in_plies(score)
    if plies is None:
        return f"cp {score}"
    moves = (plies + 1) // 2
    return f"mate {moves if score > 0 else -moves}"
