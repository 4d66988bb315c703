"""Gomoku self-play: this checkout's engine against a baseline checkout's, at a fixed node
budget a move, so that the games depend on the engines and the openings alone (or, with
``--movetime``, at equal time: what a change that costs speed must pass too).

    git archive HEAD src | tar -x -C /tmp/yipan-base     # (or any commit: the "before")
    PYTHONPATH=src nice -n 5 python benchmarks/gomoku_selfplay.py \
        --baseline /tmp/yipan-base/src --nodes 20000 --pairs 24 [--judge PROGRAM]

Each engine runs in a child process whose ``PYTHONPATH`` is its own ``src`` (two copies of
one package cannot share a process) and thinks with ``Engine.think(seconds=None,
nodes=--nodes)``: its threat searches bounded by their own node limits, no clock anywhere;
its tables are cleared before each game, so a game is the same every run. Openings of
``--opening-stones`` random stones near the centre come from ``--seed``; with ``--judge
PROGRAM`` (a Gomocup brain, Rapfi say) only those it calls even at ``--judge-depth``
(``|Eval| <= --judge-margin``) are kept. Each opening is played twice, colours swapped.

Prints W-D-L of this checkout, the score with its standard error (from the per-pair
scores, so the openings' own bias cancels), and both engines' nodes per processor second
over all their moves of the match.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if "--worker" not in sys.argv:  # (a worker imports yipan from its own PYTHONPATH)
    sys.path.insert(0, str(ROOT / "src"))
    sys.path.insert(0, str(ROOT / "benchmarks"))

from checkouts import Child, play_pairs, report  # noqa: E402


def worker() -> int:
    """A child process: one engine answering JSON lines (``new``; ``move`` with the moves
    so far and the node budget: the point and the alpha-beta's nodes and processor time)."""
    from yipan.games.gomoku.engine import Engine

    assert Path(sys.modules["yipan"].__file__).resolve().is_relative_to(
        Path(os.environ["PYTHONPATH"]).resolve())
    engine = Engine.prepared(15, os.environ.get("SELFPLAY_RULE", "freestyle"))
    # experiments: "INDEX=VALUE,..." set in the search's switches (``context.stats``)
    for item in filter(None, os.environ.get("SELFPLAY_STATS", "").split(",")):
        index, value = map(int, item.split("="))
        engine.context.stats[index] = value
    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "new":
            engine.reset()
            context = engine.context
            for table in (context.tt, context.history, context.fail_key, context.fail_depth):
                table[:] = 0
            context.killers[:] = -1
            answer: dict = {}
        else:
            engine.reset(request["moves"])
            start = time.process_time()
            decision = engine.think(seconds=request.get("seconds"), nodes=request.get("nodes"))
            spent = time.process_time() - start
            answer = {"move": decision.move, "reason": decision.reason,
                      "nodes": decision.result.stats.nodes, "seconds": spent}
        print(json.dumps(answer), flush=True)
    return 0


def play(game, black: Child, white: Child, opening: list[int], limit: dict
         ) -> tuple[int | None, int]:
    """One game from ``opening``, each move within ``limit`` (``{"nodes": N}`` or
    ``{"seconds": S}``): the winner's colour (None for a draw: a full board) and the number
    of moves on the board at the end."""
    for child in (black, white):
        child.ask({"cmd": "new"})
    state = game.initial_state()
    moves = list(opening)
    for point in moves:
        state = game.play(state, point)
    while (outcome := game.outcome(state)) is None:
        side = game.to_move(state)
        answer = (black, white)[side].ask({"cmd": "move", "moves": moves, **limit})
        try:
            state = game.play_checked(state, answer["move"])
        except ValueError:
            return 1 - side, len(moves)  # an illegal move (renju: forbidden) loses
        moves.append(answer["move"])
    return outcome.winner, len(moves)


def judged_even(program: str, opening: list[int], depth: int, margin: int) -> bool:
    """Whether the brain ``program`` calls ``opening`` even at ``depth`` (its Eval line)."""
    from gomoku import MAX_MEMORY, Pipe, eval_seen

    side = len(opening) % 2
    brain = Pipe(Path(program).name, [program])
    try:
        brain.send("INFO rule 0")
        assert brain.ask("START 15") == "OK"
        brain.send("INFO timeout_turn 60000", "INFO timeout_match 0",
                   f"INFO max_memory {MAX_MEMORY}", f"INFO max_depth {depth}")
        brain.ask("BOARD", *[f"{p % 15},{p // 15},{1 if i % 2 == side else 2}"
                             for i, p in enumerate(opening)], "DONE")
    finally:
        brain.close()
    value = eval_seen(brain.messages)
    return value is not None and abs(value) <= margin


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--baseline", help="the baseline checkout's src directory")
    parser.add_argument("--nodes", type=int, default=20_000, help="alpha-beta nodes a move")
    parser.add_argument("--movetime", type=float, metavar="SECONDS",
                        help="think this long a move instead (equal time: a change that costs "
                             "speed must pass this too; the engines take turns on one core)")
    parser.add_argument("--pairs", type=int, default=24)
    parser.add_argument("--opening-stones", type=int, default=3)
    parser.add_argument("--rule", default="freestyle")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--judge", help="a Gomocup brain that keeps only even openings")
    parser.add_argument("--judge-depth", type=int, default=16)
    parser.add_argument("--judge-margin", type=int, default=60)
    parser.add_argument("--openings", metavar="FILE.json",
                        help="the openings read from FILE if it holds enough, else drawn and saved")
    parser.add_argument("--new-stats", default="", metavar="INDEX=VALUE,...",
                        help="switches set in this checkout's context.stats (experiments)")
    args = parser.parse_args()
    if args.worker:
        return worker()
    if not args.baseline:
        parser.error("--baseline is required")
    if args.movetime is not None and not 0 < args.movetime <= 60:
        parser.error("--movetime must be more than 0 and at most 60 seconds")
    limit = {"nodes": args.nodes} if args.movetime is None else {"seconds": args.movetime}
    setting = (f"{args.nodes} nodes" if args.movetime is None
               else f"{args.movetime:g} s")

    from gomoku import draw_opening
    from yipan.core.files import write_atomically
    from yipan.games.gomoku.rules import Gomoku

    game = Gomoku(15, args.rule)
    rng = random.Random(args.seed)
    openings: list[list[int]] = []
    saved = Path(args.openings) if args.openings else None
    if saved is not None and saved.exists():
        openings = json.loads(saved.read_text())
        if len(openings) >= args.pairs:  # (else drawn again from the seed, all of them)
            openings = openings[:args.pairs]
            print(f"{len(openings)} openings from {saved}", flush=True)
        else:
            openings = []
    tried = 0
    while len(openings) < args.pairs:
        opening = draw_opening(game, args.opening_stones, rng)
        tried += 1
        if args.judge is None or judged_even(args.judge, opening, args.judge_depth,
                                             args.judge_margin):
            openings.append(opening)
    if tried:
        print(f"{len(openings)} openings ({tried} tried)", flush=True)
        if saved is not None:
            write_atomically(saved, json.dumps(openings))
    new = Child(__file__, str(ROOT / "src"),
                environment={"SELFPLAY_RULE": args.rule, "SELFPLAY_STATS": args.new_stats})
    old = Child(__file__, args.baseline, environment={"SELFPLAY_RULE": args.rule})
    try:
        tally = play_pairs(openings, new, old,
                           lambda black, white, opening: play(game, black, white, opening,
                                                              limit),
                           lambda opening: " " + " ".join(f"{p % 15},{p // 15}"
                                                          for p in opening))
    finally:
        new.close()
        old.close()
    report(f"new vs baseline at {setting} a move", tally, new, old)
    return 0


if __name__ == "__main__":
    sys.exit(main())
