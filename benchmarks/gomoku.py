"""Gomoku engine benchmark: search speed, the VCF puzzles, and matches over the Gomocup protocol.

    PYTHONPATH=src python benchmarks/gomoku.py                 # short run (about two minutes)
    PYTHONPATH=src python benchmarks/gomoku.py --pairs 5 --time 1.0 --positions 8   # longer
    PYTHONPATH=src python benchmarks/gomoku.py --pairs 5 --workers 2     # or --ray [ADDRESS]
    YIPAN_GOMOKU_OPPONENT=/path/to/pbrain-rapfi PYTHONPATH=src python benchmarks/gomoku.py \
        --opponent-only --opening-stones 3 --time 1.0 --workers 2
    YIPAN_GOMOKU_OPPONENT=/path/to/pbrain-rapfi PYTHONPATH=src python benchmarks/gomoku.py \
        --opponent-only --opponent-pairs 0 --time 1.0 --speed-positions 16   # nodes/s only
    YIPAN_GOMOKU_OPPONENT=/path/to/pbrain-rapfi PYTHONPATH=src python benchmarks/gomoku.py \
        --opponent-only --balanced --opening-stones 3 --opponent-pairs 12 \
        --opponent-times 0.1 --time 1.0     # from openings both engines call even

Prints:
1. nodes/s of the numba alpha-beta against the same depth-limited search in plain Python
   (``reference_search``) on the same positions, as a ratio;
2. the VCF puzzles of the reference data ($YIPAN_DATA or ../shared/data): solved, total and
   slowest time;
3. matches between brains speaking the protocol through pipes, as a tournament manager runs
   them: yipan against a random brain, a greedy one-ply brain, and itself at a lower depth
   without threat search. Colours alternate; each opening of a few random stones is played
   twice with the colours swapped;
4. per further rule (``--rules``, default renju and caro, sent as ``INFO rule``): nodes/s,
   and matches against the greedy brain and the weaker yipan, the referee judging by that
   rule (a forbidden move forfeits: the count is printed); under renju also how the engine's
   forbidden points (counted on line shapes) compare with the rules' exact ones on random
   crowded positions;
5. with ``--opponent PROGRAM`` (or ``$YIPAN_GOMOKU_OPPONENT``), first: nodes per processor
   second of yipan's alpha-beta (in this process) and of that brain (its node count from its
   MESSAGE lines, ``Node 266K`` or ``nodes 1234``; its processor time from /proc) on the same
   ``--speed-positions`` quiet positions, one engine after the other on each, and the ratio;
   then yipan at ``--time`` against that Gomocup brain at each of ``--opponent-times`` (its
   ``INFO timeout_turn``), ``--opponent-pairs`` openings each played with both colours:
   W-D-L, by colour, game lengths, both brains' nodes/s from their MESSAGE lines (``speed
   N`` or ``Speed 800K``), the slowest answers. ``--opponent-only`` skips the rest.
   With ``--balanced`` the openings are not taken as drawn: each candidate is searched to a
   fixed depth by both engines from a clean slate (``--balance-depths``: yipan's alpha-beta
   here, its tables cleared; the brain started afresh, with ``INFO max_depth``, its value read
   from its ``Eval`` line) and kept only if both values,
   for the side to move, are within ``--balance-margins`` of zero (each in that engine's own
   units; Rapfi's 60 is a 43-57% win rate on its own scale). Candidates come from ``--seed``
   and each value depends on its opening alone, so a seed keeps the same openings every run;
   it prints how many it tried and kept, and each kept opening with both values.

The games of a match are units of work (``play_one``: the brains' commands, the opening, the
colours and the turn time in; the winner, the length and yipan's slowest answer out; each game
starts its own brains) run through ``yipan.cluster.run_match``: one after another by default,
on ``--workers`` local processes, or on a Ray cluster with ``--ray [ADDRESS]``. The openings
are drawn first, so the games are the same however they are spread.

The machine's cores are shared: figures are noisy; compare ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from yipan.cluster import Runner, add_cluster_arguments, make_runner, run_match  # noqa: E402
from yipan.games.gomoku.rules import Gomoku  # noqa: E402

# -- the simple brains: Gomocup brains in a few lines, run as `gomoku.py --brain NAME` --


MAX_MEMORY = 350_000_000  # INFO max_memory, bytes: the Gomocup limit
RULE_BITS = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8, "caro-exact": 9}


def simple_brain(kind: str, seed: int) -> None:
    """A random or greedy one-ply brain on stdin/stdout (START, BEGIN, TURN, BOARD, INFO rule,
    END); under renju, as black, it keeps off forbidden points (asking the rules)."""
    rng = random.Random(seed)
    size = 15
    board: dict[tuple[int, int], int] = {}
    reading_board = False
    rule = "freestyle"
    for raw in sys.stdin:
        line = raw.strip()
        command, _, rest = line.partition(" ")
        command = command.upper()
        if reading_board:
            if command == "DONE":
                reading_board = False
                print(answer(kind, board, size, rng, rule), flush=True)
            else:
                x, y, who = map(int, line.split(","))
                board[(x, y)] = 1 if who == 1 else 2
            continue
        if command == "INFO" and rest.startswith("rule "):
            bits = int(rest.split()[1])
            rule = next(name for name, value in RULE_BITS.items() if value == bits)
            continue
        if command == "START":
            size = int(rest)
            board.clear()
            print("OK", flush=True)
        elif command == "RESTART":
            board.clear()
            print("OK", flush=True)
        elif command == "BEGIN":
            print(answer(kind, board, size, rng, rule), flush=True)
        elif command == "TURN":
            x, y = map(int, rest.split(","))
            board[(x, y)] = 2
            print(answer(kind, board, size, rng, rule), flush=True)
        elif command == "BOARD":
            board.clear()
            reading_board = True
        elif command == "END":
            return


def answer(kind: str, board: dict, size: int, rng: random.Random, rule: str) -> str:
    empty = [(x, y) for x in range(size) for y in range(size) if (x, y) not in board]
    mine = sum(1 for who in board.values() if who == 1)
    if rule == "renju" and mine == len(board) - mine:  # black to move: the rules' own check
        game = Gomoku(size, "renju")
        state = game.initial_state()
        for (x, y), who in board.items():
            bit = 1 << game.bit(game.point(x, y))
            state = type(state)(state.black | bit, state.white) if who == 1 else \
                type(state)(state.black, state.white | bit)
        empty = [p for p in empty if game.forbidden(state, game.point(*p)) is None]
    if kind == "random" or not board:
        move = rng.choice(empty)
    else:
        near = [p for p in empty if any((p[0] + dx, p[1] + dy) in board
                                        for dx in (-1, 0, 1) for dy in (-1, 0, 1))]
        near = near or empty
        best = max(greedy_score(board, p, size) for p in near)
        move = rng.choice([p for p in near if greedy_score(board, p, size) == best])
    board[move] = 1
    return f"{move[0]},{move[1]}"


def greedy_score(board: dict, point: tuple[int, int], size: int) -> int:
    """One ply: the longest lines this point makes for me, and breaks for the opponent."""
    score = 0
    for who, weight in ((1, 11), (2, 10)):
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                x, y = point[0] + sign * dx, point[1] + sign * dy
                while board.get((x, y)) == who:
                    run += 1
                    x, y = x + sign * dx, y + sign * dy
            score += weight * (100 ** min(run, 5) if run >= 5 else 4 ** run)
    return score


# -- the manager ----------------------------------------------------------------------------


# "speed 236000" (yipan), "Speed 979K" (Rapfi and others): nodes per second in a MESSAGE
SPEED = re.compile(r"\b[Ss]peed:?\s+([0-9]+(?:\.[0-9]+)?)\s*([KkMm]?)\b")
SUFFIX = {"": 1.0, "K": 1e3, "M": 1e6}


# Some brains print their move a moment before they take commands again (Rapfi clears its
# busy flag after writing the move, and drops a TURN that arrives in between, then reads the
# coordinates as an unknown command): a brain is not asked again within this many seconds of
# its answer. A manager's own latency usually covers it; a pipe answered at once does not.
GRACE = 0.02


class Pipe:
    """A brain process; ``ask`` sends lines and reads one answer, timing it."""

    def __init__(self, name: str, command: list[str]) -> None:
        self.name = name
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, env=env, bufsize=1)
        self.slowest = 0.0
        self.speeds: list[float] = []  # nodes/s, as the brain's MESSAGE lines report them
        self.messages: list[str] = []  # the MESSAGE lines of the last answer
        self.answered = 0.0  # perf_counter() of the last answer

    def send(self, *lines: str) -> None:
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def ask(self, *lines: str, timed: bool = False) -> str:
        """Send ``lines``, return the answer; ``timed`` answers count for ``slowest``."""
        time.sleep(max(0.0, self.answered + GRACE - time.perf_counter()))
        start = time.perf_counter()
        self.send(*lines)
        self.messages = []
        while True:
            reply = self.process.stdout.readline().strip()
            if not reply:
                raise RuntimeError(f"{self.name} closed its output")
            if not reply.startswith(("MESSAGE", "DEBUG", "INFO")):
                break
            if reply.startswith("MESSAGE"):
                self.messages.append(reply)
            speed = SPEED.search(reply)
            if speed:
                self.speeds.append(float(speed.group(1)) * SUFFIX[speed.group(2).upper()])
        self.answered = time.perf_counter()
        if timed:
            self.slowest = max(self.slowest, self.answered - start)
        return reply

    def cpu_seconds(self) -> float | None:
        """The brain's processor time so far (user + system), from Linux's /proc; None
        elsewhere."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        try:
            self.send("END")
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


