"""Cold and warm first moves: how long a user waits the first time on a machine, and after.

    python benchmarks/first_move.py [--rounds 1]

Each command runs twice in a fresh numba cache folder (``NUMBA_CACHE_DIR``): the first run
compiles the kernels (cold), the second loads them (warm). The command's whole wall time is
printed, with the time its preparation took (the line ``ready in N s`` on stderr when it was
announced), and whether the cold and the warm runs gave the same answer: searches are bounded
by nodes, so a machine's speed, or a compilation, cannot change an answer.

Then the Gomocup brain as a tournament manager starts it: the seconds from ``START 15`` to
its ``OK`` (cold and warm), and its first move after ``BEGIN`` (the centre, an opening rule);
the cold START with a second process compiling the threat search (the default on two CPUs or
more) and without it (``YIPAN_COMPILE_HELPER=0``), in turn, and their ratio.
``--brain-only`` measures the brain alone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

COMMANDS = [
    ("gomoku", ["analyze", "gomoku", "h8", "i9", "--nodes", "100000", "--json"]),
    ("connect4", ["analyze", "connect4", "44455554221", "--json"]),
    ("connect4 player", ["analyze", "connect4", "4", "--ai", "player", "--nodes", "200000",
                         "--json"]),
    ("2048", ["analyze", "2048", "2@a1", "2@b1", "--json"]),
    ("kayles", ["analyze", "kayles", "40", "--json"]),
    ("tictactoe", ["analyze", "tictactoe", "--json"]),
]


def run(arguments: list[str], cache: str) -> tuple[float, float | None, str]:
    """(wall seconds, preparation seconds if announced, the answer's move)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(SRC)}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "yipan", *arguments], capture_output=True,
                          text=True, env=env, timeout=900)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(arguments)} failed: {done.stderr.strip()[:300]}")
    ready = re.search(r"ready in ([0-9.]+) s", done.stderr)
    move = json.loads(done.stdout.strip().splitlines()[-1]).get("move")
    return wall, float(ready.group(1)) if ready else None, str(move)


def brain_start(cache: str, helper: bool = True) -> tuple[float, str]:
    """(seconds from START to OK, the move after BEGIN) of a fresh ``pbrain-yipan``; with
    ``helper`` off, no second process compiles the threat search on a cold start."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(SRC),
           "YIPAN_COMPILE_HELPER": "1" if helper else "0"}
    brain = subprocess.Popen([sys.executable, "-m", "yipan.protocols.gomocup"], text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    to_brain, from_brain = brain.stdin, brain.stdout
    assert to_brain is not None and from_brain is not None
    watchdog = threading.Timer(900, brain.kill)  # a brain that stalls ends the run
    watchdog.start()

    def send(line: str) -> None:
        to_brain.write(line + "\n")
        to_brain.flush()

    def answer() -> str:  # the next line that is not a MESSAGE
        while True:
            line = from_brain.readline()
            if not line:
                raise SystemExit("the brain closed its output (or stalled and was stopped)")
            if not line.startswith(("MESSAGE", "DEBUG")):
                return line.strip()

    try:
        send("INFO timeout_turn 1000")
        start = time.perf_counter()
        send("START 15")
        if answer() != "OK":
            raise SystemExit("the brain did not answer START with OK")
        seconds = time.perf_counter() - start
        send("BEGIN")
        move = answer()
        send("END")
        brain.wait(timeout=30)
    finally:
        watchdog.cancel()
        if brain.poll() is None:
            brain.kill()
    return seconds, move


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="cold/warm pairs per command")
    parser.add_argument("--brain-only", action="store_true", help="only the brain's START")
    args = parser.parse_args()
    if not args.brain_only:
        commands(args.rounds)
    brain(args.rounds)
    return 0


def commands(rounds: int = 1) -> None:
    print(f"{'command':<18} {'cold s':>8} {'(compile)':>10} {'warm s':>8} {'(load)':>8}  "
          "same answer")
    for name, arguments in COMMANDS:
        for _ in range(rounds):
            with tempfile.TemporaryDirectory(prefix="yipan-cold-") as cache:
                cold, compiled, cold_move = run(arguments, cache)
                warm, loaded, warm_move = run(arguments, cache)
            print(f"{name:<18} {cold:8.1f} {compiled or 0:10.1f} {warm:8.1f} {loaded or 0:8.1f}"
                  f"  {'yes' if cold_move == warm_move else f'NO: {cold_move} / {warm_move}'}")
    print("(compile) and (load): the preparation the command announced (0: under 2 s, "
          "not announced)")
    print()


def brain(rounds: int) -> None:
    """Cold START with the second compiling process (the default) and without it, in
    turn, then a warm START; each cold start in a fresh cache."""
    print(f"{'pbrain-yipan':<26} {'cold START':>11} {'warm START':>11}  same first move")
    ratios = []
    for _ in range(rounds):
        seconds = {}
        for helper in (True, False):
            with tempfile.TemporaryDirectory(prefix="yipan-cold-") as cache:
                cold, cold_move = brain_start(cache, helper)
                warm, warm_move = brain_start(cache, helper)
            seconds[helper] = cold
            name = "START to OK" + ("" if helper else ", one process")
            print(f"{name:<26} {cold:10.1f}s {warm:10.1f}s  "
                  f"{'yes' if cold_move == warm_move else f'NO: {cold_move} / {warm_move}'}")
        ratios.append(seconds[True] / seconds[False])
    print(f"cold START with the second process / without: "
          f"{', '.join(f'{r:.2f}x' for r in ratios)}")


if __name__ == "__main__":
    raise SystemExit(main())
