"""yipan's UCI_Elo scale measured: yipan weakened (``UCI_LimitStrength``) against Stockfish held
to its own ``UCI_LimitStrength`` / ``UCI_Elo``, python-chess as the referee.

    PYTHONPATH=src python benchmarks/chess_strength.py [--ladder 1350,1600,1900]
        [--pairings 4000/120@1350,30000/60@1600] [--pairs N] [--stockfish PATH]
        [--stockfish-nodes CAP] [--seed S] [--first-opening K]

A pairing is ``YIPAN@STOCKFISH``: yipan's side is either a ``UCI_Elo`` (its calibrated
scale, ``yipan.protocols.strength.ANCHORS``) or a raw ``NODES/TEMPERATURE`` (a node budget
and a choice temperature in centipawns, for fitting the anchors: yipan then runs with that one
setting in place of its table); Stockfish's side is its ``UCI_Elo``. ``--ladder E1,E2`` is
short for ``E1@E1,E2@E2`` (the check that each calibrated Elo scores about 50%).

Each pairing plays ``--pairs`` pairs of games: every pair starts from one of the balanced
openings below (a few moves of a main line, a different one for each pair) and is played
twice, yipan white then black. A game ends when python-chess's board says it is over (mate,
stalemate, insufficient material, a draw that can be claimed) or, after ``MAX_PLIES``, as a
draw. Printed per pairing: W-D-L for yipan, its score with its standard error (from the
spread of the pairs' scores, the two games of an opening being one sample), the Elo
difference that score means (with the error carried over) and so yipan's Elo on Stockfish's
scale.

Both sides are bounded by work, not time, so that a loaded machine gives the same games:
yipan by its node budget; Stockfish 15.1 by depth. Its weakening (search.cpp, ``Skill``)
turns ``UCI_Elo`` into a level ``((elo - 1346.6) / 143.4) ** (1 / 0.806)``, searches four
lines (MultiPV) and, when iteration ``1 + int(level)`` completes, picks one of them at random
by a weakness of ``120 - 2 * level``; the search goes on but plays that pick. ``go depth
1 + int(level)`` therefore makes the very pick a long time control makes, at no more cost
than that depth (``--stockfish-nodes`` caps a runaway; the output says how often it bit).
Stockfish runs with ``Threads 1, Hash 16``.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
# this folder holds a chess.py: it must not hide the python-chess package
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]

import chess  # noqa: E402
import chess.engine  # noqa: E402

SRC = HERE.parent / "src"
MAX_PLIES = 300
YIPAN_NODES = 100_000_000  # a "go nodes" above every budget: the budget decides
OPENINGS = (  # balanced main lines, 4 to 8 plies each
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",  # Ruy Lopez
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",  # Queen's Gambit Declined
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",  # Sicilian
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7",  # King's Indian
    "e2e4 e7e6 d2d4 d7d5",  # French
    "e2e4 c7c6 d2d4 d7d5",  # Caro-Kann
    "c2c4 e7e5 b1c3 g8f6",  # English
    "g1f3 d7d5 g2g3 g8f6",  # Reti
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5",  # Italian
    "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6",  # Slav
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4",  # Nimzo-Indian
    "e2e4 c7c5 b1c3 b8c6 g2g3 g7g6",  # closed Sicilian
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",  # Queen's Indian
    "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6",  # Petrov
    "d2d4 d7d5 g1f3 g8f6 c1f4 e7e6",  # London
    "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6",  # Pirc
    "c2c4 c7c5 g1f3 g8f6 b1c3 b8c6",  # symmetrical English
    "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 g8f6",  # Scotch
    "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6",  # Dutch
    "e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 a7a6",  # Sicilian Kan
)


@dataclass(frozen=True)
class Pairing:
    yipan_elo: int | None  # yipan's UCI_Elo, or None for a raw setting
    nodes: int  # the raw setting (0 with an Elo)
    temperature: float
    stockfish_elo: int

    @property
    def yipan_name(self) -> str:
        if self.yipan_elo is not None:
            return f"UCI_Elo {self.yipan_elo}"
        return f"{self.nodes} nodes at {self.temperature:g} cp"


def read_pairings(ladder: str, pairings: str) -> list[Pairing]:
    """The pairings ``--ladder`` and ``--pairings`` ask for, ladder first."""
    found = [Pairing(int(text), 0, 0.0, int(text)) for text in ladder.split(",") if text]
    for text in (item for item in pairings.split(",") if item):
        mine, _, theirs = text.partition("@")
        if "/" in mine:
            nodes, _, heat = mine.partition("/")
            found.append(Pairing(None, int(nodes), float(heat), int(theirs)))
        else:
            found.append(Pairing(int(mine), 0, 0.0, int(theirs)))
    return found


def stockfish_depth(elo: int) -> int:
    """The iteration at which Stockfish 15.1 picks its weakened move at this UCI_Elo."""
    level = min(max(((elo - 1346.6) / 143.4) ** (1 / 0.806) if elo > 1346.6 else 0.0, 0.0), 20.0)
    return 1 + int(level)


def yipan_engine(pairing: Pairing) -> chess.engine.SimpleEngine:
    """yipan over UCI; a raw setting replaces its table by that one setting."""
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    if pairing.yipan_elo is not None:
        command = [sys.executable, "-m", "yipan.protocols.uci"]
    else:
        command = [sys.executable, "-c",
                   "from yipan.protocols import strength, uci\n"
                   f"strength.ANCHORS = (strength.Anchor(strength.MIN_ELO, {pairing.nodes}, "
                   f"{pairing.temperature}),)\n"
                   "raise SystemExit(uci.main([]))"]
    return chess.engine.SimpleEngine.popen_uci(command, timeout=300, env=env)


@dataclass
class Tally:
    """What a pairing's games cost and how often Stockfish's node cap bit."""

    yipan_seconds: float = 0.0
    stockfish_moves: int = 0
    stockfish_nodes: int = 0
    stockfish_short: int = 0  # moves whose search stopped before the pick depth


def play_game(yipan: chess.engine.SimpleEngine, stockfish: chess.engine.SimpleEngine,
              yipan_white: bool, opening: str, stockfish_limit: chess.engine.Limit,
              tally: Tally) -> tuple[str, str]:
    """The result ("1-0", "0-1", "1/2-1/2") of one game from ``opening``, and how it
    ended (with its length in plies)."""
    board = chess.Board()
    for text in opening.split():
        board.push_uci(text)
    game = object()  # a new game for both engines (python-chess sends ucinewgame)
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        if (board.turn == chess.WHITE) == yipan_white:
            start = time.perf_counter()
            move = yipan.play(board, chess.engine.Limit(nodes=YIPAN_NODES), game=game).move
            tally.yipan_seconds += time.perf_counter() - start
        else:
            result = stockfish.play(board, stockfish_limit, game=game,
                                    info=chess.engine.INFO_BASIC)
            move = result.move
            tally.stockfish_moves += 1
            tally.stockfish_nodes += result.info.get("nodes", 0)
            if result.info.get("depth", 0) < (stockfish_limit.depth or 0):
                tally.stockfish_short += 1
        if move is None or move not in board.legal_moves:  # no or illegal move: lost
            return ("0-1" if board.turn == chess.WHITE else "1-0"), f"no move, ply {board.ply()}"
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        return "1/2-1/2", f"adjudicated, ply {board.ply()}"
    return outcome.result(), f"{outcome.termination.name.lower()}, ply {board.ply()}"


def elo_of(score: float) -> float:
    """The Elo difference a score (0..1, not 0 or 1) means."""
    return -400 * math.log10(1 / score - 1)


def measure(pairing: Pairing, stockfish: chess.engine.SimpleEngine, pairs: int,
            cap: int, seed: int, first_opening: int) -> tuple[list[float], Tally]:
    """yipan's score of each game (1, 1/2, 0), in pairs (white, black) of one opening."""
    stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": pairing.stockfish_elo})
    limit = chess.engine.Limit(depth=stockfish_depth(pairing.stockfish_elo), nodes=cap)
    yipan = yipan_engine(pairing)
    tally = Tally()
    scores = []
    try:
        elo = pairing.yipan_elo if pairing.yipan_elo is not None else yipan.options[
            "UCI_Elo"].min
        for index in range(pairs):
            opening = OPENINGS[(first_opening + index) % len(OPENINGS)]
            for yipan_white in (True, False):
                yipan.configure({"UCI_LimitStrength": True, "UCI_Elo": elo,
                                 "Seed": seed + 2 * index + (0 if yipan_white else 1)})
                result, ending = play_game(yipan, stockfish, yipan_white, opening, limit,
                                           tally)
                points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
                scores.append(points if yipan_white else 1 - points)
                print(f"  {pairing.yipan_name} {'white' if yipan_white else 'black'} "
                      f"({opening}): {result} ({ending})", flush=True)
    finally:
        yipan.quit()
    return scores, tally