@dataclass
class Score:
    wins: int = 0
    losses: int = 0
    draws: int = 0
    moves: list[int] = field(default_factory=list)
    forfeits: int = 0  # games lost by an illegal answer (renju: a forbidden move)

    def __str__(self) -> str:
        games = self.wins + self.losses + self.draws
        average = sum(self.moves) / len(self.moves) if self.moves else 0
        return (f"{self.wins}-{self.losses}-{self.draws} (win rate "
                f"{100 * self.wins / max(1, games):.0f}%, {average:.0f} moves a game, "
                f"{self.forfeits} forfeits)")


def play_game(game: Gomoku, black: Pipe, white: Pipe, opening: list[int]
              ) -> tuple[int | None, int, int]:
    """One game: the opening's stones, then the brains alternate. Returns (winner, moves,
    1 if lost by an illegal answer else 0)."""
    state = game.initial_state()
    for point in opening:
        state = game.play(state, point)
    played = list(opening)
    brains = (black, white)
    told = [0, 0]  # how many of the moves each brain knows
    for brain in brains:
        brain.ask("RESTART")
    while (outcome := game.outcome(state)) is None:
        side = game.to_move(state)
        brain = brains[side]
        if not played:
            reply = brain.ask("BEGIN", timed=True)
        elif told[side] == len(played) - 1 and told[side] > 0:
            x, y = game.xy(played[-1])
            reply = brain.ask(f"TURN {x},{y}", timed=True)
        else:
            lines = ["BOARD"]
            for index, point in enumerate(played):
                x, y = game.xy(point)
                lines.append(f"{x},{y},{1 if index % 2 == side else 2}")
            reply = brain.ask(*lines, "DONE", timed=True)
        try:
            x_text, _, y_text = reply.partition(",")  # the protocol's x,y
            point = game.point(int(x_text), int(y_text))
            state = game.play_checked(state, point)
        except ValueError as error:
            print(f"    {brain.name} answered {reply!r}: forfeits ({error})")
            return 1 - side, len(played), 1
        played.append(point)
        told[side] = len(played)
    return outcome.winner, len(played), 0


