"""Connect Four on the command line: ``solve`` and ``analyze`` run the numba solver.

``yipan solve connect4 MOVES [--weak]``, ``yipan solve connect4 --batch FILE|-`` (lines
``<moves> [expected score]``; per line score, nodes, seconds; then the means and the number of
mismatches), ``yipan analyze connect4 MOVES`` (every column's exact score, best move, main
line). ``play`` is the generic loop with this game's AI. Scores are those of the shared
benchmark: for the side to move, ``22 - stones the winner has played`` on 7x6, 0 a draw.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from typing import TextIO

from ...cli.common import moves_from_args, print_json
from ...core import IllegalMoveError, InvalidMoveError, YipanError, replay
from .rules import ConnectFour, Position

PV_NODES = 2_000_000  # per step of the main line; beyond, the line printed stops early


def extend_parser(command: str, parser: argparse.ArgumentParser) -> None:
    if command == "solve":
        parser.add_argument("--weak", action="store_true",
                            help="only win, draw or loss (faster)")
        parser.add_argument("--batch", metavar="FILE",
                            help="solve every line '<moves> [expected]' of FILE (- for stdin)")
        parser.add_argument("--no-book", action="store_true",
                            help="do not probe the opening book")


def run(command: str, args: argparse.Namespace, game: ConnectFour) -> int | None:
    if command == "solve":
        if args.algorithm != "alphabeta-tt" or args.trace is not None:
            return None  # the generic engines, for comparison
        if args.batch is not None:
            return solve_batch(game, args)
        return solve_one(game, args)
    if command == "analyze":
        return analyze(game, args)
    return None


def _solver(game: ConnectFour, use_book: bool = True):  # noqa: ANN202 - imported lazily
    from .book import shipped_book
    from .solver import Solver

    return Solver(game, book=shipped_book(game.width, game.height) if use_book else None)


def _position(game: ConnectFour, moves: list[str]) -> Position:
    position = replay(game, moves)[-1]
    if game.outcome(position) is not None and position.moves < game.cells:
        raise IllegalMoveError(f"the game is already won after {''.join(moves)}")
    return position


def describe(game: ConnectFour, score: int, moves: int) -> str:
    if score == 0:
        return "draw"
    stones = (game.cells + 2) // 2 - abs(score)  # the winner's stones when the four is made
    who = game.player_names[moves & 1] if score > 0 else game.player_names[1 - (moves & 1)]
    return f"{who} wins with stone {stones}"


def solve_one(game: ConnectFour, args: argparse.Namespace) -> int:
    moves = moves_from_args(game, args.moves)
    position = _position(game, moves)
    solver = _solver(game, not args.no_book)
    solver.warm_up()
    solved = solver.solve(position, weak=args.weak)
    assert solved.score is not None
    if args.json:
        print_json({"moves": "".join(moves), "score": solved.score, "weak": args.weak,
                    "nodes": solved.nodes, "seconds": round(solved.seconds, 6)})
        return 0
    if args.weak:
        words = {1: "win", 0: "draw", -1: "loss"}[solved.score]
        print(f"score: {solved.score:+d} ({words} for the side to move)")
    else:
        print(f"score: {solved.score:+d} ({describe(game, solved.score, position.moves)})")
    print(f"nodes: {solved.nodes}")
    print(f"time: {solved.seconds * 1000:.3f} ms")
    return 0


def _batch_lines(game: ConnectFour, stream: TextIO) -> Iterator[tuple[str, Position, int | None]]:
    for number, line in enumerate(stream, 1):
        words = line.split()
        if not words:
            continue
        if len(words) > 2:
            raise YipanError(f"line {number}: expected '<moves> [expected score]'")
        try:
            position = _position(game, game.split_moves(words[0]))
            expected = int(words[1]) if len(words) == 2 else None
        except (IllegalMoveError, InvalidMoveError) as error:
            raise type(error)(f"line {number}: {error}") from None
        except ValueError:
            raise YipanError(f"line {number}: the expected score {words[1]!r} is not an "
                             "integer") from None
        yield words[0], position, expected


def solve_batch(game: ConnectFour, args: argparse.Namespace) -> int:
    """One solve per line with a fresh table (the benchmark's rule); per-line results, then
    the means. The solver call is the only thing timed."""
    stream = sys.stdin if args.batch == "-" else open(args.batch, encoding="utf-8")  # noqa: SIM115
    with stream:
        lines = list(_batch_lines(game, stream))
    solver = _solver(game, not args.no_book)
    solver.warm_up()
    solve = solver.solve_fresh
    total_seconds = 0.0
    total_nodes = mismatches = 0
    perf = time.perf_counter
    for moves, position, expected in lines:
        start = perf()
        score = solve(position, args.weak)
        seconds = perf() - start
        nodes = solver.nodes
        total_seconds += seconds
        total_nodes += nodes
        wrong = expected is not None and score != (
            (expected > 0) - (expected < 0) if args.weak else expected)
        mismatches += wrong
        if args.json:
            record = {"moves": moves, "score": score, "nodes": nodes,
                      "seconds": round(seconds, 9)}
            if expected is not None:
                record["expected"] = expected
            print_json(record)
        else:
            print(f"{moves} {score} {nodes} {seconds:.6f}" + (" MISMATCH" if wrong else ""))
    count = max(1, len(lines))
    summary = {"positions": len(lines), "mean_seconds": total_seconds / count,
               "mean_nodes": total_nodes / count,
               "nodes_per_second": total_nodes / total_seconds if total_seconds else 0.0,
               "mismatches": mismatches}
    if args.json:
        print_json({"summary": summary})
    else:
        print(f"positions: {summary['positions']}  mean time: "
              f"{summary['mean_seconds'] * 1000:.4f} ms  mean nodes: {summary['mean_nodes']:.1f}"
              f"  nodes/s: {summary['nodes_per_second']:,.0f}  mismatches: {mismatches}")
    return 1 if mismatches else 0


def analyze(game: ConnectFour, args: argparse.Namespace) -> int | None:
    moves = moves_from_args(game, args.moves)
    position = _position(game, moves)
    if game.outcome(position) is not None:
        return None  # a full board: the generic report says the game is over
    solver = _solver(game)
    start = time.perf_counter()
    scores = solver.analyze(position)
    best_score = max(s for s in scores.values() if s is not None)
    best = [c for c in game.order_moves(position, list(scores)) if scores[c] == best_score]
    line = [best[0]]
    if not game.is_winning_move(position, best[0]):
        line += solver.principal_variation(game.play(position, best[0]), -best_score,
                                           node_limit=PV_NODES)
    seconds = time.perf_counter() - start
    nodes = solver.total_nodes
    fmt = game.format_move
    if args.json:
        print_json({"moves": "".join(moves), "to_move": position.moves & 1,
                    "scores": {fmt(c): s for c, s in scores.items()},
                    "best": fmt(best[0]), "score": best_score, "pv": [fmt(c) for c in line],
                    "nodes": nodes, "seconds": round(seconds, 6)})
        return 0
    print(game.render(position))
    print(f"{game.player_names[position.moves & 1]} to move.")
    print("column  score")
    for col in range(game.width):
        score = scores.get(col)
        text = "full" if score is None else f"{score:+d}  {describe(game, score, position.moves)}"
        print(f"  {fmt(col):>4}  {text}")
    print(f"best move: {fmt(best[0])} (score {best_score:+d})"
          + (f"; as good: {' '.join(fmt(c) for c in best[1:])}" if len(best) > 1 else ""))
    print("principal variation: " + "".join(fmt(c) for c in line))
    print(f"{nodes} nodes, {seconds:.3f} s")
    return 0
