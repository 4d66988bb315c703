"""Xiangqi benchmark: perft speed, search speed, and a ladder against Fairy-Stockfish over UCI.

    PYTHONPATH=src python benchmarks/xiangqi.py                        # everything
    PYTHONPATH=src python benchmarks/xiangqi.py --only perft,search    # parts by name
    PYTHONPATH=src python benchmarks/xiangqi.py --ladder-games 20 --move-time 0.1

Prints:
1. perft: leaves a second of the numba counter (bulk counting at the last ply) from the start
   to depth 5 (the published 133,312,995), CPU time, and the same count over the Game
   protocol in Python at depth 4, as a ratio;
2. search: nodes a second of the engine under a fixed node budget on a few positions (the
   start and common openings), CPU time;
3. self-play: the engine with its evaluation's weights against itself with a term left out or
   doubled (mobility; king safety), at a fixed node budget a move: how the weights were set;
4. a ladder against Fairy-Stockfish (``$FAIRY_STOCKFISH``, or ``fairy-stockfish`` on PATH or
   in /usr/games: Debian's package), ``UCI_Variant xiangqi`` and its ``Skill Level``: both
   engines driven over UCI as a GUI drives them (yipan as ``yipan uci --variant xiangqi``),
   each opening played twice with the colours swapped (followed, with
   ``--ladder-random-plies K``, by up to K random moves that take nothing, drawn from
   ``--ladder-seed``: another seed, another set of openings, so that runs of a rung are
   independent; 0, the default, plays the 10 openings as they are), at a fixed time a
   move; the games are
   refereed by yipan's rules (repetition, perpetual check), cut at ``MAX_GAME_PLIES`` as a
   draw, and adjudicated when both engines agree for ``ADJUDICATE_PLIES`` plies that one
   side is ``ADJUDICATE_CP`` ahead. It reports each rung's score and the highest rung held
   at 50% or more.

Fairy-Stockfish is used when present and reported absent otherwise; nothing is installed.
The machine's cores are shared with other work: figures are noisy; compare ratios within
one run.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from quiet_openings import random_quiet_moves  # noqa: E402 - beside this script
from yipan.core import Limit  # noqa: E402
from yipan.games.xiangqi import Xiangqi  # noqa: E402
from yipan.games.xiangqi.engine import Engine  # noqa: E402
from yipan.games.xiangqi.evaluation import DEFAULT_WEIGHTS, WEIGHT_NAMES  # noqa: E402
from yipan.games.xiangqi.hooks import perft, prepare  # noqa: E402
from yipan.prepare import prepare_counter  # noqa: E402
from yipan.search.perft import perft as generic_perft  # noqa: E402

PUBLISHED = {1: 44, 2: 1_920, 3: 79_666, 4: 3_290_240, 5: 133_312_995}
OPENINGS = [  # common openings, ICCS moves (both colours play each)
    "h2e2 h9g7", "h2e2 b9c7 h0g2 h7e7", "b2e2 h9g7 b0c2 i9h9", "c3c4 g6g5",
    "h0g2 g6g5", "g3g4 c6c5", "c0e2 h7e7", "h2e2 h7e7",
    "b0c2 b9c7", "h2d2 h9g7",
]
SEARCH_OPENINGS = ["", "h2e2 h9g7 h0g2 i9h9", "c3c4 g6g5 b0c2 b9c7 b2b6"]
LADDER = (0, 2, 4, 6, 8, 10, 12, 15, 20)  # Fairy-Stockfish's Skill Level
MAX_GAME_PLIES = 240
ADJUDICATE_CP = 800
ADJUDICATE_PLIES = 6
MATE_CP = 30_000


def section(title: str) -> None:
    print(f"\n== {title}", flush=True)


# -- 1. perft -----------------------------------------------------------------------------------
def bench_perft(depth: int) -> None:
    section("perft from the start (numba counter, bulk counting at the last ply)")
    game = Xiangqi()
    state = game.initial_state()
    for d in range(1, depth + 1):
        start = time.process_time()
        leaves = sum(perft(game, state, d).values())
        seconds = time.process_time() - start
        verdict = "ok" if leaves == PUBLISHED.get(d) else f"WRONG (published {PUBLISHED.get(d)})"
        rate = f"{leaves / seconds:,.0f} leaves/s" if seconds > 0.01 else ""
        print(f"  depth {d}: {leaves:,} leaves {verdict}  {seconds:.3f} s  {rate}")
    start = time.process_time()
    fast = sum(perft(game, state, 4).values())
    fast_seconds = time.process_time() - start
    start = time.process_time()
    slow = generic_perft(game, state, 4)
    slow_seconds = time.process_time() - start
    print(f"  depth 4 over the Game protocol (Python): {slow:,} leaves in {slow_seconds:.2f} s "
          f"({slow / slow_seconds:,.0f} leaves/s); the kernel is "
          f"{slow_seconds / max(fast_seconds, 1e-9):,.0f} times faster (counts "
          f"{'equal' if slow == fast else 'DIFFER'})")


# -- 2. search -----------------------------------------------------------------------------------
def bench_search(nodes: int) -> None:
    section(f"search ({nodes:,} nodes a position, CPU time)")
    engine = Engine(64)
    total_nodes, total_seconds = 0, 0.0
    for line in SEARCH_OPENINGS:
        game = Xiangqi()
        state = game.initial_state()
        for text in line.split():
            state = game.play(state, game.parse_move(state, text))
        engine.clear()
        start = time.process_time()
        found = engine.think(state, Limit(nodes=nodes))
        seconds = time.process_time() - start
        assert found is not None
        searched = int(engine.ctx.control[0])
        total_nodes += searched
        total_seconds += seconds
        best = game.line(state, found.pv[:1])[0]
        print(f"  {line or 'start':32} depth {found.depth:2}  {searched:,} nodes  "
              f"{seconds:.2f} s  {searched / seconds:,.0f} nodes/s  best {best}")
    print(f"  overall: {total_nodes / total_seconds:,.0f} nodes/s")


# -- 3. self-play: the evaluation's weights ----------------------------------------------------
SELFPLAY_VARIANTS = {  # name: (weight indices, factor)
    "no mobility": ((0, 1), 0.0), "double mobility": ((0, 1), 2.0),
    "no king safety": ((2, 3), 0.0), "double king safety": ((2, 3), 2.0),
    "no missing-defender term": ((2,), 0.0), "no loaded-cannon term": ((3,), 0.0),
    "no tempo": ((4,), 0.0), "triple missing-defender term": ((2,), 3.0),
}


class Adjudicator:
    """Ends a game once the engines' scores (red's view, one a ply) have put one side
    ``ADJUDICATE_CP`` ahead for ``ADJUDICATE_PLIES`` plies in a row."""

    def __init__(self) -> None:
        self.agree = 0  # plies in a row with one side far ahead
        self.red_ahead = True  # which side

    def see(self, red_score: int) -> float | None:
        """Red's points if the game is decided now, else None."""
        red_ahead = red_score > 0
        if abs(red_score) >= ADJUDICATE_CP:
            self.agree = self.agree + 1 if self.agree and red_ahead == self.red_ahead else 1
            self.red_ahead = red_ahead
        else:
            self.agree = 0
        if self.agree >= ADJUDICATE_PLIES:
            return 1.0 if self.red_ahead else 0.0
        return None


