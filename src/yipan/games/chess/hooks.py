"""Chess's hooks: the engine as the AI (thinking aloud) and as ``yipan analyze chess``,
``solve`` for forced mates, perft by the numba counter, and the kernels prepared before any
clock starts.

``analyze`` reports the engine's search in the shared schema; ``extra`` carries ``fen``,
``san`` (the best move in SAN), ``pv_san`` (the main line in SAN), ``score_cp``
(centipawns for the side to move, null for a mate), ``seldepth`` and ``tablebase`` (the
endgame table's verdict when one covers the position: ``{"table": "KRK", "outcome": "win",
"moves_to_mate": 12}``; the answer is then exact).
``solve`` searches for a forced mate (default 10 s): a mate found is reported with its
distance; otherwise it says none was found (chess itself is not solved here).

``--syzygy PATH`` (``play``, ``analyze``, ``solve``) names a folder of Syzygy tables the engine
consults at the root after yipan's own (``syzygy``); a folder without any is refused. Syzygy
proves a win without its length: such an answer is not marked exact (its ``tablebase``
verdict says "win"); its draws (the fifty-move rule's included) are.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import chess
import chess.pgn
import numpy as np

from ...core import Analysis, AnalysisRequest, CapabilityError, GameHooks, Limit
from ...core.hooks import CommandOption
from . import board as kernel
from .engine import Engine, Iteration, mate_in_plies
from .player import ChessPlayer, make_ai, search_result
from .rules import Chess, Position, legal_moves_of, to_row
from .syzygy import Syzygy

DEFAULT_ANALYZE_SECONDS = 2.0
DEFAULT_SOLVE_SECONDS = 10.0
ANALYSIS_HASH_MB = 64


@lru_cache(maxsize=1)
def shared_engine() -> Engine:
    """One engine for analyses in this process (its table is reused, cleared each time)."""
    return Engine(ANALYSIS_HASH_MB)


OPTIONS = (
    CommandOption("syzygy", "a folder of Syzygy endgame tables (.rtbw/.rtbz) to consult at "
                  "the root, after yipan's own tables", commands=("play", "analyze", "solve"),
                  kind=str),
)
_chosen: dict[str, Syzygy | None] = {"play": None}  # the folder ``start`` opened for play


@lru_cache(maxsize=4)
def open_syzygy(folder: str) -> Syzygy:
    """A Syzygy folder opened once in a process (refused, one line, when it holds none)."""
    return Syzygy(folder)


def start(game: Chess, options: Mapping[str, Any]) -> None:
    """Open ``--syzygy`` before anything is prepared (a bad folder is one line at once);
    the AI that ``play`` makes next and the analyses consult it. Never moves the start."""
    folder = options.get("syzygy")
    _chosen["play"] = open_syzygy(folder) if folder else None
    shared_engine().syzygy = _chosen["play"]


def _syzygy_of(request: AnalysisRequest) -> Syzygy | None:
    folder = request.options.get("syzygy")
    return open_syzygy(folder) if folder else None


def _limit(request: AnalysisRequest, default_seconds: float) -> Limit:
    limit = request.limit
    if limit is None or (limit.time is None and limit.nodes is None and limit.depth is None
                         and limit.stop is None):
        return Limit(time=default_seconds, stop=None if limit is None else limit.stop)
    return limit


def _think(state: Position, limit: Limit, syzygy: Syzygy | None = None) -> Iteration:
    engine = shared_engine()
    engine.clear()
    engine.syzygy = syzygy
    iteration = engine.think(state, limit)
    assert iteration is not None
    return iteration


def _report(game: Chess, state: Position, iteration: Iteration, engine: str,
            exact: bool = False) -> Analysis:
    mate = mate_in_plies(iteration.score)
    table = iteration.endgame_table
    syzygy_win = table is not None and table.startswith("syzygy") and iteration.score != 0
    exact = (exact or table is not None) and not syzygy_win
    verdict = None
    if iteration.endgame_table is not None:
        outcome = "win" if iteration.score > 0 else "loss" if iteration.score < 0 else "draw"
        verdict = {"table": iteration.endgame_table, "outcome": outcome,
                   "moves_to_mate": None if mate is None else (mate + 1) // 2}
    extra: dict[str, Any] = {
        "fen": game.fen(state),
        "san": game.describe_move(state, iteration.move),
        "pv_san": game.san_line(state, iteration.pv),
        "score_cp": None if mate is not None else iteration.score,
        "seldepth": iteration.seldepth,
        "tablebase": verdict,
    }
    return Analysis.from_search(search_result(iteration, exact), engine, extra=extra)


def analyze(game: Chess, state: Position, request: AnalysisRequest) -> Analysis:
    iteration = _think(state, _limit(request, DEFAULT_ANALYZE_SECONDS), _syzygy_of(request))
    return _report(game, state, iteration, _engine_name(iteration, "yipan chess engine"))


def _engine_name(iteration: Iteration, searched: str) -> str:
    table = iteration.endgame_table
    if table is None:
        return searched
    return "Syzygy tables (python-chess)" if table.startswith("syzygy") \
        else "yipan endgame tables"


def solve(game: Chess, state: Position, request: AnalysisRequest) -> Analysis:
    limit = _limit(request, DEFAULT_SOLVE_SECONDS)
    iteration = _think(state, limit, _syzygy_of(request))
    if iteration.endgame_table is not None:
        return _report(game, state, iteration, _engine_name(iteration, ""), exact=True)
    if mate_in_plies(iteration.score) is None:
        raise CapabilityError(
            f"chess: no forced mate found (searched {iteration.depth} plies); "
            "`yipan analyze chess` gives the engine's estimate")
    return _report(game, state, iteration, "yipan chess mate search")


def perft(game: Chess, state: Position, depth: int) -> dict[int, int]:
    """The leaves below each legal move, counted by the numba kernel (bulk at the last ply).

    This is chess programs' perft: move sequences under the rules of movement, ended by
    checkmate and stalemate only. The draws the Game declares by rule (fifty moves,
    repetition, insufficient material) do not end a line here, so on trees that reach one the
    count exceeds ``yipan.search.perft``'s over the Game protocol."""
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


