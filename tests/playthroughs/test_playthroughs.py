"""The recorded playthroughs (``record.py`` beside this file) still play out the same: every
registered game is recorded, and its seeded random games, played again, match the file."""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest

import yipan
from yipan.core import replay

HERE = Path(__file__).resolve().parent


def _load_recorder():
    spec = importlib.util.spec_from_file_location("playthrough_recorder", HERE / "record.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


record = _load_recorder()


@pytest.mark.parametrize("name", yipan.list_games())
def test_playthroughs_match_the_recording(name):
    path = record.recording_path(name)
    command = f"{record.COMMAND} {name}"
    if not path.exists():
        pytest.fail(f"no recorded playthroughs for {name}: run `{command}` and commit "
                    f"{path.relative_to(HERE.parents[1])}", pytrace=False)
    recorded = path.read_text(encoding="utf-8")
    played = record.recording(name)
    if played != recorded:
        diff = "".join(difflib.unified_diff(
            recorded.splitlines(keepends=True), played.splitlines(keepends=True),
            fromfile=f"{path.name} (recorded)", tofile=f"{path.name} (played now)", n=2))
        pytest.fail(f"{name} plays differently from its recording (if the change is meant, "
                    f"run `{command}` and commit the file):\n{diff}", pytrace=False)


def test_every_recording_belongs_to_a_registered_game():
    stray = sorted(path.name for path in HERE.glob("*.txt")
                   if path.stem not in yipan.list_games())
    assert not stray, f"recordings of games no longer registered: {', '.join(stray)}"


def test_recordings_hold_a_few_games_each_capped():
    for name in yipan.list_games():
        path = record.recording_path(name)
        if not path.exists():
            continue  # reported by test_playthroughs_match_the_recording
        games = path.read_text(encoding="utf-8").split("\n== ")[1:]
        assert len(games) == len(record.DEFAULT_SEEDS) + len(record.option_sets(name)) - 1
        for game in games:
            plies = [line for line in game.splitlines()[1:] if line[:3].strip().isdigit()]
            assert len(plies) <= record.MAX_PLIES + 1  # the start and at most MAX_PLIES plies


def test_positions_are_drawn_compactly():
    game = yipan.get_game("tictactoe")
    state = replay(game, ["a1", "b2", "c3"])[-1]
    assert record.position_line(game, state) == "x2/1o1/2x"
    nim = yipan.get_game("nim")
    assert record.position_line(nim, nim.initial_state()) == "heaps 3 4 5"
