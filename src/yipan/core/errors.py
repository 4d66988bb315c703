"""The errors yipan raises: each prints as one line, and is a ValueError or LookupError."""

from __future__ import annotations


class YipanError(Exception):
    """Base of every error yipan raises on purpose; its message is one readable line."""


class InvalidMoveError(YipanError, ValueError):
    """The text of a move cannot be read (``parse_move`` on nonsense)."""


class IllegalMoveError(YipanError, ValueError):
    """A well-formed move that the rules forbid in this position (``play_checked``)."""


class UnknownGameError(YipanError, LookupError):
    """``get_game`` was asked for a name that is not registered."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"unknown game {name!r}; known games: {', '.join(known)}")
        self.name = name
        self.known = known


class GameOptionError(YipanError, ValueError):
    """A game option (a board size, a rule, a heap list) is malformed or out of range."""


class CapabilityError(YipanError, ValueError):
    """An algorithm was given a game that lacks a capability it needs (declared in GameInfo)."""


class SearchAborted(YipanError):  # noqa: N818 - a control-flow signal, not a failure
    """Raised inside a search when its Limit runs out; iterative deepening catches it."""
