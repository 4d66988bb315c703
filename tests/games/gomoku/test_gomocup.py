"""The Gomocup brain: commands answered by the protocol, bad lines answered ERROR, and a
scripted session with the real process on stdin/stdout."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from yipan.protocols.gomocup import Brain

SRC = Path(__file__).resolve().parents[3] / "src"
MOVE = re.compile(r"^(\d+),(\d+)$")


def move_of(answer: str) -> tuple[int, int]:
    match = MOVE.match(answer)
    assert match, f"not a move: {answer!r}"
    return int(match.group(1)), int(match.group(2))


@pytest.fixture
def brain():
    brain = Brain()
    assert brain.handle("START 15") == ["OK"]
    assert brain.handle("INFO timeout_turn 300") == []
    return brain


def test_commands_before_start_and_bad_sizes_are_errors():
    brain = Brain()
    assert brain.handle("BEGIN")[0].startswith("ERROR")
    assert brain.handle("TURN 7,7")[0].startswith("ERROR")
    assert brain.handle("START 40")[0].startswith("ERROR")
    assert brain.handle("START x")[0].startswith("ERROR")
    assert brain.handle("RECTSTART 20,15")[0].startswith("ERROR")
    assert brain.handle("ABOUT")[0].startswith('name="yipan"')
    assert brain.handle("START 20") == ["OK"]


@pytest.mark.parametrize("line", ["TURN", "TURN 7", "TURN a,b", "TURN 15,0", "TURN -1,3",
                                  "INFO timeout_turn soon", "%%%", "12,3,4,5"])
def test_malformed_lines_are_answered_with_error_and_the_brain_goes_on(brain, line):
    answers = brain.handle(line)
    assert len(answers) == 1 and answers[0].startswith("ERROR"), answers
    x, y = move_of(brain.handle("TURN 7,7")[0])
    assert (x, y) != (7, 7)


def test_unknown_command_words_get_unknown(brain):
    assert brain.handle("SWAP3BOARD")[0].startswith("UNKNOWN")
    assert brain.handle("PONDER")[0].startswith("UNKNOWN")


def swap2(brain, stones: list[tuple[int, int]]) -> list[str]:
    """A SWAP2BOARD as the swap2 extension sends it: ``x,y`` lines in playing order."""
    assert brain.handle("SWAP2BOARD") == []
    answers = []
    for x, y in stones:
        answers += brain.handle(f"{x},{y}")
    return answers + brain.handle("DONE")


def test_swap2_on_an_empty_board_places_three_stones_near_the_centre(brain):
    answer = swap2(brain, [])
    points = [tuple(map(int, p.split(","))) for p in answer[0].split()]
    assert len(answer) == 1 and len(set(points)) == 3
    assert all(4 <= v <= 10 for point in points for v in point)


def test_swap2_takes_black_when_whites_side_is_worse_and_plays_white_when_it_is_better(brain):
    # five stones, black first: black's open three in the middle, white's two far off
    answer = swap2(brain, [(6, 7), (0, 0), (7, 7), (14, 14), (8, 7)])
    assert answer == ["SWAP"]
    assert brain.engine.board.cells[brain.engine.cell(7 * 15 + 8)] == 1  # (1: black)
    # the brain is black now: white's block comes as a TURN, and it answers as black
    x, y = move_of(brain.handle("TURN 5,7")[0])
    assert brain.engine.board.cells[brain.engine.cell(y * 15 + x)] == 1
    # three stones: black's two at the edge, white's in the middle, white to move
    answer = swap2(brain, [(0, 0), (7, 7), (14, 0)])
    x, y = move_of(answer[0])
    assert brain.engine.board.cells[brain.engine.cell(y * 15 + x)] == 2  # it plays white
    assert len(brain.engine.moves) == 4
    x2, y2 = move_of(brain.handle("TURN 3,3")[0])  # black's reply: it answers as white
    assert brain.engine.board.cells[brain.engine.cell(y2 * 15 + x2)] == 2


@pytest.mark.parametrize("lines", [["7,7"], ["7,7", "7,7", "8,8"], ["7,7", "8,8", "9;9"],
                                   ["7,7", "8,8", "99,9"]])
def test_a_swap2_board_that_cannot_be_is_an_error(brain, lines):
    brain.handle("TURN 3,3")
    before = list(brain.engine.moves)
    assert brain.handle("SWAP2BOARD") == []
    answers = [a for line in [*lines, "DONE"] for a in brain.handle(line)]
    assert answers and all(a.startswith("ERROR") for a in answers), answers
    assert brain.engine.moves == before  # the game in progress is left as it was
    assert move_of(brain.handle("TURN 0,0")[0])


def test_turn_answers_a_legal_move_and_an_occupied_point_is_refused(brain):
    taken = {(7, 7)}
    reply = move_of(brain.handle("TURN 7,7")[0])
    assert reply not in taken and all(0 <= c < 15 for c in reply)
    assert brain.handle(f"TURN {reply[0]},{reply[1]}")[0].startswith("ERROR")


def test_board_loads_stones_and_the_brain_finishes_its_five(brain):
    lines = ["BOARD", "3,3,1", "10,10,2", "4,3,1", "10,11,2", "5,3,1", "1,12,2",
             "6,3,1", "12,1,2", "DONE"]
    answers = []
    for line in lines:
        answers += brain.handle(line)
    assert answers and move_of(answers[-1]) in {(2, 3), (7, 3)}


def test_board_blocks_the_opponents_four(brain):
    lines = ["BOARD", "7,7,1", "3,3,2", "4,3,2", "5,3,2", "6,3,2", "7,8,1", "DONE"]
    answers = []
    for line in lines:
        answers += brain.handle(line)
    assert move_of(answers[-1]) in {(2, 3), (7, 3)}


def test_takeback_restart_and_rule(brain):
    x, y = move_of(brain.handle("BEGIN")[0])
    assert brain.handle(f"TAKEBACK {x},{y}") == ["OK"]
    assert brain.handle(f"TAKEBACK {x},{y}")[0].startswith("ERROR")
    assert brain.handle("INFO rule 1") == []
    assert brain.engine.game.rule == "standard"
    assert brain.handle("RESTART") == ["OK"]
    assert move_of(brain.handle("BEGIN")[0]) == (7, 7)


def test_the_move_time_stays_under_the_turn_and_match_clocks(brain):
    brain.handle("INFO timeout_turn 5000")
    brain.handle("INFO time_left 20000")
    seconds = brain.move_seconds()
    assert 0 < seconds < 5.0 and seconds <= 20.0 / 8
    brain.handle("INFO time_left 100")
    assert brain.move_seconds() <= 0.1


def test_max_memory_bounds_the_tables(brain):
    from yipan.games.gomoku.context import table_bytes

    brain.handle("INFO max_memory 8000000")
    assert table_bytes(brain.engine.context) <= 8_000_000 // 4


def test_a_scripted_session_through_the_process():
    script = ["ABOUT", "START 15", "INFO timeout_turn 400", "INFO timeout_match 60000",
              "INFO max_memory 83886080", "INFO game_type 1", "BEGIN", "TURN 8,8",
              "this is garbage", "TURN 99,99", "BOARD", "7,7,1", "8,8,2", "6,6,2", "DONE",
              "TAKEBACK 6,6", "RESTART", "TURN 0,0", "END"]
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    process = subprocess.run(
        [sys.executable, "-m", "yipan.protocols.gomocup"], input="\n".join(script) + "\n",
        capture_output=True, text=True, env=env, timeout=300)
    assert process.returncode == 0, process.stderr
    lines = process.stdout.splitlines()
    answers = [line for line in lines if not line.startswith("MESSAGE")]
    # every move comes after a MESSAGE with the search's figures, as managers show them
    for index, line in enumerate(lines):
        if re.fullmatch(r"[0-9]+,[0-9]+", line):
            figures = re.search(r"^MESSAGE (\S[^|]*) \| depth [0-9]+ \| nodes ([0-9]+)"
                                r"( \| speed [0-9]+)? \| time", lines[index - 1])
            assert figures is not None, lines[index - 1]
            assert (figures.group(3) is not None) == (figures.group(1) == "search")
    assert answers[0].startswith('name="yipan"')
    assert answers[1] == "OK"
    first = move_of(answers[2])
    assert first == (7, 7)
    second = move_of(answers[3])
    assert second not in {(7, 7), (8, 8)}
    assert answers[4].startswith("ERROR") and answers[5].startswith("ERROR")
    board_reply = move_of(answers[6])
    assert board_reply not in {(7, 7), (8, 8), (6, 6)}
    assert answers[7] == "OK" and answers[8] == "OK"
    assert move_of(answers[9]) != (0, 0)
    assert len(answers) == 10


def test_a_slow_start_is_announced_with_message_lines_before_ok(monkeypatch):
    """On a machine where numba has not compiled the kernels, START waits for them: the
    manager hears why (MESSAGE lines, at once) before the OK, and nothing else changes."""
    import io
    import time

    from yipan import prepare
    from yipan.games.gomoku.engine import Engine
    from yipan.protocols.gomocup import serve

    heard_during: list[str] = []
    out = io.StringIO()
    monkeypatch.setattr(prepare, "ANNOUNCE_AFTER", 0.05)

    def slow_warm_up(self) -> None:  # stands for the first compilation
        time.sleep(0.3)
        heard_during.append(out.getvalue())

    monkeypatch.setattr(Engine, "warm_up", slow_warm_up)
    serve(["START 15\n", "END\n"], out)
    lines = out.getvalue().splitlines()
    assert heard_during[0].startswith("MESSAGE preparing the Gomoku engine")
    assert [line.split()[0] for line in lines] == ["MESSAGE", "MESSAGE", "OK"]
    assert lines[1].startswith("MESSAGE ready in")


def test_a_quick_start_says_only_ok():
    import io

    from yipan.games.gomoku.engine import Engine
    from yipan.protocols.gomocup import serve

    Engine(15, "freestyle").warm_up()  # compiled in this process first (a cold CI machine)
    out = io.StringIO()
    serve(["START 15\n", "END\n"], out)
    assert out.getvalue().splitlines() == ["OK"]
