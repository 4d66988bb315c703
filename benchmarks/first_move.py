"""Cold and warm first moves: how long a user waits the first time on a machine, and after.

    python benchmarks/first_move.py [--rounds 1]

Each command runs twice in a fresh numba cache folder (``NUMBA_CACHE_DIR``): the first run
compiles the kernels (cold), the second loads them (warm). The command's whole wall time is
printed, with the time its preparation took (the line ``ready in N s`` on stderr when it was
announced), its CPU time, and whether the cold and the warm runs gave the same answer:
searches are bounded by nodes, so a machine's speed, or a compilation, cannot change an answer.
numba compiles on one CPU, so on an idle machine the wall time is about the CPU time; on a
busy one the CPU time is what the command would have waited alone.

Then the Gomocup brain as a tournament manager starts it: the seconds from ``START 15`` to
its ``OK`` (cold and warm), the CPU seconds it had used by then (since it started: its
imports too), and its first move after ``BEGIN`` (the centre, an opening rule).
``--brain-only`` measures the brain alone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

COMMANDS = [
    ("gomoku", ["analyze", "gomoku", "h8", "i9", "--nodes", "100000", "--json"]),
    ("chess", ["analyze", "chess", "e2e4", "--nodes", "20000", "--json"]),
    ("connect4", ["analyze", "connect4", "44455554221", "--json"]),
    ("connect4 player", ["analyze", "connect4", "4", "--ai", "player", "--nodes", "200000",
                         "--json"]),
    ("2048", ["analyze", "2048", "2@a1", "2@b1", "--json"]),
    ("kayles", ["analyze", "kayles", "40", "--json"]),
    ("tictactoe", ["analyze", "tictactoe", "--json"]),
]


def children_cpu() -> float:
    """CPU seconds (user and system) of this process's children that have ended."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_of(pid: int) -> float | None:
    """CPU seconds a running process has used so far (Linux's /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def run(arguments: list[str], cache: str) -> tuple[float, float | None, float, str]:
    """(wall seconds, preparation seconds if announced, CPU seconds, the answer's move)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(SRC)}
    cpu = children_cpu()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "yipan", *arguments], capture_output=True,
                          text=True, env=env, timeout=900)
    wall = time.perf_counter() - start
    cpu = children_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(arguments)} failed: {done.stderr.strip()[:300]}")
    ready = re.search(r"ready in ([0-9.]+) s", done.stderr)
    move = json.loads(done.stdout.strip().splitlines()[-1]).get("move")
    return wall, float(ready.group(1)) if ready else None, cpu, str(move)


def brain_start(cache: str) -> tuple[float, float | None, str]:
    """(seconds from START to OK, CPU seconds used by then, the move after BEGIN) of a fresh
    ``pbrain-yipan``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(SRC)}
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
        cpu = cpu_of(brain.pid)
        send("BEGIN")
        move = answer()
        send("END")
        brain.wait(timeout=30)
    finally:
        watchdog.cancel()
        if brain.poll() is None:
            brain.kill()
    return seconds, cpu, move


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
    print(f"{'command':<16} {'cold s':>7} {'(compile)':>9} {'cold CPU':>8} {'warm s':>7} "
          f"{'(load)':>7} {'warm CPU':>8}  same answer")
    for name, arguments in COMMANDS:
        for _ in range(rounds):
            with tempfile.TemporaryDirectory(prefix="yipan-cold-") as cache:
                cold, compiled, cold_cpu, cold_move = run(arguments, cache)
                warm, loaded, warm_cpu, warm_move = run(arguments, cache)
            print(f"{name:<16} {cold:7.1f} {compiled or 0:9.1f} {cold_cpu:8.1f} {warm:7.1f} "
                  f"{loaded or 0:7.1f} {warm_cpu:8.1f}  {same(cold_move, warm_move)}")
    print("(compile) and (load): the preparation the command announced (0: under 2 s, "
          "not announced); CPU: the command's CPU seconds")
    print()


def brain(rounds: int) -> None:
    """A cold START (a fresh cache), then a warm one, ``rounds`` times."""
    print(f"{'pbrain-yipan':<12} {'cold START':>11} {'(CPU)':>6} {'warm START':>11} {'(CPU)':>6}"
          "  same first move")
    for _ in range(rounds):
        with tempfile.TemporaryDirectory(prefix="yipan-cold-") as cache:
            cold, cold_cpu, cold_move = brain_start(cache)
            warm, warm_cpu, warm_move = brain_start(cache)
        print(f"{'START to OK':<12} {cold:10.1f}s {cold_cpu or 0:6.1f} {warm:10.1f}s "
              f"{warm_cpu or 0:6.1f}  {same(cold_move, warm_move)}")
    print("(CPU): the brain's CPU seconds from its start to its OK (its imports too)")


def same(cold: str, warm: str) -> str:
    return "yes" if cold == warm else f"NO: {cold} / {warm}"


if __name__ == "__main__":
    raise SystemExit(main())
