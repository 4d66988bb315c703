"""Long commands honour their limits: ``--time`` stops them and the report says where."""

from __future__ import annotations

import json

import pytest

from yipan.cli.main import main


def test_solve_liars_dice_stops_at_its_time_limit(capsys: pytest.CaptureFixture) -> None:
    """The game's own CFR+ solve runs 400 iterations unless the clock stops it first: a
    hundredth of a second is far too little for them (each takes milliseconds)."""
    assert main(["solve", "liars-dice", "--time", "0.01", "--json"]) == 0
    extra = json.loads(capsys.readouterr().out)["extra"]
    assert 1 <= extra["iterations"] < 400
    assert extra["stopped"].startswith("at the time limit of 0.01 s")


def test_sg_table_stops_at_its_time_limit_with_the_values_reached(
        capsys: pytest.CaptureFixture) -> None:
    """Ten million heaps of Grundy's game take minutes; with a thousandth of a second
    the first slices are all there is, and the values given are the right ones as far as
    they go."""
    from yipan.impartial.kernels import grundy_game_rare

    assert main(["sg", "grundy-game", "--upto", "10000000", "--time", "0.001", "--json"]) == 0
    captured = capsys.readouterr()
    found = json.loads(captured.out)
    assert found["stopped"] == "at the time limit of 0.001 s"
    assert 0 < len(found["values"]) < 10_000_001
    assert found["values"] == grundy_game_rare(len(found["values"]) - 1).tolist()
    assert captured.err.startswith("yipan sg: stopped at the time limit of 0.001 s after G(0..")


def test_sg_table_says_how_far_it_is(capsys: pytest.CaptureFixture,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A long table reports its progress on stderr (here from the first slice on); a table
    that was not stopped has no "stopped"."""
    from yipan.cli import sg

    monkeypatch.setattr(sg, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(sg, "PROGRESS_EVERY", 0.0)
    assert main(["sg", "grundy-game", "--upto", "20000", "--json"]) == 0
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["values"]) == 20_001
    assert "stopped" not in json.loads(captured.out)
    assert "Grundy's game: G(0..1,023) of G(0..20,000) done" in captured.err


def test_sg_period_refuses_a_bound_out_of_reach(capsys: pytest.CaptureFixture) -> None:
    """Officers (0.6) splits heaps and shows no period early: ten million values would take
    days. One line says what bound is within reach; smaller bounds, and large ones for a
    game proved early, are answered."""
    from yipan.cli.sg import LARGEST_UNPROVED_OCTAL

    assert main(["sg", "period", "0.6", "--bound", "10000000"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"first {LARGEST_UNPROVED_OCTAL:,} values" in error
    assert main(["sg", "period", "0.77", "--bound", "10000000", "--json"]) == 0  # Kayles:
    assert json.loads(capsys.readouterr().out)["proved"] is True  # proved long before
    assert main(["sg", "period", "0.6", "--bound", "4096", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["proved"] is False
