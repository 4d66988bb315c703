"""Xiangqi's efficiently updatable network: its accumulator follows the search's moves and
take-backs exactly, its features see the board from the side to move, its file round-trips,
the player, the analysis and the engine protocols evaluate with the shipped one unless told
otherwise (``--eval-file``, UCI ``EvalFile``, UCCI ``setoption evalfile``; ``hand``: the
hand-set evaluation), and a damaged or foreign file is refused in one line."""

from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.chess_family.nnue import MAX_PLY, network_memory
from yipan.chess_family.nnue_file import (
    NetworkFile,
    NetworkFileError,
    from_bytes,
    load,
    save,
    to_bytes,
)
from yipan.cli.main import main
from yipan.core import Limit
from yipan.games.xiangqi.board import POSITION_SIZE, in_check, make_null_move
from yipan.games.xiangqi.engine import Engine
from yipan.games.xiangqi.nnue import (
    FEATURES,
    active_features,
    evaluate_with,
    mirrored_features,
    network_value,
)
from yipan.games.xiangqi.rules import Xiangqi, position_from_fen, to_row

from ...chess_family.nnue_helpers import (
    assert_the_ai_follows_eval_file,
    constant_network,
    damaged,
    random_arrays,
    scores_by_network_and_hand,
    value_arguments,
)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_incremental_accumulator_equals_one_made_from_scratch(seed):
    """A walk as the search walks: moves made (captures when they come), null moves, take-
    backs to an earlier ply and other moves from there; wherever it evaluates, the value
    from the nearest up-to-date accumulator above equals the position's from scratch."""
    rng = random.Random(seed)
    arrays = random_arrays("xiangqi", np.random.default_rng(seed))
    memory = network_memory(arrays)
    stack = np.zeros((MAX_PLY + 2, POSITION_SIZE), np.int64)
    game = Xiangqi()
    states = [game.initial_state()]
    stack[0] = to_row(states[0])
    evaluated = 0
    for _ in range(150):
        ply = len(states) - 1
        roll = rng.random()
        if roll < 0.25 and ply > 0:  # take back one or more plies
            del states[len(states) - rng.randint(1, ply):]
            continue
        if ply + 1 >= MAX_PLY:
            continue
        if roll < 0.3 and not in_check(stack[ply]):  # the null move: the side changes only
            make_null_move(stack[ply], stack[ply + 1])
            states.append(None)
        else:
            state = states[-1]
            if state is None or game.outcome(state) is not None:
                continue
            states.append(game.play(state, rng.choice(game.legal_moves(state))))
            stack[ply + 1] = to_row(states[-1])
        memory["fresh"][ply + 1] = 0  # the search's entry into the new node
        if rng.random() < 0.5:  # some plies are skipped: the update walks over them
            level = len(states) - 1
            value = network_value(stack, level, *value_arguments(memory, "xiangqi"))
            assert value == evaluate_with(arrays, stack[level])
            evaluated += 1
    assert evaluated > 0


def test_captures_and_the_null_move_update_exactly():
    arrays = random_arrays("xiangqi", np.random.default_rng(5))
    game = Xiangqi()
    start = position_from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
    for move in ("b2b9", "h2e2"):  # a cannon takes a horse; a quiet move
        child = game.play(start, game.parse_move(start, move))
        memory = network_memory(arrays)
        stack = np.zeros((3, POSITION_SIZE), np.int64)
        stack[0], stack[1] = to_row(start), to_row(child)
        make_null_move(stack[1], stack[2])
        network_value(stack, 0, *value_arguments(memory, "xiangqi"))
        assert memory["fresh"][0] == 1 and memory["fresh"][1] == 0
        for ply in (1, 2):
            value = network_value(stack, ply, *value_arguments(memory, "xiangqi"))
            assert value == evaluate_with(arrays, stack[ply]), (move, ply)


