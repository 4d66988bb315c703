"""yipan (弈盘, "the game board"): play, solve and explain strategy games."""

from .core import (
    CHANCE,
    WIN,
    Game,
    GameInfo,
    GameOption,
    GameSpec,
    IllegalMoveError,
    InvalidMoveError,
    Limit,
    Outcome,
    SearchResult,
    UnknownGameError,
    get_game,
    list_games,
    register_game,
)
from .core.version import VERSION
from .games import register_builtin_games

register_builtin_games()  # by name only: no game's module loads until the game is asked for

__version__ = VERSION

__all__ = [
    "CHANCE", "WIN", "Game", "GameInfo", "GameOption", "GameSpec", "IllegalMoveError",
    "InvalidMoveError", "Limit", "Outcome", "SearchResult", "UnknownGameError",
    "get_game", "list_games", "register_game",
]
