"""The core of yipan: the Game protocol, results and limits, errors, and the registry."""

from .errors import (
    CapabilityError,
    GameOptionError,
    IllegalMoveError,
    InvalidMoveError,
    SearchAborted,
    UnknownGameError,
    YipanError,
)
from .game import CHANCE, DRAW, Game, GameInfo, Outcome, replay, require
from .registry import GameOption, GameSpec, game_spec, get_game, list_games, register_game
from .results import (
    HEURISTIC_LIMIT,
    INFINITY,
    MAX_PLY,
    WIN,
    Budget,
    Limit,
    SearchResult,
    SearchStats,
    add_plies,
    describe_value,
    is_loss,
    is_win,
    plies_to_end,
    terminal_value,
)

__all__ = [
    "CHANCE", "DRAW", "HEURISTIC_LIMIT", "INFINITY", "MAX_PLY", "WIN",
    "Budget", "CapabilityError", "Game", "GameInfo", "GameOption", "GameOptionError",
    "GameSpec", "IllegalMoveError", "InvalidMoveError", "Limit", "Outcome", "SearchAborted",
    "SearchResult", "SearchStats", "UnknownGameError", "YipanError", "add_plies",
    "describe_value",
    "game_spec", "get_game", "is_loss", "is_win", "list_games", "plies_to_end",
    "register_game", "replay", "require", "terminal_value",
]
