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
from yipan.games.nnue_games import nnue_game

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
    other = with_setting(command, "--hidden", "4")
    assert main([*other, "--start", str(trained), "--output", str(tmp_path / "h.nnue")]) == 2
    err = capsys.readouterr().err
    assert "8x2-2-1, not the 8x2-4-1" in err and len(err.strip().splitlines()) == 1


def test_a_narrower_start_is_grown_and_evaluates_as_before(trained, tmp_path):
    """``--start`` from an 8-wide network into a 16-wide one: the old units keep their
    weights, the new ones are read with weight 0, so every position evaluates as before
    (to the rounding of one step too small to move anything)."""
    grown = tmp_path / "grown.nnue"
    command = [*with_setting(TINY, "--steps", "1"), "--learning-rate", "1e-12",
               "--accumulator", "16"]
    assert main([*command, "--start", str(trained), "--output", str(grown)]) == 0
    before, after = load(trained), load(grown)
    assert (after.accumulator, after.hidden) == (16, 2)
    assert np.abs(after.arrays["ft_weights"][:, :8].astype(np.int64)
                  - before.arrays["ft_weights"]).max() <= 1
    assert np.any(after.arrays["ft_weights"][:, 8:] != 0)  # the new units can learn
    assert np.all(after.arrays["l1_weights"][:, 8:16] == 0)
    assert np.all(after.arrays["l1_weights"][:, 24:] == 0)
    rows = np.load(trained.parent / "tiny.nnue.checkpoint" / "data-0000.npz")["rows"][:20]
    chess_network = nnue_game("chess")
    for row in rows:
        assert abs(chess_network.evaluate_with(after.arrays, row)
                   - chess_network.evaluate_with(before.arrays, row)) <= 2


def test_a_start_without_buckets_is_given_them_and_evaluates_as_before(trained, tmp_path):
    """``--start`` from a network without king buckets into one with 8: each bucket's rows
    begin as the start's (the shared factor, each bucket's own part 0), so every position
    evaluates as before, and the engine searches with the 6,144-row network."""
    bucketed_file = tmp_path / "bucketed.nnue"
    command = [*with_setting(TINY, "--steps", "1"), "--learning-rate", "1e-12",
               "--king-buckets", "8"]
    assert main([*command, "--start", str(trained), "--output", str(bucketed_file)]) == 0
    before, after = load(trained), load(bucketed_file)
    assert after.features == 8 * 768 and after.notes["king_buckets"] == 8
    rows = np.load(trained.parent / "tiny.nnue.checkpoint" / "data-0000.npz")["rows"][:20]
    chess_network = nnue_game("chess")
    for row in rows:
        assert abs(chess_network.evaluate_with(after.arrays, row)
                   - chess_network.evaluate_with(before.arrays, row)) <= 2
    engine = Engine(hash_mb=1, tables=None)
    engine.use_network(bucketed_file)
    found = engine.think(Chess().initial_state(), Limit(depth=3))
    assert found.move in engine.legal_moves(Chess().initial_state())


def test_a_start_with_buckets_trains_their_own_rows_at_the_bucket_rate(trained, tmp_path):
    """``--start`` from a network with king buckets splits them into a factor again: with
    ``--bucket-rate 0`` a round moves each piece-square's row by the same amount in every
    bucket (only the shared factor learns), where training the merged rows would move each
    bucket by what its own few positions say."""
    bucketed_file, moved = tmp_path / "bucketed.nnue", tmp_path / "moved.nnue"
    command = [*with_setting(TINY, "--steps", "1"), "--learning-rate", "1e-12",
               "--king-buckets", "8"]
    assert main([*command, "--start", str(trained), "--output", str(bucketed_file)]) == 0
    command = [*with_setting(TINY, "--steps", "4"), "--learning-rate", "0.03",
               "--king-buckets", "8", "--bucket-rate", "0"]
    assert main([*command, "--start", str(bucketed_file), "--output", str(moved)]) == 0
    before = load(bucketed_file).arrays["ft_weights"].astype(np.int64).reshape(8, 768, -1)
    after = load(moved).arrays["ft_weights"].astype(np.int64).reshape(8, 768, -1)
    change = after - before
    assert np.abs(change).max() > 20  # the round learned
    assert np.abs(change - change[0]).max() <= 2  # and the same in every bucket (rounding)


@pytest.mark.parametrize(("game", "buckets", "message"),
                         [("chess", "3", "1 or 8 king buckets, not 3"),
                          ("xiangqi", "8", "1 king buckets, not 8")])
def test_king_buckets_a_game_cannot_have_are_refused_in_one_line(game, buckets, message,
                                                                  tmp_path, capsys):
    command = [*tiny_training(game), "--king-buckets", buckets]
    assert main([*command, "--output", str(tmp_path / "refused.nnue")]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "refused.nnue.checkpoint").exists()  # refused before any game
