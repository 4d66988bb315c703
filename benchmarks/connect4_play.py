"""Connect Four: the player against a perfect opponent; does it ever throw away a result?

    PYTHONPATH=src python benchmarks/connect4_play.py [--wins N] [--draws N] [--openings N]
        [--times 1,3 | --nodes N] [--seed S] [--clock cpu|wall] [--workers N] [--ray [ADDRESS]]

Three tests, each at every move time given:

- wins: seeded random positions (8-10 plies) that the side to move wins; the player moves
  first there and must win;
- draws: seeded random positions the side to move draws; the player must not lose;
- openings: the empty board, the player first (a first-player win); it must win. Opening
  game i starts with the opponent's reply in column i + 1 (every reply loses, so this spreads
  the games over the first player's strategy), and the opponent is perfect from then on.

The opponent is perfect: it solves the position exactly (the project's solver, with a large
table kept between moves), then plays a move proved to keep that score, the first in
centre-first order (the fastest win, the slowest loss). Where the exact score would cost
more than ``ORACLE_EXACT_NODES`` (early in the game), it keeps the outcome instead: a move
proved to keep its win or draw, or, when every move loses, a seeded random move that does not
lose at once (counted and reported); a position known lost (the player's strategy-book move
before it was proved to win) is not solved exactly before ply ``ORACLE_EXACT_FROM``.
The strategy book's moves are not checked again: each was proved when the book was built.
With ``$YIPAN_C4_ORACLE`` naming the reference solver's program (which answers
``moves s1 s2 ... s7`` a line when run with ``-a``), that program chooses instead, among its
best-scored columns.

Reported: results kept, the ply of each game's first mistake (a move after which the player's
proved result is worse), the player's time per move (median, max) and how its moves were
found (strategy book, proved by a solve, or a judgement). ``--clock cpu`` (the default) gives
the player CPU seconds a move, fair on a shared machine; ``wall`` gives it wall seconds;
``--nodes N`` gives it N solver nodes a move instead, and the games are then the same
wherever they are played.

Each game is a unit of work (``play_one``: plain data in, its record out) run through
``yipan.cluster.run_match``: one after another here by default, on ``--workers`` local
processes, or on a Ray cluster with ``--ray [ADDRESS]``; every game starts from a fresh
opponent table, so a game's record does not depend on the games played before it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

from yipan.cluster import add_cluster_arguments, run_match
from yipan.games.connect4 import ConnectFour, Position
from yipan.games.connect4.book import shipped_book
from yipan.games.connect4.player import ConnectFourPlayer
from yipan.games.connect4.solver import Solver
from yipan.games.connect4.strategy import shipped_strategy

ORACLE_EXACT_NODES = 20_000_000  # a few CPU-seconds: beyond, the opponent keeps the outcome
ORACLE_EXACT_FROM = 12  # plies: a position known lost before this is not solved exactly


class Oracle:
    """Exact scores and a best move, by our solver (default) or the reference program."""

    def __init__(self, game: ConnectFour, program: str | None) -> None:
        self.game = game
        self.solver = Solver(game, table_bits=24, book=shipped_book())
        self.process = None
        self.outcome_only = 0  # moves chosen by the outcome alone (the exact score too dear)
        self.outcomes: dict[int, int] = {}
        if program:
            self.process = subprocess.Popen([program, "-a"], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True, bufsize=1)

    def score(self, position: Position) -> int:
        solved = self.solver.solve(position)
        assert solved.score is not None
        return solved.score

    def outcome(self, position: Position) -> int:
        """+1, 0 or -1 for the side to move (a win/draw/loss solve: cheaper; remembered)."""
        key = self.game.key(position)
        if key not in self.outcomes:
            solved = self.solver.solve(position, weak=True)
            assert solved.score is not None
            self.outcomes[key] = solved.score
        return self.outcomes[key]

    def best_move(self, position: Position, moves: str, rng: random.Random) -> int:
        if self.process is not None:
            assert self.process.stdin is not None and self.process.stdout is not None
            self.process.stdin.write(moves + "\n")
            self.process.stdin.flush()
            scores = [int(word) for word in self.process.stdout.readline().split()[1:]]
            legal = [c for c in range(self.game.width) if scores[c] != -1000]
            best = max(scores[c] for c in legal)
            return rng.choice([c for c in legal if scores[c] == best])
        key = self.game.key(position)
        lost = self.outcomes.get(key) == -1 and position.moves < ORACLE_EXACT_FROM
        solved = self.solver.solve(position, node_limit=0 if lost else ORACLE_EXACT_NODES)
        if solved.score is not None:  # the best: the fastest win, the slowest loss
            target = solved.score
        else:  # the exact score costs too much this early: keep the outcome
            self.outcome_only += 1
            target = self.outcome(position)
            if target < 0:  # every move loses: any that does not lose at once
                return rng.choice(self.game.non_losing_moves(position)
                                  or self.game.legal_moves(position))
        for col in self.game.order_moves(position, self.game.legal_moves(position)):
            if self.solver.achieves(position, col, target):
                return col
        raise AssertionError("no move keeps the proved result")

    def fresh(self) -> Oracle:
        """The oracle as new (its table emptied, nothing remembered), for the next game."""
        self.solver.reset()
        self.outcomes.clear()
        self.outcome_only = 0
        return self

    def close(self) -> None:
        if self.process is not None and self.process.stdin is not None:
            self.process.stdin.close()
            self.process.wait(timeout=10)


@dataclass
class Game:
    kind: str
    start: str
    result: int = 0  # for the player: +1 won, 0 drew, -1 lost
    kept: bool = False
    first_mistake: int | None = None  # ply
    seconds: list[float] = field(default_factory=list)
    sources: dict[str, int] = field(default_factory=dict)
    budget: str = ""  # the player's: "1 s" or "50000 nodes"
    reply: int | None = None  # the opponent's first reply (an opening game)
    outcome_only: int = 0  # the opponent's moves chosen by the outcome alone


def random_start(game: ConnectFour, oracle: Oracle, rng: random.Random, outcome: int
                 ) -> tuple[str, Position]:
    """A seeded random position of 8-10 plies whose side to move has ``outcome``."""
    while True:
        moves, position = "", game.initial_state()
        for _ in range(rng.randrange(8, 11)):
            safe = [c for c in game.legal_moves(position)
                    if not game.is_winning_move(position, c)]
            col = rng.choice(safe)
            moves += str(col + 1)
            position = game.play(position, col)
        if game.outcome(position) is not None or any(
                game.is_winning_move(position, c) for c in game.legal_moves(position)):
            continue
        if oracle.outcome(position) == outcome:
            return moves, position


def play(game: ConnectFour, oracle: Oracle, player: ConnectFourPlayer, record: Game,
         position: Position, moves: str, rng: random.Random, clock,
         first_reply: int | None = None) -> Game:
    goal = 1 if record.kind != "draws" else 0
    side = position.moves % 2
    while game.outcome(position) is None:
        if position.moves % 2 == side:
            start = clock()
            choice = player.choose(game, position)
            record.seconds.append(clock() - start)
            source = player.last_source
            record.sources[source] = record.sources.get(source, 0) + 1
            col = int(choice.move)  # type: ignore[arg-type]
            if source == "strategy" and not game.is_winning_move(position, col):
                # proved when the book was built: the opponent's position is lost
                oracle.outcomes[game.key(game.play(position, col))] = -1
            elif record.first_mistake is None and not game.is_winning_move(position, col):
                child = game.play(position, col)
                if child.moves < game.cells:
                    after = -oracle.outcome(child)
                    if (after > 0) - (after < 0) < goal:
                        record.first_mistake = position.moves + 1
                        goal = (after > 0) - (after < 0)
        elif position.moves == 1 and first_reply is not None:
            col = first_reply
        else:
            col = oracle.best_move(position, moves, rng)
        moves += str(col + 1)
        position = game.play(position, col)
    outcome = game.outcome(position)
    assert outcome is not None
    record.result = 0 if outcome.winner is None else (1 if outcome.winner == side else -1)
    record.kept = record.result >= (1 if record.kind != "draws" else 0)
    return record


_ORACLES: dict[str | None, Oracle] = {}  # one a worker process, emptied for each game


def play_one(kind: str, moves: str, seconds: float | None, nodes: int | None, clock_name: str,
             seed: int, index: int, reply: int | None, program: str | None) -> Game:
    """One game, a unit of work: plain data in, its record out."""
    game = ConnectFour()
    position = game.initial_state()
    for char in moves:
        position = game.play(position, int(char) - 1)
    if program not in _ORACLES:
        _ORACLES[program] = Oracle(game, program)
    oracle = _ORACLES[program].fresh()
    clock = time.process_time if clock_name == "cpu" else time.perf_counter
    player = ConnectFourPlayer(game, random.Random(seed + index), seconds, shipped_book(),
                               strategy=shipped_strategy(), nodes=nodes, clock=clock)
    budget = f"{nodes} nodes" if nodes is not None else f"{seconds:g} s"
    record = play(game, oracle, player, Game(kind, moves, budget=budget, reply=reply),
                  position, moves, random.Random(seed + 1000 + index), clock, reply)
    record.outcome_only = oracle.outcome_only
    return record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wins", type=int, default=6)
    parser.add_argument("--draws", type=int, default=4)
    parser.add_argument("--openings", type=int, default=2)
    parser.add_argument("--times", default="1,3", help="seconds a move, comma-separated")
    parser.add_argument("--nodes", type=int, default=None,
                        help="solver nodes a move instead of seconds (games that repeat)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--kinds", default="wins,draws,openings",
                        help="which games to play (the starts are drawn for all, so a "
                             "subset replays the same positions)")
    add_cluster_arguments(parser)
    args = parser.parse_args()
    game = ConnectFour()
    program = os.environ.get("YIPAN_C4_ORACLE")
    oracle = Oracle(game, program)
    print(f"opponent: {'the reference program ' + program if program else 'our exact solver'}"
          f"; the player's clock: {args.clock} seconds")
    strategy = shipped_strategy()
    print("strategy book: " + (f"{len(strategy)} positions, depth {strategy.depth}"
                               if strategy else "none"))
    rng = random.Random(args.seed)
    starts = [("wins", *random_start(game, oracle, rng, 1)) for _ in range(args.wins)]
    starts += [("draws", *random_start(game, oracle, rng, 0)) for _ in range(args.draws)]
    starts += [("openings", "", game.initial_state()) for _ in range(args.openings)]
    oracle.close()
    print(f"{len(starts)} games a move budget; starts: "
          + " ".join(moves or "(empty)" for _, moves, _ in starts), flush=True)
    budgets: list[tuple[float | None, int | None]] = (
        [(None, args.nodes)] if args.nodes is not None
        else [(float(t), None) for t in args.times.split(",")])
    games = [(kind, moves, seconds, nodes, args.clock, args.seed, index,
              (index - args.wins - args.draws) % game.width if kind == "openings" else None,
              program)
             for seconds, nodes in budgets
             for index, (kind, moves, _) in enumerate(starts)
             if kind in args.kinds.split(",")]

    def said(_index: int, record: Game) -> None:
        start = f"(empty; 4 {record.reply + 1})" if record.reply is not None else record.start
        print(f"  {record.budget}  {record.kind:<8} {start:<12} "
              f"{['lost', 'drew', 'won'][record.result + 1]:<5} "
              f"{'kept' if record.kept else 'THROWN AWAY at ply ' + str(record.first_mistake)}"
              f"  moves by {record.sources}", flush=True)

    records = run_match(play_one, games, args.ray, args.workers, on_game=said)
    for budget in dict.fromkeys(r.budget for r in records):
        group_of_budget = [r for r in records if r.budget == budget]
        print(f"\n{budget} a move ({args.clock if args.nodes is None else 'nodes'}):")
        for kind in ("wins", "draws", "openings"):
            group = [r for r in group_of_budget if r.kind == kind]
            if not group:
                continue
            mistakes = sorted(r.first_mistake for r in group if r.first_mistake is not None)
            print(f"  {kind:<9} kept {sum(r.kept for r in group)}/{len(group)}; first "
                  f"mistakes at plies {mistakes or '-'}")
        times = [t for r in group_of_budget for t in r.seconds]
        if times:
            print(f"  time a move: median {statistics.median(times):.2f} s, max "
                  f"{max(times):.2f} s over {len(times)} moves\n", flush=True)
    print(f"opponent moves chosen by the outcome alone (the exact score too dear): "
          f"{sum(r.outcome_only for r in records)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
