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
