"""Xiangqi in the registry: its option (the start position), rules in words and example
positions."""

from ...core.registry import GameOption, GameSpec


def _fen(text: str) -> str:
    from .rules import position_from_fen

    position_from_fen(text)  # a GameOptionError says what is wrong with it
    return " ".join(str(text).split())


GAMES = (GameSpec(
    name="xiangqi",
    title="Chinese chess (xiangqi, 象棋)",
    factory="yipan.games.xiangqi:Xiangqi",
    options=(GameOption("fen", _fen, None,
                        "the start position in xiangqi FEN (default: the usual start)",
                        label="start position (FEN)"),),
    hooks="yipan.games.xiangqi.hooks:HOOKS",
    aliases=("chinese-chess", "cchess"),
    rules="Red and black move in turn, red first, on the points of a 9 by 10 board cut "
          "by a river. The general and its two advisors keep to the palace (the general "
          "one step along a line, advisors one step diagonally); elephants move two "
          "points diagonally, never across the river, blocked by a piece in between; "
          "horses move one point straight then one diagonally, blocked by a piece next "
          "to them; chariots move like rooks; cannons move like rooks but capture by "
          "jumping exactly one piece; soldiers step forward, and also sideways once "
          "across the river. The two generals may not face each other on an open file. "
          "Checkmate the enemy general, or leave the opponent no legal move, to win. A "
          "position repeated three times is a draw, except that the side giving "
          "perpetual check loses, and failing that the side perpetually chasing an "
          "unprotected piece; sixty moves without a capture are a draw.",
    examples=({"fen": "3akab2/9/4b4/9/2c6/9/9/3R5/4A4/4KA3 w"},
              {"fen": "4k4/4a4/9/9/9/9/9/9/4p4/3K5 b"}),
),)
