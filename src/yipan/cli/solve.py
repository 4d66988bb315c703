"""``yipan solve GAME [MOVES]``: the game-theoretic value of a position, with statistics.

``--algorithm`` picks the search so the algorithms can be compared on the same position
(``yipan.engines``): the game's own solver by default, or minimax (the seed's, nothing
pruned), alphabeta (plain), alphabeta-tt (table, symmetry, ordering, PVS), iterative
(iterative deepening), mcts, mcts-solver. Games where a player does not see everything
(Kuhn poker, Leduc, Liar's Dice) are solved from the deal by CFR (``--algorithm cfr+
--iterations N``, ``--progress`` for the exploitability as it falls, ``--save FILE`` for the
strategy). ``--batch FILE`` solves one position a line
(``<moves> [expected]``), comparing each with the expected value: the game's benchmark
score where it has one (Connect Four's ``extra.benchmark_score``), else the value.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from .. import engines
from ..core import (
    Analysis,
    AnalysisRequest,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Limit,
    YipanError,
    replay,
)
from ..core.files import read_capped, read_stream_capped, read_text_stream_capped
from ..search import TracePrinter
from .analyze import say_progress
from .common import (
    UsageError,
    count,
    input_file,
    moves_from_args,
    prepare_game,
    print_json,
    seconds,
    start_game_command,
)
from .report import show_solution


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve", help="solve a position exactly", add_help=False,
        description="yipan solve GAME [MOVES ...] [--algorithm A] [--trace DEPTH] [--json] "
                    "[--batch FILE]")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def add_solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("moves", nargs="*", default=[],
                        help="the moves played from the start, in the game's notation")
    names = engines.solve_algorithms()
    parser.add_argument("--algorithm", choices=names, default="auto", metavar="ALGORITHM",
                        help="the proving search (default auto): "
                             + engines.engine_help(names, "solve"))
    parser.add_argument("--trace", type=count(0), default=None, metavar="DEPTH",
                        help="print the search tree down to DEPTH plies")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--iterations", type=count(1), default=None,
                        help="MCTS or CFR iterations")
    parser.add_argument("--progress", action="store_true",
                        help="report progress on stderr (CFR: the exploitability as it falls)")
    parser.add_argument("--time", type=seconds, default=None,
                        help="seconds: for MCTS, iterative deepening under a clock, or CFR (which "
                             "stops there and reports the iterations it reached)")
    parser.add_argument("--depth", type=count(1), default=None,
                        help="plies: the game's own solver looks for a forced result that "
                             "near (Connect Four), the others search that deep")
    parser.add_argument("--nodes", type=count(1), default=None,
                        help="at most this many nodes (the game's own solver reports the "
                             "bounds proved when it stops)")
    parser.add_argument("--seed", type=int, default=None, help="seed for MCTS")
    parser.add_argument("--batch", metavar="FILE", type=batch_source,
                        help="solve every line '<moves> [expected]' of FILE (- for stdin)")


MAX_BATCH = 64 << 20
"""Bytes of a batch file: a million positions of fifty characters."""


def batch_source(text: str) -> str:
    """An argparse type: ``-`` (standard input) or a regular file to read."""
    return text if text == "-" else input_file(text)


def run(args: argparse.Namespace) -> int:
    args, game, _hooks = start_game_command("solve", args.argv, "Solve a position.",
                                            add_solve_arguments, prepare=False)
    trace = None
    if args.trace is not None:
        trace = TracePrinter(game, args.trace, out=sys.stderr if args.json else sys.stdout)
    given = (args.time, args.depth, args.nodes)
    limit = Limit(depth=args.depth, nodes=args.nodes, time=args.time) \
        if any(value is not None for value in given) else None
    # a long solve says how it goes on stderr (Connect Four: after a second); CFR's figures,
    # a line every so many iterations, only when asked (--progress)
    wanted = args.progress or game.info.perfect_information
    request = AnalysisRequest(limit=limit, options=args.hook_options, trace=trace,
                              trace_depth=args.trace, progress=say_progress if wanted else None)
    rng = random.Random(args.seed)

    def solve(state: Any) -> Analysis:
        return engines.solve(game, state, args.algorithm, request=request, rng=rng,
                             iterations=args.iterations)

    if args.batch is not None:
        if args.moves:
            raise UsageError("give either moves or --batch FILE, not both")
        return solve_batch(game, args.batch, solve, as_json=args.json,
                           check=lambda state: engines.check_solve(game, state, args.algorithm,
                                                                   request))
    moves = moves_from_args(game, args.moves)
    state = replay(game, moves)[-1]
    engines.check_solve(game, state, args.algorithm, request)
    prepare_game(game)  # after the input is checked: bad input is refused before compiling
    show_solution(game, state, moves, solve(state), as_json=args.json)
    return 0



def _batch_lines(game: Game, stream: Iterable[str]) -> Iterator[tuple[str, Any, float | None]]:
    for number, line in enumerate(stream, 1):
        words = line.split()
        if not words:
            continue
        if len(words) > 2:
            raise YipanError(f"line {number}: expected '<moves> [expected value]'")
        try:
            state = replay(game, game.split_moves(words[0]))[-1]
            expected = float(words[1]) if len(words) == 2 else None
        except (IllegalMoveError, InvalidMoveError) as error:
            raise type(error)(f"line {number}: {error}") from None
        except ValueError:
            raise YipanError(f"line {number}: the expected value {words[1][:40]!r} is not a "
                             "number") from None
        yield words[0], state, expected


def batch_score(analysis: Analysis) -> float | None:
    """What a batch line's expected figure is compared with: the game's benchmark score
    (Connect Four's), else the value, else the outcome (+1, 0, -1)."""
    if analysis.extra.get("benchmark_score") is not None:
        return analysis.extra["benchmark_score"]
    return analysis.value if analysis.value is not None else analysis.outcome


def solve_batch(game: Game, source: str, solve: Any, *, as_json: bool,
                check: Any = None) -> int:
    """One solve per line; per-line results, then the means. Only the solver's own time is
    counted (the figure each analysis reports)."""
    if source != "-":
        text = read_capped(source, MAX_BATCH, "--batch").decode("utf-8")
    elif hasattr(sys.stdin, "buffer"):
        text = read_stream_capped(sys.stdin.buffer, MAX_BATCH, "the batch on standard input"
                                  ).decode("utf-8")
    else:
        text = read_text_stream_capped(sys.stdin, MAX_BATCH, "the batch on standard input")
    lines = list(_batch_lines(game, io.StringIO(text)))
    for _moves, state, _expected in lines if check is not None else ():
        check(state)
    prepare_game(game)  # after the whole file is read: bad input is refused before compiling
    total_seconds = 0.0
    total_nodes = mismatches = 0
    for moves, state, expected in lines:
        analysis = solve(state)
        score = batch_score(analysis)
        total_seconds += analysis.seconds
        total_nodes += analysis.nodes
        if expected is not None and analysis.extra.get("weak"):
            expected = (expected > 0) - (expected < 0)
        wrong = expected is not None and score != expected
        mismatches += wrong
        shown = _number(score)
        if as_json:
            record: dict[str, Any] = {"moves": moves, "score": shown, "nodes": analysis.nodes,
                                      "seconds": round(analysis.seconds, 9)}
            if expected is not None:
                record["expected"] = _number(expected)
            print_json(record)
        else:
            print(f"{moves} {shown} {analysis.nodes} {analysis.seconds:.6f}"
                  + (" MISMATCH" if wrong else ""))
    count = max(1, len(lines))
    summary = {"positions": len(lines), "mean_seconds": total_seconds / count,
               "mean_nodes": total_nodes / count,
               "nodes_per_second": total_nodes / total_seconds if total_seconds else 0.0,
               "mismatches": mismatches}
    if as_json:
        print_json({"summary": summary})
    else:
        print(f"positions: {summary['positions']}  mean time: "
              f"{summary['mean_seconds'] * 1000:.4f} ms  mean nodes: {summary['mean_nodes']:.1f}"
              f"  nodes/s: {summary['nodes_per_second']:,.0f}  mismatches: {mismatches}")
    return 1 if mismatches else 0


def _number(value: float | None) -> float | int | None:
    return int(value) if value is not None and float(value).is_integer() else value
