"""Go's hooks: the Monte Carlo engine as the AI and as ``yipan analyze go``, its thinking
streamed (``think``) for the web page, and SGF game records (``--sgf FILE`` to start from
one, ``--save FILE`` to keep the game played).

``analyze`` reports the most visited move, its win rate as a mean result in [-1, 1]
(``scale`` "mean"), every searched move's value, and in ``extra``: ``win_rate`` (for the side
to move, 0..1), ``visits`` (playouts per root move), ``best_moves`` (the most visited, with
their visits and win rates), ``score_estimate`` (black's lead with the dead stones the playouts
see removed) and ``ownership`` (per point, row by row from the top, +1 black .. -1 white).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ...core import Analysis, AnalysisRequest, CommandOption, GameHooks, Limit
from ...core.files import InputFile, OutputFile, read_capped, write_atomically
from .engine import Decision, warm_up
from .player import EnginePlayer, make_ai, search_result
from .rules import Go, Position
from .scoring import estimated_score
from .sgf import MAX_SGF_BYTES, read_sgf, write_sgf

DEFAULT_SECONDS = 5.0
BEST_MOVES = 8
REPORT_SECONDS = 0.5

OPTIONS = (
    CommandOption("sgf", "start from the game in this SGF file (its last position)",
                  commands=("play", "analyze"), kind=InputFile, metavar="FILE"),
    CommandOption("save", "write the game to this SGF file when it ends", commands=("play",),
                  kind=OutputFile, metavar="FILE"),
)


def _analysis(game: Go, state: Position, decision: Decision) -> Analysis:
    fmt = game.format_move
    ranked = sorted(decision.visits, key=lambda m: -decision.visits[m])[:BEST_MOVES]
    extra: dict[str, Any] = {
        "win_rate": round(decision.win_rate, 4),
        "best_moves": [{"move": fmt(m), "visits": decision.visits[m],
                        "win_rate": round(decision.win_rates[m], 4)} for m in ranked],
        "score_estimate": estimated_score(game, state, decision.ownership),
        "ownership": [round(x, 2) for x in decision.ownership],
        "resign": decision.resign,
        "visits_total": decision.playouts,
    }
    return Analysis.from_search(search_result(decision), "yipan go (MCTS, RAVE)", extra=extra)


def _limits(request: AnalysisRequest) -> tuple[int | None, float | None]:
    limit = request.limit or Limit(time=DEFAULT_SECONDS)
    if limit.nodes is None and limit.time is None:
        return None, DEFAULT_SECONDS
    return limit.nodes, limit.time


def analyze(game: Go, state: Position, request: AnalysisRequest) -> Analysis:
    analysis = None
    for analysis in think(game, state, request):  # noqa: B007 - the last is the answer
        pass
    assert analysis is not None
    return analysis


def think(game: Go, state: Position, request: AnalysisRequest) -> Iterator[Analysis]:
    """The engine's search as it goes: an Analysis every ``REPORT_SECONDS``, the last one the
    answer (its most visited move)."""
    playouts, seconds = _limits(request)
    stop = request.limit.stop if request.limit is not None else None
    warm_up()  # the kernels loaded (or compiled) before the clock starts
    engine = EnginePlayer(game, "perfect", random.Random(), playouts=playouts).engine
    engine.begin(state)
    start = time.perf_counter()
    while True:
        left = None if seconds is None else seconds - (time.perf_counter() - start)
        more = None if playouts is None else playouts - engine.owner_playouts
        if (left is not None and left <= 0) or (more is not None and more <= 0) \
                or (stop is not None and stop()):
            break
        step = REPORT_SECONDS if left is None else min(REPORT_SECONDS, left)
        decision = engine.run(playouts=more, seconds=step, stop=stop)
        if (left is not None and left <= step) or (
                more is not None and playouts is not None and decision.playouts >= playouts):
            break
        yield _analysis(game, state, decision)
    if engine.owner_playouts == 0:
        engine.run(playouts=64)
    decision = engine.decision(engine.owner_playouts, time.perf_counter() - start)
    yield _analysis(game, state, engine.final_check(decision, state))


def start(game: Go, options: Mapping[str, Any]) -> tuple[Go, list[Position]] | None:
    """With ``--sgf FILE``: the game and states the file records."""
    path = options.get("sgf")
    if not path:
        return None
    record = read_sgf(read_capped(path, MAX_SGF_BYTES, "--sgf"))
    return record.game, list(record.states)


def finish(game: Go, states: list[Position], options: Mapping[str, Any]) -> str | None:
    """With ``--save FILE``: write the game as SGF; returns what was done, for the user."""
    path = options.get("save")
    if not path:
        return None
    moves = [_move_between(game, a, b) for a, b in zip(states, states[1:], strict=False)]
    outcome = game.outcome(states[-1])
    result = game.result_text(game.score(states[-1])) if outcome is not None else None
    write_atomically(Path(path), write_sgf(game, states, moves, result=result))
    return f"game saved to {path}"


def _move_between(game: Go, before: Position, after: Position) -> int:
    added = (after.black | after.white) & ~(before.black | before.white)
    if not added:
        from .rules import PASS

        return PASS
    bit = (added & -added).bit_length() - 1
    return game.point_of_bit[bit]


def prepare(game: object = None) -> None:
    warm_up()


HOOKS = GameHooks(make_ai=make_ai, analyze=analyze, prepare=prepare, options=OPTIONS,
                  think=think, start=start, finish=finish)
