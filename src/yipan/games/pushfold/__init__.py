"""Push-or-fold hold'em as a game to play (``rules``); its AI plays the equilibrium of
``yipan.poker.pushfold`` for the game's stack and ante (``player``)."""

from .rules import PushFoldHoldem, PushFoldState

__all__ = ["PushFoldHoldem", "PushFoldState"]
