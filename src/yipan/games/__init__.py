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
    name="2048",
    title="2048 (one player against chance)",
    factory="yipan.games.g2048:G2048",
    ai="yipan.games.g2048:make_ai",
    cli="yipan.games.g2048_cli",
))
