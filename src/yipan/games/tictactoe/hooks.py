"""Tic-tac-toe's hooks: its AI (the book on 3x3); analysis is the generic alpha-beta's."""

from ...core import GameHooks
from .player import make_ai

HOOKS = GameHooks(make_ai=make_ai, make_thinker=make_ai,
                  ai_summary="on 3x3 a book of every position, solved; on larger boards "
                             "alpha-beta search")
