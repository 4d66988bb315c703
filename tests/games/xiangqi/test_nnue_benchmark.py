"""The network benchmark's head-to-head match (``benchmarks/nnue.py match --baseline``): the
opponent evaluates with the baseline network instead of the hand-set evaluation, and a network
against itself plays the same game whichever side it is called."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from yipan.chess_family.engine import FamilyEngine
from yipan.games.xiangqi.engine import Engine as XiangqiEngine

ROOT = Path(__file__).resolve().parents[3]
BENCHMARK = ROOT / "benchmarks" / "nnue.py"
SHIPPED = ROOT / "src" / "yipan" / "data" / "xiangqi.nnue"
OPENING = "h2e2 h9g7 h0g2 i9h9"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("nnue_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


@pytest.fixture
def loaded(monkeypatch) -> list[str]:
    """The paths each engine of a game was given, in order."""
    seen: list[str] = []
    original = FamilyEngine.use_network

    def spy(self, network):
        seen.append(str(network))
        original(self, network)

    monkeypatch.setattr(FamilyEngine, "use_network", spy)
    return seen


def test_the_baseline_network_plays_the_other_side(bench, loaded, monkeypatch) -> None:
    monkeypatch.setattr(bench, "MAX_PLIES", 6)
    bench.play_game("xiangqi", str(SHIPPED), True, OPENING, 3, 200, 0.0, str(SHIPPED))
    assert loaded == [str(SHIPPED), str(SHIPPED)]
    loaded.clear()
    bench.play_game("xiangqi", str(SHIPPED), True, OPENING, 3, 200, 0.0)
    assert loaded == [str(SHIPPED)]


def test_a_network_against_itself_plays_one_game_from_either_side(bench, monkeypatch) -> None:
    monkeypatch.setattr(bench, "MAX_PLIES", 40)
    moves: list[list[int]] = [[], []]
    original = XiangqiEngine.think

    def recording(self, state, limit):
        found = original(self, state, limit)
        moves[recording.game].append(found.move)
        return found

    monkeypatch.setattr(XiangqiEngine, "think", recording)
    recording.game = 0
    first = bench.play_game("xiangqi", str(SHIPPED), True, OPENING, 5, 300, 0.0, str(SHIPPED))
    recording.game = 1
    second = bench.play_game("xiangqi", str(SHIPPED), False, OPENING, 5, 300, 0.0,
                             str(SHIPPED))
    assert moves[0] == moves[1] and len(moves[0]) > 0
    assert first[0] + second[0] == 1.0
    assert first[1] == second[1]


def test_match_names_the_baseline_and_scores_against_it(bench, monkeypatch, capsys) -> None:
    monkeypatch.setattr(bench, "MAX_PLIES", 4)
    monkeypatch.setattr(sys, "argv", ["nnue.py", "match", "--game", "xiangqi", "--network",
                                      str(SHIPPED), "--baseline", str(SHIPPED), "--nodes",
                                      "100", "--pairs", "1"])
    bench.main()
    out = capsys.readouterr().out
    assert f"against network {SHIPPED}, 100 nodes a move, 2 games" in out
    assert "network vs baseline: W-D-L 0-2-0, score 0.500" in out
