"""The efficiently updatable network in the chess kernel: its accumulator follows the moves
exactly, the search evaluates with it when asked (and only then), and its file is refused in
one line when damaged."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.chess_family.nnue import MAX_PLY, OUTPUT_SCALE, network_memory
from yipan.chess_family.nnue_file import (
    NetworkFile,
    NetworkFileError,
    from_bytes,
    load,
    save,
    to_bytes,
)
from yipan.core import Limit
from yipan.games.chess.board import POSITION_SIZE
from yipan.games.chess.engine import Engine
from yipan.games.chess.nnue import (
    BUCKET_OF_SQUARE,
    FEATURES,
    KING_BUCKETS,
    LAYOUTS,
    active_features,
    evaluate_with,
    mirrored_features,
    network_value,
)
from yipan.games.chess.rules import Chess, position_from_fen, to_row
from yipan.games.nnue_fit import (
    bucketed,
    dequantise,
    float_output,
    merged,
    quantise,
    refactorised,
)

from .nnue_helpers import (
    assert_the_ai_follows_eval_file,
    constant_network,
    damaged,
    random_arrays,
    scores_by_network_and_hand,
    value_arguments,
)


@settings(max_examples=16, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(LAYOUTS))
def test_the_incremental_accumulator_equals_one_made_from_scratch(seed, buckets):
    """Along a random game (castling, en passant and promotions included when they come;
    with king buckets, kings that change bucket), evaluating ply after ply from the parent's
    accumulator gives the value the position has from scratch."""
    rng = random.Random(seed)
    arrays = random_arrays("chess", np.random.default_rng(seed), buckets=buckets)
    memory = network_memory(arrays)
    stack = np.zeros((MAX_PLY + 2, POSITION_SIZE), np.int64)
    game = Chess()
    state = game.initial_state()
    stack[0] = to_row(state)
    ply = 0
    while game.outcome(state) is None and ply < MAX_PLY:
        state = game.play(state, rng.choice(game.legal_moves(state)))
        ply += 1
        stack[ply] = to_row(state)
        memory["fresh"][ply] = 0
        if rng.random() < 0.4:  # some plies are skipped: the update walks over them
            value = network_value(stack, ply, *value_arguments(memory))
            assert value == evaluate_with(arrays, stack[ply])


@pytest.mark.parametrize("buckets", LAYOUTS)
def test_a_promotion_with_capture_en_passant_and_castling_update_exactly(buckets):
    rng = np.random.default_rng(7)
    arrays = random_arrays("chess", rng, buckets=buckets)
    game = Chess()
    for fen, move in (("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1", "b7a8q"),
                      ("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1", "e5d6"),
                      ("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1", "e1c1"),
                      ("r3k2r/1P6/8/3pP3/8/8/8/R3K2R b KQkq - 0 1", "e8g8"),
                      ("8/8/8/8/4k3/8/8/4K3 w - - 0 1", "e1f1"),  # bucket 1 -> 2
                      ("8/8/8/8/8/4k3/8/4K3 b - - 0 1", "e3d3")):  # black's 7 -> 6
        state = position_from_fen(fen)
        child = game.play(state, game.parse_move(state, move))
        memory = network_memory(arrays)
        stack = np.zeros((2, POSITION_SIZE), np.int64)
        stack[0], stack[1] = to_row(state), to_row(child)
        network_value(stack, 0, *value_arguments(memory))
        assert memory["fresh"][0] == 1 and memory["fresh"][1] == 0
        value = network_value(stack, 1, *value_arguments(memory))
        assert value == evaluate_with(arrays, stack[1]), move


def test_the_integer_network_follows_the_float_one_it_was_quantised_from():
    rng = np.random.default_rng(3)
    params = {"ft_weights": (rng.standard_normal((768, 16)) * 0.05).astype(np.float32),
              "ft_bias": np.full(16, 0.31, np.float32),
              "l1_weights": (rng.standard_normal((4, 32)) * 0.3).astype(np.float32),
              "l1_bias": np.full(4, 0.1, np.float32),
              "out_weights": (rng.standard_normal(4)).astype(np.float32),
              "out_bias": np.array([0.05], np.float32)}
    game = Chess()
    state = game.initial_state()
    rows = []
    moves = random.Random(3)
    for _ in range(30):
        state = game.play(state, moves.choice(game.legal_moves(state)))
        rows.append(to_row(state))
    batch = np.array(rows)
    mine, theirs = active_features(batch)
    floats = float_output(params, mine, theirs) * OUTPUT_SCALE
    integers = np.array([evaluate_with(quantise(params), row) for row in batch])
    drift = np.abs(floats - integers)  # centipawns lost to rounding (weights at 1/255)
    assert np.mean(drift) < 8 and np.max(drift) < 25


def test_a_network_read_back_to_floats_quantises_to_the_same_integers():
    """``dequantise`` (where a round that goes on from a network starts) loses nothing the
    integers hold."""
    arrays = random_arrays("chess", np.random.default_rng(5))
    again = quantise(dequantise(arrays))
    for name, array in arrays.items():
        assert again[name].dtype == array.dtype and np.array_equal(again[name], array), name


def test_active_features_see_the_board_from_the_side_to_move():
    white = to_row(position_from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1"))
    black = to_row(position_from_fen("4k2r/8/8/8/8/8/8/4K3 b - - 0 1"))  # its mirror
    mine_w, theirs_w = active_features(np.array([white]))
    mine_b, theirs_b = active_features(np.array([black]))
    assert sorted(mine_w[0]) == sorted(mine_b[0]) and sorted(theirs_w[0]) == sorted(theirs_b[0])
    assert sorted(mine_w[0])[:3] == [3 * 64 + 7, 5 * 64 + 4, 384 + 5 * 64 + 60]


def test_king_buckets_are_read_from_each_sides_own_king_seen_from_its_side():
    # white's king on g1 (bucket 2, castled short), black's on e8 (seen from black: e1, 1)
    row = to_row(position_from_fen("4k3/8/8/8/8/8/5P2/6K1 w - - 0 1"))
    assert (BUCKET_OF_SQUARE[6], BUCKET_OF_SQUARE[4]) == (2, 1)
    plain_mine, plain_theirs = active_features(np.array([row]))
    mine, theirs = active_features(np.array([row]), KING_BUCKETS)
    padding = FEATURES * KING_BUCKETS
    assert sorted(mine[0][mine[0] < padding]) == sorted(plain_mine[0][plain_mine[0] < FEATURES]
                                                          + 2 * FEATURES)
    assert sorted(theirs[0][theirs[0] < padding]) == sorted(
        plain_theirs[0][plain_theirs[0] < FEATURES] + 1 * FEATURES)
    assert (mine[0] == padding).sum() == 32 - 3


@pytest.mark.parametrize("buckets", LAYOUTS)
def test_mirrored_features_are_the_mirrored_positions_features(buckets):
    """Files a <-> h, the kings' buckets with them (g1's 2 becomes b1's 0)."""
    for fen, mirror in (("6k1/8/8/8/8/8/5P2/6K1 w - - 0 1", "1k6/8/8/8/8/8/2P5/1K6 w - - 0 1"),
                        ("r3k3/8/2n5/8/4P3/8/8/4K2R b - - 0 1",
                         "3k3r/8/5n2/8/3P4/8/8/R2K4 b - - 0 1")):
        mine, theirs = active_features(np.array([to_row(position_from_fen(fen))]), buckets)
        mirror_mine, mirror_theirs = active_features(
            np.array([to_row(position_from_fen(mirror))]), buckets)
        chosen = np.array([True])
        assert sorted(mirrored_features(mine, chosen, buckets)[0]) == sorted(mirror_mine[0])
        assert sorted(mirrored_features(theirs, chosen, buckets)[0]) == sorted(mirror_theirs[0])
        assert (mirrored_features(mine, np.array([False]), buckets) == mine).all()