@dataclass(frozen=True)
class Played:
    """One game's result, as a unit of work returns it."""

    winner: int | None  # 0 yipan, 1 the other, None a draw
    moves: int
    yipan_slowest: float  # seconds
    forfeit: int  # 1 if a brain lost by an illegal move
    yipan_colour: int = 0
    other_slowest: float = 0.0
    yipan_speeds: tuple[float, ...] = ()  # nodes/s per move, from MESSAGE lines
    other_speeds: tuple[float, ...] = ()


def play_one(size: int, rule: str, ours: list[str], theirs: list[str], name: str,
             opening: list[int], yipan_colour: int, turn_ms: int,
             their_ms: int | None = None) -> Played:
    """One game, a unit of work: both brains started for it (the other brain gets
    ``their_ms`` a move, by default the same as yipan)."""
    game = Gomoku(size, rule)
    yipan = Pipe("yipan", ours)
    other = Pipe(name, theirs)
    try:
        for brain, ms in ((yipan, turn_ms), (other, their_ms or turn_ms)):
            brain.send(f"INFO rule {RULE_BITS[game.rule]}")
            assert brain.ask(f"START {game.size}") == "OK"
            brain.send(f"INFO timeout_turn {ms}", "INFO timeout_match 0",
                       f"INFO max_memory {MAX_MEMORY}")
        black, white = (yipan, other) if yipan_colour == 0 else (other, yipan)
        winner, moves, forfeit = play_game(game, black, white, opening)
    finally:
        yipan.close()
        other.close()
    return Played(None if winner is None else 0 if winner == yipan_colour else 1, moves,
                  yipan.slowest, forfeit, yipan_colour, other.slowest, tuple(yipan.speeds),
                  tuple(other.speeds))


