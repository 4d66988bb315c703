"""Push-or-fold hold'em's hooks: the equilibrium AI, its analysis of a hand, and ``yipan solve
pushfold`` (the small blind's value and the exploitability, the ranges in ``extra``)."""

from ...core import GameHooks
from .player import analyze, make_ai, prepare, solve

HOOKS = GameHooks(make_ai=make_ai, analyze=analyze, solve=solve, prepare=prepare)
