"""Whole UCI and UCCI sessions of random and malformed commands, as a careless or hostile GUI
might send them: random tokens, huge numbers, null and illegal moves, unknown options,
searchmoves and banmoves, go with odd limits, stop, ponderhit and quit at odd times, position
lines with garbage.

Each session runs against a fresh engine in process, under a referee that checks: no line
raises; every answer is one short line and none reports an internal error; every search a
go started is answered once, with a legal move whenever the position has one (``bestmove
0000`` / ``nobestmove`` only when it has none); after a final ``stop`` the engine answers
``isready`` with ``readyok``; and the session ends (a hang is reported after ``HANG``
seconds, which no healthy session comes near: its searches are stopped or bounded by a few
hundred nodes). A few sessions run through the script as a subprocess as well: exit status
0, no traceback, ``readyok`` last.

``YIPAN_FUZZ_SESSIONS`` sets the number of in-process sessions per protocol (default
``DEFAULT_SESSIONS``; a fiftieth as many run as processes, at least one);
``YIPAN_FUZZ_SEED`` moves the seeds.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess
import pytest

from yipan.protocols.uci_family import EngineProtocol

SRC = Path(__file__).resolve().parents[2] / "src"
DEFAULT_SESSIONS = 100
SESSIONS = int(os.environ.get("YIPAN_FUZZ_SESSIONS", DEFAULT_SESSIONS))
PROCESS_SESSIONS = max(1, SESSIONS // 50)
SEED = int(os.environ.get("YIPAN_FUZZ_SEED", 0))
HANG = 300  # seconds a session may take before it is reported as hung
MAX_ANSWER = 2000
BAD_NEWS = ("Traceback", "internal error", "search failed", "warm-up failed")

NUMBERS = ["0", "1", "-1", "2", "7", "50", "200", "3000", "99999999999999999999999",
           "-99999999999999999999", "1e9", "x", "٣", "0x10", "", "nan"]
JUNK = ["", " ", "\t", "hello", "🙂", "\x00", "\x1b[2J", "moves", "fen", "startpos", "name",
        "value", "go", "position", "=", "x" * 300, "9" * 60, "\\", "'", '"']


@pytest.fixture(scope="module")
def compiled() -> None:
    """The kernels compiled first (the engines then only load them)."""
    from yipan.games.chess.hooks import prepare as prepare_chess
    from yipan.games.xiangqi.hooks import prepare as prepare_xiangqi

    prepare_chess()
    prepare_xiangqi()


# -- what a session says --------------------------------------------------------------------------
@dataclass
class Dialect:
    """How to talk one protocol: its engine, its words, its positions and moves."""

    name: str
    make: Callable[[Callable[[str], None]], EngineProtocol]
    script: list[str]
    hello: str
    fens: list[str]
    playout: Callable[[random.Random, str | None, int], Playout]
    illegal: list[str]
    setoptions: Callable[[random.Random], str]
    go_words: list[str]
    short_time: list[str]  # go words that bound a search by a short time
    extra: list[str] = field(default_factory=list)


Playout = tuple[list[str], list[str]]  # a random game's moves, the legal moves after them


def chess_playout(rng: random.Random, fen: str | None, length: int) -> Playout:
    """A random game from the position (UCI moves); nothing when the FEN is bad."""
    try:
        board = chess.Board(fen) if fen else chess.Board()
    except ValueError:
        return [], []
    moves = []
    for _ in range(length):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move.uci())
        board.push(move)
    return moves, [move.uci() for move in board.legal_moves]


def xiangqi_playout(rng: random.Random, fen: str | None, length: int) -> Playout:
    """A random game from the position (ICCS moves); nothing when the FEN is bad."""
    from yipan.core import YipanError
    from yipan.games.xiangqi import Xiangqi

    try:
        game = Xiangqi(fen)
    except (YipanError, ValueError):
        return [], []
    state, moves = game.initial_state(), []
    for _ in range(length):
        legal = game.legal_moves(state)
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(game.format_move(move))
        state = game.play(state, move)
    return moves, [game.format_move(move) for move in game.legal_moves(state)]


def uci_setoption(rng: random.Random) -> str:
    name = rng.choice(["Hash", "Threads", "Move Overhead", "OwnBook", "BookFile",
                       "TablebasePath", "SyzygyPath", "UCI_Coordinates", "UCI_Variant",
                       "Ponder", "Foo", "", "hash", "MultiPV"])
    values = {"Hash": ["1", "2", "0", "-1", "5000"], "OwnBook": ["true", "false", "maybe"],
              "BookFile": ["/nonexistent/book.bin", "/dev/null", "/", "<empty>"],
              "TablebasePath": ["/nonexistent", "/", "<empty>", "/dev/null"],
              "SyzygyPath": ["/nonexistent", "/", "<empty>"],
              "UCI_Coordinates": ["fairy", "iccs", "utm"],
              # xiangqi now and then: a new engine, warmed up again
              "UCI_Variant": ["chess", "shogi", "chess", "xiangqi"]}
    value = rng.choice(values.get(name, []) + NUMBERS + JUNK)
    shape = rng.random()
    if shape < 0.8:
        return f"setoption name {name} value {value}"
    if shape < 0.9:
        return f"setoption name {name}"
    return f"setoption {name} {value}"


def ucci_setoption(rng: random.Random) -> str:
    name = rng.choice(["hashsize", "usemillisec", "newgame", "ponder", "batch", "bookfiles",
                       "foo", ""])
    value = rng.choice(["true", "false", "on", "off", "1", "2", "0", *NUMBERS, *JUNK])
    return f"setoption {name} {value}"


CHESS_FENS = [
    chess.STARTING_FEN,
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1",  # bare kings
    "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",  # mated
    "7k/8/6QK/8/8/8/8/8 b - - 0 1",  # stalemated
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 99 60",  # castling, the fifty-move rule next
    "4k3/8/8/8/8/8/8/4K2R w K - 99999999999999999999 99999999999999999999",
    "8/8/8/8/8/8/8/8 w - - 0 1", "nonsense", "rnbqkbnr/pppppppp w", "",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
]
XIANGQI_FENS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3k5/2P1P4/9/9/9/9/9/9/9/5K3 b",  # black has no move
    "4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/9/3K5 w - - 999999999999999999999 99999999999999999999",
    "9/9/9/9/9/9/9/9/9/9 w", "nonsense", "", chess.STARTING_FEN,
]

UCI = Dialect(
    name="uci", make=lambda write: _uci()(write, hash_mb=1), script=["uci"], hello="uci",
    fens=CHESS_FENS, playout=chess_playout,
    illegal=["e2e5", "e1g1", "a7a8q", "Nf3", "O-O", "e2e4e5", "a1a1", "i9i9", "h2e2"],
    setoptions=uci_setoption,
    go_words=["wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes",
              "mate"],
    short_time=["movetime", "20"],
    extra=["ucinewgame", "debug on", "register later", "ponderhit"])
UCCI = Dialect(
    name="ucci", make=lambda write: _ucci()(write, hash_mb=1), script=["ucci"], hello="ucci",
    fens=XIANGQI_FENS, playout=xiangqi_playout,
    illegal=["h2h9", "a0a9", "e0e1", "z9z9", "C2=5", "炮二平五", "h3e3", "e2e4", "a10a9"],
    setoptions=ucci_setoption,
    go_words=["depth", "nodes", "time", "movestogo", "increment", "opptime", "oppmovestogo",
              "oppincrement"],
    short_time=["time", "1"],  # a second on the clock: a thirtieth of it for the move
    extra=["probe startpos", "ponderhit draw"])


def _uci() -> Any:
    from yipan.protocols.uci import UciEngine

    return UciEngine


def _ucci() -> Any:
    from yipan.protocols.ucci import UcciEngine

    return UcciEngine


def position_line(rng: random.Random, dialect: Dialect) -> tuple[str, list[str]]:
    """A position line (a random game's moves with, now and then, a null, illegal or
    garbage move inside), and the legal moves where the game leads."""
    if rng.random() < 0.4:
        fen, setup = None, "startpos"
    else:
        fen = rng.choice(dialect.fens)
        setup = f"fen {fen}"
    moves, replies = dialect.playout(rng, fen, rng.randrange(0, 14))
    if rng.random() < 0.4:
        bad = rng.choice(["0000", *dialect.illegal, *JUNK[:6], *NUMBERS[8:10]])
        moves.insert(rng.randrange(len(moves) + 1), bad)
    shape = rng.random()
    if shape < 0.75:
        line = f"position {setup}" + (f" moves {' '.join(moves)}" if moves else "")
    elif shape < 0.85:
        line = f"position {setup} moves"
    elif shape < 0.95:
        line = f"position {rng.choice(JUNK)} {setup}"
    else:
        line = "position"
    return line, replies


def go_line(rng: random.Random, dialect: Dialect, replies: list[str]) -> tuple[str, bool]:
    """A go line, and whether it ends by its own limit (so that waiting for it ends)."""
    words: list[str] = []
    for _ in range(rng.randrange(0, 4)):
        kind = rng.random()
        if kind < 0.5:
            words += [rng.choice(dialect.go_words), rng.choice(NUMBERS)]
        elif kind < 0.6:
            words.append(rng.choice(["infinite", "ponder", "draw", "depth infinite"]))
        elif kind < 0.8:
            named = rng.sample([*replies, *dialect.illegal, "0000"], k=rng.randrange(0, 3))
            words += [rng.choice(["searchmoves", "searchmoves"]), *named]
        else:
            words.append(rng.choice(JUNK))
    if rng.random() < 0.2:
        rng.shuffle(words)
    bounded = rng.random() < 0.8  # most searches bounded: the fuzz stays cheap
    if bounded:
        words += rng.choice([["nodes", str(rng.randrange(1, 300))], ["depth", "1"],
                             ["depth", "2"], dialect.short_time])
    until_stop = {"infinite", "ponder"} & set(" ".join(words).lower().split())
    return " ".join(["go", *words]), bounded and not until_stop


WAIT = "(wait)"  # not a line: the referee lets the running search end by its own limit


def session(rng: random.Random, dialect: Dialect) -> list[str]:
    """One session's lines (and ``WAIT`` marks)."""
    lines = [dialect.hello] if rng.random() < 0.7 else []
    if rng.random() < 0.6:
        lines.append("isready")
    replies: list[str] = []
    for _ in range(rng.randrange(1, 14)):
        roll = rng.random()
        if roll < 0.25:
            line, replies = position_line(rng, dialect)
            lines.append(line)
        elif roll < 0.5:
            line, bounded = go_line(rng, dialect, replies)
            lines.append(line)
            if bounded and rng.random() < 0.3:
                lines.append(WAIT)
        elif roll < 0.6:
            lines.append(rng.choice(["stop", "stop", "ponderhit", "isready"]))
        elif roll < 0.7:
            lines.append(dialect.setoptions(rng))
        elif roll < 0.75 and dialect.name == "ucci":
            lines.append("banmoves " + " ".join(rng.sample([*replies, *dialect.illegal], k=2)))
        elif roll < 0.85:
            lines.append(rng.choice(dialect.extra + [dialect.hello]))
        elif roll < 0.98:
            lines.append(" ".join(rng.choice(JUNK + NUMBERS + dialect.go_words + ["go"])
                                  for _ in range(rng.randrange(1, 5))))
        else:
            lines.append("quit")
    return lines