def draw_opening(game: Gomoku, stones: int, rng: random.Random) -> list[int]:
    """``stones`` random stones in the 7x7 square at the centre, alternately black and white
    (under renju, black's all allowed)."""
    centre = game.size // 2
    square = [game.point(x, y) for x in range(centre - 3, centre + 4)
              for y in range(centre - 3, centre + 4)]
    while True:
        opening = rng.sample(square, stones)
        state = game.initial_state()
        try:
            for point in opening:
                state = game.play_checked(state, point)
            return opening
        except ValueError:
            continue


def match(game: Gomoku, ours: list[str], theirs: list[str], name: str, pairs: int,
          opening_stones: int, turn_ms: int, rng: random.Random, runner,
          their_ms: int | None = None, openings: list[list[int]] | None = None
          ) -> tuple[Score, float, list[Played]]:
    """``pairs`` openings (drawn here, or ``openings`` as given), each played with both
    colours."""
    if openings is None:
        openings = [draw_opening(game, opening_stones, rng) for _ in range(pairs)]
    jobs = []
    for opening in openings:
        jobs += [(game.size, game.rule, ours, theirs, name, opening, colour, turn_ms,
                  their_ms) for colour in (0, 1)]
    played = list(run_match(play_one, jobs, runner=runner))
    return tally(played), max((p.yipan_slowest for p in played), default=0.0), played


# "Eval 35", "Eval -120", "Eval +M7" (Rapfi's last line of a search): the side to move's value
EVAL_SEEN = re.compile(r"\bEval:?\s+([+-]?M?[0-9]+|[+-]?M\*)")
MATE_VALUE = 30000  # what a found win ("+M7") or loss counts for: never near even


def eval_seen(messages: list[str]) -> int | None:
    """The brain's value of its last search from its MESSAGE lines (the last ``Eval``), for
    the side to move; a mate counts ``MATE_VALUE``; None if no line says."""
    values = [m.group(1) for line in messages if (m := EVAL_SEEN.search(line))]
    if not values:
        return None
    text = values[-1]
    if "M" in text:
        return -MATE_VALUE if text.startswith("-") else MATE_VALUE
    return int(text)


def near_even(ours: int | None, theirs: int | None, margins: tuple[int, int]) -> bool:
    """Both engines judge the position near even: each value (the side to move's, in that
    engine's own units) within that engine's margin; a missing value is not even."""
    if ours is None or theirs is None:
        return False
    return abs(ours) <= margins[0] and abs(theirs) <= margins[1]


@dataclass
class Balanced:
    """Openings that both engines judged near even, and what the search for them saw."""

    openings: list[list[int]]
    tried: int
    values: list[tuple[int | None, int | None]]  # (yipan, opponent) of every candidate


def balanced_openings(game: Gomoku, count: int, stones: int, rng: random.Random,
                      judge, margins: tuple[int, int], tries: int) -> Balanced:
    """Up to ``count`` openings drawn as ``draw_opening`` does, keeping those whose values
    ``judge(opening) -> (yipan's, the opponent's)`` are both near even, trying at most
    ``tries`` candidates. Only ``rng`` draws, so a fixed seed and deterministic judges (depth-
    limited searches) give the same openings every run."""
    found = Balanced([], 0, [])
    while len(found.openings) < count and found.tried < tries:
        opening = draw_opening(game, stones, rng)
        found.tried += 1
        values = judge(opening)
        found.values.append(values)
        if near_even(*values, margins):
            found.openings.append(opening)
    return found


class Judge:
    """Both engines' values of an opening for the side to move, each from a depth-limited
    search from a clean slate, so an opening gets the same values whichever candidates came
    before it: yipan's alpha-beta in this process (its tables cleared), the brain through the
    protocol, started afresh (``INFO max_depth``, its ``Eval`` line)."""

    def __init__(self, program: str, our_depth: int, their_depth: int) -> None:
        from yipan.games.gomoku.engine import Engine

        self.engine = Engine(15, "freestyle")
        self.engine.warm_up()
        self.our_depth = our_depth
        self.program = program
        self.their_depth = their_depth

    def __call__(self, opening: list[int]) -> tuple[int | None, int | None]:
        self.engine.reset(opening)
        context = self.engine.context
        # nothing learnt on earlier candidates (move-order history included) may change this
        for table in (context.tt, context.history, context.fail_key, context.fail_depth):
            table[:] = 0
        result = self.engine.search(max_depth=self.our_depth)
        ours = None if result is None else int(result.value)
        side = len(opening) % 2
        brain = Pipe(Path(self.program).name, [self.program])
        try:
            brain.send("INFO rule 0")
            assert brain.ask("START 15") == "OK"
            # the depth ends the search, not the clock
            brain.send("INFO timeout_turn 60000", "INFO timeout_match 0",
                       f"INFO max_memory {MAX_MEMORY}", f"INFO max_depth {self.their_depth}")
            brain.ask("BOARD", *[f"{p % 15},{p // 15},{1 if i % 2 == side else 2}"
                                 for i, p in enumerate(opening)], "DONE")
        finally:
            brain.close()
        return ours, eval_seen(brain.messages)


