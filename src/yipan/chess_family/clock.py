"""How long a move may take under UCI's and UCCI's ``go`` clock: ``Clock`` (the fields)
and ``budget`` (the soft and hard limits for this move)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Clock:
    """UCI's ``go`` clock fields, in seconds (None: not given)."""

    time_left: float | None = None
    increment: float = 0.0
    moves_to_go: int | None = None
    move_time: float | None = None


def budget(clock: Clock, overhead: float = 0.05) -> tuple[float | None, float | None]:
    """(soft, hard) seconds for this move: no new depth after ``soft``; stop at ``hard``.

    ``movetime`` is used whole (less the overhead). With a clock, a share of what is left:
    ``left / moves_to_go`` (or ``left / 30`` in sudden death) plus most of the increment;
    the hard limit allows up to four times that, never more than a third of what is left."""
    if clock.move_time is not None:
        seconds = max(0.01, clock.move_time - overhead)
        return seconds, seconds
    if clock.time_left is None:
        return None, None
    left = max(0.0, clock.time_left - overhead)
    moves = clock.moves_to_go if clock.moves_to_go else 30
    share = left / max(1, min(moves, 50)) + 0.8 * clock.increment
    hard = min(4 * share, left / 3 if moves > 1 else left * 0.8, left)
    soft = min(share * 0.6, hard)
    return max(0.005, soft), max(0.01, hard)
