"""Xiangqi's hooks: the engine as the AI (thinking aloud) and as ``yipan analyze xiangqi``,
perft by the numba counter, and the kernels prepared before any clock starts. Each analysis
has an engine of its own (``chess_family.hooks``).

``analyze`` reports the engine's search in the shared schema; ``extra`` carries ``fen``,
``chinese`` and ``wxf`` (the best move in traditional notation), ``pv_chinese`` and
``pv_wxf`` (the main line), ``score_cp`` (centipawns for the side to move, null for a mate),
``seldepth`` and ``perpetual`` (true when the score is the perpetual-check rule's verdict).

The AI and the analysis evaluate with the network the package ships (``yipan/data/
xiangqi.nnue``): at equal time it beats the hand-set evaluation. ``--eval-file NETWORK``
(``play``, ``analyze``) picks another, made by ``yipan train xiangqi --nnue``, or ``hand`` for
the hand-set evaluation; a damaged file, or one for another game, is refused in one line
before anything starts. ``extra["evaluation"]`` says which evaluated.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ...chess_family.hooks import (
    ANALYSIS_HASH_MB,
    DEFAULT_ANALYZE_SECONDS,
    analysis_limit,
    report,
    think_once,
)
from ...chess_family.nnue_file import BUILTIN, HAND, NetworkFile, choose
from ...chess_family.perft import divide
from ...core import Analysis, AnalysisRequest, GameHooks
from ...core.hooks import CommandOption
from . import board
from .engine import Engine, is_perpetual
from .player import XiangqiPlayer, make_ai
from .rules import Position, Xiangqi, legal_moves_of, to_row

OPTIONS = (
    CommandOption("eval-file", "the evaluation: builtin (the network yipan ships, the "
                  "default), hand (the hand-set one), or a network made by yipan train "
                  "xiangqi --nnue", commands=("play", "analyze"), kind=str,
                  metavar="NETWORK"),
)
_evaluation = {"play": BUILTIN}  # what ``start`` read: the AIs made next evaluate with it


@lru_cache(maxsize=4)
def open_network(name: str) -> NetworkFile | None:
    """The evaluation ``name`` asks for, read once in a process (None: the hand-set one;
    refused in one line when the file is damaged)."""
    return choose(name, "xiangqi")


def start(game: Xiangqi, options: Mapping[str, Any]) -> None:
    """Read ``--eval-file`` before anything is prepared (a bad file is one line at once);
    the AI that ``play`` makes next evaluates with it. Never moves the start."""
    name = options.get("eval-file") or BUILTIN
    open_network(name)
    _evaluation["play"] = name


def analysis_engine(network: NetworkFile | None = None) -> Engine:
    """The engine of one analysis, with the network asked for (None: hand-set)."""
    engine = Engine(ANALYSIS_HASH_MB)
    engine.use_network(network)
    return engine


def analyze(game: Xiangqi, state: Position, request: AnalysisRequest) -> Analysis:
    network = open_network(request.options.get("eval-file") or BUILTIN)
    iteration = think_once(lambda: analysis_engine(network), state,
                           analysis_limit(request, DEFAULT_ANALYZE_SECONDS))
    extra = {
        "fen": game.fen(state),
        "chinese": game.describe_move(state, iteration.move),
        "wxf": game.wxf_move(state, iteration.move),
        "pv_chinese": game.line(state, iteration.pv),
        "pv_wxf": game.line(state, iteration.pv, "wxf"),
        "perpetual": is_perpetual(iteration.score),
        "evaluation": HAND if network is None else "network",
    }
    return report(iteration, "yipan xiangqi engine", extra)


def perft(game: Xiangqi, state: Position, depth: int) -> dict[int, int]:
    """The leaves below each legal move, counted by the numba kernel (bulk at the last ply).

    Xiangqi programs' perft: move sequences under the rules of movement, a line ended only
    when a side has no legal move. Repetitions and the sixty-move rule do not end a line
    here, so on trees that reach one the count exceeds ``yipan.search.perft``'s."""
    return divide(board, to_row(state), legal_moves_of(state), depth)


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
    """Compile (or load) the kernels a game needs: the evaluation and the search."""
    game = game or Xiangqi()
    game.evaluate(game.initial_state())
    engine = Engine(1)
    engine.use_network(open_network(BUILTIN))  # the evaluation the AIs use
    engine.warm_up()


def _make_ai(game: Xiangqi, level: str, rng: Any, time: float | None) -> XiangqiPlayer:
    """The engine as the AI, evaluating as ``start`` read (the shipped network unless
    ``--eval-file`` said otherwise; the web page's AIs always use it)."""
    player = make_ai(game, level, rng, time)
    player.engine.use_network(open_network(_evaluation["play"]))
    return player


HOOKS = GameHooks(make_ai=_make_ai, make_thinker=_make_ai, analyze=analyze, prepare=prepare,
                  perft=perft, export=export, options=OPTIONS, start=start,
                  ai_summary="iterative-deepening alpha-beta (PVS) with a transposition "
                             "table, quiescence and the perpetual-check rule, "
                             "evaluating with a small efficiently updatable network")