def export(game: Chess, start: Position, moves: list[int]) -> dict[str, str]:
    """The game played from ``start``, as PGN (python-chess writes it; SAN moves, the
    result when the game is over, the start position's FEN when it is not the usual one)."""
    record = chess.pgn.Game()
    record.headers["Event"] = "yipan"
    board = game.to_board(start)
    if board.fen() != chess.STARTING_FEN:
        record.setup(board)
    node: chess.pgn.GameNode = record
    state = start
    for move in moves:
        node = node.add_variation(chess.Move.from_uci(game.format_move(move)))
        state = game.play(state, move)
    outcome = game.outcome(state)
    if outcome is not None:
        record.headers["Result"] = ("1/2-1/2" if outcome.winner is None
                                    else "1-0" if outcome.winner == 0 else "0-1")
    return {"pgn": str(record)}


def prepare(game: Chess | None = None) -> None:
    """Compile (or load) the kernels a game needs: the evaluation and the search (the perft
    counter is prepared by ``yipan perft`` and ``yipan prepare``: ``prepare.prepare_counter``)."""
    game = game or Chess()
    shared_engine().warm_up()
    game.evaluate(game.initial_state())


def _make_ai(game: Chess, level: str, rng: Any, time: float | None) -> ChessPlayer:
    """The engine as the AI, consulting the Syzygy folder ``start`` opened (if any)."""
    player = make_ai(game, level, rng, time)
    player.engine.syzygy = _chosen["play"]
    return player


HOOKS = GameHooks(make_ai=_make_ai, make_thinker=_make_ai, analyze=analyze, solve=solve,
                  prepare=prepare, perft=perft, export=export, options=OPTIONS, start=start)
