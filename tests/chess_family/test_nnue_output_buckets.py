"""Output buckets: the layers after the first in sets, a position read by the set of the
number of pieces on its board. The kernel and the float network (training) choose the same set,
a network given buckets from one computes what it did, the file keeps them (and a one-bucket
network is still written as version 1), and a round can start from a one-bucket network."""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.chess_family.nnue import MAX_PLY, OUTPUT_SCALE, QA, QO, network_memory, output_bucket
from yipan.chess_family.nnue_file import NetworkFile, NetworkFileError, from_bytes, load, to_bytes
from yipan.cli.main import main
from yipan.core import Limit
from yipan.games.chess.board import POSITION_SIZE, WHITE
from yipan.games.chess.engine import Engine
from yipan.games.chess.nnue import evaluate_with, network_value
from yipan.games.chess.rules import Chess
from yipan.games.chess.rules import to_row as chess_row
from yipan.games.nnue_fit import dequantise, float_output, quantise, with_output_buckets
from yipan.games.nnue_games import nnue_game
from yipan.games.xiangqi.board import SQUARES
from yipan.games.xiangqi.rules import Xiangqi
from yipan.games.xiangqi.rules import to_row as xiangqi_row

from .nnue_helpers import random_arrays, tiny_training, train, value_arguments, with_setting

GAMES = {"chess": (Chess, chess_row), "xiangqi": (Xiangqi, xiangqi_row)}


def pieces_on(game: str, row: np.ndarray) -> int:
    """The pieces on a position row's board, counted without the kernels."""
    if game == "chess":
        return bin((int(row[WHITE]) | int(row[WHITE + 1])) & ((1 << 64) - 1)).count("1")
    return int(np.count_nonzero(row[:SQUARES]))


def random_game_rows(game: str, seed: int, plies: int = 200) -> np.ndarray:
    """The rows of a random game, captures and all (so its piece counts fall)."""
    rules_class, to_row = GAMES[game]
    rules, rng = rules_class(), random.Random(seed)
    state, rows = rules.initial_state(), []
    for _ in range(plies):
        if rules.outcome(state) is not None:
            break
        moves = rules.legal_moves(state)
        captures = [m for m in moves if nnue_game(game).noisy_move(to_row(state), m)]
        state = rules.play(state, rng.choice(captures if captures and rng.random() < 0.7
                                             else moves))
        rows.append(to_row(state))
    return np.array(rows)


@pytest.mark.parametrize(("pieces", "buckets", "expected"),
                         [(2, 8, 0), (4, 8, 0), (5, 8, 1), (8, 8, 1), (9, 8, 2), (28, 8, 6),
                          (29, 8, 7), (32, 8, 7), (2, 1, 0), (32, 1, 0), (16, 2, 0),
                          (17, 2, 1), (32, 2, 1)])
def test_the_piece_counts_fall_into_buckets_of_nearly_equal_width(pieces, buckets, expected):
    assert output_bucket(pieces, buckets) == expected


@pytest.mark.parametrize("game", GAMES)
def test_each_position_is_read_by_the_set_of_its_piece_count(game):
    """A network whose sets differ only in their output bias (set b: 100 * b + 50 centipawns)
    values each position of a game by its own piece count, in the kernel and in training."""
    buckets = 8
    arrays = {name: np.zeros_like(array) for name, array in
              random_arrays(game, np.random.default_rng(0), 8, 2, 1, buckets).items()}
    arrays["out_bias"] = np.array([(100 * b + 50) * QA * QO // OUTPUT_SCALE
                                   for b in range(buckets)], np.int32)
    rows = random_game_rows(game, 3)
    counts = [pieces_on(game, row) for row in rows]
    assert len(set(counts)) >= 4  # the game went through several buckets
    expected = np.array([100 * output_bucket(count, buckets) + 50 for count in counts])
    integers = np.array([nnue_game(game).evaluate_with(arrays, row) for row in rows])
    assert np.array_equal(integers, expected)
    floats = float_output(dequantise(arrays), *nnue_game(game).active_features(rows, 1))
    assert np.allclose(floats * OUTPUT_SCALE, expected, atol=0.01)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(GAMES)))
