"""The core of yipan: the Game protocol, results and limits, errors, and the registry."""

from .analysis import Analysis, game_over_analysis
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
from .hooks import AnalysisRequest, BookReport, BookRequest, CommandOption, GameHooks
from .player import LEVELS, Choice, Player, Thinker, check_level, last_choice
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
    describe_centipawns,
    describe_value,
    is_loss,
    is_win,
    plies_to_end,
    terminal_value,
)

__all__ = [
    "CHANCE", "DRAW", "HEURISTIC_LIMIT", "INFINITY", "LEVELS", "MAX_PLY", "WIN",
    "Analysis", "AnalysisRequest", "BookReport", "BookRequest", "Budget", "CapabilityError",
    "Choice", "CommandOption", "Game", "GameHooks", "GameInfo", "GameOption",
    "GameOptionError", "Player", "check_level", "game_over_analysis",
    "GameSpec", "IllegalMoveError", "InvalidMoveError", "Limit", "Outcome", "SearchAborted",
    "SearchResult", "SearchStats", "Thinker", "UnknownGameError", "YipanError", "add_plies",
    "describe_centipawns", "describe_value", "last_choice",
    "game_spec", "get_game", "is_loss", "is_win", "list_games", "plies_to_end",
    "register_game", "replay", "require", "terminal_value",
]
