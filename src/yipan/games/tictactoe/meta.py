"""Tic-tac-toe in the registry: its options, rules in words and example option sets."""

from ...core.registry import GameOption, GameSpec, whole_number


def _size(text: str) -> str:
    from .rules import parse_size

    rows, cols = parse_size(text)
    return f"{rows}x{cols}"


GAMES = (GameSpec(
    name="tictactoe",
    title="Tic-tac-toe and m,n,k-games",
    factory="yipan.games.tictactoe:TicTacToe",
    options=(
        GameOption("size", _size, "3x3", "board size, rows x columns (e.g. 4x4)",
                   label="board size"),
        GameOption("k", whole_number, None, "stones in a row to win (default: the shorter side)",
                   label="in a row to win"),
    ),
    hooks="yipan.games.tictactoe.hooks:HOOKS",
    aliases=("mnk",),
    rules="Two players, X and O, take turns marking an empty square; X goes first. "
          "Three in a row (across, down or diagonally) wins; a full board without one "
          "is a draw. On a larger board you may choose how many in a row win (the "
          "m,n,k-games).",
    examples=({"size": "4x4", "k": "3"}, {"size": "3x5", "k": "3"},
              {"size": "11x11", "k": "11"}),
),)