def test_active_features_see_the_board_from_the_side_to_move():
    red = to_row(position_from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"))
    black = to_row(position_from_fen("r2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1"))  # its mirror
    mine_r, theirs_r = active_features(np.array([red]))
    mine_b, theirs_b = active_features(np.array([black]))
    assert sorted(mine_r[0]) == sorted(mine_b[0]) and sorted(theirs_r[0]) == sorted(theirs_b[0])
    # red's own general (kind 1) on d0, its rook (kind 5) on a0, black's general on e9
    assert sorted(mine_r[0])[:3] == [3, 4 * 90 + 0, 630 + 85]
    assert list(mine_r[0][3:]) == [FEATURES] * 29  # padding


def test_mirrored_features_are_the_mirrored_positions_features():
    game = Xiangqi()
    state = game.initial_state()
    moves = random.Random(2)
    for _ in range(12):
        state = game.play(state, moves.choice(game.legal_moves(state)))
    row = to_row(state)
    mirrored_row = row.copy()
    for rank in range(10):
        mirrored_row[9 * rank:9 * rank + 9] = row[9 * rank:9 * rank + 9][::-1]
    mine, theirs = active_features(np.array([row]))
    mirror_mine, mirror_theirs = active_features(np.array([mirrored_row]))
    chosen = np.array([True])
    assert sorted(mirrored_features(mine, chosen)[0]) == sorted(mirror_mine[0])
    assert sorted(mirrored_features(theirs, chosen)[0]) == sorted(mirror_theirs[0])
    assert (mirrored_features(mine, np.array([False])) == mine).all()


def test_a_network_file_round_trips_and_a_foreign_or_damaged_one_is_refused(tmp_path):
    arrays = random_arrays("xiangqi", np.random.default_rng(1))
    path = tmp_path / "xq.nnue"
    save(NetworkFile("xiangqi", arrays, {"note": "test"}), path)
    loaded = load(path, "xiangqi")
    assert (loaded.features, loaded.accumulator, loaded.hidden) == (FEATURES, 16, 4)
    assert all((loaded.arrays[name] == arrays[name]).all() for name in arrays)
    assert loaded.notes == {"note": "test"}
    row = to_row(Xiangqi().initial_state())
    assert evaluate_with(dict(loaded.arrays), row) == evaluate_with(arrays, row)
    with pytest.raises(NetworkFileError, match="for xiangqi, not for chess"):
        load(path, "chess")
    with pytest.raises(NetworkFileError) as refused:
        from_bytes(damaged(to_bytes(NetworkFile("xiangqi", arrays))), "damaged.nnue")
    assert "\n" not in str(refused.value) and "damaged.nnue" in str(refused.value)


def test_the_engine_evaluates_with_a_network_only_when_given_one(tmp_path):
    engine = Engine(hash_mb=1)
    start = Xiangqi().initial_state()
    hand = engine.think(start, Limit(depth=1))
    path = tmp_path / "constant.nnue"
    save(constant_network("xiangqi", 80), path)
    engine.use_network(path)
    assert engine.think(start, Limit(depth=1)).score == -80  # each reply: 80 for its mover
    assert engine.think(start, Limit(depth=2)).score == 80
    engine.use_network(None)
    assert engine.think(start, Limit(depth=1)).score == hand.score
    with pytest.raises(NetworkFileError, match="for chess, not for xiangqi"):
        chess_file = tmp_path / "chess.nnue"
        save(NetworkFile("chess", dict(constant_network("xiangqi", 0).arrays)), chess_file)
        engine.use_network(chess_file)


def test_uci_and_ucci_load_a_network_and_refuse_a_damaged_one_in_one_line(tmp_path):
    from yipan.protocols.ucci import UcciEngine
    from yipan.protocols.uci import UciEngine

    good, bad = tmp_path / "Constant.nnue", tmp_path / "bad.nnue"
    save(constant_network("xiangqi", 80), good)
    bad.write_bytes(b"not a network")
    for make, setting in ((lambda write: UciEngine(write, hash_mb=1, variant="xiangqi"),
                           "setoption name EvalFile value {}"),
                          (lambda write: UcciEngine(write, hash_mb=1),
                           "setoption evalfile {}")):
        lines: list[str] = []
        engine = make(lines.append)
        for line in ("ucci" if isinstance(engine, UcciEngine) else "uci",
                     setting.format(bad), "position startpos", setting.format(good),
                     "go depth 1"):
            assert engine.handle(line) is True
        assert engine.search_thread is not None
        engine.search_thread.join(120)
        refusals = [line for line in lines if line.startswith("info string setoption")]
        assert len(refusals) == 1 and "bad.nnue is not a yipan network file" in refusals[0]
        assert any("depth 1 " in line and "score" in line and "-80" in line for line in lines)
    assert "option evalfile type string default builtin" in lines  # UCCI's answer


def test_the_command_line_refuses_a_missing_or_damaged_eval_file_in_one_line(tmp_path,
                                                                             capsys):
    good, bad = tmp_path / "constant.nnue", tmp_path / "bad.nnue"
    save(constant_network("xiangqi", 80), good)
    bad.write_bytes(b"PK\x03\x04 damaged")
    for arguments in (["analyze", "xiangqi", "--eval-file", str(bad), "--depth", "2"],
                      ["analyze", "xiangqi", "--eval-file", str(tmp_path / "missing.nnue"),
                       "--depth", "2"],
                      ["ucci", "--eval-file", str(bad)]):
        assert main(arguments) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "nnue" in err, arguments
    assert main(["analyze", "xiangqi", "--eval-file", str(good), "--depth", "2",
                 "--json"]) == 0
    assert '"score_cp": 80' in capsys.readouterr().out


def test_builtin_names_the_shipped_network():
    from yipan.chess_family.nnue_file import BUILTIN, shipped

    network = load(BUILTIN, "xiangqi")
    assert network.game == "xiangqi" and network.features == FEATURES
    assert shipped("xiangqi").name == "xiangqi.nnue"
    engine = Engine(hash_mb=1)
    engine.use_network(BUILTIN)
    game = Xiangqi()
    state = game.initial_state()
    found = engine.think(state, Limit(nodes=3_000))
    assert found is not None and found.move in game.legal_moves(state)


def test_the_shipped_network_evaluates_by_default_and_hand_asks_for_the_hand_set_one(capsys):
    from yipan.chess_family.nnue_file import BUILTIN, HAND
    from yipan.games.xiangqi import hooks
    from yipan.protocols.ucci import UcciEngine
    from yipan.protocols.uci import UciEngine

    by_network, by_hand = scores_by_network_and_hand(lambda: Engine(hash_mb=1),
                                                     Xiangqi().initial_state())

    for arguments, score, evaluation in (([], by_network, "network"),
                                         (["--eval-file", HAND], by_hand, HAND),
                                         (["--eval-file", BUILTIN], by_network, "network")):
        assert main(["analyze", "xiangqi", "--depth", "3", "--json", *arguments]) == 0
        extra = json.loads(capsys.readouterr().out)["extra"]
        assert (extra["score_cp"], extra["evaluation"]) == (score, evaluation), arguments

    for make, setting, hello in (
            (lambda write: UciEngine(write, hash_mb=1, variant="xiangqi"),
             "setoption name EvalFile value {}", "uci"),
            (lambda write: UcciEngine(write, hash_mb=1), "setoption evalfile {}", "ucci")):
        for settings_sent, score in (([], by_network), ([setting.format(HAND)], by_hand),
                                     ([setting.format("")], by_hand)):
            lines: list[str] = []
            engine = make(lines.append)
            for line in (hello, *settings_sent, "position startpos", "go depth 3"):
                assert engine.handle(line) is True
            assert engine.search_thread is not None
            engine.search_thread.join(120)
            scores = [re.search(r" score (?:cp )?(-?\d+)", line)
                      for line in lines if line.startswith("info depth 3 ")]
            assert scores and scores[-1] and int(scores[-1][1]) == score, (hello, lines)
        assert any(line.lower().endswith("evalfile type string default builtin")
                   for line in lines), hello

    assert_the_ai_follows_eval_file(Xiangqi(), hooks)
