"""The chess family's shared engine against another checkout's (before the sharing, or any
other): the same searches at fixed depths in both, the nodes compared and the speed as a ratio.

    git worktree add --detach /tmp/old <commit>     # the code to compare with
    PYTHONPATH=src python benchmarks/chess_family.py --old /tmp/old      # or $YIPAN_OLD
    PYTHONPATH=src python benchmarks/chess_family.py --old /tmp/old --rounds 5 --only chess

Each round runs every game's positions once in the old code and once in this one, each in a
process of its own (both are the package ``yipan``), alternating which goes first. A process
compiles or loads its kernels (``warm_up``) before its clock starts, then for each position
clears the engine and searches to the depth given, on CPU time (``time.process_time``).

Prints, for each game: each position's nodes in both (they must be equal: the shared code is
meant to search the same tree), each round's nodes a CPU-second in both and their ratio
(new / old), and the median ratio. The machine's cores are shared with other work: compare
ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

POSITIONS = {  # game: [(FEN or None for the start, depth)]: a few seconds a process
    "chess": [
        (None, 13),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 10),
        ("r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 1", 11),
        ("r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1", 12),  # Bratko-Kopec 12
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 20),
    ],
    "xiangqi": [
        (None, 11),
        ("r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1", 11),
        ("2bakab2/9/2n1c1n2/p1p3p1p/4p4/2P6/P3P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 1", 12),
    ],
}

CHILD = r"""
import json, sys, time
from yipan.core import Limit
game_name, positions = sys.argv[1], json.loads(sys.argv[2])
if game_name == "chess":
    from yipan.games.chess import Chess as Game
    from yipan.games.chess.engine import Engine
    engine = Engine(64, tables=None)
else:
    from yipan.games.xiangqi import Xiangqi as Game
    from yipan.games.xiangqi.engine import Engine
    engine = Engine(64)
engine.warm_up()
results = []
for fen, depth in positions:
    state = (Game() if fen is None else Game(fen)).initial_state()
    engine.clear()
    start = time.process_time()
    found = engine.think(state, Limit(depth=depth))
    seconds = time.process_time() - start
    results.append({"nodes": found.nodes, "seconds": seconds, "move": found.move,
                    "score": found.score})
print(json.dumps(results))
"""


def run(source: Path, game: str) -> list[dict]:
    """The searches of ``game``'s positions in the checkout at ``source`` (its own process)."""
    # (YIPAN_COMPILE_HELPER=0: a checkout from before the second compiling process retired)
    env = {**os.environ, "PYTHONPATH": str(source / "src"), "YIPAN_COMPILE_HELPER": "0"}
    done = subprocess.run([sys.executable, "-c", CHILD, game, json.dumps(POSITIONS[game])],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{source}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def speed(results: list[dict]) -> float:
    return sum(r["nodes"] for r in results) / sum(r["seconds"] for r in results)


def compare(game: str, old: Path, rounds: int) -> None:
    print(f"\n== {game}: old {old}, new {ROOT}", flush=True)
    ratios = []
    for round_number in range(rounds):
        order = [("old", old), ("new", ROOT)]
        if round_number % 2:
            order.reverse()
        runs = {name: run(source, game) for name, source in order}
        if round_number == 0:
            for (fen, depth), before, after in zip(POSITIONS[game], runs["old"], runs["new"],
                                                   strict=True):
                same = "same" if (before["nodes"], before["move"], before["score"]) == \
                    (after["nodes"], after["move"], after["score"]) else "DIFFERENT"
                print(f"  depth {depth:2} {before['nodes']:>10,} old {after['nodes']:>10,} new"
                      f"  {same} (nodes, move, score)  {(fen or 'start')[:40]}")
        ratio = speed(runs["new"]) / speed(runs["old"])
        ratios.append(ratio)
        print(f"  round {round_number + 1} ({order[0][0]} first): old "
              f"{speed(runs['old']):,.0f} nodes/s, new {speed(runs['new']):,.0f} nodes/s, "
              f"new/old {ratio:.3f}", flush=True)
    print(f"  median new/old over {rounds} rounds: {statistics.median(ratios):.3f} "
          f"(range {min(ratios):.3f}-{max(ratios):.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default=os.environ.get("YIPAN_OLD"),
                        help="a checkout to compare with (default: $YIPAN_OLD)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--only", default="chess,xiangqi", help="games, comma-separated")
    args = parser.parse_args()
    if not args.old or not Path(args.old, "src", "yipan").is_dir():
        raise SystemExit("give --old (or $YIPAN_OLD): a checkout of yipan to compare with")
    for game in args.only.split(","):
        compare(game, Path(args.old).resolve(), args.rounds)


if __name__ == "__main__":
    main()
