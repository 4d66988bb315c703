"""The CLI under generated nonsense: every command line ends with exit status 0, 1 or 2, and
a refusal is one line on stderr; nothing escapes as a traceback, nothing hangs.

Commands are drawn from the real grammar (commands, games, options) mixed with hostile words
(huge numbers, strange digits, long text, control characters), with search budgets kept small
so each example finishes in moments.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import yipan
from yipan.cli.main import main

GAMES = [name for name in yipan.list_games() if name != "gomoku"]  # gomoku: its own tests
HOSTILE = st.sampled_from([
    "", " ", "-", "--", "²", "٣", "9" * 5000, "x" * 3000, "\x00", "\x1b[A", "-1", "0", "1e999",
    "nan", "inf", "3x3", "4x4", "a1", "b2", "1:2", "4", "44", "up", "h8", "1=2+3", "both:1",
    "--json", "--time", "0.01", "--depth", "2", "--nodes", "50", "--level", "easy",
])
WORDS = st.lists(HOSTILE | st.text(max_size=12), max_size=6)


def command() -> st.SearchStrategy[list[str]]:
    analyze = st.tuples(st.just("analyze"), st.sampled_from(GAMES), WORDS,
                        st.just(["--nodes", "200", "--depth", "2"]))
    solve = st.tuples(st.just("solve"), st.sampled_from(["tictactoe", "nim", "kayles", "bash",
                                                         "wythoff", "subtraction"]),
                      WORDS, st.just(["--algorithm", "iterative", "--time", "0.2"]))
    perft = st.tuples(st.just("perft"), st.sampled_from(GAMES), WORDS,
                      st.sampled_from([["--depth", "1"], ["--depth", "2"], []]))
    other = st.tuples(st.sampled_from(["games", "sg", "nim", "book", "watch", "serve", "play",
                                       "nonsense"]), st.just(""), WORDS, st.just(["--help"]))
    return st.one_of(analyze, solve, perft, other).map(
        lambda parts: [parts[0], *([parts[1]] if parts[1] else []), *parts[2], *parts[3]])


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(argv=command())
def test_any_command_line_ends_cleanly(argv: list[str], capsys: pytest.CaptureFixture) -> None:
    if argv[0] in ("play", "watch", "serve") and "--help" not in argv:
        argv = [*argv, "--help"]  # an interactive game or a server would wait for a person
    try:
        status = main(argv)
    except SystemExit as stop:  # --help
        status = stop.code if isinstance(stop.code, int) else 0
    out, err = capsys.readouterr()
    assert status in (0, 1, 2), (argv, status, err)
    assert "Traceback" not in err
    if status == 2:
        assert err.count("\n") == 1 and len(err) < 400, (argv, err)
