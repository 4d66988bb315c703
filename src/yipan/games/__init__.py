"""The built-in games, registered by name (lazily: a game's module loads when it is asked for).

To add a game: write a module here with a ``Game`` subclass and add one ``register_game``
call below; the conformance suite then checks it and the CLI and web app offer it.
"""

from ..core.registry import GameOption, GameSpec, register_game


def _size(text: str) -> str:
    from .tictactoe import parse_size

    rows, cols = parse_size(text)
    return f"{rows}x{cols}"


register_game(GameSpec(
    name="tictactoe",
    title="Tic-tac-toe and m,n,k-games",
    factory="yipan.games.tictactoe:TicTacToe",
    options=(
        GameOption("size", _size, "3x3", "board size, rows x columns (e.g. 4x4)"),
        GameOption("k", int, None, "stones in a row to win (default: the shorter side)"),
    ),
    ai="yipan.games.tictactoe:make_ai",
    aliases=("mnk",),
))

register_game(GameSpec(
    name="gomoku",
    title="Gomoku (five in a row)",
    factory="yipan.games.gomoku:Gomoku",
    options=(
        GameOption("size", int, 15, "board size, 7 to 22"),
        GameOption("rule", str, "freestyle", "freestyle (five or more) or standard (exactly five)",
                   choices=("freestyle", "standard")),
    ),
    ai="yipan.games.gomoku.players:make_ai",
    cli="yipan.games.gomoku.cli",
))