# -- the referee ----------------------------------------------------------------------------------
@dataclass
class Findings:
    sessions: int = 0
    tracebacks: int = 0  # a line that raised, or an answer reporting an internal error
    deaths: int = 0  # no readyok at the end
    hangs: int = 0
    illegal: int = 0  # a search answered with no move, a wrong move, or not once
    failures: list[str] = field(default_factory=list)

    def fail(self, kind: str, lines: list[str], detail: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.failures) < 5:
            self.failures.append(f"{kind}: {detail}\n  session: {lines!r}")


def referee(dialect: Dialect, lines: list[str], findings: Findings) -> None:
    """Run one session in process and record what went wrong."""
    answers: list[str] = []  # (list.append is atomic: the search thread writes here too)
    engine = dialect.make(answers.append)
    searches: list[tuple[Any, Any, Any]] = []  # (variant, game, state) of each search begun
    problems: list[tuple[str, str]] = []

    def play() -> None:
        try:
            for line in lines:
                if line == WAIT:
                    thread = engine.search_thread
                    if thread is not None:
                        thread.join()
                    continue
                before = engine.search_thread
                if engine.handle(line) is False:
                    if line.split()[:1] != ["quit"]:
                        problems.append(("tracebacks", f"{line!r} ended the engine"))
                    return
                if engine.search_thread is not None and engine.search_thread is not before:
                    searches.append((engine.variant, engine.game, engine.state))
            engine.handle("stop")
            engine.handle("isready")
        except BaseException as error:  # noqa: BLE001 - reported as a finding
            problems.append(("tracebacks", f"{type(error).__name__}: {error}"))
        finally:
            engine.close()

    runner = threading.Thread(target=play, daemon=True)
    runner.start()
    runner.join(HANG)
    findings.sessions += 1
    if runner.is_alive():
        engine.stop_event.set()
        findings.fail("hangs", lines, "the session did not end")
        return
    for kind, detail in problems:
        findings.fail(kind, lines, detail)
    quit_early = any(line.split()[:1] == ["quit"] for line in lines)
    if not quit_early and (not answers or answers[-1] != "readyok"):
        findings.fail("deaths", lines, f"no readyok at the end: {answers[-3:]!r}")
    for answer in answers:
        if "\n" in answer or len(answer) > MAX_ANSWER or any(bad in answer for bad in BAD_NEWS):
            findings.fail("tracebacks", lines, f"answer {answer[:300]!r}")
    given = [answer.split() for answer in answers
             if answer.split()[:1] in (["bestmove"], ["nobestmove"])]
    if len(given) != len(searches):
        findings.fail("illegal", lines, f"{len(searches)} searches, {len(given)} answers")
        return
    for (variant, game, state), answer in zip(searches, given, strict=True):
        moves = variant.moves(state)
        if answer[0] == "nobestmove" or answer[1] == "0000":
            if moves:
                findings.fail("illegal", lines, f"{answer} where moves exist")
            continue
        try:
            variant.read_move(game, state, answer[1])
        except ValueError as error:
            findings.fail("illegal", lines, f"{answer}: {error}")


