"""Chess-family self-play: this checkout's engine (xiangqi or chess) against a baseline
checkout's, at a fixed node budget a move, so that the games depend on the engines and the
openings alone, never on the machine's load.

    git archive main src | tar -x -C /tmp/yipan-base          # the "before"
    PYTHONPATH=src nice -n 5 python benchmarks/family_selfplay.py --game xiangqi \
        --baseline /tmp/yipan-base/src --nodes 10000 --pairs 60

Each engine runs in a child process whose ``PYTHONPATH`` is its own ``src`` (two copies of
one package cannot share a process), clears its tables before each game and thinks with
``Limit(nodes=--nodes)``, so a game is the same every run. ``--movetime`` gives each move
that many seconds instead (equal time: what a change's cost in speed does to its gain, on a
quiet machine; one engine thinks at a time, so a match takes one core). ``--clock 4+0.04``
plays on a clock instead, sudden death with an increment, each engine sharing its time as
a GUI's clock makes it (``chess_family.clock.budget``, a 20 ms overhead): what a change to
time use must pass. Each move is charged the wall time the worker measured around it; an
engine whose clock runs out loses (counted and printed as a loss on time).
The games are refereed by the game's rules (``outcome``: mate, repetition, the quiet-move
rules) in this process; a game still going after ``--max-plies`` is a draw, and one where both
engines' scores put the same side ``--adjudicate`` centipawns ahead for ``--adjudicate-plies``
plies in a row goes to it.
Openings: each of the common openings below followed by ``--random-plies`` random quiet legal
moves drawn from ``--seed`` (variety without blunders of material); each is played twice,
colours swapped.

Prints W-D-L of this checkout, the score with its standard error (from the per-pair scores,
so the openings' own bias cancels), the Elo difference with its ~95% interval, and both
engines' nodes per processor second over all their moves.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# (not this directory: its chess.py would hide the python-chess package that yipan imports)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.append(str(Path(__file__).resolve().parent))  # after python-chess: for checkouts
if "--worker" not in sys.argv:  # (a worker imports yipan from its own PYTHONPATH)
    sys.path.insert(0, str(ROOT / "src"))

from checkouts import Child, play_pairs, report  # noqa: E402
from quiet_openings import random_quiet_moves  # noqa: E402

CLOCK_OVERHEAD = 0.02  # seconds: --clock's Move Overhead (the worker's pipe and JSON)

OPENINGS = {  # common openings (both colours play each): xiangqi ICCS, chess UCI
    "xiangqi": ["h2e2 h9g7", "h2e2 b9c7 h0g2 h7e7", "b2e2 h9g7 b0c2 i9h9", "c3c4 g6g5",
                "h0g2 g6g5", "g3g4 c6c5", "c0e2 h7e7", "h2e2 h7e7", "b0c2 b9c7", "h2d2 h9g7"],
    "chess": ["e2e4 e7e5 g1f3 b8c6", "e2e4 c7c5 g1f3 d7d6", "d2d4 d7d5 c2c4 e7e6",
              "d2d4 g8f6 c2c4 g7g6", "e2e4 e7e6 d2d4 d7d5", "c2c4 e7e5 b1c3 g8f6",
              "e2e4 c7c6 d2d4 d7d5", "g1f3 d7d5 g2g3 g8f6", "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",
              "e2e4 e7e5 f1c4 g8f6", "d2d4 d7d5 c2c4 c7c6", "e2e4 e7e5 g1f3 g8f6"],
}


def game_and_engine(name: str) -> tuple[Any, Any]:
    """The rules and a fresh engine of ``name`` (imported from this process's yipan)."""
    if name == "xiangqi":
        from yipan.games.xiangqi import Xiangqi
        from yipan.games.xiangqi.engine import Engine
        return Xiangqi(), Engine(64)
    from yipan.games.chess import Chess
    from yipan.games.chess.engine import Engine as ChessEngine
    return Chess(), ChessEngine(64, tables=None)


def worker(name: str) -> int:
    """A child process: one engine answering JSON lines (``new``; ``move`` with the moves
    from the start and the node budget, the time, or the clock's time left and increment:
    the move, its score, the nodes, the processor time and the wall time)."""
    from yipan.chess_family.clock import Clock, budget
    from yipan.core import Limit

    assert Path(sys.modules["yipan"].__file__).resolve().is_relative_to(
        Path(os.environ["PYTHONPATH"]).resolve())
    game, engine = game_and_engine(name)
    engine.warm_up()
    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "new":
            engine.clear()
            answer: dict = {}
        else:
            state = game.initial_state()
            for move in request["moves"]:
                state = game.play(state, move)
            start, wall = time.process_time(), time.perf_counter()
            if request.get("clock"):
                time_left, increment = request["clock"]
                soft, hard = budget(Clock(time_left=time_left, increment=increment),
                                    CLOCK_OVERHEAD)
                found = engine.think(state, Limit(time=hard), soft_time=soft)
            else:
                found = engine.think(state, Limit(nodes=request["nodes"], time=request["time"]))
            answer = {"move": int(found.move), "score": int(found.score),
                      "nodes": int(found.nodes), "seconds": time.process_time() - start,
                      "wall": time.perf_counter() - wall}
        print(json.dumps(answer), flush=True)
    return 0


def draw_opening(game: Any, text: str, plies: int, rng: random.Random) -> list[int]:
    """``text``'s moves, then ``plies`` random legal moves that capture nothing (so that
    neither side starts a piece down)."""
    state = game.initial_state()
    moves = []
    for word in text.split():
        move = game.parse_move(state, word)
        moves.append(move)
        state = game.play(state, move)
    return moves + random_quiet_moves(game, state, plies, rng)


def play(game: Any, first: Child, second: Child, opening: list[int], nodes: int | None,
         seconds: float | None, max_plies: int, margin: int,
         agree_plies: int, clock: tuple[float, float] | None = None,
         flagged: list[Child] | None = None) -> tuple[int | None, int]:
    """One game from ``opening`` at ``nodes`` or ``seconds`` a move, or on ``clock`` (base,
    increment; an engine out of time loses and is added to ``flagged``): the winner's colour
    (0 the side that moves first, None a draw) and the number of plies at the end."""
    for child in (first, second):
        child.ask({"cmd": "new"})
    state = game.initial_state()
    moves = list(opening)
    for move in moves:
        state = game.play(state, move)
    agree, leader = 0, -1
    left = [clock[0], clock[0]] if clock else [0.0, 0.0]
    while len(moves) < max_plies:
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome.winner, len(moves)
        side = game.to_move(state)
        request = {"cmd": "move", "moves": moves, "nodes": nodes, "time": seconds,
                   "clock": [left[side], clock[1]] if clock else None}
        engine = (first, second)[side]
        answer = engine.ask(request)
        if clock:
            left[side] -= answer["wall"]
            if left[side] < 0:
                if flagged is not None:
                    flagged.append(engine)
                return 1 - side, len(moves)
            left[side] += clock[1]
        ahead = side if answer["score"] > 0 else 1 - side
        if abs(answer["score"]) >= margin:
            agree = agree + 1 if agree and ahead == leader else 1
            leader = ahead
        else:
            agree = 0
        if agree >= agree_plies:
            return leader, len(moves)
        move = answer["move"]
        assert move in game.legal_moves(state), f"illegal move {move}"
        moves.append(move)
        state = game.play(state, move)
    return None, len(moves)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--game", choices=sorted(OPENINGS), default="xiangqi")
    parser.add_argument("--baseline", help="the baseline checkout's src directory")
    parser.add_argument("--nodes", type=int, default=10_000, help="alpha-beta nodes a move")
    parser.add_argument("--movetime", type=float,
                        help="seconds a move instead of a node budget")
    parser.add_argument("--clock", type=parse_clock, metavar="BASE+INC",
                        help="seconds a game and a move's increment, such as 4+0.04, "
                             "instead of a budget a move")
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--random-plies", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--adjudicate", type=int, default=1000, help="centipawns")
    parser.add_argument("--adjudicate-plies", type=int, default=8)
    args = parser.parse_args()
    if args.worker:
        return worker(args.game)
    if not args.baseline:
        parser.error("--baseline is required")
    if args.movetime is not None and args.clock is not None:
        parser.error("give --movetime or --clock, not both")
    if args.movetime is not None and not args.movetime > 0:
        parser.error("--movetime must be a number of seconds above 0")

    if args.game == "xiangqi":
        from yipan.games.xiangqi import Xiangqi as Game
    else:
        from yipan.games.chess import Chess as Game
    game = Game()
    rng = random.Random(args.seed)
    bases = OPENINGS[args.game]
    openings = [draw_opening(game, bases[i % len(bases)], args.random_plies, rng)
                for i in range(args.pairs)]
    new = Child(__file__, str(ROOT / "src"), ["--game", args.game],
                {"YIPAN_COMPILE_HELPER": "0"})
    old = Child(__file__, args.baseline, ["--game", args.game], {"YIPAN_COMPILE_HELPER": "0"})
    flagged: list[Child] = []
    timed = args.movetime or args.clock
    try:
        tally = play_pairs(openings, new, old, lambda first, second, opening: play(
            game, first, second, opening, None if timed else args.nodes,
            args.movetime, args.max_plies, args.adjudicate, args.adjudicate_plies,
            args.clock, flagged))
    finally:
        new.close()
        old.close()
    if args.clock:
        budget = f"{args.clock[0]:g} s + {args.clock[1]:g} s a game"
    else:
        budget = (f"{args.movetime} s" if args.movetime else f"{args.nodes} nodes") + " a move"
    report(f"{args.game}: new vs baseline at {budget}", tally, new, old)
    if args.clock:
        print(f"  losses on time: new {flagged.count(new)}, baseline {flagged.count(old)}")
    return 0


def parse_clock(text: str) -> tuple[float, float]:
    """``BASE+INC`` in seconds, both at least 0 and the base above it."""
    try:
        base, increment = (float(part) for part in text.split("+"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not BASE+INC in seconds, "
                                         "such as 4+0.04") from None
    if not (base > 0 and increment >= 0):
        raise argparse.ArgumentTypeError(f"{text!r}: the base must be above 0 seconds and "
                                         "the increment at least 0")
    return base, increment


if __name__ == "__main__":
    sys.exit(main())
