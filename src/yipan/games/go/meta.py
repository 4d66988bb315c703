"""Go in the registry: its options (size, komi, handicap), the aliases that fix a board size,
rules in words and example option sets."""

from ...core.registry import GameOption, GameSpec, whole_number


def _komi(text: str) -> float:
    from .rules import parse_komi

    return parse_komi(text)


GAMES = (GameSpec(
    name="go",
    title="Go (area scoring, positional superko)",
    factory="yipan.games.go:Go",
    options=(
        GameOption("size", whole_number, 9, "board size, 5 to 19 (9, 13, 19)",
                   label="board size (lines)"),
        GameOption("komi", _komi, 7.5, "points given to white (area scoring)",
                   label="komi (white's points)"),
        GameOption("handicap", whole_number, 0, "fixed handicap stones for black, 2 to 9",
                   label="handicap stones"),
    ),
    hooks="yipan.games.go.hooks:HOOKS",
    rules="Black and white take turns placing a stone on an empty point (or passing); "
          "black goes first. A group with no empty point next to it is captured. A move "
          "may not repeat an earlier position. Two passes end the game: each side's "
          "stones and the empty points only it surrounds are its area; white gets komi; "
          "the larger area wins.",
    aliases=("weiqi", "baduk", "go9", "go13", "go19"),
    presets={"go9": {"size": 9}, "go13": {"size": 13}, "go19": {"size": 19}},
    examples=({"size": "5", "komi": "0.5"}, {"size": "7", "handicap": "2", "komi": "0"}),
),)
