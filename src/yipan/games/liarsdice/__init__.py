"""Liar's Dice for two: the rules (``rules``); the AI plays an equilibrium computed by CFR+
(``yipan.games.equilibrium``)."""

from .rules import LIAR, LiarsDice, LiarsDiceState

__all__ = ["LIAR", "LiarsDice", "LiarsDiceState"]
