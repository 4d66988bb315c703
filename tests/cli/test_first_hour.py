"""What a player meets in the first hour at the terminal: bad input refused before any engine
is prepared, help in a user's words, poker's running total, single keys in 2048."""

from __future__ import annotations

import json
import os
import re
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


def test_poker_offers_hand_after_hand_with_a_running_total():
    # Kuhn's "pass" checks, or folds facing a bet: a hand takes one or two of them; a word
    # that does not fit where it is read is asked again (a "y" in a hand, a "pass" between)
    script = "pass\npass\ny\n" * 3
    run = yipan("play", "kuhn", "--seed", "5", stdin=script)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "another hand?" in out
    assert "running total: you" in out and "after 2 hands" in out
    assert re.search(r"bye: you (won|lost|broke even).* over [2-9] hands", out), out


def test_push_is_a_shove():
    run = yipan("play", "pushfold", "--seed", "2", stdin="push\nn\n")
    assert run.returncode == 0, run.stderr
    assert "actions: shove" in run.stdout
    assert "cannot read" not in run.stdout


@pytest.mark.parametrize(("game", "moves", "said", "meant"), [
    ("kuhn", ["K", "Q"], "raise", "bet"),
    ("kuhn", ["K", "Q"], "pass", "check"),
    ("kuhn", ["K", "Q", "bet"], "pass", "fold"),
    ("leduc", ["K", "Q"], "raise", "bet"),
    ("leduc", ["K", "Q", "bet"], "bet", "raise"),
    ("leduc", ["K", "Q"], "Call", "check"),
    ("pushfold", ["As", "Ad", "Kc", "Kd"], "jam", "shove"),
    ("pushfold", ["As", "Ad", "Kc", "Kd"], "all in", "shove"),
])
def test_the_words_players_use_for_an_action(game, moves, said, meant):
    sys.path.insert(0, SRC)
    from yipan.core import get_game, replay

    rules = get_game(game)
    state = replay(rules, moves)[-1]
    assert rules.parse_move(state, said) == meant
    assert rules.parse_move(state, said) in rules.legal_moves(state)


def test_liars_dice_call_is_liar():
    sys.path.insert(0, SRC)
    from yipan.core import get_game, replay

    rules = get_game("liars-dice")
    state = replay(rules, ["1", "2", "1x1"])[-1]
    assert rules.parse_move(state, "call") == rules.parse_move(state, "liar")


def test_2048_takes_single_keys_at_a_terminal():
    """Over a pseudo-terminal: an arrow, then d, then u (undo), then q; no Enter anywhere."""
    import pty
    import select
    import time

    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": SRC}
    process = subprocess.Popen([sys.executable, "-m", "yipan", "play", "2048", "--seed", "4"],
                               stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env)
    os.close(slave)
    seen = b""

    def until_prompts(count: int) -> None:
        nonlocal seen
        deadline = time.monotonic() + 300  # a bound on a hang, not a measure of speed
        while seen.count(b"your move") < count and time.monotonic() < deadline:
            if select.select([process.stdout], [], [], 1)[0]:
                seen += os.read(process.stdout.fileno(), 4096)
        assert seen.count(b"your move") >= count, seen.decode()

    try:
        for number, key in enumerate([b"\x1b[A", b"d", b"u", b"q"], start=1):
            until_prompts(number)
            os.write(master, key)
        process.wait(timeout=60)
        seen += process.stdout.read()
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()
    out = seen.decode()
    assert process.returncode == 0, process.stderr.read().decode()
    assert "keys: the arrows or w/a/s/d move" in out
    moves = out.split("your move")
    assert moves[1].startswith(" (player): up\n")
    assert moves[2].startswith(" (player): right\n")
    assert moves[3].startswith(" (player): undo\n")
    assert "bye" in out


def test_2048_values_are_read_on_the_expected_scale():
    run = yipan("analyze", "2048", "2@a1", "2@b1", "--depth", "2", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["scale"] == "expected"


BACK_RANK_MATE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"


def test_a_mate_the_chess_search_proved_is_exact():
    for command in ("solve", "analyze"):
        run = yipan(command, "chess", "--fen", BACK_RANK_MATE, "--json", "--time", "2")
        assert run.returncode == 0, run.stderr
        data = json.loads(run.stdout)
        assert data["outcome"] == "win" and data["description"] == "mate in 1"
        assert data["exact"] is True


def test_chess_analysis_speaks_pawns_mates_and_san():
    mate = yipan("analyze", "chess", "--fen", BACK_RANK_MATE, "--time", "2")
    assert mate.returncode == 0, mate.stderr
    assert "best move: Rd8# (mate in 1)" in mate.stdout
    run = yipan("analyze", "chess", "e2e4", "--depth", "6")
    assert run.returncode == 0, run.stderr
    best = re.search(r"best move: (\S+) \(([+-]\d+\.\d\d)\)", run.stdout)
    assert best, run.stdout
    assert abs(float(best.group(2))) < 2  # pawns after 1. e4, not centipawns
    line = re.search(r"principal variation: (.*)", run.stdout).group(1).split()
    assert line[0] == best.group(1)
    assert not any(re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", move) for move in line)
    assert "heuristic" not in run.stdout
    assert "pawns for black, the side to move" in run.stdout
    as_json = yipan("analyze", "chess", "e2e4", "--depth", "4", "--json")
    assert as_json.returncode == 0, as_json.stderr
    data = json.loads(as_json.stdout)
    assert data["description"] == f"{data['value'] / 100:+.2f}"


def test_analyze_kuhn_without_a_deal_analyses_the_information_set():
    run = yipan("analyze", "kuhn", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["deal_given"] is False
    hands = {hand["hand"]: hand for hand in data["information_sets"]}
    assert set(hands) == {"J", "Q", "K"}
    assert all(hand["probability"] == pytest.approx(1 / 3) for hand in hands.values())
    assert hands["K"]["strategy"]["bet"] > 0.5 and hands["Q"]["move"] == "check"
    assert data["value"] == pytest.approx(-1 / 18, abs=0.005)  # Kuhn poker's value
    text = yipan("analyze", "kuhn").stdout
    assert "No deal given" in text and "over every deal" in text


@pytest.mark.parametrize("name", ["chess", "xiangqi"])
def test_the_ai_says_its_value_in_pawns_when_playing(name):
    # a chess-family engine's heuristic value is centipawns: the player reads "+0.35", never
    # "heuristic +35"
    run = yipan("play", name, "--first", "ai", "--level", "medium", "--seed", "1",
                stdin="quit\n")
    assert run.returncode == 0, run.stderr
    said = re.search(r"AI plays \S+.*\((.+) for the AI\)", run.stdout)
    assert said, run.stdout
    assert "heuristic" not in run.stdout
    assert re.fullmatch(r"[+-]\d+\.\d\d|mate in \d+|mated in \d+|draw", said.group(1))


def test_a_mate_the_ai_sees_is_said_in_moves():
    from yipan.core import WIN, describe_centipawns

    assert describe_centipawns(WIN - 7) == "mate in 4"
    assert describe_centipawns(-(WIN - 6)) == "mated in 3"
    assert describe_centipawns(35) == "+0.35"
    assert describe_centipawns(0, exact=True) == "draw"
