"""``yipan train chess --nnue`` end to end, tiny: self-play positions labelled by the engine,
a few training steps, a network file the engine then searches with; a rerun resumes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from yipan.chess_family.nnue_file import load
from yipan.cli.main import main
from yipan.core import Limit
from yipan.games.chess.engine import Engine
from yipan.games.chess.rules import Chess

from .nnue_helpers import tiny_training, train, with_setting

TINY = tiny_training("chess")


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    return train(TINY, tmp_path_factory.mktemp("nnue"))


def test_training_writes_a_network_the_engine_searches_with(trained):
    network = load(trained, "chess")
    assert (network.accumulator, network.hidden, network.features) == (8, 2, 768)
    assert network.notes["steps"] == 6 and network.notes["positions"] > 0
    engine = Engine(hash_mb=1, tables=None)
    engine.use_network(trained)
    found = engine.think(Chess().initial_state(), Limit(depth=3))
    assert found is not None and found.move in engine.legal_moves(Chess().initial_state())
    folder = trained.parent / "tiny.nnue.checkpoint"
    assert sorted(p.name for p in folder.glob("data-*")) == ["data-0000.npz", "data-0001.npz"]
    state = json.loads((folder / "state.json").read_text())
    assert state["data"]["depth"] == 1 and state["train"]["steps"] == 6


def test_a_rerun_resumes_without_playing_again_and_more_steps_train_on(trained, capsys):
    capsys.readouterr()
    assert main([*TINY, "--output", str(trained)]) == 0
    err = capsys.readouterr().err
    assert "playing" not in err and "steps 6/6" in err  # nothing left to do but export
    assert main([*with_setting(TINY, "--steps", "8"), "--output", str(trained)]) == 0
    err = capsys.readouterr().err
    assert "playing" not in err and "steps 0/8" in err  # other steps: trained anew
    assert load(trained).notes["steps"] == 8


def test_other_data_settings_are_refused_in_one_line_and_bad_input_exits_2(trained, capsys):
    capsys.readouterr()
    assert main([*with_setting(TINY, "--depth", "2"), "--output", str(trained)]) == 2
    err = capsys.readouterr().err
    assert "other settings" in err and len(err.strip().splitlines()) == 1
    assert main(["train", "tictactoe", "--nnue", "--output", str(trained)]) == 2
    assert "no evaluation network" in capsys.readouterr().err


def test_a_round_started_from_a_network_begins_at_its_weights(trained, tmp_path, capsys):
    """With ``--start`` and a step too small to move them, the network written is the one
    started from; a start of another shape is refused in one line."""
    started = tmp_path / "started.nnue"
    command = [*with_setting(TINY, "--steps", "1"), "--learning-rate", "1e-12"]
    assert main([*command, "--start", str(trained), "--output", str(started)]) == 0
    before, after = load(trained).arrays, load(started).arrays
    for name, array in before.items():
        assert np.abs(after[name].astype(np.int64) - array).max() <= 1, name
    capsys.readouterr()
    wider = with_setting(command, "--accumulator", "16")
    assert main([*wider, "--start", str(trained), "--output", str(tmp_path / "w.nnue")]) == 2
    err = capsys.readouterr().err
    assert "8x2-2-1, not the 16x2-2-1" in err and len(err.strip().splitlines()) == 1
