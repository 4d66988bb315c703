"""``yipan check`` on a gallery of broken games: each classic fault is caught, said in words
with the position that shows it; every built-in game passes; the exit codes."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import yipan
from yipan.check import check_game, load_game
from yipan.core import game_spec

HERE = Path(__file__).resolve().parent
GALLERY = str(HERE / "broken_games.py")
SRC = str(HERE.parents[1] / "src")

# game: (the check that catches it, words its message must say)
FAULTS = {
    "WinForTheWrongSide": ("last-mover", "the win is scored for the wrong side"),
    "NeverEnds": ("ends", "after 10,000 random moves the game has not ended"),
    "PlayersSwapped": ("to-move", "the players are swapped"),
    "SwappedAtTheEnd": ("search", "maximising and minimising players are swapped"),
    "MutatingPlay": ("play", "`play` changed the state it was given"),
    "UnhashableState": ("state", "the state cannot be hashed"),
    "MovesAfterTheEnd": ("moves", "but legal_moves still lists"),
    "NoMovesBeforeTheEnd": ("moves", "there is no legal move, but outcome says the game goes on"),
    "HashDisagrees": ("hash", "two equal states have different hashes"),
    "IdentityState": ("hash", "a copy of the state is not equal to it"),
    "CrashesSomewhere": ("raised:legal_moves", "legal_moves raised KeyError: 3"),
    "NotationBroken": ("notation", "parse_move cannot read it back"),
    "NotZeroSum": ("outcome", "does not add up to zero"),
    "SecondPlayerNeverMoves": ("to-move", "never names the second player"),
    "MutableInside": ("state", "the state holds a list"),
}


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_each_broken_game_is_caught_with_its_message(name):
    check, words = FAULTS[name]
    game = load_game(f"{GALLERY}:{name}")
    faults = check_game(game, rng=random.Random(1), playouts=3)
    found = {fault.check: fault for fault in faults}
    assert check in found, [f.message for f in faults]
    assert words in found[check].message
    assert found[check].hint
    if check not in ("to-move", "last-mover") or name == "PlayersSwapped":
        assert found[check].position  # the position that shows it, drawn


def test_the_sound_game_has_no_fault_and_a_factory_loads_it():
    for target in (f"{GALLERY}:Pile", f"{GALLERY}:make_pile"):
        assert check_game(load_game(target), rng=random.Random(2), playouts=20) == []


def test_a_skipped_check_is_not_reported():
    game = load_game(f"{GALLERY}:WinForTheWrongSide")
    faults = check_game(game, rng=random.Random(1), playouts=5, skip=("last-mover",))
    assert "last-mover" not in {fault.check for fault in faults}


def variants():
    for name in yipan.list_games():
        yield pytest.param(name, {}, id=name)
        for number, options in enumerate(game_spec(name).examples, 1):
            yield pytest.param(name, options, id=f"{name}-example{number}")


@pytest.mark.parametrize(("name", "options"), list(variants()))
def test_every_built_in_game_passes(name, options):
    # misère play: the last player to move loses by design
    skip = ("last-mover",) if options.get("rule") == "misere" else ()
    game = yipan.get_game(name, **options)
    assert check_game(game, rng=random.Random(3), playouts=1, skip=skip) == []


def yipan_cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "yipan", *args], capture_output=True,
                          text=True, env=env, timeout=120, cwd=HERE)


def test_the_command_exits_0_when_clean_1_with_the_list_2_when_it_cannot_load():
    clean = yipan_cli("check", "broken_games.py:Pile", "--seed", "1", "--playouts", "5")
    assert clean.returncode == 0, clean.stderr
    assert "no fault found" in clean.stdout
    broken = yipan_cli("check", "broken_games:MutatingPlay", "--seed", "1", "--playouts", "3")
    assert broken.returncode == 1, broken.stderr
    assert "`play` changed the state it was given" in broken.stdout
    assert "look at:" in broken.stdout and "at the start" in broken.stdout
    assert "second player" not in broken.stdout  # no fault said twice, none invented
    for target in ("no_such_module", "broken_games:NoSuchGame", "broken_games",
                   "missing.py:Pile", "broken_games:Stones"):
        failed = yipan_cli("check", target)
        assert failed.returncode == 2, (target, failed.stdout)
        assert len(failed.stderr.strip().splitlines()) == 1 and "Traceback" not in failed.stderr


def test_a_module_that_exits_when_imported_gets_one_line_and_status_2(tmp_path) -> None:
    script = tmp_path / "exits.py"
    script.write_text("import sys\nsys.exit(3)\n")
    failed = yipan_cli("check", str(script))
    assert failed.returncode == 2, failed.stderr
    assert failed.stderr.count("\n") == 1 and "exits when imported" in failed.stderr
