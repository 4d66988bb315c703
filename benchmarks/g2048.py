"""2048: N seeded games by the expectimax AI; the share reaching 2048, 4096 and 8192, the median
score and moves/s.

    PYTHONPATH=src python benchmarks/g2048.py [--games N] [--level L] [--max-moves M]

A full game of a strong player lasts thousands of moves (minutes each), so the default is a
short run: 2 games cut at 1500 moves (a cut game counts with the tile it reached). Use
``--games 20 --max-moves 0`` for the real figure. Reference: the best-known C++ expectimax
(depth 8) reaches 2048/4096/8192 in 100% of games at about 8 moves/s here.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from yipan.core import get_game
from yipan.games.g2048 import max_tile
from yipan.games.g2048.player import ExpectimaxPlayer


def play(seed: int, level: str, max_moves: int) -> tuple[int, int, int, float]:
    game = get_game("2048")
    rng = random.Random(seed)
    player = ExpectimaxPlayer.for_level(level, random.Random(seed + 1))
    state = game.start(rng)
    moves = 0
    start = time.perf_counter()
    while game.outcome(state) is None and (not max_moves or moves < max_moves):
        state = game.play(state, player.choose(game, state).move)
        state = game.play(state, game.sample_spawn(state, rng))
        moves += 1
    return state.score, max_tile(state.board), moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--level", default="perfect")
    parser.add_argument("--max-moves", type=int, default=1500, help="0: play to the end")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ExpectimaxPlayer.for_level(args.level, random.Random(0))  # load the kernels
    results = []
    for index in range(args.games):
        score, tile, moves, seconds = play(args.seed + 1000 * index, args.level, args.max_moves)
        results.append((score, tile, moves, seconds))
        print(f"game {index + 1}: score {score}, largest tile {tile}, {moves} moves, "
              f"{moves / seconds:.1f} moves/s")
    total_moves = sum(r[2] for r in results)
    total_seconds = sum(r[3] for r in results)
    for target in (2048, 4096, 8192):
        share = sum(r[1] >= target for r in results) / len(results)
        print(f"reached {target}: {share:.0%}")
    print(f"median score {statistics.median(r[0] for r in results):.0f}, "
          f"{total_moves / total_seconds:.1f} moves/s over {total_moves} moves")


if __name__ == "__main__":
    main()