def tally(played: list[Played]) -> Score:
    score = Score()
    for game in played:
        score.moves.append(game.moves)
        score.forfeits += game.forfeit
        if game.winner is None:
            score.draws += 1
        elif game.winner == 0:
            score.wins += 1
        else:
            score.losses += 1
    return score


def wdl(score: Score) -> str:
    return f"{score.wins}-{score.draws}-{score.losses}"


def report_against(name: str, turn_ms: int, their_ms: int, played: list[Played],
                   seconds: float) -> None:
    """A setting's lines: W-D-L, by colour, game lengths, nodes/s of both, slowest answers."""
    score = tally(played)
    by_colour = [tally([p for p in played if p.yipan_colour == colour]) for colour in (0, 1)]
    lengths = [p.moves for p in played]

    def median_speed(speeds: list[float]) -> str:
        return f"{statistics.median(speeds):,.0f}" if speeds else "not reported"

    ours = [v for p in played for v in p.yipan_speeds]
    theirs = [v for p in played for v in p.other_speeds]
    percent = 100 * (score.wins + score.draws / 2) / max(1, len(played))
    print(f"yipan {turn_ms} ms vs {name} {their_ms} ms: {score.wins}-{score.draws}-"
          f"{score.losses} (W-D-L; {percent:.0f}% score); as black {wdl(by_colour[0])}, "
          f"as white {wdl(by_colour[1])}; "
          f"{seconds:.0f} s")
    print(f"  game lengths {min(lengths)}-{max(lengths)} moves (mean "
          f"{statistics.mean(lengths):.0f}); median nodes/s yipan {median_speed(ours)}, "
          f"{name} {median_speed(theirs)}; slowest answers yipan "
          f"{max(p.yipan_slowest for p in played):.2f} s, {name} "
          f"{max(p.other_slowest for p in played):.2f} s; forfeits {score.forfeits}",
          flush=True)


# -- speed and puzzles ----------------------------------------------------------------------


def quiet_position(engine, rng: random.Random, stones: int = 10) -> None:
    """A quiet middle game on the engine's board: ``stones`` random stones near the centre,
    alternately black and white, no four or three-class threat (levels from four up) and
    no five."""
    engine.reset()
    while len(engine.moves) < stones:
        point = engine.game.point(rng.randint(4, 10), rng.randint(4, 10))
        if engine.is_empty(point):
            engine.play(point)
            if engine.board.level_count[:, 4:].any() or engine.winner() is not None:
                engine.undo()


# "Node 1234K" (Rapfi's last line of a search) or "nodes 1234" (yipan)
NODES_SEEN = re.compile(r"\b[Nn]odes?:?\s+([0-9]+(?:\.[0-9]+)?)\s*([KkMm]?)\b")


