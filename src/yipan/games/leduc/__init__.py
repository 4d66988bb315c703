"""Leduc hold'em: the rules (``rules``); the AI plays an equilibrium computed by CFR+
(``yipan.games.equilibrium``)."""

from .rules import LeducHoldem, LeducState

__all__ = ["LeducHoldem", "LeducState"]
