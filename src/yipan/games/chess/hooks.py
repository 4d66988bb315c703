"""Chess's hooks: the engine as the AI (thinking aloud) and as ``yipan analyze chess``,
``solve`` for forced mates, perft by the numba counter (``perft``), and the kernels prepared
before any clock starts. Each analysis has an engine of its own (``chess_family.hooks``).

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

The AI, the analysis and the mate search evaluate with the network the package ships
(``yipan/data/chess.nnue``): at equal time it beats the hand-set evaluation.
``--eval-file NETWORK`` (``play``, ``analyze``, ``solve``) picks another, made by ``yipan train
chess --nnue``, or ``hand`` for the hand-set evaluation; a damaged file, or one for another
game, is refused in one line before anything starts. ``extra["evaluation"]`` says which
evaluated.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any

import chess
import chess.pgn

from ...chess_family.hooks import ANALYSIS_HASH_MB, analysis_limit, report, think_once
from ...chess_family.nnue_file import BUILTIN, HAND, NetworkFile, choose
from ...chess_family.scores import mate_in_plies
from ...core import Analysis, AnalysisRequest, CapabilityError, GameHooks
from ...core.hooks import CommandOption
from .engine import Engine, Iteration
from .perft import perft
from .player import ChessPlayer, make_ai
from .rules import Chess, Position
from .syzygy import Syzygy

DEFAULT_ANALYZE_SECONDS = 2.0
DEFAULT_SOLVE_SECONDS = 10.0

OPTIONS = (
    CommandOption("syzygy", "a folder of Syzygy endgame tables (.rtbw/.rtbz) to consult at "
                  "the root, after yipan's own tables", commands=("play", "analyze", "solve"),
                  kind=str, metavar="FOLDER"),
    CommandOption("eval-file", f"the evaluation: {BUILTIN} (the network yipan ships, the "
                  f"default), {HAND} (the hand-set one), or a network made by yipan train "
                  f"chess --nnue", commands=("play", "analyze", "solve"), kind=str,
                  metavar="NETWORK"),
)
_chosen: dict[str, Syzygy | None] = {"play": None}  # the folder ``start`` opened for play
_evaluation = {"play": BUILTIN}  # what ``start`` read: the AIs made next evaluate with it


@lru_cache(maxsize=4)
def open_network(name: str) -> NetworkFile | None:
    """The evaluation ``name`` asks for, read once in a process (None: the hand-set one;
    refused in one line when the file is damaged)."""
    return choose(name, "chess")


@lru_cache(maxsize=4)
def open_syzygy(folder: str) -> Syzygy:
    """A Syzygy folder opened once in a process (refused, one line, when it holds none)."""
    return Syzygy(folder)


def start(game: Chess, options: Mapping[str, Any]) -> None:
    """Open ``--syzygy`` and read ``--eval-file`` before anything is prepared (a bad
    folder or file is one line at once); the AI that ``play`` makes next uses them. Never
    moves the start."""
    folder = options.get("syzygy")
    _chosen["play"] = open_syzygy(folder) if folder else None
    name = options.get("eval-file") or BUILTIN
    open_network(name)
    _evaluation["play"] = name


def analysis_engine(syzygy: Syzygy | None, network: NetworkFile | None = None) -> Engine:
    """The engine of one analysis: yipan's endgame tables, the Syzygy folder and the
    network asked for."""
    engine = Engine(ANALYSIS_HASH_MB, syzygy=syzygy)
    engine.use_network(network)
    return engine


def _think(state: Position, request: AnalysisRequest, default_seconds: float) -> Iteration:
    """A fresh engine's answer, with the request's Syzygy folder and network (if any)."""
    folder = request.options.get("syzygy")
    syzygy = open_syzygy(folder) if folder else None
    network = open_network(request.options.get("eval-file") or BUILTIN)
    return think_once(partial(analysis_engine, syzygy, network), state,
                      analysis_limit(request, default_seconds))


def _report(game: Chess, state: Position, request: AnalysisRequest, iteration: Iteration,
            engine: str, exact: bool = False) -> Analysis:
    mate = mate_in_plies(iteration.score)
    table = iteration.endgame_table
    syzygy_win = table is not None and table.startswith("syzygy") and iteration.score != 0
    # a mate the search found is proved (every reply was searched); a table's verdict too
    exact = (exact or table is not None or mate is not None) and not syzygy_win
    verdict = None
    if iteration.endgame_table is not None:
        outcome = "win" if iteration.score > 0 else "loss" if iteration.score < 0 else "draw"
        verdict = {"table": iteration.endgame_table, "outcome": outcome,
                   "moves_to_mate": None if mate is None else (mate + 1) // 2}
    extra: dict[str, Any] = {
        "fen": game.fen(state),
        "san": game.describe_move(state, iteration.move),
        "pv_san": game.san_line(state, iteration.pv),
        "tablebase": verdict,
        "evaluation": HAND if request.options.get("eval-file") == HAND else "network",
    }
    return report(iteration, engine, extra, exact)


def analyze(game: Chess, state: Position, request: AnalysisRequest) -> Analysis:
    iteration = _think(state, request, DEFAULT_ANALYZE_SECONDS)
    return _report(game, state, request, iteration,
                   _engine_name(iteration, "yipan chess engine"))


def _engine_name(iteration: Iteration, searched: str) -> str:
    table = iteration.endgame_table
    if table is None:
        return searched
    return "Syzygy tables (python-chess)" if table.startswith("syzygy") \
        else "yipan endgame tables"


def solve(game: Chess, state: Position, request: AnalysisRequest) -> Analysis:
    iteration = _think(state, request, DEFAULT_SOLVE_SECONDS)
    if iteration.endgame_table is not None:
        return _report(game, state, request, iteration, _engine_name(iteration, ""), exact=True)
    if mate_in_plies(iteration.score) is None:
        raise CapabilityError(
            f"chess: no forced mate found (searched {iteration.depth} plies); "
            "`yipan analyze chess` gives the engine's estimate")
    return _report(game, state, request, iteration, "yipan chess mate search")


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
        played = board.parse_uci(game.format_move(move))  # as its board (Chess960 or not) has it
        node = node.add_variation(played)
        board.push(played)
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
    engine = Engine(1)
    engine.use_network(open_network(BUILTIN))  # the evaluation the AIs use
    engine.warm_up()
    game.evaluate(game.initial_state())


def _make_ai(game: Chess, level: str, rng: Any, time: float | None) -> ChessPlayer:
    """The engine as the AI, consulting the Syzygy folder ``start`` opened (if any) and
    evaluating as ``start`` read (the shipped network unless ``--eval-file`` said otherwise;
    the web page's AIs always use it)."""
    player = make_ai(game, level, rng, time)
    player.engine.syzygy = _chosen["play"]
    player.engine.use_network(open_network(_evaluation["play"]))
    return player


HOOKS = GameHooks(make_ai=_make_ai, make_thinker=_make_ai, analyze=analyze, solve=solve,
                  prepare=prepare, perft=perft, export=export, options=OPTIONS, start=start,
                  ai_summary="iterative-deepening alpha-beta (PVS) with a transposition "
                             "table, quiescence with static exchange, and endgame tables")
