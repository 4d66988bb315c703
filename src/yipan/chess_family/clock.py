"""How long a move may take under UCI's and UCCI's ``go`` clock: ``Clock`` (the fields)
and ``budget`` (the soft and hard limits for this move).

The GUI's clock runs from the moment it sends ``position`` and ``go`` until it reads
``bestmove``; the engine sees only part of that span. ``budget`` is given the part already
gone before the search starts (``spent``: reading the position line, setting up the search)
and the GUI's ``Move Overhead`` (the part the engine cannot see: the pipes, the process
being scheduled), and keeps ``spent + hard + overhead`` within the time left whenever
there is room for a search at all::

    time left on the clock
    |-- spent --|--- hard ---|-- overhead --|------ kept (>= 2/3 of usable + reserve) ------|
    position    search       bestmove       GUI reads it
                starts
    usable = time left - spent - overhead - reserve

The hard limit is at most a third of ``usable`` (four fifths on the last move before the
time control), the soft limit (no new depth after it) a share of that. The ``reserve`` is
never planned for: four overheads and five increments (these up to a second), at most three
quarters of the time left (a short clock is still played). In a long game at a small
increment the clock settles where a move's hard limit is about the increment: with the
reserve, at 10 s + 0.1 s and a 100 ms overhead, about 1.3 s rather than 0.4 s, so that a
stall longer than the overhead (a loaded machine stalls a process for a tenth of a second
and more) still does not flag. Where nothing is usable a move gets the least time
(``MIN_SOFT``, ``MIN_HARD``), and the increment fills the clock again.
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_SOFT = 0.005  # seconds: the least a move is given, even on a clock already spent
MIN_HARD = 0.01
DEFAULT_MOVES_TO_GO = 30  # moves the time left is shared among in sudden death
MAX_MOVES_TO_GO = 50
INCREMENT_SHARE = 0.8  # of the increment, spent on the move that earns it
HARD_SHARES = 4  # the hard limit allows this many shares (a depth that runs long)
HARD_OF_LEFT = 1 / 3  # and never more than this part of what is usable
HARD_OF_LEFT_LAST = 0.8  # on the last move before the time control
SOFT_OF_SHARE = 0.6  # no new depth once this much of the share is gone
RESERVE_OVERHEADS = 4  # the reserve: this many overheads
RESERVE_INCREMENTS = 5  # and this many increments
RESERVE_INCREMENTS_MOST = 1.0  # seconds: a stall does not grow with the increment
RESERVE_OF_LEFT = 0.75  # but never more than this part of the time left


@dataclass(frozen=True, slots=True)
class Clock:
    """UCI's ``go`` clock fields, in seconds (None: not given)."""

    time_left: float | None = None
    increment: float = 0.0
    moves_to_go: int | None = None
    move_time: float | None = None


def reserve(clock: Clock, overhead: float) -> float:
    """Seconds of the clock never planned for (module docstring): at most three quarters
    of the time left, so that a short clock (a second or two a side) is still played."""
    wanted = RESERVE_OVERHEADS * max(0.0, overhead) \
        + min(RESERVE_INCREMENTS * max(0.0, clock.increment), RESERVE_INCREMENTS_MOST)
    return min(wanted, RESERVE_OF_LEFT * max(0.0, clock.time_left or 0.0))


def budget(clock: Clock, overhead: float = 0.05,
           spent: float = 0.0) -> tuple[float | None, float | None]:
    """(soft, hard) seconds from the search's start: no new depth after ``soft``; stop at
    ``hard``. ``overhead`` and ``spent`` (module docstring) are taken off first.

    ``movetime`` is used whole (less both). With a clock, a share of what is usable (less
    the ``reserve`` too): ``usable / moves_to_go`` (or ``usable / 30`` in sudden death) plus
    most of the increment; the hard limit allows up to four times that, never more than a
    third of what is usable."""
    taken = max(0.0, overhead) + max(0.0, spent)
    if clock.move_time is not None:
        seconds = max(MIN_HARD, clock.move_time - taken)
        return seconds, seconds
    if clock.time_left is None:
        return None, None
    usable = max(0.0, clock.time_left - taken - reserve(clock, overhead))
    moves = clock.moves_to_go if clock.moves_to_go else DEFAULT_MOVES_TO_GO
    share = usable / max(1, min(moves, MAX_MOVES_TO_GO)) + INCREMENT_SHARE * clock.increment
    hard = min(HARD_SHARES * share,
               usable * (HARD_OF_LEFT if moves > 1 else HARD_OF_LEFT_LAST))
    soft = min(share * SOFT_OF_SHARE, hard)
    return max(MIN_SOFT, soft), max(MIN_HARD, hard)
