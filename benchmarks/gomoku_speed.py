"""Gomoku kernels' speed against a baseline checkout, in one run, on the same positions.

    git worktree add /tmp/yipan-base HEAD        # (or any commit: the "before")
    PYTHONPATH=src nice -n 5 python benchmarks/gomoku_speed.py --baseline /tmp/yipan-base/src

The positions: the VCF puzzles of the reference data ($YIPAN_DATA or ../shared/data), and
middle games of seeded random play near the centre (``--midgames`` a rule), under each of
``--rules``. On each, both versions run the same searches from a cleared table: the alpha-beta
(``Engine.search`` to ``--depth`` within ``--nodes``) and, with ``--threats``, the VCF and VCT
searches of the side to move. The baseline runs in a child process whose ``PYTHONPATH`` is
the baseline's ``src`` (two copies of one package cannot share a process); the two alternate
position by position, which of them goes first alternating too, so that the machine's load
falls on both alike. Each measures its own processor time (``time.process_time``); with
``--repeat K`` each searches every position K times and the least time counts.

Prints, per rule and in all: nodes, nodes per processor second of each and the ratio; and
every position where the two disagree on the best move, the value or the node count (the
same tree searched faster must visit the same nodes). The exit code is 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RULES = ("freestyle", "standard", "renju", "caro", "caro-exact")
SIZE = 15


def data_dir() -> Path:
    return Path(os.environ.get("YIPAN_DATA", ROOT.parent / "shared" / "data"))


def puzzle_positions(path: Path) -> list[list[int]]:
    """The move lists (the engine's points, ``y * size + x``) of the VCF puzzles; none when
    the file is absent."""
    from yipan.games.gomoku.puzzles import read_puzzles

    if not path.is_file():
        return []
    return [puzzle.points() for puzzle in read_puzzles(path) if puzzle.size == SIZE]


def midgame_positions(rule: str, count: int, rng: random.Random) -> list[list[int]]:
    """Random play near the centre, 8 to 30 stones, no five on the board (by the rule) and
    no forbidden black move (renju)."""
    from yipan.games.gomoku.rules import Gomoku

    game = Gomoku(SIZE, rule)
    positions = []
    while len(positions) < count:
        state = game.initial_state()
        moves: list[int] = []
        target = rng.randint(8, 30)
        tries = 0
        while len(moves) < target and tries < 500:
            tries += 1
            point = game.point(rng.randint(3, 11), rng.randint(3, 11))
            if point in moves or not game.is_legal(state, point):
                continue
            after = game.play(state, point)
            if game.outcome(after) is not None:
                continue
            state = after
            moves.append(point)
        positions.append(moves)
    return positions


class Runner:
    """The engines of this process's ``yipan`` (one per rule), searching on request."""

    def __init__(self, memory: int) -> None:
        from yipan.games.gomoku.engine import Engine

        self.engine_class = Engine
        self.memory = memory
        self.engines: dict[str, Any] = {}

    def engine(self, rule: str) -> Any:
        if rule not in self.engines:
            engine = self.engine_class(SIZE, rule, memory_bytes=self.memory)
            engine.warm_up()  # (compiled or loaded before any clock runs)
            self.engines[rule] = engine
        return self.engines[rule]

    def run(self, job: dict) -> dict:
        from yipan.games.gomoku.context import THREAT_NODES

        engine = self.engine(job["rule"])
        engine.reset(job["moves"])
        context = engine.context
        # (the table of this version or the baseline's: its arrays may differ)
        table = context.tt if hasattr(context, "tt") else context.tt_key
        table[:] = 0
        context.history[:] = 0
        if job["kind"] == "search":
            start = time.process_time()
            result = engine.search(max_depth=job["depth"], nodes=job["nodes"])
            cpu = time.process_time() - start
            if result is None:
                return {"move": None, "value": None, "nodes": 0, "cpu": cpu}
            return {"move": result.move, "value": result.value, "nodes": result.stats.nodes,
                    "cpu": cpu, "depth": result.depth}
        threes = job["kind"] == "vct"
        start = time.process_time()
        win = engine.threat_win(engine.to_move, threes=threes,
                                max_depth=engine.vct_depth if threes else engine.vcf_depth,
                                nodes=job["nodes"], seconds=None)
        cpu = time.process_time() - start
        return {"move": None if win is None else list(win.line), "value": win is not None,
                "nodes": int(context.stats[THREAT_NODES]), "cpu": cpu}


def worker(memory: int) -> int:
    """The baseline's side: one JSON job a line in, one JSON answer a line out."""
    runner = Runner(memory)
    for line in sys.stdin:
        job = json.loads(line)
        if job.get("warm"):
            runner.engine(job["rule"])
            print(json.dumps({"ok": True}), flush=True)
            continue
        print(json.dumps(runner.run(job)), flush=True)
    return 0


class Baseline:
    def __init__(self, src: str, memory_mb: int) -> None:
        env = {**os.environ, "PYTHONPATH": src}
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", "--memory",
             str(memory_mb)], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, job: dict) -> dict:
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", required=False,
                        help="a checkout's src directory: the version compared against")
    parser.add_argument("--rules", nargs="+", default=list(RULES), choices=RULES)
    parser.add_argument("--midgames", type=int, default=12, help="random middle games a rule")
    parser.add_argument("--puzzles", type=int, default=37, help="VCF puzzles used (at most)")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--nodes", type=int, default=150_000, help="node budget a search")
    parser.add_argument("--threats", action="store_true", help="also VCF and VCT searches")
    parser.add_argument("--threat-nodes", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=1,
                        help="searches a position and version; the least processor time counts "
                             "(what the other processes of a busy machine add varies)")
    parser.add_argument("--memory", type=int, default=64,
                        help="MB of search memory (the engine's default: 64)")
    parser.add_argument("--seed", type=int, default=20261203)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.memory << 20)
    sys.path.insert(0, str(ROOT / "src"))
    runner = Runner(args.memory << 20)
    baseline = Baseline(args.baseline, args.memory) if args.baseline else None
    rng = random.Random(args.seed)
    puzzles = puzzle_positions(data_dir() / "gomoku" / "vcf_puzzles.txt")[:args.puzzles]
    kinds = ["search"] + (["vcf", "vct"] if args.threats else [])
    totals: dict[str, list[float]] = {}
    disagreements = 0
    turn = 0
    print(f"depth {args.depth}, {args.nodes:,} nodes a search, {args.memory} MB; "
          f"{len(puzzles)} puzzles and "
          f"{args.midgames} midgames a rule; baseline {args.baseline}", flush=True)
    for rule in args.rules:
        positions = [("puzzle", i, m) for i, m in enumerate(puzzles)] + [
            ("midgame", i, m) for i, m in enumerate(midgame_positions(rule, args.midgames, rng))]
        runner.engine(rule)
        if baseline:
            baseline.ask({"warm": True, "rule": rule})
        for kind in kinds:
            sums = [0.0, 0.0, 0.0, 0.0]  # nodes and seconds: ours, baseline's
            for name, index, moves in positions:
                ours = theirs = None
                job = {"rule": rule, "moves": moves, "kind": kind,
                       "depth": args.depth,
                       "nodes": args.nodes if kind == "search" else args.threat_nodes}
                for _ in range(args.repeat):
                    turn += 1
                    if baseline and turn % 2:
                        theirs = least(theirs, baseline.ask(job))
                    ours = least(ours, runner.run(job))
                    if baseline and not turn % 2:
                        theirs = least(theirs, baseline.ask(job))
                sums[0] += ours["nodes"]
                sums[1] += ours["cpu"]
                if baseline:
                    sums[2] += theirs["nodes"]
                    sums[3] += theirs["cpu"]
                    if any(ours[k] != theirs[k] for k in ("move", "value", "nodes")):
                        disagreements += 1
                        print(f"  DIFFERENT {rule} {kind} {name} {index}: ours {ours}, "
                              f"baseline {theirs}", flush=True)
            report(f"{rule} {kind}", sums, baseline is not None)
            total = totals.setdefault(kind, [0.0, 0.0, 0.0, 0.0])
            for i in range(4):
                total[i] += sums[i]
    for kind, sums in totals.items():
        report(f"all rules {kind}", sums, baseline is not None)
    if baseline:
        baseline.close()
        print(f"disagreements: {disagreements}")
    return 1 if disagreements else 0


def least(kept: dict | None, new: dict) -> dict:
    """The answer with the lesser processor time (the searches are the same)."""
    return new if kept is None or new["cpu"] < kept["cpu"] else kept


def report(label: str, sums: list[float], compared: bool) -> None:
    ours = sums[0] / max(sums[1], 1e-9)
    text = f"{label}: nodes {int(sums[0]):,}, {ours:,.0f} nodes/s ({sums[1]:.2f} CPU-s)"
    if compared:
        theirs = sums[2] / max(sums[3], 1e-9)
        text += (f"; baseline nodes {int(sums[2]):,}, {theirs:,.0f} nodes/s "
                 f"({sums[3]:.2f} CPU-s); ratio {ours / max(theirs, 1e-9):.2f}x")
    print(text, flush=True)


if __name__ == "__main__":
    sys.exit(main())
