"""2048 in the registry: its rules in words (it has no options)."""

from ...core.registry import GameSpec

GAMES = (GameSpec(
    name="2048",
    title="2048 (one player against chance)",
    factory="yipan.games.g2048:G2048",
    hooks="yipan.games.g2048.hooks:HOOKS",
    rules="Slide every tile up, down, left or right (arrow keys, or swipe). Two tiles of "
          "the same number that meet merge into one with their sum, which adds to your "
          "score. After each move a new tile, 2 or 4, appears on a free square. The game "
          "ends when no move changes the board: aim for a 2048 tile.",
),)
