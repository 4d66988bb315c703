"""yipan's UCI_Elo ladder measured: yipan at several ``UCI_Elo`` settings against Stockfish
held to its own ``UCI_LimitStrength`` / ``UCI_Elo``, python-chess as the referee.

    PYTHONPATH=src python benchmarks/chess_strength.py [--elos 800,1200,1600,2000,2400]
        [--stockfish PATH] [--stockfish-elo 1350] [--pairs N] [--movetime MS] [--seed S]

Each setting plays ``--pairs`` pairs of games: every pair starts from one of a few balanced
openings (a few plies of a main line) and is played twice, yipan white then black. A game
ends when python-chess's board says it is over (mate, stalemate, insufficient material, a
draw that can be claimed) or, after ``MAX_PLIES``, as a draw. Printed per setting: W-D-L
for yipan, its score with its standard error (from the games' own spread), and the Elo
difference that score means (with the same error carried over).

The numbers are only as good as the machine is quiet: both engines get ``--movetime`` of
wall time a move (yipan's weak settings are bounded by their node budget well before it).
Stockfish 15.1 (Debian's ``apt-get install stockfish``) takes UCI_Elo from 1350 up, so the
settings below it are compared with a gap the score must show. yipan's Elo scale is the
provisional mapping of ``yipan.protocols.strength`` until this is run on a quiet machine.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# this folder holds a chess.py: it must not hide the python-chess package
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]

import chess  # noqa: E402
import chess.engine  # noqa: E402

SRC = HERE.parent / "src"
MAX_PLIES = 300
OPENINGS = (  # balanced main lines, a few plies each
    "e2e4 e7e5 g1f3 b8c6",
    "d2d4 d7d5 c2c4 e7e6",
    "e2e4 c7c5 g1f3 d7d6",
    "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e6 d2d4 d7d5",
    "e2e4 c7c6 d2d4 d7d5",
    "c2c4 e7e5 b1c3 g8f6",
    "g1f3 d7d5 g2g3 g8f6",
)


def yipan_engine() -> chess.engine.SimpleEngine:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    return chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "yipan.protocols.uci"],
                                               timeout=120, env=env)


def play_game(white: chess.engine.SimpleEngine, black: chess.engine.SimpleEngine,
              opening: str, limit: chess.engine.Limit, game: object) -> tuple[str, str]:
    """The result ("1-0", "0-1", "1/2-1/2") of one game from ``opening``, and how it
    ended (with its length in plies)."""
    board = chess.Board()
    for text in opening.split():
        board.push_uci(text)
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        engine = white if board.turn == chess.WHITE else black
        move = engine.play(board, limit, game=game).move
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


def measure(elo: int, stockfish: chess.engine.SimpleEngine, yipan: chess.engine.SimpleEngine,
            pairs: int, limit: chess.engine.Limit, seed: int) -> list[float]:
    """yipan's score of each game (1, 1/2, 0) at this UCI_Elo."""
    scores = []
    for index in range(pairs):
        opening = OPENINGS[index % len(OPENINGS)]
        for yipan_white in (True, False):
            yipan.configure({"UCI_LimitStrength": True, "UCI_Elo": elo,
                             "Seed": seed + 2 * index + (0 if yipan_white else 1)})
            white, black = (yipan, stockfish) if yipan_white else (stockfish, yipan)
            result, ending = play_game(white, black, opening, limit, object())
            points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            scores.append(points if yipan_white else 1 - points)
            print(f"  UCI_Elo {elo} {'white' if yipan_white else 'black'} "
                  f"({opening}): {result} ({ending})", flush=True)
    return scores


def summary(elo: int, stockfish_elo: int, scores: list[float]) -> str:
    wins, draws = scores.count(1.0), scores.count(0.5)
    losses = len(scores) - wins - draws
    mean = statistics.fmean(scores)
    error = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else math.nan
    text = (f"yipan UCI_Elo {elo} vs stockfish UCI_Elo {stockfish_elo}: W-D-L "
            f"{wins}-{draws}-{losses}, score {mean:.3f} ± {error:.3f}")
    if 0 < mean < 1:
        low, high = max(mean - error, 1e-3), min(mean + error, 1 - 1e-3)
        text += (f", Elo difference {elo_of(mean):+.0f} "
                 f"({elo_of(low):+.0f} to {elo_of(high):+.0f})")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elos", default="800,1200,1600,2000,2400",
                        help="yipan's UCI_Elo settings, comma-separated")
    parser.add_argument("--stockfish", default=shutil.which("stockfish")
                        or "/usr/games/stockfish", help="the Stockfish program")
    parser.add_argument("--stockfish-elo", type=int, default=1350,
                        help="Stockfish's UCI_Elo (15.1: 1350 to 2850)")
    parser.add_argument("--pairs", type=int, default=8, help="pairs of games a setting")
    parser.add_argument("--movetime", type=int, default=100, help="milliseconds a move")
    parser.add_argument("--seed", type=int, default=1, help="yipan's first Seed")
    args = parser.parse_args()
    elos = [int(text) for text in args.elos.split(",")]
    limit = chess.engine.Limit(time=args.movetime / 1000)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    yipan = yipan_engine()
    try:
        stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": args.stockfish_elo,
                             "Threads": 1, "Hash": 16})
        lines = []
        for elo in elos:
            scores = measure(elo, stockfish, yipan, args.pairs, limit, args.seed)
            lines.append(summary(elo, args.stockfish_elo, scores))
            print(lines[-1], flush=True)
        print("\n".join(["", *lines]))
    finally:
        yipan.quit()
        stockfish.quit()


if __name__ == "__main__":
    main()