def test_a_factorised_network_is_the_sum_of_its_factor_and_its_buckets_rows():
    """Training's factor (``bucketed``) computes what the network it was made from does, and
    the merged integer network follows the float one through kings changing bucket."""
    rng = np.random.default_rng(11)
    params = dequantise(random_arrays("chess", rng))
    factorised = bucketed(params, KING_BUCKETS)
    game = Chess()
    state, rows, moves = game.initial_state(), [], random.Random(5)
    for _ in range(60):
        if game.outcome(state) is not None:
            break
        state = game.play(state, moves.choice(game.legal_moves(state)))
        rows.append(to_row(state))
    batch = np.array(rows)
    plain = float_output(params, *active_features(batch))
    assert np.allclose(float_output(factorised, *active_features(batch, KING_BUCKETS)), plain,
                       atol=1e-5)
    factorised["ft_weights"] = (rng.standard_normal(factorised["ft_weights"].shape)
                                * 0.05).astype(np.float32)
    floats = float_output(factorised, *active_features(batch, KING_BUCKETS)) * OUTPUT_SCALE
    integers = np.array([evaluate_with(quantise(merged(factorised)), row) for row in batch])
    assert np.mean(np.abs(floats - integers)) < 8
    assert np.mean(np.abs(floats - plain * OUTPUT_SCALE)) > 20  # the buckets' rows count


