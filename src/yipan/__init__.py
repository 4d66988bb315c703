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

__version__ = "0.1.0"

__all__ = [
    "CHANCE", "WIN", "Game", "GameInfo", "GameOption", "GameSpec", "IllegalMoveError",
    "InvalidMoveError", "Limit", "Outcome", "SearchResult", "UnknownGameError",
    "get_game", "list_games", "register_game",
]
