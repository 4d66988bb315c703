"""Two checkouts of yipan playing each other at a fixed node budget: what the self-play
benchmarks (``family_selfplay.py``, ``gomoku_selfplay.py``) share.

Each checkout's engine runs in a child process of its own (``Child``: the benchmark script
again, with ``--worker``, ``PYTHONPATH`` set to that checkout's ``src``; two copies of one
package cannot share a process), answering one JSON line per request. ``play_pairs`` plays
each opening twice with the colours swapped and prints a line a pair; ``report`` prints
W-D-L, the score with its standard error over the pairs (so an opening's own bias cancels),
the Elo difference with its ~95% interval, and each engine's nodes per processor second.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class Child:
    """An engine worker on ``src``: ``script --worker *arguments`` with ``environment``."""

    def __init__(self, script: str, src: str, arguments: Sequence[str] = (),
                 environment: dict[str, str] | None = None) -> None:
        env = dict(os.environ, PYTHONPATH=src, **(environment or {}))
        self.process = subprocess.Popen(
            [sys.executable, str(Path(script).resolve()), "--worker", *arguments], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.nodes = 0
        self.seconds = 0.0

    def ask(self, request: dict) -> dict:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "nodes" in answer:
            self.nodes += answer["nodes"]
            self.seconds += answer["seconds"]
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


@dataclass
class Tally:
    """The new checkout's results: counts, and each pair's score (0, 0.25, ..., 1)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pair_scores: list[float] = field(default_factory=list)


def play_pairs(openings: Sequence[Any], new: Child, old: Child,
               play: Callable[[Child, Child, Any], tuple[int | None, int]],
               label: Callable[[Any], str] = lambda _opening: "") -> Tally:
    """Each opening with the new checkout first (colour 0), then second; ``play(first,
    second, opening)`` gives the winner's colour (None: a draw) and the game's length."""
    tally = Tally()
    start = time.perf_counter()
    for index, opening in enumerate(openings):
        pair = 0.0
        results = []
        for new_colour in (0, 1):
            first, second = (new, old) if new_colour == 0 else (old, new)
            winner, length = play(first, second, opening)
            if winner is None:
                tally.draws += 1
                pair += 0.5
                results.append(f"={length}")
            elif winner == new_colour:
                tally.wins += 1
                pair += 1
                results.append(f"+{length}")
            else:
                tally.losses += 1
                results.append(f"-{length}")
        tally.pair_scores.append(pair / 2)
        print(f"  {index + 1:3d}{label(opening)}: {' '.join(results)}  "
              f"({tally.wins}-{tally.draws}-{tally.losses}, "
              f"{time.perf_counter() - start:.0f} s)", flush=True)
    return tally


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def report(title: str, tally: Tally, new: Child, old: Child) -> None:
    scores = tally.pair_scores
    n = len(scores)
    score = sum(scores) / n
    error = math.sqrt(sum((s - score) ** 2 for s in scores) / (n - 1) / n) if n > 1 else 0.0
    print(f"{title}, {2 * n} games: W-D-L {tally.wins}-{tally.draws}-{tally.losses}, score "
          f"{100 * score:.1f}% +- {100 * error:.1f}% (one standard error, over the {n} "
          f"pairs), Elo {elo(score):+.0f} [{elo(score - 1.96 * error):+.0f}, "
          f"{elo(score + 1.96 * error):+.0f}] (95%)")
    for name, child in (("new", new), ("baseline", old)):
        speed = child.nodes / child.seconds if child.seconds else 0.0
        print(f"  {name}: {child.nodes} nodes in {child.seconds:.1f} processor s of "
              f"thinking: {speed:,.0f} nodes/s")
