"""Connect Four: the rules (``ConnectFour``), a numba solver, an opening book and a player."""

from .rules import ConnectFour, Geometry, Position

__all__ = ["ConnectFour", "Geometry", "Position"]
