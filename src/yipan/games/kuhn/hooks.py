"""The hooks of the games of hidden information (``yipan.games.equilibrium``): the AI plays
the CFR+ equilibrium; ``analyze`` gives it at the side to move's information state; ``solve``
solves the game from the deal (``--save FILE`` writes the strategy)."""

from ..equilibrium import HOOKS

__all__ = ["HOOKS"]
