"""Connect Four in the registry: its options, rules in words and example option sets."""

from ...core.registry import GameOption, GameSpec, whole_number


def _size(text: str) -> str:
    from .rules import parse_size

    width, height = parse_size(text)
    return f"{width}x{height}"


GAMES = (GameSpec(
    name="connect4",
    title="Connect Four",
    factory="yipan.games.connect4.rules:ConnectFour",
    options=(
        GameOption("size", _size, None, "board size, width x height (default 7x6)",
                   label="board size"),
        GameOption("width", whole_number, None, "columns (default 7)", hidden=True),
        GameOption("height", whole_number, None, "rows (default 6)", hidden=True),
    ),
    hooks="yipan.games.connect4.hooks:HOOKS",
    aliases=("connectfour",),
    rules="Two players take turns dropping a disc into a column; it falls to the lowest "
          "free cell. Red (X) goes first, then yellow (O). Four of your discs in a row, "
          "across, down or diagonally, win; a full board without one is a draw.",
    examples=({"size": "5x4"}, {"size": "4x4"}),
),)
