"""The GTP engine (``gtp-yipan``) under generated command sessions: random and malformed
commands in any order (random tokens, huge numbers, illegal and occupied moves, bad board
sizes, clocks of a second or of years, genmove under tiny limits). Every command gets one
well-formed answer (``=`` or ``?`` with a message, never an internal error), the engine goes
on, and after the session it still plays a legal move. A few sessions run through the real
process, which must end cleanly with no traceback.

Small budgets keep CI short (a few hundred sessions, eight playouts a move);
``YIPAN_FUZZ_SESSIONS=N`` runs N sessions of each kind instead.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import yipan
from yipan.protocols.gtp import COMMANDS, GtpEngine, clean

SESSIONS = int(os.environ.get("YIPAN_FUZZ_SESSIONS", "0"))
PLAYOUTS = 8
SECONDS = 0.05

NAMES = [*COMMANDS, "GENMOVE", "Play", "foo", "list-commands", "kgs-chat"]
TOKENS = ["b", "w", "black", "white", "x", "B", "A1", "a1", "J9", "j9", "T19", "Z99", "I5", "A0",
          "A-1", "AA1", "pass", "PASS", "resign", "E5", "C3", "D4", "-1", "0", "1", "2", "3", "7",
          "9", "13", "19", "25", "26", "80", "360", "361", "999999999", "99999999999999999999",
          "1e9", "nan", "inf", "0.5", "0.000001", "6.5", "-7.5", "none", "absolute", "byoyomi",
          "canadian", "alive", "dead", "seki", "/nonexistent", "/dev/zero", "game.sgf", "٣",
          "²", "\x00", "#", "\t", "9" * 300, ""]


def harmless(line: str) -> str:
    """The line, except that ``printsgf`` writes only ``game.sgf`` in the session's folder
    (the tests run as whatever user runs them: a generated path could name any file)."""
    words = clean(line).split()
    at = 1 if words[:1] and words[0].isdigit() and words[0].isascii() else 0
    if len(words) > at + 1 and words[at].lower() == "printsgf":
        return " ".join([*words[:at + 1], "game.sgf"])
    return line


LINE = st.tuples(st.sampled_from(["", "", "", "1 ", "42 ", "9" * 30 + " "]),
                 st.sampled_from(NAMES) | st.text(max_size=8),
                 st.lists(st.sampled_from(TOKENS) | st.text(max_size=6), max_size=4)
                 ).map(lambda parts: harmless(parts[0] + " ".join([parts[1], *parts[2]])))
SESSION = st.lists(LINE, max_size=12)


@pytest.fixture(scope="module", autouse=True)
def _in_a_scratch_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """``printsgf NAME`` writes NAME: the sessions run in a folder of their own."""
    from yipan.games.go.hooks import prepare

    prepare()
    here = Path.cwd()
    os.chdir(tmp_path_factory.mktemp("gtp"))
    yield
    os.chdir(here)


def check_answer(line: str, answer: str) -> None:
    """One answer per command, as GTP 2 frames it; a refusal is one short line."""
    if not clean(line):
        assert answer == "", (line, answer)
        return
    assert answer[:1] in ("=", "?") and answer.endswith("\n\n"), (line, answer)
    assert "internal error" not in answer, (line, answer)
    if answer.startswith("?"):
        assert answer.count("\n") == 2 and len(answer) < 400, (line, answer)


def legal_reply(engine: GtpEngine) -> None:
    """After anything, the engine still sets up a game and answers with a legal move."""
    for command in ("boardsize 9", "clear_board", "komi 7", "play b E5"):
        assert engine.handle(command) == "=\n\n", command
    answer = engine.handle("genmove w")
    assert answer.startswith("= ") and answer.endswith("\n\n"), answer
    word = answer[2:].strip()
    if word not in ("pass", "resign"):
        move = engine.game.parse_move(None, word)
        assert move in engine.game.legal_moves(engine.states[-2])


@settings(max_examples=SESSIONS or 150, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(lines=SESSION, seed=st.integers(0, 2**16))
def test_any_session_is_answered_and_the_engine_goes_on(lines: list[str], seed: int) -> None:
    engine = GtpEngine(seconds=SECONDS, playouts=PLAYOUTS, rng=random.Random(seed))
    for line in lines:
        check_answer(line, engine.handle(line))
        if engine.ended:  # quit: a controller would start a new engine
            engine = GtpEngine(seconds=SECONDS, playouts=PLAYOUTS, rng=random.Random(seed))
    legal_reply(engine)


def test_a_device_is_not_loaded_as_a_game_record() -> None:
    """/dev/zero never ends: it is refused, not read (nor /dev/stdin, the commands' own)."""
    engine = GtpEngine(seconds=SECONDS, playouts=PLAYOUTS, rng=random.Random(1))
    assert engine.handle("loadsgf /dev/zero") == "? cannot load file (not a file)\n\n"
    assert engine.handle("loadsgf /nonexistent.sgf") == "? cannot load file\n\n"


def test_printsgf_writes_only_a_regular_file_in_an_existing_folder(tmp_path: Path) -> None:
    """A device, a pipe or a folder is never replaced by the record (as root, printsgf
    /dev/null would otherwise leave the machine without its /dev/null), and no folder is
    made on the way."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    engine = GtpEngine(seconds=SECONDS, playouts=PLAYOUTS, rng=random.Random(1))
    refused = "? cannot write file (not a regular file in an existing folder)\n\n"
    assert engine.handle(f"printsgf {pipe}") == refused
    assert engine.handle(f"printsgf {tmp_path}") == refused
    assert engine.handle(f"printsgf {tmp_path / 'new' / 'game.sgf'}") == refused
    assert pipe.is_fifo() and not (tmp_path / "new").exists()
    assert engine.handle(f"printsgf {tmp_path / 'game.sgf'}") == "=\n\n"
    assert (tmp_path / "game.sgf").read_text().startswith("(;FF[4]")


def test_the_engines_playouts_bound_every_search_even_under_a_clock(monkeypatch) -> None:
    """With --playouts, a clock of years (time_settings) and hundreds of free handicap
    stones still search no more than those playouts each."""
    from yipan.games.go.engine import Engine

    asked: list[int | None] = []
    think = Engine.think

    def counted(self, state, *, playouts=None, seconds=None, **rest):
        asked.append(playouts)
        return think(self, state, playouts=PLAYOUTS, seconds=None, **rest)

    monkeypatch.setattr(Engine, "think", counted)
    engine = GtpEngine(seconds=SECONDS, playouts=PLAYOUTS, rng=random.Random(2))
    assert engine.handle("boardsize 19") == "=\n\n"
    assert engine.handle("place_free_handicap 200").startswith("= ")
    assert engine.handle("time_settings 999999999 0 0") == "=\n\n"
    assert engine.handle("genmove w").startswith("= ")
    assert asked and all(playouts is not None and playouts <= PLAYOUTS for playouts in asked)


def process_session(rng: random.Random) -> list[str]:
    """A small board, then commands of hostile words (as the controller would send them, one
    a line), ending with a real genmove and quit."""
    lines = ["boardsize 7"]
    for _ in range(rng.randint(3, 15)):
        words = [rng.choice(NAMES), *rng.sample(TOKENS, rng.randint(0, 3))]
        lines.append(harmless(" ".join(words).replace("\n", " ").replace("\r", " ")))
    return [*lines, "boardsize 7", "clear_board", "genmove b", "quit"]


def run_process(lines: list[str], cwd: Path) -> tuple[int, str, str]:
    source = str(Path(yipan.__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-m", "yipan", "gtp", "--playouts", str(PLAYOUTS), "--time",
         str(SECONDS), "--seed", "1"],
        input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=cwd,
        env={**os.environ, "PYTHONPATH": source},
        timeout=600)  # only so that a hang cannot stall CI
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("seed", range(SESSIONS // 20 or 3))
def test_the_process_lives_through_a_hostile_session(seed: int, tmp_path: Path) -> None:
    """It answers every command up to the first quit (one ``=`` or ``?`` line opening each
    answer) and ends with status 0 and no traceback."""
    lines = process_session(random.Random(seed))
    status, out, err = run_process(lines, tmp_path)
    assert status == 0 and "Traceback" not in err, err[-2000:]
    commands = [clean(line) for line in lines if clean(line)]
    names = [command.split()[0].lower() for command in commands]
    commands = commands[:names.index("quit") + 1]  # (a quit with words after it quits too)
    openings = [line for line in out.splitlines() if re.match(r"[=?][0-9]*( |$)", line)]
    assert len(openings) == len(commands), (lines, out)
    if commands[-1] == "quit" and commands[-2] == "genmove b":
        assert openings[-2].startswith("= ")  # the real genmove got a move
