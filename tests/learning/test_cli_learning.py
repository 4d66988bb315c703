"""``yipan train``, ``analyze --ai puct|net`` and ``play --ai net`` as a user meets them."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from yipan.cli.main import main
from yipan.games.tictactoe import TicTacToe
from yipan.learning import network as nets


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    pytest.importorskip("jax", reason="training needs JAX and optax (the [train] extra)")
    folder = tmp_path_factory.mktemp("train")
    output = folder / "ttt.npz"
    code = main(["train", "tictactoe", "--from-solver", "700", "--epochs", "2",
                 "--hidden", "32", "--output", str(output)])
    assert code == 0
    return output


def test_training_writes_a_network_and_a_checkpoint_that_a_rerun_resumes(trained, capsys):
    net = nets.load(trained, TicTacToe())
    assert net.hidden == (32,) and net.notes["solver"]["epochs"] == 2
    state = json.loads((trained.parent / "ttt.npz.checkpoint" / "state.json").read_text())
    assert state["solver_epochs"] == 2
    chunks = sorted(p.name for p in (trained.parent / "ttt.npz.checkpoint").glob("solver-*"))
    assert chunks == ["solver-0000.npz", "solver-0001.npz"]  # 500 + 200 positions
    code, _, err = run(capsys, "train", "tictactoe", "--from-solver", "700", "--epochs", "2",
                       "--hidden", "32", "--output", str(trained))
    assert code == 0 and "resuming" in err
    again = nets.load(trained, TicTacToe())
    for name in net.weights:  # nothing left to do: the same weights
        assert (again.weights[name] == net.weights[name]).all()
    code, _, err = run(capsys, "train", "tictactoe", "--from-solver", "700", "--epochs", "3",
                       "--hidden", "32", "--output", str(trained))
    assert code == 2 and "other settings" in err and err.count("\n") == 1


def test_self_play_on_worker_processes_gives_the_same_network(trained, tmp_path, capsys):
    """Self-play's games are units of work seeded by their place: two processes (or a Ray
    cluster, tests/cluster) play the same games and give the network one process gives."""
    from yipan.learning.data import Dataset

    networks, games = [], []
    for workers in ("1", "2"):
        output = tmp_path / f"workers{workers}.npz"
        code, _, err = run(capsys, "train", "tictactoe", "--selfplay", "8", "--rounds", "1",
                           "--simulations", "8", "--gate-games", "2", "--start",
                           str(trained), "--workers", workers, "--output", str(output))
        assert code == 0, err
        networks.append(nets.load(output, TicTacToe()))
        games.append(Dataset.load(tmp_path / f"workers{workers}.npz.checkpoint" / "replay.npz"))
    one, two = games
    assert len(one) == len(two) >= 8 * 5  # 8 games of 5 plies or more
    for field in vars(one):
        assert (getattr(one, field) == getattr(two, field)).all(), field
    for name in networks[0].weights:
        assert (networks[0].weights[name] == networks[1].weights[name]).all()


def test_labelling_on_worker_processes_gives_the_same_chunks_and_network(trained, tmp_path,
                                                                          capsys):
    """Chunks of labelled positions are units of work seeded by their number: two processes
    label the chunks one process does (the fixture's, with --workers 1), and the network is
    the same."""
    from yipan.learning.data import Dataset

    output = tmp_path / "ttt.npz"
    code, _, err = run(capsys, "train", "tictactoe", "--from-solver", "700", "--epochs", "2",
                       "--hidden", "32", "--workers", "2", "--output", str(output))
    assert code == 0, err
    for name in ("solver-0000.npz", "solver-0001.npz"):
        one = Dataset.load(trained.parent / "ttt.npz.checkpoint" / name)
        two = Dataset.load(tmp_path / "ttt.npz.checkpoint" / name)
        assert len(one) == len(two) > 0
        for field in vars(one):
            assert (getattr(one, field) == getattr(two, field)).all(), (name, field)
    first, second = nets.load(trained, TicTacToe()), nets.load(output, TicTacToe())
    for name in first.weights:
        assert (first.weights[name] == second.weights[name]).all()


def test_a_chunk_encoded_for_another_input_is_labelled_again(trained, tmp_path, capsys):
    """A game's encoding can grow (Connect Four's gained threat planes): chunks saved with
    the old planes fit no network of the new shape, so they are labelled again, the same
    positions as before."""
    import shutil
    from dataclasses import replace

    from yipan.learning.data import Dataset

    folder = tmp_path / "ttt.npz.checkpoint"
    shutil.copytree(trained.parent / "ttt.npz.checkpoint", folder)
    original = Dataset.load(folder / "solver-0001.npz")
    old = np.zeros((len(original), 1, *original.planes.shape[2:]), np.float32)
    replace(original, planes=old).save(folder / "solver-0001.npz")
    # the checkpoint's network and its optimiser state were trained on the old planes too
    nets.save(nets.initial_network("tictactoe", (1, 3, 3), 9, (32,),
                                   np.random.default_rng(0)), folder / "network.npz")
    code, _, err = run(capsys, "train", "tictactoe", "--from-solver", "700", "--epochs", "2",
                       "--hidden", "32", "--output", str(tmp_path / "ttt.npz"))
    assert code == 0, err
    assert "training again from the labelled positions" in err
    assert "1 labelled chunks were encoded for another network input" in err
    assert nets.load(tmp_path / "ttt.npz", TicTacToe()).notes["solver"]["epochs"] == 2
    again = Dataset.load(folder / "solver-0001.npz")
    for field in vars(original):
        assert (getattr(again, field) == getattr(original, field)).all(), field


def test_self_play_rounds_run_and_are_gated(trained, tmp_path, capsys):
    output = tmp_path / "self.npz"
    code, _, err = run(capsys, "train", "tictactoe", "--selfplay", "4", "--rounds", "2",
                       "--simulations", "8", "--gate-games", "2", "--start", str(trained),
                       "--output", str(output))
    assert code == 0, err
    state = json.loads((tmp_path / "self.npz.checkpoint" / "state.json").read_text())
    assert state["rounds"] == 2 and [e["round"] for e in state["log"]] == [1, 2]
    assert all(e["examples"] >= 2 * 5 for e in state["log"])  # 2 games of 5 plies or more
    assert "round 2:" in err
    assert nets.load(output).notes["selfplay"]["games"] == 4


@pytest.mark.parametrize("args, words", [
    (["train", "tictactoe", "--output", "x.npz"], "--from-solver"),
    (["train", "nim", "--from-solver", "5", "--output", "x.npz"], "no encoding"),
    (["train", "tictactoe", "--from-solver", "5", "--hidden", "0", "--output", "x.npz"],
     "hidden layer sizes"),
    (["train", "tictactoe", "--from-solver", "5"], "--output"),
    (["analyze", "tictactoe", "--ai", "net", "--network", "/nonexistent.npz"], "no such file"),
    (["analyze", "tictactoe", "--network", "x.npz"], "--network is for"),
    (["play", "tictactoe", "--network", "x.npz"], "--network is for"),
])
def test_bad_input_is_one_line_and_exit_status_2(capsys, tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.npz").write_bytes(b"")  # a file to name: the other arguments are refused
    code, _, err = run(capsys, *args)
    assert code == 2 and words in err and err.count("\n") == 1, err


def test_a_damaged_start_network_is_refused(capsys, tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not really")
    code, _, err = run(capsys, "train", "tictactoe", "--selfplay", "2", "--start", str(bad),
                       "--output", str(tmp_path / "out.npz"))
    assert code == 2 and "not a yipan network file" in err and err.count("\n") == 1


def test_analyze_shows_the_networks_policy_beside_the_solved_values(trained, capsys):
    code, out, _ = run(capsys, "analyze", "tictactoe", "a1", "b2", "--ai", "net",
                       "--network", str(trained), "--json")
    assert code == 0
    extra = json.loads(out)["extra"]
    legal = {"b1", "c1", "a2", "c2", "a3", "b3", "c3"}
    assert set(extra["policy"]) == legal and abs(sum(extra["policy"].values()) - 1) < 1e-3
    assert extra["truth"] == {move: "draw" for move in legal}  # every reply holds the draw
    assert -1 <= extra["network_value"] <= 1
    code, out, _ = run(capsys, "analyze", "tictactoe", "a1", "a2", "b1", "b2", "--ai", "puct",
                       "--network", str(trained), "--nodes", "200")
    assert code == 0
    assert "network value:" in out and "visits" in out and "solved: win" in out
    assert "best move: c1" in out  # the win at once, found by the search if not the network


def test_play_against_the_network(trained, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("a1\nc3\nquit\n"))  # one is free
    code, out, _ = run(capsys, "play", "tictactoe", "--ai", "net", "--network", str(trained),
                       "--first", "ai")
    assert code == 0 and out.count("AI plays") >= 2


def test_self_play_on_a_local_ray_cluster_plays_the_same_games(trained, tmp_path, capsys):
    pytest.importorskip("ray", reason="Ray is the [cluster] extra")
    from yipan.learning.data import Dataset

    games = []
    for extra in ([], ["--ray", "local", "--workers", "2"]):
        output = tmp_path / f"ray{len(extra)}.npz"
        code, _, err = run(capsys, "train", "tictactoe", "--selfplay", "8", "--rounds", "1",
                           "--simulations", "8", "--gate-games", "2", "--start",
                           str(trained), *extra, "--output", str(output))
        assert code == 0, err
        games.append(Dataset.load(tmp_path / f"ray{len(extra)}.npz.checkpoint" / "replay.npz"))
    for field in vars(games[0]):
        assert (getattr(games[0], field) == getattr(games[1], field)).all(), field


def test_a_gomoku_network_analyses_with_its_top_moves_listed(tmp_path, capsys):
    """Any game with an encoding takes a network file; a board of many moves lists the
    network's twenty likeliest and sums up the rest."""
    from yipan.games.gomoku.rules import Gomoku

    path = tmp_path / "gomoku.npz"
    nets.save(nets.network_for(Gomoku(9), (8,), np.random.default_rng(1)), path)
    code, out, err = run(capsys, "analyze", "gomoku", "--size", "9", "e5", "--ai", "net",
                         "--network", str(path))
    assert code == 0, err
    rows = out.split("  move  policy\n", 1)[1].splitlines()
    assert len([r for r in rows if r.strip().endswith("%")]) == 20
    assert "(60 more moves," in out  # 81 points, one taken, twenty listed