def test_a_merged_network_split_into_its_factor_again_computes_the_same():
    """``refactorised`` undoes ``merged``: the factor is the buckets' mean row, each bucket
    keeps its difference, and adding them up gives back every row."""
    rng = np.random.default_rng(12)
    params = dequantise(random_arrays("chess", rng))
    params["ft_weights"] = np.tile(params["ft_weights"], (KING_BUCKETS, 1)) + (
        rng.standard_normal((KING_BUCKETS * 768, params["ft_weights"].shape[1])) * 0.05
    ).astype(np.float32)
    split = refactorised(params, KING_BUCKETS)
    assert split["ft_factor"].shape == (768, params["ft_weights"].shape[1])
    assert np.allclose(split["ft_weights"].reshape(KING_BUCKETS, 768, -1).mean(axis=0), 0,
                       atol=1e-6)
    assert np.allclose(merged(split)["ft_weights"], params["ft_weights"], atol=1e-6)
    rows = np.array([to_row(Chess().initial_state())])
    features = active_features(rows, KING_BUCKETS)
    assert np.allclose(float_output(split, *features), float_output(params, *features),
                       atol=1e-5)


def test_a_network_of_another_size_is_refused_before_the_kernel_reads_it():
    arrays = random_arrays("chess", np.random.default_rng(2))
    arrays["ft_weights"] = arrays["ft_weights"][:700]
    engine = Engine(hash_mb=1, tables=None)
    with pytest.raises(NetworkFileError, match="768 or 6144 feature rows, this one 700"):
        engine.use_network(NetworkFile("chess", arrays))
    assert engine.network is None


def test_the_engine_evaluates_with_a_network_only_when_given_one(tmp_path):
    engine = Engine(hash_mb=1, tables=None)
    assert engine.network is None
    start = Chess().initial_state()
    hand = engine.think(start, Limit(depth=1))
    path = tmp_path / "constant.nnue"
    save(constant_network("chess", 80), path)
    engine.use_network(path)
    found = engine.think(start, Limit(depth=1))
    assert found.score == -80  # every reply is valued 80 for the side then to move
    engine.use_network(None)
    assert engine.think(start, Limit(depth=1)).score == hand.score
    engine.use_network(load(path, "chess"))
    engine.resize(2)  # a new context takes the network too
    assert engine.think(start, Limit(depth=2)).score == 80


def test_a_damaged_or_foreign_network_file_is_refused_in_one_line(tmp_path):
    data = to_bytes(NetworkFile("chess", random_arrays("chess", np.random.default_rng(1))))
    assert from_bytes(data, "ok").accumulator == 16
    with pytest.raises(NetworkFileError, match="for chess, not for xiangqi"):
        from_bytes(data, "n", "xiangqi")
    with pytest.raises(NetworkFileError) as refused:
        from_bytes(damaged(data), "damaged.nnue")
    assert "\n" not in str(refused.value) and "damaged.nnue" in str(refused.value)
    with pytest.raises(NetworkFileError, match="not a yipan network"):
        from_bytes(data[:100], "cut.nnue")
    with pytest.raises(NetworkFileError, match="cannot read"):
        load(tmp_path / "missing.nnue")
    engine = Engine(hash_mb=1, tables=None)
    (tmp_path / "bad.nnue").write_bytes(damaged(data))
    with pytest.raises(NetworkFileError):
        engine.use_network(tmp_path / "bad.nnue")
    assert engine.network is None


