"""Gomoku in the registry: its options (board size, what wins), rules in words and example
option sets."""

from ...core.registry import GameOption, GameSpec, whole_number

GAMES = (GameSpec(
    name="gomoku",
    title="Gomoku (five in a row)",
    factory="yipan.games.gomoku:Gomoku",
    options=(
        GameOption("size", whole_number, 15, "board size, 7 to 22", label="board size (lines)"),
        GameOption("rule", str, "freestyle",
                   "freestyle (five or more), standard (exactly five), renju (black: "
                   "exactly five, no double three, double four or overline), caro (five "
                   "or more, not blocked at both ends) or caro-exact (exactly five, not "
                   "blocked at both ends)",
                   choices=("freestyle", "standard", "renju", "caro", "caro-exact"),
                   label="what wins", choice_labels={
                       "freestyle": "freestyle: five or more",
                       "standard": "standard: exactly five",
                       # short enough for the page's list; the help says the rest
                       "renju": "renju: black has forbidden points",
                       "caro": "caro: five or more, not blocked",
                       "caro-exact": "caro: exactly five, not blocked"}),
    ),
    hooks="yipan.games.gomoku.hooks:HOOKS",
    rules="Two players, black and white, take turns placing a stone on an empty point; "
          "black goes first. Five stones in a row, across, down or diagonally, win. "
          "Freestyle: five or more. Standard: exactly five (six or more do not count). "
          "Renju: white wins with five or more, black only with exactly five, and black "
          "may not play a point that makes two threes at once, two fours at once, or six "
          "or more in a row, unless it also makes five (a three is a line one move from "
          "an open four; a four, one move from five). Caro: five or more win, but not a "
          "line whose both ends are blocked by the opponent's stones (the edge of the "
          "board blocks nothing); caro-exact: the same with exactly five.",
    examples=({"size": "9", "rule": "standard"}, {"rule": "renju"},
              {"size": "11", "rule": "caro"}, {"size": "9", "rule": "caro-exact"}),
),)