def speed_against(program: str, positions: int, seconds: float, rng: random.Random) -> None:
    """Nodes per processor second of yipan's search (in this process) and of the brain at
    ``program`` (through the protocol, its processor time read from /proc) on the same quiet
    positions, one after the other position by position, each given ``seconds`` a move."""
    from yipan.games.gomoku.engine import Engine

    engine = Engine(15, "freestyle")
    engine.warm_up()
    brain = Pipe(Path(program).name, [program])
    ours = [0.0, 0.0]  # nodes, processor seconds
    theirs = [0.0, 0.0]
    try:
        brain.send("INFO rule 0")
        assert brain.ask("START 15") == "OK"
        brain.send(f"INFO timeout_turn {int(seconds * 1000)}", "INFO timeout_match 0",
                   f"INFO max_memory {MAX_MEMORY}")
        for _ in range(positions):
            quiet_position(engine, rng)
            engine.context.tt[:] = 0  # (each position from a cleared table, as the brain)
            start = time.process_time()
            result = engine.search(seconds=seconds)
            if result is not None:
                ours[0] += result.stats.nodes
            ours[1] += time.process_time() - start
            side = len(engine.moves) % 2
            lines = ["BOARD"] + [
                f"{p % 15},{p // 15},{1 if i % 2 == side else 2}"
                for i, p in enumerate(engine.moves)] + ["DONE"]
            brain.ask("RESTART")
            before = brain.cpu_seconds()
            brain.ask(*lines)
            after = brain.cpu_seconds()
            counts = [NODES_SEEN.search(m) for m in brain.messages]
            seen = [float(c.group(1)) * SUFFIX[c.group(2).upper()] for c in counts if c]
            if before is None or after is None or not seen:
                print(f"speed against {brain.name}: its nodes or processor time cannot be "
                      f"read here")
                return
            theirs[0] += seen[-1]
            theirs[1] += after - before
    finally:
        brain.close()
    our_rate = ours[0] / max(ours[1], 1e-9)
    their_rate = theirs[0] / max(theirs[1], 1e-9)
    print(f"nodes per processor second on {positions} quiet positions, {seconds:g} s a "
          f"move each: yipan {our_rate:,.0f}, {brain.name} {their_rate:,.0f} (yipan "
          f"{our_rate / their_rate:.2f}x); processor seconds yipan {ours[1]:.1f}, "
          f"{brain.name} {theirs[1]:.1f}", flush=True)


def search_speed(positions: int, seconds: float, rng: random.Random,
                 rule: str = "freestyle") -> None:
    from yipan.games.gomoku.engine import Engine, reference_search
    from yipan.search import alphabeta

    engine = Engine(15, rule)
    engine.warm_up()  # (compiled before any clock runs, as every front end does)
    kernel_nodes = kernel_time = plain_nodes = plain_time = generic_nodes = generic_time = 0.0
    depths = []
    for _ in range(positions):
        quiet_position(engine, rng)
        result = engine.search(seconds=seconds)
        kernel_nodes += result.stats.nodes
        kernel_time += result.stats.elapsed
        depths.append(result.depth)
        plain = reference_search(engine, 2)
        plain_nodes += plain.stats.nodes
        plain_time += plain.stats.elapsed
        state = engine.game.initial_state()
        for point in engine.moves:
            state = engine.game.play(state, point)
        generic = alphabeta(engine.game, state, depth=1)
        generic_nodes += generic.stats.nodes
        generic_time += generic.stats.elapsed
    kernel_rate = kernel_nodes / kernel_time
    plain_rate = plain_nodes / plain_time
    generic_rate = generic_nodes / generic_time
    print(f"search ({rule}): numba alpha-beta {kernel_rate:,.0f} nodes/s (depths "
          f"{min(depths)}-{max(depths)} in {seconds:g} s)")
    print(f"  the same depth-limited search in plain Python over the numba board "
          f"{plain_rate:,.0f} nodes/s (numba {kernel_rate / plain_rate:.1f}x faster)")
    print(f"  the foundation's generic alpha-beta on the Game, depth 1 "
          f"{generic_rate:,.0f} nodes/s (numba {kernel_rate / generic_rate:.0f}x faster)")


def forbidden_agreement(samples: int, rng: random.Random) -> None:
    """The engine's forbidden points (line shapes, no recursion) against the rules' exact
    ones, on random crowded positions with black to move."""
    from yipan.games.gomoku.board import L_FORBIDDEN
    from yipan.games.gomoku.engine import Engine

    game = Gomoku(15, "renju")
    engine = Engine(15, "renju", memory_bytes=1 << 20)
    both = engine_only = rules_only = positions = 0
    middle = [game.point(x, y) for x in range(4, 11) for y in range(4, 11)]
    start = time.perf_counter()
    while positions < samples:
        chosen = rng.sample(middle, rng.randint(6, 26))
        half = len(chosen) // 2
        state = type(game.initial_state())(
            sum(1 << game.bit(p) for p in chosen[:half]),
            sum(1 << game.bit(p) for p in chosen[half:2 * half]))
        if game.outcome(state) is not None:
            continue
        positions += 1
        legal = set(game.legal_moves(state))
        engine.set_state(state)
        for point in range(225):
            if not engine.is_empty(point):
                continue
            marked = engine.board.level[0, engine.cell(point)] == L_FORBIDDEN
            forbidden = point not in legal
            both += marked and forbidden
            engine_only += marked and not forbidden
            rules_only += forbidden and not marked
    print(f"renju forbidden points on {positions} random crowded positions: {both} marked by "
          f"both, {engine_only} by the engine only (allowed by the rules: its threes do not "
          f"recurse), {rules_only} by the rules only; {time.perf_counter() - start:.1f} s")


