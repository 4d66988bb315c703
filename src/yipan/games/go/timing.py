"""How long to think for a move under a game clock: GTP's ``time_settings`` / ``time_left``
and KGS's ``kgs-time_settings`` (absolute, Japanese byo-yomi, Canadian).

The clock's phases::

    main time        a share of what is left: left / moves_to_come, where moves_to_come is
                     about a third of the empty points (at least MIN_MOVES_TO_COME), plus,
                     under byo-yomi, most of one period (the main time is kept for later)
    Canadian period  left / stones still to play in the period
    Japanese period  most of one period (a period is only lost when overrun)
    no clock         the player's own seconds per move

Every answer keeps a margin back for the pipes and the other side's clock (``SAFETY``).
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_MOVES_TO_COME = 12
PERIOD_SHARE = 0.8
SAFETY = 0.25  # seconds kept back on every move (a tenth of a short budget)
SHORTEST = 0.05


@dataclass
class Clock:
    """One player's clock as GTP describes it; ``main_time`` etc. in seconds.

    ``periods`` > 0: Japanese byo-yomi (periods of ``period_time`` each); ``period_stones``
    > 0: Canadian (``period_stones`` stones in ``period_time``); both 0 with ``period_time``
    0: absolute time; ``unlimited``: no clock at all.
    """

    main_time: float = 0.0
    period_time: float = 0.0
    period_stones: int = 0
    periods: int = 0
    unlimited: bool = True
    left: float | None = None  # from time_left: seconds left (in main time or the period)
    stones_left: int | None = None  # from time_left: 0 in main time, else stones to play

    def set_canadian(self, main: float, period: float, stones: int) -> None:
        """GTP ``time_settings``: byo-yomi time > 0 with no stones means no time limit."""
        self.main_time, self.period_time, self.period_stones, self.periods = \
            main, period, stones, 0
        self.unlimited = period > 0 and stones == 0
        self.left, self.stones_left = None, None

    def set_japanese(self, main: float, period: float, periods: int) -> None:
        self.main_time, self.period_time, self.period_stones, self.periods = \
            main, period, 0, periods
        self.unlimited = False
        self.left, self.stones_left = None, None

    def set_none(self) -> None:
        self.unlimited = True
        self.left, self.stones_left = None, None

    def update(self, left: float, stones: int) -> None:
        """GTP ``time_left``: seconds left, and stones (0: still in main time)."""
        self.left, self.stones_left = left, stones

    def move_seconds(self, empty_points: int, default: float) -> float:
        """Seconds for the next move (module docstring)."""
        if self.unlimited:
            return default
        moves_to_come = max(MIN_MOVES_TO_COME, empty_points // 3)
        in_main = self.stones_left in (None, 0)
        left = self.left if self.left is not None else (
            self.main_time if in_main else self.period_time)
        if in_main and left > 0:
            budget = left / moves_to_come
            if self.periods > 0 or self.period_stones > 0:
                stones = max(1, self.period_stones)
                budget += PERIOD_SHARE * self.period_time / stones
        elif self.periods > 0:  # in a period: what is left of it (a fresh one when unsaid)
            budget = PERIOD_SHARE * (self.period_time if in_main else left)
        elif self.period_stones > 0:
            stones = self.stones_left or self.period_stones
            if in_main:  # main time is over: a fresh period begins
                left, stones = self.period_time, self.period_stones
            budget = left / max(1, stones)
        else:
            budget = left / moves_to_come
        safety = min(SAFETY, budget / 10)
        return max(SHORTEST, budget - safety)
