"""Go engine benchmark: playouts per second, and matches over GTP against GNU Go and Pachi.

    PYTHONPATH=src python benchmarks/go.py --speed-only            # playout figures only
    PYTHONPATH=src python benchmarks/go.py --games 40 --time 5     # the match of the issue
    PYTHONPATH=src python benchmarks/go.py --games 4 --time 1 --no-pachi
    PYTHONPATH=src python benchmarks/go.py --no-speed --games 40 --time 5 --ray  # on Ray

Prints:
1. 9x9 playouts per second from the empty board, in CPU time (``time.process_time``): light
   (uniformly random moves that fill no own eye) and heavy (the engine's policy: ataris,
   3x3 patterns, self-atari refused), interleaved in rounds so that a busy machine slows both
   alike; and the engine's search (tree, RAVE and heavy playouts) in playouts per second;
2. matches played by a referee speaking GTP to two engines through pipes, as gogui-twogtp
   does: yipan (``gtp-yipan``, run as ``python -m yipan gtp``) against GNU Go at level 10
   (``gnugo --mode gtp --level 10 --chinese-rules``) and, when installed, Pachi at the same
   time a move (``pachi -t =N``... given as seconds by ``time_settings``). Colours alternate;
   komi 7.5; area scoring. A game ends by resignation or two passes; it is scored by GNU Go's
   ``final_score`` (a referee instance that replays the game) and by yipan's, and the two
   are compared.

The games of a match are units of work (``play_one``: the opponent's command, the colours,
the time, the size in; the game's record out; each game starts its own engines) run through
``yipan.cluster.run_match``: one after another by default, on ``--workers`` local processes,
or on a Ray cluster with ``--ray [ADDRESS]`` (the engines' paths must then exist on every
machine). ``--budget`` holds across them: a game not begun by then is not played.

External engines come from PATH, or from ``$GNUGO`` / ``$PACHI``; when one is missing the
script says so and skips its match. It installs nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from yipan.cluster import add_cluster_arguments, make_runner, run_match  # noqa: E402
from yipan.games.go import board as kernel  # noqa: E402
from yipan.games.go.engine import PATTERNS, Engine, warm_up  # noqa: E402
from yipan.games.go.playout import heavy_playouts, light_playouts  # noqa: E402
from yipan.games.go.rules import Go  # noqa: E402

MAX_GAME_MOVES = 400


# -- 1. speed ---------------------------------------------------------------------------------
def playout_speed(rounds: int, per_round: int) -> None:
    warm_up()
    board = kernel.new_board(9)
    seed = np.uint64(12345)
    light = heavy = 0.0
    light_moves = heavy_moves = 0
    for _ in range(rounds):
        start = time.process_time()
        _, moves, seed = light_playouts(board, 7.5, per_round, 400, np.uint64(seed))
        light += time.process_time() - start
        light_moves += moves
        start = time.process_time()
        _, moves, seed = heavy_playouts(board, 7.5, PATTERNS, per_round // 3, 400,
                                        np.uint64(seed))
        heavy += time.process_time() - start
        heavy_moves += moves
    n_light, n_heavy = rounds * per_round, rounds * (per_round // 3)
    print(f"9x9 light playouts: {n_light / light:,.0f}/s "
          f"({light_moves / n_light:.0f} moves each, {light_moves / light:,.0f} moves/s)")
    print(f"9x9 heavy playouts: {n_heavy / heavy:,.0f}/s "
          f"({heavy_moves / n_heavy:.0f} moves each, {heavy_moves / heavy:,.0f} moves/s)")
    print(f"light / heavy: {(n_light / light) / (n_heavy / heavy):.2f}x")
    game = Go(9)
    engine = Engine(game)
    start = time.process_time()
    decision = engine.think(game.initial_state(), playouts=30000)
    seconds = time.process_time() - start
    print(f"9x9 search from the empty board: {decision.playouts / seconds:,.0f} playouts/s "
          f"(30,000 playouts, tree of {decision.tree_size:,} nodes, first move "
          f"{game.format_move(decision.move)}, win rate {decision.win_rate:.2f})")


# -- 2. matches over GTP ------------------------------------------------------------------------
class GtpProcess:
    """An engine on the other end of two pipes."""

    def __init__(self, command: list[str], name: str) -> None:
        self.name = name
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, env=env)

    def send(self, command: str) -> str:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name} closed its pipe after {command!r}")
            if line.strip() == "" and lines:
                break
            if line.strip() or lines:
                lines.append(line.rstrip("\n"))
        answer = "\n".join(lines)
        if answer.startswith("?"):
            raise RuntimeError(f"{self.name} refused {command!r}: {answer}")
        return answer[1:].strip().split(" ", 1)[-1] if " " in answer else ""

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, BrokenPipeError, OSError):
            self.send("quit")
        self.process.kill()
        self.process.wait()


@dataclass
class GameResult:
    winner: str  # "yipan" or the opponent's name, or "" for a draw
    yipan_colour: str
    moves: int
    how: str  # "resign", "B+3.5 (gnugo) / B+3.5 (yipan)"
    agree: bool | None
    seconds_per_move: float


def play_game(yipan: GtpProcess, opponent: GtpProcess, referee: GtpProcess | None,
              scorer: GtpProcess, yipan_black: bool, size: int, komi: float) -> GameResult:
    players = {"b": yipan if yipan_black else opponent, "w": opponent if yipan_black else yipan}
    for engine in (yipan, opponent, scorer) + ((referee,) if referee else ()):
        engine.send(f"boardsize {size}")
        engine.send("clear_board")
        engine.send(f"komi {komi}")
    colour, passes, moves = "b", 0, 0
    yipan_time = 0.0
    yipan_moves = 0
    winner_colour = None
    how = ""
    while moves < MAX_GAME_MOVES:
        mover, other = players[colour], players["w" if colour == "b" else "b"]
        start = time.perf_counter()
        move = mover.send(f"genmove {colour}").lower()
        if mover is yipan:
            yipan_time += time.perf_counter() - start
            yipan_moves += 1
        if move == "resign":
            winner_colour = "w" if colour == "b" else "b"
            how = "resign"
            break
        other.send(f"play {colour} {move}")
        for extra in (scorer,) + ((referee,) if referee else ()):
            extra.send(f"play {colour} {move}")
        moves += 1
        passes = passes + 1 if move == "pass" else 0
        if passes >= 2:
            break
        colour = "w" if colour == "b" else "b"
    agree = None
    if winner_colour is None:
        judge = referee or opponent
        theirs = judge.send("final_score")
        ours = scorer.send("final_score")
        agree = theirs[:1] == ours[:1]
        how = f"{theirs} ({judge.name}) / {ours} (yipan)"
        winner_colour = theirs[:1].lower() if theirs[:1] in "BW" and theirs != "0" else None
    yipan_colour = "b" if yipan_black else "w"
    winner = "" if winner_colour is None else (
        "yipan" if winner_colour == yipan_colour else opponent.name)
    return GameResult(winner, yipan_colour, moves, how, agree,
                      yipan_time / max(1, yipan_moves))


def play_one(opponent_command: list[str], name: str, yipan_black: bool, seconds: float,
             size: int, komi: float, gnugo: str | None, deadline: float) -> GameResult | None:
    """One game, a unit of work: its engines started for it; None when it begins after
    ``deadline`` (``time.time()``: the match's budget is spent)."""
    if time.time() > deadline:
        return None
    yipan_command = [sys.executable, "-m", "yipan", "gtp", "--time", str(seconds)]
    yipan = GtpProcess(yipan_command, "yipan")
    scorer = GtpProcess(yipan_command, "yipan-scorer")
    opponent = GtpProcess(opponent_command, name)
    referee = GtpProcess([gnugo, "--mode", "gtp", "--chinese-rules"], "gnugo-referee") \
        if gnugo and name != "gnugo" else None
    try:
        return play_game(yipan, opponent, referee, scorer, yipan_black, size, komi)
    finally:
        for engine in (yipan, scorer, opponent) + ((referee,) if referee else ()):
            engine.close()


def match(opponent_command: list[str], name: str, games: int, seconds: float, size: int,
          komi: float, budget: float, gnugo: str | None, runner) -> None:
    deadline = time.time() + budget
    jobs = [(opponent_command, name, number % 2 == 0, seconds, size, komi, gnugo, deadline)
            for number in range(games)]

    def said(number: int, result: GameResult | None) -> None:
        if result is not None:
            print(f"  game {number + 1}: yipan "
                  f"{'black' if result.yipan_colour == 'b' else 'white'}, {result.moves} moves, "
                  f"winner {result.winner or 'none'} ({result.how}), yipan "
                  f"{result.seconds_per_move:.2f} s/move", flush=True)

    results = [r for r in run_match(play_one, jobs, runner=runner, on_game=said)
               if r is not None]
    played = len(results)
    if played < games:
        print(f"  (time budget of {budget:.0f} s used: {played} games played)")
    wins = sum(r.winner == "yipan" for r in results)
    draws = sum(r.winner == "" for r in results)
    judged = sum(r.agree is not None for r in results)
    agreements = sum(bool(r.agree) for r in results)
    if played:
        print(f"yipan against {name}: {wins}/{played} won ({wins / played:.0%}), {draws} drawn; "
              f"komi {komi}, {size}x{size}, yipan {seconds:g} s a move; scores agreed on the "
              f"winner in {agreements}/{judged} games counted out")


def find_engine(variable: str, program: str, name: str) -> str | None:
    """The engine's path from ``$VARIABLE``, PATH or /usr/games, if it answers GTP's ``name``
    with ``name`` (Debian's package ``pachi`` is a platform game of that name, not the Go
    engine)."""
    path = os.environ.get(variable) or shutil.which(program) \
        or shutil.which(program, path="/usr/games")
    if path is None:
        return None
    try:
        answer = subprocess.run([path, *PROBE_ARGUMENTS.get(program, [])], input="name\nquit\n",
                                capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        answer = ""
    if name.lower() not in answer.lower():
        print(f"{path} does not answer GTP as {name}: not used")
        return None
    return path


PROBE_ARGUMENTS = {"gnugo": ["--mode", "gtp"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games a match (at most)")
    parser.add_argument("--time", type=float, default=5.0, help="yipan's seconds a move")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--budget", type=float, default=3 * 3600,
                        help="seconds a match may take; it stops between games after that")
    parser.add_argument("--speed-only", action="store_true", help="no matches")
    parser.add_argument("--no-speed", action="store_true", help="no playout figures")
    parser.add_argument("--no-pachi", action="store_true", help="no match against Pachi")
    parser.add_argument("--no-gnugo", action="store_true", help="no match against GNU Go")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the speed test")
    add_cluster_arguments(parser)
    args = parser.parse_args()
    if not args.no_speed:
        playout_speed(args.rounds, 4000)
    if args.speed_only:
        return 0
    gnugo = find_engine("GNUGO", "gnugo", "GNU Go")
    pachi = find_engine("PACHI", "pachi", "Pachi")
    runner = make_runner(args.ray, args.workers)
    if args.no_gnugo:
        pass
    elif gnugo is None:
        print("GNU Go not found (PATH or $GNUGO): no match against it")
    else:
        print(f"match against GNU Go level 10 ({gnugo}), up to {args.games} games:")
        match([gnugo, "--mode", "gtp", "--level", "10", "--chinese-rules"], "gnugo",
              args.games, args.time, args.size, args.komi, args.budget, gnugo, runner)
    if args.no_pachi:
        pass
    elif pachi is None:
        print("Pachi not found (PATH or $PACHI): no match against it")
    else:
        print(f"match against Pachi ({pachi}) at {args.time:g} s a move, up to {args.games} games:")
        match([pachi, "-t", f"={int(args.time * 1000)}:{int(args.time * 1000)}",
               "--nodcnn", "threads=1"],
              "pachi", args.games, args.time, args.size, args.komi, args.budget, gnugo, runner)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