def summary(pairing: Pairing, scores: list[float], tally: Tally) -> str:
    wins, draws = scores.count(1.0), scores.count(0.5)
    losses = len(scores) - wins - draws
    mean = statistics.fmean(scores)
    pair_scores = [(a + b) / 2 for a, b in zip(scores[::2], scores[1::2], strict=True)]
    error = (statistics.stdev(pair_scores) / math.sqrt(len(pair_scores))
             if len(pair_scores) > 1 else math.nan)
    text = (f"yipan {pairing.yipan_name} vs Stockfish UCI_Elo {pairing.stockfish_elo} "
            f"(depth {stockfish_depth(pairing.stockfish_elo)}): {len(scores)} games, W-D-L "
            f"{wins}-{draws}-{losses}, score {mean:.3f} ± {error:.3f}")
    if 0 < mean < 1:
        low, high = max(mean - error, 1e-3), min(mean + error, 1 - 1e-3)
        difference = elo_of(mean)
        text += (f", Elo difference {difference:+.0f} ({elo_of(low):+.0f} to "
                 f"{elo_of(high):+.0f}), yipan ≈ {pairing.stockfish_elo + difference:.0f}")
    moves = max(tally.stockfish_moves, 1)
    text += (f"; Stockfish {tally.stockfish_nodes / moves:.0f} nodes a move, "
             f"{tally.stockfish_short} of {tally.stockfish_moves} moves short of the depth; "
             f"yipan {tally.yipan_seconds:.0f} s")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ladder", default="",
                        help="UCI_Elo values E, comma-separated: yipan at E against Stockfish "
                             "at E")
    parser.add_argument("--pairings", default="",
                        help="YIPAN@STOCKFISH, comma-separated; YIPAN is a UCI_Elo or "
                             "NODES/TEMPERATURE")
    parser.add_argument("--stockfish", default=shutil.which("stockfish")
                        or "/usr/games/stockfish", help="the Stockfish program (15.1)")
    parser.add_argument("--stockfish-nodes", type=int, default=2_000_000,
                        help="Stockfish's node cap a move (its depth decides below it)")
    parser.add_argument("--pairs", type=int, default=10, help="pairs of games a pairing")
    parser.add_argument("--seed", type=int, default=1, help="yipan's first Seed")
    parser.add_argument("--first-opening", type=int, default=0,
                        help="the opening the first pair plays (0 to 19, then round)")
    args = parser.parse_args()
    pairings = read_pairings(args.ladder, args.pairings)
    if not pairings:
        from yipan.protocols import strength
        pairings = read_pairings(",".join(str(a.elo) for a in strength.ANCHORS), "")
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    try:
        name = stockfish.id.get("name", "?")
        print(f"{name}: UCI_LimitStrength true, UCI_Elo E, Threads 1, Hash 16, "
              f"go depth 1 + int(((E - 1346.6) / 143.4) ** (1 / 0.806)) nodes "
              f"{args.stockfish_nodes}", flush=True)
        if not name.startswith("Stockfish 15"):
            print(f"warning: the depths follow Stockfish 15.1's weakening, not {name}'s",
                  flush=True)
        stockfish.configure({"Threads": 1, "Hash": 16})
        lines = []
        for pairing in pairings:
            scores, tally = measure(pairing, stockfish, args.pairs, args.stockfish_nodes,
                                    args.seed, args.first_opening)
            lines.append(summary(pairing, scores, tally))
            print(lines[-1], flush=True)
        print("\n".join(["", *lines]))
    finally:
        stockfish.quit()


if __name__ == "__main__":
    main()
