"""Kuhn poker in the registry: its rules in words (it has no options); its AI plays the
equilibrium of ``yipan.games.equilibrium``."""

from ...core.registry import GameSpec

GAMES = (GameSpec(
    name="kuhn", title="Kuhn poker", factory="yipan.games.kuhn:KuhnPoker",
    hooks="yipan.games.equilibrium:HOOKS", aliases=("kuhn-poker",),
    rules="A deck of three cards: jack, queen, king. Each player antes one chip and is "
          "dealt one card, seen only by its owner. The first player checks or bets one "
          "chip; after a check the second may check (showdown) or bet; a bet is called "
          "or folded. At a showdown the higher card takes the pot; a fold gives it to "
          "the bettor."),)