def run_batch(dialect: Dialect, count: int, seed: int) -> Findings:
    findings = Findings()
    for number in range(count):
        rng = random.Random(f"{dialect.name}-{seed}-{number}")
        referee(dialect, session(rng, dialect), findings)
    return findings


@pytest.mark.parametrize("dialect", [UCI, UCCI], ids=lambda dialect: dialect.name)
def test_random_sessions_in_process(compiled, dialect: Dialect) -> None:
    findings = run_batch(dialect, SESSIONS, SEED)
    print(f"{dialect.name}: {findings.sessions} sessions, {findings.tracebacks} tracebacks, "
          f"{findings.deaths} deaths, {findings.hangs} hangs, {findings.illegal} bad answers")
    assert not findings.failures, "\n".join(findings.failures)


@pytest.mark.parametrize("dialect", [UCI, UCCI], ids=lambda dialect: dialect.name)
def test_random_sessions_through_the_script(compiled, dialect: Dialect) -> None:
    lines: list[str] = []
    for number in range(PROCESS_SESSIONS * 5):
        rng = random.Random(f"{dialect.name}-process-{SEED}-{number}")
        lines += [line for line in session(rng, dialect)
                  if line != WAIT and line.split()[:1] != ["quit"]]
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run([sys.executable, "-m", "yipan", dialect.name],
                          input="\n".join([*lines, "stop", "isready", "go infinite", "quit", ""]),
                          capture_output=True, text=True, encoding="utf-8", errors="replace",
                          env=env, timeout=HANG)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    answers = done.stdout.splitlines()
    # readyok, then quit ends the infinite search: its answer (and UCCI's bye) come last
    ending = answers[len(answers) - 1 - answers[::-1].index("readyok"):]
    assert [line.split()[0] for line in ending if not line.startswith("info")] == \
        ["readyok", "bestmove"] + (["bye"] if dialect.name == "ucci" else [])
    assert not any(bad in done.stdout for bad in BAD_NEWS)
