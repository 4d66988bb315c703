"""Chess benchmark: perft speed, search speed, Win-at-Chess, and matches over UCI.

    PYTHONPATH=src python benchmarks/chess.py                      # everything, about 20 min
    PYTHONPATH=src python benchmarks/chess.py --only perft,search  # parts by name
    PYTHONPATH=src python benchmarks/chess.py --wac-time 0.5 --games 20 --ladder-games 20
    PYTHONPATH=src python benchmarks/chess.py --only wac,bk --eval-file builtin  # both evaluations
    PYTHONPATH=src python benchmarks/chess.py --only suite --suite lct2.epd --eval-file builtin
    PYTHONPATH=src python benchmarks/chess.py --only sunfish,ladder --workers 2   # or --ray

Prints:
1. perft: leaves a second of the numba counter (bulk counting at the last ply) on the usual
   test positions, and the same counts over the Game protocol in Python, as a ratio;
2. search: nodes a second of the engine on the Bratko-Kopec positions (a fixed node budget
   each, CPU time);
3. WAC: the Win-at-Chess positions solved (the engine's move is a best move of the EPD)
   at a fixed time each (or ``--wac-nodes``), through the engine as the CLI runs it;
   ``--wac-compare`` runs each position with and without quiescence's checks in turn,
   ``--eval-file NETWORK`` with the hand-set evaluation and the network in turn; part
   ``bk`` (not run by default) does the same for Bratko-Kopec at ``--bk-time`` (2 s);
4. a match against sunfish (``$SUNFISH``: its ``sunfish.py``, run with this Python) at equal
   time a move, both speaking UCI through python-chess as a GUI drives them; each opening is
   played twice with the colours swapped;
5. a ladder against Stockfish (``$STOCKFISH`` or ``stockfish`` on PATH) with
   ``UCI_LimitStrength``/``UCI_Elo``: the highest rung where yipan scores 50% or more.

The games of a match are units of work (``play_one``: the engines' commands and options, the
opening, the colours and the time in; the result out; each game starts its own engines) run
through ``yipan.cluster.run_match``: one after another by default, on ``--workers`` local
processes, or on a Ray cluster with ``--ray [ADDRESS]`` (the engines' paths must then exist
on every machine). Two games at once on two cores each get a core: the time a move is kept.

External engines are used when present and reported absent otherwise; nothing is installed.
The reference data come from $YIPAN_DATA or ../shared/data. The machine's cores are shared
with other work: figures are noisy; compare ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# this file is named chess.py: its folder must not hide the python-chess package
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE]
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))

import chess  # noqa: E402
import chess.engine  # noqa: E402

from yipan.cluster import add_cluster_arguments, make_runner, run_match  # noqa: E402
from yipan.core import Limit  # noqa: E402
from yipan.games.chess import Chess  # noqa: E402
from yipan.games.chess.engine import Engine  # noqa: E402
from yipan.games.chess.hooks import perft, prepare  # noqa: E402
from yipan.prepare import prepare_counter  # noqa: E402
from yipan.search.perft import perft as generic_perft  # noqa: E402

DATA = Path(os.environ.get("YIPAN_DATA", ROOT.parent / "shared" / "data")) / "chess"
PERFT_CASES = [  # position, depth, leaves (the usual perft test positions)
    (chess.STARTING_FEN, 6, 119_060_324),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178_633_661),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 15_833_292),
]
OPENINGS = [  # short, common openings (both colours play each): UCI moves
    "e2e4 e7e5 g1f3 b8c6", "e2e4 c7c5 g1f3 d7d6", "d2d4 d7d5 c2c4 e7e6",
    "d2d4 g8f6 c2c4 g7g6", "e2e4 e7e6 d2d4 d7d5", "c2c4 e7e5 b1c3 g8f6",
    "e2e4 c7c6 d2d4 d7d5", "g1f3 d7d5 g2g3 g8f6", "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",
    "e2e4 e7e5 f1c4 g8f6", "e2e4 d7d5 e4d5 d8d5", "d2d4 d7d5 c2c4 c7c6",
]
LADDER = (1350, 1500, 1700, 1900, 2100, 2300, 2500, 2700, 2850)  # Stockfish 15.1's range
MAX_GAME_PLIES = 300
ADJUDICATE_CP = 1000
ADJUDICATE_PLIES = 8  # four moves of each engine


def section(title: str) -> None:
    print(f"\n== {title}", flush=True)


# -- 1. perft -----------------------------------------------------------------------------------
def bench_perft() -> None:
    section("perft (numba counter, bulk counting at the last ply)")
    total_leaves, total_seconds = 0, 0.0
    for fen, depth, expected in PERFT_CASES:
        game = Chess(fen)
        start = time.process_time()
        leaves = sum(perft(game, game.initial_state(), depth).values())
        seconds = time.process_time() - start
        total_leaves += leaves
        total_seconds += seconds
        status = "ok" if leaves == expected else f"WRONG (expected {expected})"
        print(f"  depth {depth} {leaves:>12,} leaves {seconds:7.2f} s "
              f"{leaves / seconds / 1e6:8.1f} M leaves/s  {status}  {fen[:40]}")
    print(f"  all: {total_leaves / total_seconds / 1e6:.1f} M leaves/s")
    game = Chess(PERFT_CASES[1][0])
    state = game.initial_state()
    start = time.process_time()
    python_leaves = generic_perft(game, state, 3)
    python_seconds = time.process_time() - start
    start = time.process_time()
    kernel_leaves = sum(perft(game, state, 3).values())
    kernel_seconds = time.process_time() - start
    assert python_leaves == kernel_leaves
    print(f"  kiwipete depth 3 ({kernel_leaves:,} leaves): Game protocol in Python "
          f"{python_leaves / python_seconds:,.0f} leaves/s, numba counter "
          f"{kernel_leaves / kernel_seconds:,.0f} leaves/s: "
          f"{python_seconds / kernel_seconds:,.0f}x")


# -- 2. search speed ------------------------------------------------------------------------------
def read_epd(path: Path) -> list[tuple[str, list[str], str]]:
    """(FEN, best moves in SAN, id) of each line of an EPD file."""
    cases = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        board, operations = chess.Board.from_epd(line)
        best = operations.get("bm", [])
        cases.append((board.fen(), [board.san(m) for m in best], str(operations.get("id", ""))))
    return cases


def bench_search(nodes: int) -> None:
    section(f"search speed ({nodes:,} nodes a position, Bratko-Kopec positions)")
    path = DATA / "bk.epd"
    if not path.exists():
        print(f"  {path} not found: skipped")
        return
    engine = Engine(64)
    total_nodes, total_seconds = 0, 0.0
    for fen, _, _ in read_epd(path):
        engine.clear()
        state = Chess(fen).initial_state()
        start = time.process_time()
        found = engine.think(state, Limit(nodes=nodes))
        seconds = time.process_time() - start
        assert found is not None
        total_nodes += found.nodes
        total_seconds += seconds
    print(f"  {total_nodes:,} nodes in {total_seconds:.2f} s CPU: "
          f"{total_nodes / total_seconds:,.0f} nodes/s")


# -- 3. WAC and Bratko-Kopec ---------------------------------------------------------------------
def bench_suite(file: str, seconds: float, limit_positions: int | None, nodes: int | None = None,
                compare: bool = False, eval_file: str | None = None) -> None:
    """Solved positions of an EPD suite at ``seconds`` a position (or ``nodes``, the same on
    any machine). Variants searched one after the other on each position, so that both see
    the same load on the machine: ``compare``, with and without quiescence's checks;
    ``eval_file``, the hand-set evaluation and that network."""
    budget = f"{nodes:,} nodes" if nodes else f"{seconds} s"
    path = DATA / file  # (an absolute path stays as it is)
    section(f"{SUITES.get(file, path.name)} ({budget} a position)")
    if not path.exists():
        print(f"  {path} not found: skipped")
        return
    cases = read_epd(path)[:limit_positions]
    hand = Engine(64)
    variants: dict[str, tuple[Engine, bool]] = {"engine": (hand, hand.quiet_checks)}
    if compare:
        variants = {"quiescence checks": (hand, True), "captures only": (hand, False)}
    if eval_file:
        network = Engine(64)
        network.use_network(eval_file)
        variants = {"hand-set evaluation": (hand, hand.quiet_checks),
                    f"network {eval_file}": (network, network.quiet_checks)}
    solved = dict.fromkeys(variants, 0)
    missed: dict[str, list[str]] = {name: [] for name in variants}
    spent = dict.fromkeys(variants, 0.0)
    for fen, best, name in cases:
        game = Chess(fen)
        state = game.initial_state()
        for variant, (engine, checks) in variants.items():
            engine.clear()
            engine.quiet_checks = checks
            clock = time.process_time()
            found = engine.think(state, Limit(nodes=nodes) if nodes else Limit(time=seconds))
            spent[variant] += time.process_time() - clock
            assert found is not None
            san = game.describe_move(state, found.move)
            if san.rstrip("+#") in [b.rstrip("+#") for b in best]:
                solved[variant] += 1
            else:
                missed[variant].append(name)
    for variant in variants:
        label = "" if len(variants) == 1 else f"{variant}: "
        print(f"  {label}solved {solved[variant]} of {len(cases)} "
              f"({spent[variant]:.0f} s CPU)")
        if missed[variant]:
            print(f"    missed: {' '.join(missed[variant])}")


SUITES = {"wac.epd": "Win at Chess", "bk.epd": "Bratko-Kopec"}


# -- matches over UCI ------------------------------------------------------------------------------
def yipan_command() -> list[str]:
    return [sys.executable, "-m", "yipan", "uci"]


def open_engine(command: list[str], options: dict | None = None):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    engine = chess.engine.SimpleEngine.popen_uci(command, timeout=300, env=env,
                                                 stderr=open(os.devnull, "w"))  # noqa: SIM115
    if options:
        engine.configure(options)
    return engine


def play_game(white, black, opening: str, limit: chess.engine.Limit) -> str:
    """One game from the opening; the result for white ("1-0", "0-1", "1/2-1/2").

    Adjudicated (to keep matches short) when both engines agree for ``ADJUDICATE_PLIES``
    plies in a row that the same side is ahead by ``ADJUDICATE_CP`` or more; a draw after
    ``MAX_GAME_PLIES`` plies."""
    board = chess.Board()
    for move in opening.split():
        board.push_uci(move)
    players = {chess.WHITE: white, chess.BLACK: black}
    streak = 0
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_GAME_PLIES:
        result = players[board.turn].play(board, limit, info=chess.engine.INFO_SCORE)
        if result.move is None:
            break
        score = result.info.get("score")
        white_cp = score.white().score(mate_score=100_000) if score is not None else 0
        winning = 1 if white_cp >= ADJUDICATE_CP else -1 if white_cp <= -ADJUDICATE_CP else 0
        streak = streak + winning if winning and streak * winning >= 0 else winning
        board.push(result.move)
        if abs(streak) >= ADJUDICATE_PLIES:
            return "1-0" if streak > 0 else "0-1"
    outcome = board.outcome(claim_draw=True)
    return outcome.result() if outcome is not None else "1/2-1/2"


def play_one(white: list[str], black: list[str], white_options: dict, black_options: dict,
             opening: str, move_time: float) -> str:
    """One game, a unit of work: both engines started for it; the result for white."""
    engines = [open_engine(white, white_options), open_engine(black, black_options)]
    try:
        return play_game(engines[0], engines[1], opening, chess.engine.Limit(time=move_time))
    finally:
        for engine in engines:
            engine.quit()


def match(ours: tuple[list[str], dict], theirs: tuple[list[str], dict], games: int,
          move_time: float, label: str, runner) -> float:
    """Games alternating colours over the openings; returns yipan's score (0..1)."""
    jobs = []
    for number in range(games):
        opening = OPENINGS[(number // 2) % len(OPENINGS)]
        white, black = (ours, theirs) if number % 2 == 0 else (theirs, ours)
        jobs.append((white[0], black[0], white[1], black[1], opening, move_time))
    results = run_match(play_one, jobs, runner=runner)
    points = 0.0
    record = {"win": 0, "draw": 0, "loss": 0}
    for number, result in enumerate(results):
        score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        ours_score = score if number % 2 == 0 else 1 - score
        points += ours_score
        record["win" if ours_score == 1 else "loss" if ours_score == 0 else "draw"] += 1
    print(f"  {label}: +{record['win']} ={record['draw']} -{record['loss']} "
          f"({points / games:.0%} for yipan over {games} games)", flush=True)
    return points / games


def bench_sunfish(games: int, move_time: float, runner) -> None:
    section(f"match against sunfish ({move_time} s a move each, {games} games)")
    path = os.environ.get("SUNFISH")
    if not path or not Path(path).exists():
        print("  sunfish not found: set SUNFISH to its sunfish.py (for example a checkout of "
              "github.com/thomasahle/sunfish outside this repository); skipped")
        return
    match((yipan_command(), {"Hash": 64}), ([sys.executable, path], {}), games, move_time,
          "yipan vs sunfish", runner)


def bench_ladder(games: int, move_time: float, runner) -> None:
    section(f"ladder against Stockfish's UCI_Elo ({move_time} s a move, {games} games a rung)")
    path = (os.environ.get("STOCKFISH") or shutil.which("stockfish")
            or shutil.which("stockfish", path="/usr/games"))  # where Debian puts it
    if not path:
        print("  stockfish not found (set STOCKFISH or put it on PATH); skipped")
        return
    held = None
    for elo in LADDER:
        theirs = ([path], {"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": 1, "Hash": 16})
        score = match((yipan_command(), {"Hash": 64}), theirs, games, move_time,
                      f"yipan vs Stockfish UCI_Elo {elo}", runner)
        if score < 0.5:
            break
        held = elo
    print(f"  highest rung held at 50% or more: {held if held else 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="perft,search,wac,sunfish,ladder",
                        help="comma-separated parts to run")
    parser.add_argument("--search-nodes", type=int, default=1_000_000)
    parser.add_argument("--wac-time", type=float, default=1.0)
    parser.add_argument("--wac-positions", type=int, default=None)
    parser.add_argument("--wac-nodes", type=int, default=None,
                        help="a node budget a position instead of --wac-time")
    parser.add_argument("--wac-compare", action="store_true",
                        help="WAC with and without quiescence's checks, side by side")
    parser.add_argument("--bk-time", type=float, default=2.0,
                        help="seconds a Bratko-Kopec position (part bk)")
    parser.add_argument("--suite", default=None, metavar="FILE",
                        help="part suite: any EPD file with bm operations (LCT II, say, "
                             "which the shared data does not hold)")
    parser.add_argument("--suite-time", type=float, default=2.0,
                        help="seconds a position of --suite")
    parser.add_argument("--eval-file", default=None,
                        help="wac, bk, suite: the hand-set evaluation and this network "
                             "(builtin: the shipped one) side by side")
    parser.add_argument("--games", type=int, default=20, help="games against sunfish")
    parser.add_argument("--move-time", type=float, default=0.5,
                        help="seconds a move in the sunfish match")
    parser.add_argument("--ladder-games", type=int, default=20)
    parser.add_argument("--ladder-time", type=float, default=0.2)
    add_cluster_arguments(parser)
    args = parser.parse_args()
    parts = set(args.only.split(","))
    start = time.perf_counter()
    prepare()
    if "perft" in parts:
        prepare_counter(Chess())  # (the perft counter: not part of a game's preparation)
    print(f"kernels ready in {time.perf_counter() - start:.1f} s")
    if "perft" in parts:
        bench_perft()
    if "search" in parts:
        bench_search(args.search_nodes)
    if "wac" in parts:
        bench_suite("wac.epd", args.wac_time, args.wac_positions, args.wac_nodes,
                    args.wac_compare, args.eval_file)
    if "bk" in parts:
        bench_suite("bk.epd", args.bk_time, None, None, args.wac_compare, args.eval_file)
    if "suite" in parts:
        if not args.suite:
            parser.error("part suite needs --suite FILE")
        bench_suite(str(Path(args.suite).resolve()), args.suite_time, None, None,
                    args.wac_compare, args.eval_file)
    runner = make_runner(args.ray, args.workers) if parts & {"sunfish", "ladder"} else None
    if "sunfish" in parts:
        bench_sunfish(args.games, args.move_time, runner)
    if "ladder" in parts:
        bench_ladder(args.ladder_games, args.ladder_time, runner)


if __name__ == "__main__":
    main()
