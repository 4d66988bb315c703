"""``yipan train xiangqi --nnue`` end to end, tiny: self-play positions labelled by the
engine, a few training steps, a network file the engine then plays legal moves with, through
its API and through UCCI; a rerun resumes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from yipan.chess_family.nnue_file import load
from yipan.cli.main import main
from yipan.core import Limit
from yipan.games.xiangqi.engine import Engine
from yipan.games.xiangqi.nnue import FEATURES
from yipan.games.xiangqi.rules import Xiangqi

from ...chess_family.nnue_helpers import tiny_training, train, with_setting

TINY = tiny_training("xiangqi", "--blend", "0")


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    return train(TINY, tmp_path_factory.mktemp("nnue"))


def test_training_writes_a_network_the_engine_plays_legal_moves_with(trained):
    network = load(trained, "xiangqi")
    assert (network.accumulator, network.hidden, network.features) == (8, 2, FEATURES)
    assert network.notes["game"] == "xiangqi" and network.notes["steps"] == 6
    assert network.notes["positions"] > 0
    engine = Engine(hash_mb=1)
    engine.use_network(trained)
    game = Xiangqi()
    state = game.initial_state()
    for _ in range(6):  # a few moves of a game, each legal where it is played
        found = engine.think(state, Limit(depth=3))
        assert found is not None and found.move in game.legal_moves(state)
        state = game.play(state, found.move)
    folder = trained.parent / "tiny.nnue.checkpoint"
    assert sorted(p.name for p in folder.glob("data-*")) == ["data-0000.npz", "data-0001.npz"]
    state_file = json.loads((folder / "state.json").read_text())
    assert state_file["data"]["game"] == "xiangqi" and state_file["train"]["blend"] == 0


def test_ucci_plays_with_the_trained_network(trained):
    from yipan.protocols.ucci import UcciEngine

    lines: list[str] = []
    ucci = UcciEngine(lines.append, hash_mb=1)
    for line in ("ucci", f"setoption evalfile {trained}", "position startpos", "go depth 2"):
        assert ucci.handle(line) is True
    assert ucci.search_thread is not None
    ucci.search_thread.join(120)
    assert not any(line.startswith("info string") for line in lines)
    best = [line for line in lines if line.startswith("bestmove")]
    game = Xiangqi()
    state = game.initial_state()
    assert len(best) == 1
    assert game.parse_move(state, best[0].split()[1]) in game.legal_moves(state)


def test_a_rerun_resumes_without_playing_again_and_positions_cap_the_data(trained, capsys):
    capsys.readouterr()
    assert main([*TINY, "--output", str(trained)]) == 0
    err = capsys.readouterr().err
    assert "playing" not in err and "steps 6/6" in err  # nothing left to do but export
    assert main([*TINY, "--positions", "5", "--output", str(trained)]) == 0
    err = capsys.readouterr().err
    assert "playing" not in err and "training: 5 positions" in err and "steps 0/6" in err
    assert load(trained).notes["positions"] > 5  # all made; five trained on


def test_bad_input_is_refused_in_one_line_with_status_2(trained, tmp_path, capsys):
    capsys.readouterr()
    assert main([*with_setting(TINY, "--depth", "2"), "--output", str(trained)]) == 2
    err = capsys.readouterr().err
    assert "other settings" in err and len(err.strip().splitlines()) == 1
    damaged = tmp_path / "damaged.nnue"
    damaged.write_bytes(b"PK\x03\x04 damaged")
    assert main([*TINY, "--labeller", str(damaged), "--output",
                 str(tmp_path / "other.nnue")]) == 2
    err = capsys.readouterr().err
    assert "damaged.nnue" in err and len(err.strip().splitlines()) == 1
    assert main(["train", "connect4", "--nnue", "--output", str(tmp_path / "c4.nnue")]) == 2
    assert "no evaluation network" in capsys.readouterr().err


def test_a_next_round_trains_on_the_earlier_rounds_positions_too(trained, tmp_path, capsys):
    earlier = trained.parent / "tiny.nnue.checkpoint"
    output = tmp_path / "next.nnue"
    capsys.readouterr()
    assert main([*TINY, "--seed", "1", "--labeller", str(trained), "--data-from", str(earlier),
                 "--output", str(output)]) == 0
    err = capsys.readouterr().err

    def rows(folder, pattern="data-*.npz"):
        return sum(len(np.load(unit)["rows"]) for unit in folder.glob(pattern))

    own = output.parent / "next.nnue.checkpoint"
    assert load(output).notes["positions"] == rows(earlier) + rows(own)
    # each folder holds out its own last unit: the earlier round's is the one it held out
    # itself, so the next round is measured on nothing its start network trained on
    held_out = rows(earlier, "data-0001.npz") + rows(own, "data-0001.npz")
    assert f"({held_out:,} held out)" in err
    assert main([*TINY, "--data-from", str(tmp_path), "--output",
                 str(tmp_path / "refused.nnue")]) == 2
    err = capsys.readouterr().err
    assert "not a checkpoint folder" in err and len(err.strip().splitlines()) == 1


def test_the_final_steps_run_at_their_own_rate(tmp_path):
    """With a final rate of 0 the last two of six steps change nothing: the network is the
    one four steps make (each step's batch depends on the seed and the step alone)."""
    for name in ("four", "six", "moved"):
        (tmp_path / name).mkdir()
    four = train(with_setting(TINY, "--steps", "4"), tmp_path / "four")
    six = train([*TINY, "--final-steps", "2", "--final-learning-rate", "0"],
                tmp_path / "six")
    moved = train(TINY, tmp_path / "moved")
    arrays = load(four).arrays
    assert all(np.array_equal(arrays[name], load(six).arrays[name]) for name in arrays)
    assert not all(np.array_equal(arrays[name], load(moved).arrays[name]) for name in arrays)
    assert main([*TINY, "--final-steps", "6", "--output", str(tmp_path / "no.nnue")]) == 2