def test_uci_evalfile_loads_a_network_and_refuses_a_damaged_one_in_one_line(tmp_path):
    from yipan.protocols.uci import UciEngine

    good, bad = tmp_path / "constant.nnue", tmp_path / "bad.nnue"
    save(constant_network("chess", 80), good)
    bad.write_bytes(b"not a network")
    lines: list[str] = []
    uci = UciEngine(lines.append, hash_mb=1)
    for line in ("uci", f"setoption name EvalFile value {bad}", "position startpos",
                 f"setoption name EvalFile value {good}", "go depth 1"):
        assert uci.handle(line) is True
    assert uci.search_thread is not None
    uci.search_thread.join(120)
    assert "option name EvalFile type string default builtin" in lines
    refusals = [line for line in lines if line.startswith("info string setoption: EvalFile")]
    assert len(refusals) == 1 and "bad.nnue is not a yipan network file" in refusals[0]
    assert any(" depth 1 " in line and "score cp -80" in line for line in lines)


def test_analyze_with_eval_file_uses_the_network_and_refuses_a_damaged_one(tmp_path, capsys):
    from yipan.cli.main import main

    good, bad = tmp_path / "constant.nnue", tmp_path / "bad.nnue"
    save(constant_network("chess", 80), good)
    bad.write_bytes(b"PK\x03\x04 damaged")
    assert main(["analyze", "chess", "--eval-file", str(bad), "--depth", "2"]) == 2
    err = capsys.readouterr().err
    assert "bad.nnue is not a yipan network file" in err and len(err.strip().splitlines()) == 1
    assert main(["analyze", "chess", "--eval-file", str(good), "--depth", "2"]) == 0
    assert "+0.80" in capsys.readouterr().out  # the constant network's value, white to move


def test_the_shipped_network_evaluates_by_default_and_hand_asks_for_the_hand_set_one(capsys):
    """Without the option, or with ``--eval-file builtin``, the network the package ships
    evaluates; with ``hand`` the hand-set evaluation; UCI's EvalFile takes the same names
    (empty: the hand-set one), and the AI that ``play`` makes follows ``--eval-file``."""
    import json

    from yipan.chess_family.nnue_file import BUILTIN, HAND, shipped
    from yipan.cli.main import main
    from yipan.games.chess import hooks
    from yipan.protocols.uci import UciEngine

    network = load(BUILTIN, "chess")
    assert network.game == "chess" and shipped("chess").name == "chess.nnue"
    by_network, by_hand = scores_by_network_and_hand(lambda: Engine(hash_mb=1),
                                                     Chess().initial_state())
    for arguments, score, evaluation in (([], by_network, "network"),
                                         (["--eval-file", HAND], by_hand, HAND),
                                         (["--eval-file", BUILTIN], by_network, "network")):
        assert main(["analyze", "chess", "--depth", "3", "--json", *arguments]) == 0
        extra = json.loads(capsys.readouterr().out)["extra"]
        assert (extra["score_cp"], extra["evaluation"]) == (score, evaluation), arguments

    for values, score in (([], by_network), ([BUILTIN], by_network), ([HAND], by_hand),
                          ([""], by_hand)):
        lines: list[str] = []
        uci = UciEngine(lines.append, hash_mb=1)
        for line in ("uci", *(f"setoption name EvalFile value {value}" for value in values),
                     "position startpos", "go depth 3"):
            assert uci.handle(line) is True
        assert uci.search_thread is not None
        uci.search_thread.join(120)
        assert any(" depth 3 " in line and f"score cp {score} " in line for line in lines), \
            (values, lines[-3:])

    assert_the_ai_follows_eval_file(Chess(), hooks)