def puzzles(path: Path, seconds: float) -> None:
    from yipan.games.gomoku.engine import Engine
    from yipan.games.gomoku.puzzles import read_puzzles

    if not path.is_file():
        print(f"puzzles: none at {path}")
        return
    engine = Engine(15)
    solved = total = 0
    times = []
    for puzzle in read_puzzles(path):
        if puzzle.size != 15:
            continue
        engine.reset(puzzle.points())
        start = time.perf_counter()
        decision = engine.think(seconds=seconds)
        times.append(time.perf_counter() - start)
        total += 1
        solved += (decision.move % 15, decision.move // 15) in puzzle.answers
    print(f"puzzles: {solved}/{total} solved; {sum(times):.2f} s in all, slowest "
          f"{max(times):.3f} s, mean {sum(times) / len(times):.3f} s")


def against_opponent(args: argparse.Namespace, ours: list[str], turn_ms: int,
                     rng: random.Random, runner: Runner) -> None:
    """yipan at ``--time`` against the given brain at each of ``--opponent-times``: the same
    openings for every setting, each with both colours."""
    program = shutil.which(args.opponent) or args.opponent
    if not Path(program).is_file():
        raise SystemExit(f"no opponent program at {args.opponent}")
    name = Path(program).name
    try:
        times = [float(t) for t in args.opponent_times.split(",")]
    except ValueError:
        raise SystemExit(f"--opponent-times takes seconds, comma-separated, not "
                         f"{args.opponent_times!r}") from None
    speed_against(program, args.speed_positions, args.time, rng)
    if args.opponent_pairs <= 0:
        return
    game = Gomoku(15, "freestyle")
    openings = None
    kind = "random"
    if args.balanced:
        openings = choose_balanced(args, program, game, rng)
        kind = "balanced"
    print(f"opponent: {program}; {len(openings or range(args.opponent_pairs))} {kind} "
          f"openings of {args.opening_stones} stones near the centre, each played with both "
          f"colours; fresh brains each game; freestyle")
    state = rng.getstate()
    for seconds in times:
        rng.setstate(state)  # the same openings at every setting
        start = time.perf_counter()
        _, _, played = match(game, ours, [program], name, args.opponent_pairs,
                             args.opening_stones, turn_ms, rng, runner,
                             their_ms=int(seconds * 1000), openings=openings)
        report_against(name, turn_ms, int(seconds * 1000), played,
                       time.perf_counter() - start)


def pair_of_ints(text: str, option: str) -> tuple[int, int]:
    try:
        first, second = (int(v) for v in text.split(","))
    except ValueError:
        raise SystemExit(f"{option} takes two integers, yipan's then the opponent's, not "
                         f"{text!r}") from None
    return first, second


def choose_balanced(args: argparse.Namespace, program: str, game: Gomoku,
                    rng: random.Random) -> list[list[int]]:
    """The match's openings: candidates both engines judge near even (``--balanced``)."""
    margins = pair_of_ints(args.balance_margins, "--balance-margins")
    depths = pair_of_ints(args.balance_depths, "--balance-depths")
    start = time.perf_counter()
    found = balanced_openings(game, args.opponent_pairs, args.opening_stones, rng,
                              Judge(program, *depths), margins, args.balance_tries)
    name = Path(program).name
    print(f"balanced openings: {len(found.openings)} kept of {found.tried} candidates tried "
          f"(both values within the margins: yipan |value| <= {margins[0]} at depth "
          f"{depths[0]}, {name} |Eval| <= {margins[1]} at depth {depths[1]}); "
          f"{time.perf_counter() - start:.0f} s", flush=True)
    kept = [v for v in found.values if near_even(*v, margins)]
    for opening, values in zip(found.openings, kept, strict=True):
        stones = " ".join(f"{p % 15},{p // 15}" for p in opening)
        print(f"  {stones}: yipan {values[0]}, {name} {values[1]}")
    if len(found.openings) < args.opponent_pairs:
        print(f"  (fewer than the {args.opponent_pairs} asked for: raise --balance-tries or "
              f"--balance-margins)")
    return found.openings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--brain", choices=("random", "greedy"), help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--pairs", type=int, default=2,
                        help="openings per opponent, each played with both colours")
    parser.add_argument("--time", type=float, default=0.3, help="seconds per move (yipan)")
    parser.add_argument("--opening-stones", type=int, default=2)
    parser.add_argument("--positions", type=int, default=4, help="positions for nodes/s")
    parser.add_argument("--low-depth", type=int, default=2,
                        help="depth of the weaker yipan (no threat search)")
    parser.add_argument("--skip-matches", action="store_true")
    parser.add_argument("--rules", default="renju,caro",
                        help="further rules to measure, comma-separated (or none)")
    parser.add_argument("--rule-pairs", type=int, default=1,
                        help="openings per opponent under each further rule")
    parser.add_argument("--opponent", default=os.environ.get("YIPAN_GOMOKU_OPPONENT"),
                        help="a Gomocup brain's program to play (default "
                             "$YIPAN_GOMOKU_OPPONENT)")
    parser.add_argument("--opponent-times", default="1.0,0.3,0.1",
                        help="the opponent's seconds a move, one setting each (yipan: --time)")
    parser.add_argument("--opponent-pairs", type=int, default=5,
                        help="openings per setting against the opponent, both colours each "
                             "(0: its nodes/s only)")
    parser.add_argument("--speed-positions", type=int, default=8,
                        help="quiet positions on which both engines' nodes/s are measured "
                             "(at --time a move) before the matches against --opponent")
    parser.add_argument("--balanced", action="store_true",
                        help="play the opponent only from openings both engines judge near "
                             "even (see --balance-margins)")
    parser.add_argument("--balance-margins", default="100,60",
                        help="largest |value| for the side to move that counts as even: "
                             "yipan's (its evaluation units), the opponent's (its Eval)")
    parser.add_argument("--balance-depths", default="8,16",
                        help="depths of the two searches judging an opening: yipan's, the "
                             "opponent's (INFO max_depth)")
    parser.add_argument("--balance-tries", type=int, default=200,
                        help="candidate openings to try at most for --balanced")
    parser.add_argument("--opponent-only", action="store_true",
                        help="only the matches against --opponent")
    add_cluster_arguments(parser)
    args = parser.parse_args()
    if args.brain:
        simple_brain(args.brain, args.seed)
        return 0
    rng = random.Random(args.seed)
    data = Path(os.environ.get("YIPAN_DATA", ROOT.parent / "shared" / "data"))
    print(f"yipan gomoku benchmark (seed {args.seed}; shared cores: figures are noisy)")
    rules = [r for r in args.rules.split(",") if r and r != "none"]
    unknown = [r for r in rules if r not in RULE_BITS]
    if unknown:
        parser.error(f"unknown rule {unknown[0]!r} (rules: {', '.join(RULE_BITS)})")
    runner = make_runner(args.ray, args.workers)
    ours = [sys.executable, "-m", "yipan.protocols.gomocup"]
    turn_ms = int(args.time * 1000)
    if args.opponent:
        against_opponent(args, ours, turn_ms, rng, runner)
    else:
        print("no opponent brain (set YIPAN_GOMOKU_OPPONENT or --opponent): only the built-in "
              "ones")
    if args.opponent_only:
        return 0
    search_speed(args.positions, args.time * 2, rng)
    puzzles(data / "gomoku" / "vcf_puzzles.txt", 1.0)
    for rule in rules:
        search_speed(args.positions, args.time * 2, rng, rule)
    if "renju" in rules:
        forbidden_agreement(500, rng)
    if args.skip_matches:
        return 0
    here = [sys.executable, str(Path(__file__).resolve())]
    greedy = ("greedy one-ply", [*here, "--brain", "greedy", "--seed", str(args.seed)])
    weaker = (f"yipan depth {args.low_depth}, no threats",
              [*ours, "--max-depth", str(args.low_depth), "--no-threats"])
    opponents = [("random", [*here, "--brain", "random", "--seed", str(args.seed)]),
                 greedy, weaker]
    schedule = [("freestyle", opponents, args.pairs)]
    schedule += [(rule, [greedy, weaker], args.rule_pairs) for rule in rules]
    for rule, against, pairs in schedule:
        game = Gomoku(15, rule)
        for name, command in against:
            start = time.perf_counter()
            score, slowest, _ = match(game, ours, command, name, pairs, args.opening_stones,
                                      turn_ms, rng, runner)
            print(f"{rule}: vs {name}: {score}; slowest yipan answer {slowest:.2f} s "
                  f"(turn limit {args.time:g} s); {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
