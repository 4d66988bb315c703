"""What a player meets in the first hour at the terminal: bad input refused before any engine
is prepared, help in a user's words, poker's running total, single keys in 2048."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[2] / "src")


def yipan(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "yipan", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=300)


REFUSED_BEFORE_PREPARING = [
    ("play", "chess", "--level", "grandmaster"),
    ("watch", "chess", "--level", "grandmaster"),
    ("play", "chess", "--ai", "net"),
    ("play", "2048", "--first", "ai"),
    ("watch", "kuhn", "--level", "expert"),
]


@pytest.mark.parametrize("argv", REFUSED_BEFORE_PREPARING, ids=" ".join)
def test_bad_input_is_refused_before_any_kernel_compiles(argv, count_compilations):
    # making the game and loading its hooks compile its board's kernels (most are kept in the
    # cache): nothing more
    making = (f"from yipan.core import game_spec, get_game\nget_game({argv[1]!r})\n"
              f"game_spec({argv[1]!r}).load_hooks()")
    count_compilations(making)
    made = count_compilations(making)["compiled"]
    code = f"from yipan.cli.main import main\nreport['status'] = main({list(argv)!r})"
    done = count_compilations(code)
    assert done["status"] == 2
    assert set(done["compiled"]) <= set(made)


def game_names() -> list[str]:
    sys.path.insert(0, SRC)
    from yipan.core import list_games

    return list_games()


@pytest.mark.parametrize("game", game_names())
def test_every_option_of_play_is_named_in_words(game):
    run = yipan("play", game, "--help")
    assert run.returncode == 0, run.stderr
    assert "HOOK" not in run.stdout
    assert not any("_" in word for word in run.stdout.split()), run.stdout


def test_the_words_of_the_games_help_are_words():
    run = yipan("play", "2048", "--seed", "1", stdin="help\nmax tile\nquit\n")
    assert run.returncode == 0, run.stderr
    assert "max_tile" not in run.stdout
    assert "max tile: " in run.stdout


def test_tablebase_info_as_the_readme_writes_it(tmp_path):
    run = yipan("tablebase", "info", "--folder", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert f"no tables in {tmp_path}" in run.stderr
    assert yipan("tablebase", "info", "chess", "--folder", str(tmp_path)).returncode == 0
    assert yipan("tablebase", "info", "go").returncode == 2
