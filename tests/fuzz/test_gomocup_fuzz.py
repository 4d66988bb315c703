"""The Gomocup brain under generated protocol lines: every line gets its answers and the brain
goes on; a real move is still answered with a legal move afterwards."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yipan.protocols.gomocup import Brain

WORDS = ["START", "TURN", "BEGIN", "BOARD", "DONE", "INFO", "END", "ABOUT", "RESTART",
         "TAKEBACK", "PLAY", "RECTSTART", "timeout_turn", "max_memory", "rule", "7,7", "-1,3",
         "99,99", "0,0,1", "15", "20", "x", "", "9" * 400, "٣,٣", "1,2,3"]
LINE = st.lists(st.sampled_from(WORDS) | st.text(max_size=8), max_size=4).map(" ".join)


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(lines=st.lists(LINE, max_size=8))
def test_any_lines_are_answered_and_the_brain_goes_on(lines: list[str]) -> None:
    brain = Brain()
    assert brain.handle("START 15") == ["OK"]
    brain.handle("INFO timeout_turn 50")
    for line in lines:
        answers = brain.handle(line)
        assert isinstance(answers, list) and all(isinstance(a, str) for a in answers)
        assert all("\n" not in answer and len(answer) < 500 for answer in answers)
        if line.strip().upper() == "END":
            return
    brain.handle("DONE")  # ends a BOARD the lines may have left open
    brain.handle("START 15")
    brain.handle("INFO timeout_turn 50")
    answer = brain.handle("TURN 7,7")
    x, y = map(int, answer[-1].split(","))
    assert 0 <= x < 15 and 0 <= y < 15 and (x, y) != (7, 7)
