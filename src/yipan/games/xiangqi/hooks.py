"""Xiangqi's hooks: the engine as the AI (thinking aloud) and as ``yipan analyze xiangqi``,
perft by the numba counter, and the kernels prepared before any clock starts.

``analyze`` reports the engine's search in the shared schema; ``extra`` carries ``fen``,
``chinese`` and ``wxf`` (the best move in traditional notation), ``pv_chinese`` and
``pv_wxf`` (the main line), ``score_cp`` (centipawns for the side to move, null for a mate),
``seldepth`` and ``perpetual`` (true when the score is the perpetual-check rule's verdict).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ...core import Analysis, AnalysisRequest, GameHooks, Limit
from . import board as kernel
from .engine import Engine, Iteration, is_perpetual, mate_in_plies
from .player import make_ai, search_result
from .rules import Position, Xiangqi, legal_moves_of, to_row

DEFAULT_ANALYZE_SECONDS = 2.0
ANALYSIS_HASH_MB = 64


@lru_cache(maxsize=1)
def shared_engine() -> Engine:
    """One engine for analyses in this process (its table is reused, cleared each time)."""
    return Engine(ANALYSIS_HASH_MB)


def _limit(request: AnalysisRequest) -> Limit:
    limit = request.limit
    if limit is None or (limit.time is None and limit.nodes is None and limit.depth is None):
        return Limit(time=DEFAULT_ANALYZE_SECONDS, stop=None if limit is None else limit.stop)
    return limit


def _report(game: Xiangqi, state: Position, iteration: Iteration) -> Analysis:
    mate = mate_in_plies(iteration.score)
    extra: dict[str, Any] = {
        "fen": game.fen(state),
        "chinese": game.describe_move(state, iteration.move),
        "wxf": game.wxf_move(state, iteration.move),
        "pv_chinese": game.line(state, iteration.pv),
        "pv_wxf": game.line(state, iteration.pv, "wxf"),
        "score_cp": None if mate is not None else iteration.score,
        "seldepth": iteration.seldepth,
        "perpetual": is_perpetual(iteration.score),
    }
    return Analysis.from_search(search_result(iteration), "yipan xiangqi engine", extra=extra)


def analyze(game: Xiangqi, state: Position, request: AnalysisRequest) -> Analysis:
    engine = shared_engine()
    engine.clear()
    iteration = engine.think(state, _limit(request))
    assert iteration is not None
    return _report(game, state, iteration)


def perft(game: Xiangqi, state: Position, depth: int) -> dict[int, int]:
    """The leaves below each legal move, counted by the numba kernel (bulk at the last ply).

    Xiangqi programs' perft: move sequences under the rules of movement, a line ended only
    when a side has no legal move. Repetitions and the sixty-move rule do not end a line
    here, so on trees that reach one the count exceeds ``yipan.search.perft``'s."""
    if depth == 0:
        return {}
    stack = np.zeros((depth + 1, kernel.POSITION_SIZE), dtype=np.int64)
    moves = np.zeros((depth + 1, kernel.MAX_MOVES), dtype=np.int64)
    root = to_row(state)
    counts = {}
    for move in legal_moves_of(state):
        if depth == 1:
            counts[move] = 1
            continue
        kernel.make_move(root, stack[1], move)
        counts[move] = int(kernel.perft(stack, moves, 1, depth - 1))
    return counts


def export(game: Xiangqi, start: Position, moves: list[int]) -> dict[str, str]:
    """The game played from ``start``, numbered move by move, in Chinese notation, in WXF and
    in ICCS (``yipan play`` prints one when its name is typed: ``chinese``, ``wxf``,
    ``iccs``), with the start's FEN when it is not the usual one and the result at the end."""
    head = "" if game.fen(start) == Xiangqi().fen(Xiangqi().initial_state()) \
        else f"FEN {game.fen(start)}\n"
    records = {}
    for style in ("chinese", "wxf", "iccs"):
        words = (game.line(start, moves, style) if style != "iccs"
                 else [game.format_move(move) for move in moves])
        number, text, turn = start.fullmove, [], start.turn
        if turn == 1 and words:
            text.append(f"{number}. ...")
        for word in words:
            if turn == 0:
                text.append(f"{number}.")
            text.append(word)
            number += turn
            turn = 1 - turn
        state = start
        for move in moves:
            state = game.play(state, move)
        outcome = game.outcome(state)
        if outcome is not None:
            text.append("1/2-1/2" if outcome.winner is None
                        else "1-0" if outcome.winner == 0 else "0-1")
        records[style] = head + " ".join(text)
    return records


def prepare(game: Xiangqi | None = None) -> None:
    """Compile (or load) the kernels a game needs: the evaluation and the search (the perft
    counter is prepared by ``yipan perft`` and ``yipan prepare``: ``prepare.prepare_counter``)."""
    game = game or Xiangqi()
    game.evaluate(game.initial_state())
    shared_engine().warm_up()


HOOKS = GameHooks(make_ai=make_ai, make_thinker=make_ai, analyze=analyze, prepare=prepare,
                  perft=perft, export=export,
                  ai_summary="iterative-deepening alpha-beta (PVS) with a transposition "
                             "table, quiescence and the perpetual-check rule")
