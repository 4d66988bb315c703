"""yipan's UCI engine under a GUI's clock: clock games played as a GUI plays them, and what
the ``position`` line costs.

    PYTHONPATH=src python benchmarks/uci_clock.py [--games 4] [--base 10] [--inc 0.1]
        [--overhead 100] [--opponent self|stockfish] [--stockfish-elo 2200]
        [--stockfish PATH] [--src DIR] [--eval-file NETWORK] [--first-game N]
        [--replay-only | --games-only]

Clock games: the ``uci-yipan`` program (``python -m yipan.protocols.uci`` from ``--src``,
this tree's src by default) is driven by python-chess's engine client, as a GUI drives it,
with ``Move Overhead`` set to ``--overhead`` ms (and ``EvalFile`` to ``--eval-file``: a network,
or ``hand``, the hand-set evaluation; the engine's default is the network the package ships)
and a ``--base`` + ``--inc`` seconds clock
for each side (``chess.engine.Limit(white_clock=..., black_clock=..., white_inc=...,
black_inc=...)``). Each move's time is measured on the GUI's side, from sending
``position``/``go`` to reading ``bestmove``, and taken off the mover's clock; a clock that
falls below zero loses the game on time. The opponent is a second yipan process or
Stockfish held to ``UCI_Elo`` (with the same ``Move Overhead``); games start from a few
balanced openings, yipan taking white and black in turn, and end by python-chess's rules
or, after ``MAX_PLIES``, as a draw. ``--first-game N`` numbers the games from N (its opening
and colours as in one long run): two runs side by side, each on one core, play one run's
games in half the time. yipan runs in ``debug on`` mode, so each of its answers
says how long it took by its own measure and its hard limit. Printed per game: the result,
its length, yipan's least clock left after a move (before the increment), its longest move,
the most time the GUI saw beyond the engine's own measure (pipes, scheduling: what Move
Overhead is for), the most time the engine ran past its own hard limit (a search stopped
late: the watcher thread woken late on a loaded machine), and any loss on time.

Replay cost: the CPU time of a ``position startpos moves ...`` line of 50, 150 and 300
plies, set up from the start (what every line cost when the whole line was replayed) and
as the extension of the line before it by two plies (what a GUI's next move costs now),
for chess and xiangqi, interleaved, the median of several runs each.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
# this folder holds a chess.py: it must not hide the python-chess package
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]

import chess  # noqa: E402
import chess.engine  # noqa: E402

SRC = HERE.parent / "src"
MAX_PLIES = 400
REPLAY_PLIES = (50, 150, 300)
REPLAY_RUNS = 15
OPENINGS = (  # balanced main lines, a few plies each
    "e2e4 e7e5 g1f3 b8c6",
    "d2d4 d7d5 c2c4 e7e6",
    "e2e4 c7c5 g1f3 d7d6",
    "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e6 d2d4 d7d5",
    "c2c4 e7e5 b1c3 g8f6",
)


# -- replay cost ----------------------------------------------------------------------------------
def random_line(engine: object, plies: int, rng: random.Random) -> list[str]:
    """A line of ``plies`` random legal moves of the engine's game that does not end it
    (games that end early are started again)."""
    variant, game = engine.variant, engine.game  # type: ignore[attr-defined]
    while True:
        state, line = game.initial_state(), []
        while len(line) < plies:
            moves = variant.moves(state)
            if not moves or game.outcome(state) is not None:
                break
            move = rng.choice(moves)
            line.append(variant.move_text(move))
            state = game.play(state, move)
        if len(line) == plies:
            return line


def cpu_time(action: Callable[[str], object], line: str) -> float:
    start = time.process_time()
    action(line)
    return time.process_time() - start


def replay_costs(seed: int) -> None:
    sys.path.insert(0, str(SRC))
    from yipan.protocols.uci import UciEngine

    print("position line cost (CPU ms, median of "
          f"{REPLAY_RUNS}): whole line from the start / two plies more than the last line")
    for variant in ("chess", "xiangqi"):
        engine = UciEngine(lambda _line: None, variant=variant)
        engine.ready.wait()
        line = random_line(engine, max(REPLAY_PLIES), random.Random(seed))
        for plies in REPLAY_PLIES:
            command = "position startpos moves " + " ".join(line[:plies])
            before = "position startpos moves " + " ".join(line[:plies - 2])
            whole, extended = [], []
            for _ in range(REPLAY_RUNS):
                engine.line = None
                whole.append(cpu_time(engine.handle, command))
                assert engine.replayed == plies
                engine.handle(before)
                extended.append(cpu_time(engine.handle, command))
                assert engine.replayed == 2
            full, step = statistics.median(whole), statistics.median(extended)
            print(f"  {variant:8s} {plies:3d} plies: whole {full * 1000:6.2f} ms, "
                  f"extended {step * 1000:5.3f} ms ({full / max(step, 1e-9):.0f}x)")
        engine.close()


# -- clock games ----------------------------------------------------------------------------------
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}  # (white's, black's)


def yipan_engine(src: Path, overhead: int, eval_file: str = "") -> chess.engine.SimpleEngine:
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    engine = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "yipan.protocols.uci"],
                                                 timeout=120, env=env)
    engine.configure({"Move Overhead": overhead, **({"EvalFile": eval_file} if eval_file else {})})
    # debug mode: each answer says the time it took by the engine's own measure
    engine.protocol.loop.call_soon_threadsafe(engine.protocol.send_line, "debug on")
    engine.ping()  # isready: the kernels loaded before the first game, as a GUI waits
    return engine


CLOCK_LINE = re.compile(r"clock: ([\d.]+) ms used, limit (?:([\d.]+) ms|none), ([\d.]+) ms")


def engine_time(info: dict[str, object]) -> tuple[float, float, float] | None:
    """(used, hard limit, allowed) seconds of a move, as yipan's debug line gave them."""
    found = CLOCK_LINE.match(str(info.get("string", "")))
    if found is None:
        return None
    used, limit, allowed = (float(found[index] or "inf") / 1000 for index in (1, 2, 3))
    return used, limit, allowed


