"""The Gomocup brain (``pbrain-yipan``) under generated manager sessions in hostile orders:
bad board sizes, moves off the board or on stones, BOARD and SWAP2BOARD blocks with broken
lines (or never closed), INFO with huge numbers or none, turns under tiny time limits,
takebacks of empty points, END in the middle. Every answer is one of the protocol's forms
(a move, OK, ERROR or UNKNOWN with a reason, MESSAGE, SWAP, ABOUT's line, swap2's three
stones), never an internal error; the brain goes on and still plays a legal move. A few
sessions run through the real process, which must end cleanly with no traceback.

(``test_gomocup_fuzz.py`` throws single random lines; these are whole sessions.) Small
budgets keep CI short: a shallow brain, turns of a few milliseconds;
``YIPAN_FUZZ_SESSIONS=N`` runs N sessions of each kind instead.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import yipan
from yipan.protocols.gomocup import ABOUT, Brain

SESSIONS = int(os.environ.get("YIPAN_FUZZ_SESSIONS", "0"))
MAX_DEPTH = 3  # a shallow brain: a turn ends in moments whatever the clock says

SIZES = ["15", "20", "5", "4", "6", "19", "22", "23", "0", "-1", "99999999999", "9" * 300, "x",
         "", "15 15", "1e3", "٣"]
NUMBERS = ["0", "1", "2", "5", "50", "1000", "-1", "-1000", "2147483648", "99999999999999",
           "9" * 300, "", "x", "1.5", "٣"]
INFO_KEYS = ["timeout_turn", "timeout_match", "time_left", "max_memory", "rule", "game_type",
             "folder", "evaluate", "TIMEOUT_TURN", "nonsense"]
RULES = ["0", "1", "2", "3", "4", "5", "8", "9", "12", "-4", "255"]
COMMANDS_ = ["TURN", "PLAY", "TAKEBACK", "BEGIN", "RESTART", "ABOUT", "RECTSTART", "END",
             "turn", "Play", "FOO", "DONE", "x", ""]

coordinate = st.integers(-2, 22) | st.sampled_from([99999, -99999, 10**30])
POINT = st.tuples(coordinate, coordinate).map(lambda p: f"{p[0]},{p[1]}") \
    | st.sampled_from(["7,7", "7,7", "0,0", "14,14", "15,15", "a,b", ",", "1,", "7 ,7",
                       "7,7,1", "٣,٣", ""])
FIELD = st.sampled_from(["1", "2", "3", "0", "4", "-1", "x"])
START = st.sampled_from(SIZES).map(lambda size: f"START {size}")
INFO = st.one_of(st.tuples(st.sampled_from(INFO_KEYS), st.sampled_from(NUMBERS)),
                 st.tuples(st.just("rule"), st.sampled_from(RULES))
                 ).map(lambda kv: f"INFO {kv[0]} {kv[1]}")
MOVE = st.tuples(st.sampled_from(COMMANDS_), POINT).map(lambda c: f"{c[0]} {c[1]}".strip())
BOARD = st.tuples(st.sampled_from(["BOARD", "SWAP2BOARD"]),
                  st.lists(st.tuples(POINT, FIELD).map(lambda pf: f"{pf[0]},{pf[1]}")
                           | POINT | st.text(max_size=6), max_size=7),
                  st.sampled_from(["DONE", "DONE", "done", ""])
                  ).map(lambda b: [b[0], *b[1], b[2]])
STEP = st.one_of(START.map(lambda line: [line]), INFO.map(lambda line: [line]),
                 MOVE.map(lambda line: [line]), BOARD,
                 st.text(max_size=10).map(lambda line: [line]))
SESSION = st.lists(STEP, max_size=10).map(lambda steps: [line for step in steps for line in step])

MOVE_ANSWER = re.compile(r"[0-9]+,[0-9]+")
SWAP2_OPENING = re.compile(r"[0-9]+,[0-9]+ [0-9]+,[0-9]+ [0-9]+,[0-9]+")


def well_formed(answer: str) -> bool:
    """One of the answers the protocol has."""
    if "internal error" in answer or "\n" in answer or len(answer) > 220:
        return False
    return bool(answer in ("OK", "SWAP", ABOUT) or MOVE_ANSWER.fullmatch(answer)
                or SWAP2_OPENING.fullmatch(answer)
                or re.match(r"(ERROR|UNKNOWN|MESSAGE|DEBUG) \S", answer))


def new_brain() -> Brain:
    brain = Brain(max_depth=MAX_DEPTH)
    brain.handle("INFO timeout_turn 20")  # a manager's first words; the session may change them
    return brain


def still_plays(brain: Brain) -> None:
    brain.handle("DONE")  # ends a BOARD the session may have left open
    assert brain.handle("START 15") == ["OK"]
    brain.handle("INFO timeout_turn 20")
    brain.handle("INFO rule 0")
    answer = brain.handle("TURN 7,7")
    assert MOVE_ANSWER.fullmatch(answer[-1]), answer
    x, y = map(int, answer[-1].split(","))
    assert 0 <= x < 15 and 0 <= y < 15 and (x, y) != (7, 7)


@pytest.fixture(scope="module", autouse=True)
def _engine_ready() -> None:
    Brain().handle("START 15")  # the kernels loaded once, before the sessions


@settings(max_examples=SESSIONS or 150, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(lines=SESSION)
def test_any_session_is_answered_in_the_protocols_forms(lines: list[str]) -> None:
    brain = new_brain()
    for line in lines:
        answers = brain.handle(line)
        assert all(well_formed(answer) for answer in answers), (line, answers, lines)
        if brain.ended:  # END: a manager would start a new brain
            brain = new_brain()
    still_plays(brain)


@pytest.mark.parametrize("board", ["BOARD", "SWAP2BOARD"])
def test_a_huge_number_in_a_board_line_is_an_error_not_a_crash(board: str) -> None:
    """(Found by the sessions above: it was an internal error.)"""
    brain = new_brain()
    assert brain.handle("START 15") == ["OK"]
    assert brain.handle(board) == []
    line = "0,99999,1" if board == "BOARD" else "99999,0"
    assert brain.handle(line) == ["ERROR a board number is too large (5 digits)"]
    answers = brain.handle("DONE")  # the board without that line: the brain plays on it
    assert answers and all(well_formed(answer) for answer in answers)


def process_session(rng: random.Random) -> list[str]:
    """A hostile session as a manager's lines, ending with a real game's first turn."""
    lines = ["START 15", "INFO timeout_turn 20"]
    for _ in range(rng.randint(3, 10)):
        kind = rng.choice(["start", "info", "move", "board", "junk"])
        if kind == "start":
            lines.append(f"START {rng.choice(SIZES)}")
        elif kind == "info":
            lines.append(f"INFO {rng.choice(INFO_KEYS)} {rng.choice(NUMBERS)}")
        elif kind == "move":
            command = rng.choice(["TURN", "PLAY", "TAKEBACK", "BEGIN", "RESTART"])
            lines.append(f"{command} {rng.randint(-1, 16)},{rng.randint(-1, 16)}")
        elif kind == "board":
            lines.append(rng.choice(["BOARD", "SWAP2BOARD"]))
            lines += [f"{rng.randint(-1, 15)},{rng.randint(0, 14)},{rng.randint(0, 3)}"
                      for _ in range(rng.randint(0, 5))]
            lines.append(rng.choice(["DONE", "x"]))
        else:
            lines.append(rng.choice(["", "x", "9" * 300, "ABOUT", "RECTSTART 10,12", "\x00"]))
    return [*lines, "DONE", "START 15", "INFO timeout_turn 20", "INFO rule 0", "TURN 7,7",
            "END"]


@pytest.mark.parametrize("seed", range(SESSIONS // 20 or 3))
def test_the_process_lives_through_a_hostile_session(seed: int, tmp_path: Path) -> None:
    lines = process_session(random.Random(seed))
    source = str(Path(yipan.__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-m", "yipan", "gomocup", "--max-depth", str(MAX_DEPTH)],
        input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": source},
        timeout=600)  # only so that a hang cannot stall CI
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    answers = done.stdout.splitlines()
    assert all(well_formed(answer) for answer in answers), answers
    moves = [answer for answer in answers if not answer.startswith("MESSAGE")]
    assert MOVE_ANSWER.fullmatch(moves[-1]), answers  # the last TURN got a move
