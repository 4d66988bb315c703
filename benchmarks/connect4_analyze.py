"""How long ``yipan analyze connect4`` takes, ply by ply, with the shipped opening book.

    PYTHONPATH=src python benchmarks/connect4_analyze.py [--plies 0,2,4,6,7,8,9,10,12]
        [--samples 12] [--seed 2026] [--time 10]

The book answers every position up to the ply before its last at once (each column's child
is in it); past that the solver works, and ``analyze`` stops at its default time with proved
bounds. The book is deep enough when every position past it is settled within that time: this
prints, for each ply, positions drawn by random play from a seeded ``random.Random`` (moves
that win at once are not drawn, so the game goes on), analysed as the command does (every
column's exact score, the solver kept between positions, its table emptied), and counts those
settled within ``--time`` seconds, with their CPU seconds (mean and max) and nodes (max).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from yipan.core import AnalysisRequest, Limit  # noqa: E402
from yipan.games.connect4 import ConnectFour  # noqa: E402
from yipan.games.connect4.book import shipped_book  # noqa: E402
from yipan.games.connect4.hooks import DEFAULT_ANALYZE_SECONDS, analyze  # noqa: E402
from yipan.games.connect4.rules import Position  # noqa: E402


def random_position(game: ConnectFour, ply: int, rng: random.Random) -> Position:
    """A position after ``ply`` random moves, none of them winning at once."""
    while True:
        position = game.initial_state()
        while position.moves < ply:
            moves = [col for col in game.legal_moves(position)
                     if not game.is_winning_move(position, col)]
            if not moves:
                break
            position = game.play(position, rng.choice(moves))
        if position.moves == ply:
            return position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", default="0,2,4,6,7,8,9,10,12")
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--time", type=float, default=DEFAULT_ANALYZE_SECONDS,
                        help="seconds a position (analyze's default)")
    args = parser.parse_args()
    game = ConnectFour()
    book = shipped_book()
    rng = random.Random(args.seed)
    print(f"shipped book: {'none' if book is None else f'exact to ply {book.depth}, '}"
          f"{'' if book is None else f'{len(book):,} positions'}; {args.samples} positions a "
          f"ply, {args.time:g} s each at most (seed {args.seed})")
    analyze(game, game.initial_state(), AnalysisRequest(limit=Limit(nodes=1)))  # warm up
    print(f"{'ply':>4} {'settled':>8} {'mean CPU s':>11} {'max CPU s':>10} {'max nodes':>12}")
    for ply in (int(text) for text in args.plies.split(",")):
        seconds: list[float] = []
        nodes: list[int] = []
        settled = 0
        for _ in range(args.samples):
            position = random_position(game, ply, rng)
            start = time.process_time()
            analysis = analyze(game, position, AnalysisRequest(limit=Limit(time=args.time)))
            seconds.append(time.process_time() - start)
            nodes.append(analysis.nodes)
            settled += analysis.exact
        print(f"{ply:>4} {settled:>4}/{args.samples:<3} {statistics.mean(seconds):>11.3f} "
              f"{max(seconds):>10.3f} {max(nodes):>12,}", flush=True)


if __name__ == "__main__":
    main()