@dataclass
class Played:
    """One clock game, as the GUI saw it (times in seconds; yipan's moves only)."""

    result: str = "*"
    ending: str = ""
    plies: int = 0
    least: float = float("inf")  # the least clock left after a move, before the increment
    least_ply: int = 0
    longest: float = 0.0  # the longest move
    lag: float = 0.0  # the most GUI time beyond the engine's own measure of a move (but
    # the game's first: ``ucinewgame`` clears the table before it, on a full clock)
    moves: int = 0  # yipan's moves
    over: float = 0.0  # the most time the engine took past its own hard limit
    yipan_flagged: bool = False

    def line(self) -> str:
        return (f"{self.result} {self.ending}, {self.plies} plies; yipan's least clock left "
                f"{self.least * 1000:.0f} ms (ply {self.least_ply}), longest move "
                f"{self.longest * 1000:.0f} ms; most GUI time beyond the engine's own measure "
                f"{self.lag * 1000:.0f} ms; most engine time past its hard limit "
                f"{self.over * 1000:.1f} ms")


def play_game(engines: tuple[chess.engine.SimpleEngine, chess.engine.SimpleEngine],
              yipan_sides: set[bool], opening: str, base: float, increment: float,
              tag: object) -> Played:
    """One clock game (``engines``: white's, black's); yipan plays ``yipan_sides``."""
    board = chess.Board()
    for text in opening.split():
        board.push_uci(text)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    played = Played()
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        side = board.turn
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE],
                                   black_clock=clocks[chess.BLACK],
                                   white_inc=increment, black_inc=increment)
        engine = engines[0] if side == chess.WHITE else engines[1]
        start = time.perf_counter()
        answer = engine.play(board, limit, game=tag, info=chess.engine.INFO_BASIC)
        elapsed = time.perf_counter() - start
        clocks[side] -= elapsed
        if side in yipan_sides:
            played.longest = max(played.longest, elapsed)
            measured = engine_time(dict(answer.info))
            if measured is not None:
                used, hard, allowed = measured
                if played.moves >= len(yipan_sides):
                    played.lag = max(played.lag, elapsed - used)
                played.over = max(played.over, used - min(hard, allowed))
            played.moves += 1
            if clocks[side] < played.least:
                played.least, played.least_ply = clocks[side], board.ply()
        loser = "0-1" if side == chess.WHITE else "1-0"
        if clocks[side] < 0:
            who = "yipan" if side in yipan_sides else "the opponent"
            played.result, played.yipan_flagged = loser, side in yipan_sides
            played.ending = f"{who} lost on time by {-clocks[side] * 1000:.0f} ms"
            break
        clocks[side] += increment
        if answer.move is None or answer.move not in board.legal_moves:
            played.result, played.ending = loser, "no legal move"
            break
        board.push(answer.move)
    else:
        outcome = board.outcome(claim_draw=True)
        played.result = "1/2-1/2" if outcome is None else outcome.result()
        played.ending = "adjudicated" if outcome is None else outcome.termination.name.lower()
    played.plies = board.ply()
    return played


