"""Leduc hold'em in the registry: its rules in words (it has no options); its AI plays the
equilibrium of ``yipan.games.equilibrium``."""

from ...core.registry import GameSpec

GAMES = (GameSpec(
    name="leduc", title="Leduc hold'em", factory="yipan.games.leduc:LeducHoldem",
    hooks="yipan.games.equilibrium:HOOKS", aliases=("leduc-holdem",),
    rules="Six cards: two jacks, two queens, two kings. Each player antes one chip and "
          "gets one private card. A betting round (bets of 2 chips, at most two raises), "
          "then one public card is shown and a second round (bets of 4). At the "
          "showdown a pair with the public card wins; else the higher card; a fold "
          "gives the pot to the other player."),)
