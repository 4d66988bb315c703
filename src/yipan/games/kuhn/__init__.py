"""Kuhn poker: the rules (``rules``); the AI plays the game's equilibrium, computed by CFR
(``yipan.games.equilibrium``)."""

from .rules import KuhnPoker, KuhnState

__all__ = ["KuhnPoker", "KuhnState"]