def test_sets_copied_from_one_compute_the_same_and_differing_sets_follow_the_float_network(
        seed, game):
    rng = np.random.default_rng(seed)
    params = dequantise(random_arrays(game, rng, 16, 4))
    rows = random_game_rows(game, seed % 1000, 120)
    features = nnue_game(game).active_features(rows, 1)
    copied = with_output_buckets(params, 8)
    assert np.allclose(float_output(copied, *features), float_output(params, *features),
                       atol=1e-5)
    one, eight = quantise(params), quantise(copied)
    for row in rows[::7]:
        assert nnue_game(game).evaluate_with(eight, row) == \
            nnue_game(game).evaluate_with(one, row)
    differing = dequantise(random_arrays(game, rng, 16, 4, 1, 8))
    floats = float_output(differing, *features) * OUTPUT_SCALE
    integers = np.array([nnue_game(game).evaluate_with(quantise(differing), row)
                         for row in rows])
    assert np.mean(np.abs(floats - integers)) < 8


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_search_path_reads_the_same_value_as_a_position_from_scratch(seed):
    """Along a random chess game, evaluated ply after ply from the parent's accumulator with
    king and output buckets, each value is the position's from scratch."""
    arrays = random_arrays("chess", np.random.default_rng(seed), buckets=8, output_buckets=8)
    memory = network_memory(arrays)
    rows = random_game_rows("chess", seed % 1000, MAX_PLY)
    stack = np.zeros((MAX_PLY + 2, POSITION_SIZE), np.int64)
    for ply, row in enumerate(rows):
        stack[ply] = row
        memory["fresh"][ply] = 0
    for ply in range(1, len(rows)):
        assert network_value(stack, ply, *value_arguments(memory)) == \
            evaluate_with(arrays, stack[ply])


def test_the_file_keeps_the_buckets_and_a_one_bucket_network_stays_version_one():
    arrays = random_arrays("chess", np.random.default_rng(4), 16, 4, 8, 8)
    network = from_bytes(to_bytes(NetworkFile("chess", arrays)), "eight")
    assert (network.output_buckets, network.hidden, network.shape) == \
        (8, 4, "16x2-(4-1)x8")
    for name, array in arrays.items():
        assert np.array_equal(network.arrays[name], array), name
    plain = to_bytes(NetworkFile("chess", random_arrays("chess", np.random.default_rng(4))))
    assert b'"version": 1' in plain and b"output_buckets" not in plain
    assert from_bytes(plain, "one").shape == "16x2-4-1"
    with np.load(io.BytesIO(to_bytes(NetworkFile("chess", arrays)))) as archive:
        stored = {name: archive[name] for name in archive.files}
    header = json.loads(stored["header"].tobytes())
    for key, value, refusal in (("output_buckets", 4, "l1_weights has shape"),
                                ("output_buckets", 0, "small positive"),
                                ("version", 3, "version 1 or 2"),
                                ("version", True, "version 1 or 2")):
        altered = io.BytesIO()
        np.savez(altered, **dict(stored, header=np.frombuffer(
            json.dumps(dict(header, **{key: value})).encode(), np.uint8)))
        with pytest.raises(NetworkFileError, match=refusal):
            from_bytes(altered.getvalue(), "altered")


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    return train(tiny_training("chess"), tmp_path_factory.mktemp("buckets"))


def test_a_start_of_one_set_is_given_buckets_and_evaluates_as_before(trained, tmp_path, capsys):
    """``--output-buckets 4`` from a one-bucket network: each set begins as the start's, so
    every position evaluates as before, and the engine searches with it; a start with other
    buckets is refused in one line."""
    given = tmp_path / "given.nnue"
    command = [*with_setting(tiny_training("chess"), "--steps", "1"), "--learning-rate",
               "1e-12", "--output-buckets", "4"]
    assert main([*command, "--start", str(trained), "--output", str(given)]) == 0
    before, after = load(trained), load(given)
    assert (after.output_buckets, after.notes["output_buckets"]) == (4, 4)
    assert "8x2-(2-1)x4" in capsys.readouterr().err
    rows = np.load(trained.parent / "tiny.nnue.checkpoint" / "data-0000.npz")["rows"][:20]
    for row in rows:
        assert abs(nnue_game("chess").evaluate_with(after.arrays, row)
                   - nnue_game("chess").evaluate_with(before.arrays, row)) <= 2
    engine = Engine(hash_mb=1, tables=None)
    engine.use_network(given)
    found = engine.think(Chess().initial_state(), Limit(depth=3))
    assert found.move in engine.legal_moves(Chess().initial_state())
    other = with_setting(command, "--output-buckets", "2")
    assert main([*other, "--start", str(given), "--output", str(tmp_path / "o.nnue")]) == 2
    err = capsys.readouterr().err
    assert "4 output buckets, not the 2 asked" in err and len(err.strip().splitlines()) == 1
