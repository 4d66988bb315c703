"""The heap games' hooks: ``analyze`` and ``solve`` answered by Sprague-Grundy theory.

The game-tree search would explore the whole tree (hopeless for ``kayles 40`` or Nim with large
heaps); theory answers at once who wins and every winning move, though not in how many moves,
so the report's ``value`` is null and ``outcome`` says who wins. ``extra``: ``grundy`` (the
position's Grundy value; null under the misère rule or beyond Wythoff's table),
``winning_moves`` (every winning move, written as moves are), ``rule`` (normal or misère).
The generic searches remain one option away (``--ai alphabeta``, ``--algorithm minimax``...),
which the tests use as a cross-check.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ...core import Analysis, AnalysisRequest, GameHooks, GameOptionError, game_over_analysis
from .player import ImpartialGame, ImpartialPlayer, make_ai

LISTED_OUTCOMES = 200
"""Each legal move's outcome is listed when there are at most this many (else the winning)."""


def analyze(game: Any, state: Any, request: AnalysisRequest) -> Analysis:
    theory: ImpartialGame = game
    if game.outcome(state) is not None:
        return game_over_analysis(game, state)
    start = time.perf_counter()
    lost = theory.is_lost(state)
    winning = list(theory.winning_moves(state))
    try:
        grundy = None if theory.misere else theory.grundy_value(state)
    except GameOptionError:  # beyond the Wythoff table
        grundy = None
    legal = game.legal_moves(state)
    outcomes = {move: 1 for move in winning}
    if len(legal) <= LISTED_OUTCOMES:
        outcomes = {move: 1 if move in outcomes else -1 for move in legal}
    move = winning[0] if winning else ImpartialPlayer.stalling_moves(game, state)[0]
    return Analysis(
        move=move, value=None, outcome=-1 if lost else 1, pv=(move,),
        move_outcomes=outcomes, exact=True, seconds=time.perf_counter() - start,
        engine="Sprague-Grundy theory",
        extra={"grundy": grundy, "rule": "misere" if theory.misere else "normal",
               "winning_moves": [game.format_move(m) for m in winning]})


def prepare(game: Any) -> None:
    """Every heap game's kernels (they share these hooks, so the one prepared stands for all):
    each game at its default options, and ``game`` at its own, analysed and answered by the
    AI from the start, as a first move would be."""
    from ...core import list_games
    from ...core.registry import game_spec, get_game
    from .meta import HOOKS as HEAP_HOOKS

    games = [get_game(name) for name in list_games() if game_spec(name).hooks == HEAP_HOOKS]
    for each in [*games, game]:
        rule = getattr(each, "rule", None)
        if rule is not None:
            rule.table(64)
            rule.periodicity()
        state = each.initial_state()
        analyze(each, state, AnalysisRequest())
        make_ai(each, "perfect", random.Random(0)).choose(each, state)


HOOKS = GameHooks(make_ai=make_ai, make_thinker=make_ai, analyze=analyze, solve=analyze,
                  prepare=prepare,
                  ai_summary="Sprague-Grundy theory: it knows at once who wins, and plays a "
                             "winning move whenever there is one")