def selfplay_game(red: Engine, black: Engine, opening: str, nodes: int) -> float:
    """Red's points in one game between two engines at a fixed node budget a move."""
    game = Xiangqi()
    state = game.initial_state()
    for text in opening.split():
        state = game.play(state, game.parse_move(state, text))
    red.clear()
    black.clear()
    adjudicator = Adjudicator()
    for _ in range(MAX_GAME_PLIES):
        outcome = game.outcome(state)
        if outcome is not None:
            return 0.5 if outcome.winner is None else 1.0 if outcome.winner == 0 else 0.0
        found = (red if state.turn == 0 else black).think(state, Limit(nodes=nodes))
        assert found is not None
        verdict = adjudicator.see(found.score if state.turn == 0 else -found.score)
        if verdict is not None:
            return verdict
        state = game.play(state, found.move)
    return 0.5


def bench_selfplay(games: int, nodes: int, names: list[str]) -> None:
    section(f"self-play: the default weights against variants ({nodes:,} nodes a move, "
            f"{games} games each, openings played with both colours)")
    print("  default: " + ", ".join(f"{name} {weight}" for name, weight
                                    in zip(WEIGHT_NAMES, DEFAULT_WEIGHTS, strict=True)))
    ours = Engine(16)
    for name in names:
        indices, factor = SELFPLAY_VARIANTS[name]
        weights = DEFAULT_WEIGHTS.copy()
        for index in indices:
            weights[index] = int(round(weights[index] * factor))
        theirs = Engine(16, weights=np.asarray(weights))
        points = 0.0
        start = time.process_time()
        for number in range(games):
            opening = OPENINGS[(number // 2) % len(OPENINGS)]
            if number % 2 == 0:
                points += selfplay_game(ours, theirs, opening, nodes)
            else:
                points += 1.0 - selfplay_game(theirs, ours, opening, nodes)
        print(f"  default vs {name}: {points:g}/{games} ({points / games:.0%})  "
              f"{time.process_time() - start:.0f} CPU s", flush=True)


# -- 4. the ladder ---------------------------------------------------------------------------
class UciClient:
    """A GUI's side of one UCI engine: options, then position and go a move at a time."""

    def __init__(self, command: list[str], options: dict[str, object]) -> None:
        env = {**os.environ,
               "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, env=env)
        self.send("uci")
        self.until("uciok")
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.until("readyok")

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, word: str) -> list[str]:
        assert self.process.stdout is not None
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine ended before {word}")
            lines.append(line.strip())
            if line.split()[:1] == [word]:
                return lines

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.send("isready")
        self.until("readyok")

    def best(self, moves: list[str], move_time: float) -> tuple[str, int | None]:
        """The engine's move and its last score (centipawns for the side to move)."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go movetime {int(move_time * 1000)}")
        lines = self.until("bestmove")
        score = None
        for line in lines:
            words = line.split()
            if "score" in words:
                at = words.index("score")
                kind, value = words[at + 1], int(words[at + 2])
                score = value if kind == "cp" else (MATE_CP if value > 0 else -MATE_CP)
        return lines[-1].split()[1], score

    def quit(self) -> None:
        try:
            self.send("quit")
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


def fairy(text: str) -> str:
    """An ICCS move (ranks 0-9) as UCI xiangqi writes it (ranks 1-10)."""
    return f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}"


def iccs(text: str) -> str:
    for split in (2, 3):
        if text[split].isalpha():
            return f"{text[0]}{int(text[1:split]) - 1}{text[split]}{int(text[split + 1:]) - 1}"
    raise ValueError(text)


def play_game(red: UciClient, black: UciClient, opening: str, move_time: float) -> float:
    """Red's points (1, 0.5, 0)."""
    game = Xiangqi()
    state = game.initial_state()
    moves = []
    for text in opening.split():
        state = game.play_checked(state, game.parse_move(state, text))
        moves.append(fairy(text))
    red.new_game()
    black.new_game()
    adjudicator = Adjudicator()
    while len(moves) < MAX_GAME_PLIES:
        outcome = game.outcome(state)
        if outcome is not None:
            return 0.5 if outcome.winner is None else 1.0 if outcome.winner == 0 else 0.0
        engine = red if state.turn == 0 else black
        text, score = engine.best(moves, move_time)
        move = game.parse_move(state, iccs(text))
        if move not in game.legal_moves(state):
            print(f"    illegal move {text} from {'red' if state.turn == 0 else 'black'}")
            return 0.0 if state.turn == 0 else 1.0
        if score is not None:
            verdict = adjudicator.see(score if state.turn == 0 else -score)
            if verdict is not None:
                return verdict
        state = game.play(state, move)
        moves.append(text)
    return 0.5


def ladder_openings(pairs: int, random_plies: int, rng: random.Random) -> list[str]:
    """An opening for each pair of games: the common ones in turn, each followed by up to
    ``random_plies`` random moves that take nothing (so neither side starts a piece down)."""
    game = Xiangqi()
    openings = []
    for pair in range(pairs):
        text = OPENINGS[pair % len(OPENINGS)]
        state = game.initial_state()
        for word in text.split():
            state = game.play(state, game.parse_move(state, word))
        words = text.split() + [game.format_move(move) for move in
                                 random_quiet_moves(game, state, random_plies, rng)]
        openings.append(" ".join(words))
    return openings


def match(ours: UciClient, theirs: UciClient, games: int, move_time: float,
          label: str, openings: list[str]) -> float:
    points = 0.0
    wins = draws = losses = 0
    start = time.perf_counter()
    for number in range(games):
        opening = openings[number // 2]
        if number % 2 == 0:
            result = play_game(ours, theirs, opening, move_time)
        else:
            result = 1.0 - play_game(theirs, ours, opening, move_time)
        points += result
        wins += result == 1.0
        draws += result == 0.5
        losses += result == 0.0
    share = points / games
    print(f"  {label}: +{wins} ={draws} -{losses}  score {share:.0%}  "
          f"({time.perf_counter() - start:.0f} s)", flush=True)
    return share


def fairy_stockfish() -> str | None:
    return (os.environ.get("FAIRY_STOCKFISH") or shutil.which("fairy-stockfish")
            or shutil.which("fairy-stockfish", path="/usr/games"))


def bench_ladder(games: int, move_time: float, rungs: tuple[int, ...],
                 eval_file: str, random_plies: int = 0, seed: int = 0) -> None:
    section(f"ladder against Fairy-Stockfish's Skill Level (UCI_Variant xiangqi, {move_time} s "
            f"a move, {games} games a rung; yipan's EvalFile {eval_file})")
    path = fairy_stockfish()
    if not path:
        print("  fairy-stockfish not found (apt-get install fairy-stockfish, or set "
              "FAIRY_STOCKFISH); skipped")
        return
    openings = ladder_openings((games + 1) // 2, random_plies, random.Random(seed))
    if random_plies:
        print(f"  openings: the common ones and up to {random_plies} random quiet moves "
              f"(seed {seed})")
    ours = UciClient([sys.executable, "-m", "yipan", "uci", "--variant", "xiangqi"],
                     {"Hash": 64, "EvalFile": eval_file})
    held = None
    try:
        for level in rungs:
            theirs = UciClient([path], {"UCI_Variant": "xiangqi", "Skill Level": level,
                                        "Threads": 1, "Hash": 16})
            try:
                score = match(ours, theirs, games, move_time,
                              f"yipan vs Fairy-Stockfish Skill Level {level}", openings)
            finally:
                theirs.quit()
            if score < 0.5:
                break
            held = level
    finally:
        ours.quit()
    print(f"  highest Skill Level held at 50% or more: {held if held is not None else 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="perft,search,selfplay,ladder",
                        help="comma-separated parts to run")
    parser.add_argument("--perft-depth", type=int, default=5)
    parser.add_argument("--search-nodes", type=int, default=2_000_000)
    parser.add_argument("--selfplay-games", type=int, default=20)
    parser.add_argument("--selfplay-nodes", type=int, default=20_000)
    parser.add_argument("--variants", default=",".join(SELFPLAY_VARIANTS),
                        help="self-play variants, comma-separated: " + ", ".join(SELFPLAY_VARIANTS))
    parser.add_argument("--ladder-games", type=int, default=20)
    parser.add_argument("--move-time", type=float, default=0.1)
    parser.add_argument("--rungs", default=",".join(map(str, LADDER)),
                        help="Skill Levels to climb, comma-separated")
    parser.add_argument("--ladder-random-plies", type=int, default=0,
                        help="random quiet moves after each ladder opening (default 0)")
    parser.add_argument("--ladder-seed", type=int, default=0,
                        help="the seed of those moves")
    parser.add_argument("--eval-file", default="builtin",
                        help="yipan's evaluation: builtin (the shipped network, its default), "
                             "hand (the hand-set one) or a network file")
    args = parser.parse_args()
    if args.ladder_random_plies < 0:
        parser.error("--ladder-random-plies must be 0 or more")
    parts = set(args.only.split(","))
    start = time.perf_counter()
    prepare()
    if "perft" in parts:
        prepare_counter(Xiangqi())  # (the perft counter: not part of a game's preparation)
    print(f"kernels ready in {time.perf_counter() - start:.1f} s")
    if "perft" in parts:
        bench_perft(args.perft_depth)
    if "search" in parts:
        bench_search(args.search_nodes)
    if "selfplay" in parts:
        bench_selfplay(args.selfplay_games, args.selfplay_nodes, args.variants.split(","))
    if "ladder" in parts:
        bench_ladder(args.ladder_games, args.move_time,
                     tuple(int(r) for r in args.rungs.split(",")), args.eval_file,
                     args.ladder_random_plies, args.ladder_seed)


if __name__ == "__main__":
    main()