def clock_games(args: argparse.Namespace) -> None:
    src = Path(args.src).resolve()
    print(f"clock games: {args.base:g} s + {args.inc:g} s, Move Overhead {args.overhead} ms, "
          f"yipan from {src}" + (f" with EvalFile {args.eval_file}" if args.eval_file else "")
          + f", against {args.opponent}"
          + (f" (UCI_Elo {args.stockfish_elo})" if args.opponent == "stockfish" else ""))
    yipan = yipan_engine(src, args.overhead, args.eval_file)
    if args.opponent == "stockfish":
        opponent = chess.engine.SimpleEngine.popen_uci(args.stockfish)
        opponent.configure({"UCI_LimitStrength": True, "UCI_Elo": args.stockfish_elo,
                            "Move Overhead": args.overhead})
    else:
        opponent = yipan_engine(src, args.overhead, args.eval_file)
    games: list[Played] = []
    points: list[float] = []  # yipan's, against Stockfish
    try:
        for number in range(args.first_game, args.first_game + args.games):
            opening = OPENINGS[(number // 2) % len(OPENINGS)]
            yipan_white = number % 2 == 0
            engines = (yipan, opponent) if yipan_white else (opponent, yipan)
            sides = {chess.WHITE, chess.BLACK} if args.opponent == "self" else \
                {chess.WHITE if yipan_white else chess.BLACK}
            games.append(play_game(engines, sides, opening, args.base, args.inc, object()))
            if args.opponent == "stockfish":
                points.append(POINTS[games[-1].result][0 if yipan_white else 1])
            colour = "white" if yipan_white else "black"
            print(f"  game {number + 1} (yipan {colour}, {opening}): {games[-1].line()}",
                  flush=True)
    finally:
        yipan.quit()
        opponent.quit()
    if games:
        print(f"games {len(games)}, plies {sum(game.plies for game in games)}, yipan's "
              f"least clock left {min(game.least for game in games) * 1000:.0f} ms, most "
              f"engine time past its hard limit {max(game.over for game in games) * 1000:.1f}"
              f" ms, most GUI time beyond the engine's {max(game.lag for game in games) * 1000:.0f}"
              f" ms, losses on time {sum(game.yipan_flagged for game in games)}")
    if points:
        mean = statistics.fmean(points)
        error = statistics.stdev(points) / len(points) ** 0.5 if len(points) > 1 else 0.0
        print(f"yipan against Stockfish at UCI_Elo {args.stockfish_elo}: W-D-L "
              f"{points.count(1.0)}-{points.count(0.5)}-{points.count(0.0)}, score {mean:.3f} "
              f"± {error:.3f} over {len(points)} games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--first-game", type=int, default=0,
                        help="the number of the first game (its opening and colours)")
    parser.add_argument("--base", type=float, default=10.0, help="seconds on each clock")
    parser.add_argument("--inc", type=float, default=0.1, help="seconds added a move")
    parser.add_argument("--overhead", type=int, default=100, help="Move Overhead (ms)")
    parser.add_argument("--opponent", choices=("self", "stockfish"), default="self")
    parser.add_argument("--stockfish", default=shutil.which("stockfish")
                        or "/usr/games/stockfish")
    parser.add_argument("--stockfish-elo", type=int, default=2200)
    parser.add_argument("--src", default=str(SRC), help="the yipan source tree to run")
    parser.add_argument("--eval-file", default="",
                        help="yipan's EvalFile: a network, or hand (default: the engine's, "
                        "the shipped network)")
    parser.add_argument("--seed", type=int, default=1, help="of the replayed lines")
    parser.add_argument("--replay-only", action="store_true")
    parser.add_argument("--games-only", action="store_true")
    args = parser.parse_args()
    if not args.games_only:
        replay_costs(args.seed)
    if not args.replay_only:
        clock_games(args)


if __name__ == "__main__":
    main()
