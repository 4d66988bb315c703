"""Engines prepared before any clock: a slow first preparation is announced, with its time;
a quick one is silent; every game's hook runs."""

from __future__ import annotations

import threading

import pytest

import yipan.prepare as prepare
from yipan import Game, GameInfo, GameSpec, Outcome, register_game
from yipan.cli.main import main
from yipan.core import GameHooks


class Slow(Game):
    info = GameInfo(name="slow-to-prepare", title="Slow")

    def initial_state(self):
        return 0

    def to_move(self, s):
        return 0

    def legal_moves(self, s):
        return []

    def play(self, s, m):
        return s

    def outcome(self, s):
        return Outcome(None)


def test_a_slow_preparation_is_announced_and_timed(monkeypatch):
    started = threading.Event()
    release = threading.Event()

    def slow_hook(game):  # stands for numba compiling: it finishes once it was announced
        started.set()
        release.wait(10)

    said: list[str] = []

    def say(line: str) -> None:
        said.append(line)
        release.set()

    register_game(GameSpec(name="slow-to-prepare", title="Slow", factory=Slow,
                           hooks=GameHooks(prepare=slow_hook)))
    monkeypatch.setattr(prepare, "ANNOUNCE_AFTER", 0.05)
    seconds = prepare.prepare_for(Slow(), say)
    assert started.is_set() and seconds > 0
    assert len(said) == 2
    assert said[0].startswith("preparing the Slow engine") and said[1].startswith("ready in")


def test_a_quick_preparation_says_nothing(monkeypatch):
    register_game(GameSpec(name="slow-to-prepare", title="Slow", factory=Slow,
                           hooks=GameHooks(prepare=lambda game: None)))
    said: list[str] = []
    prepare.prepare_for(Slow(), said.append)
    assert said == []


def test_yipan_prepare_runs_every_games_hook(capsys: pytest.CaptureFixture) -> None:
    assert main(["prepare", "connect4", "nim"]) == 0
    out = capsys.readouterr().out
    assert "connect4" in out and "ready: 2 engines" in out


def counting_game(calls: list) -> None:
    """A game whose hooks record their calls: prepare, and a perft counter."""

    def perft(game, state, depth):
        calls.append(("perft", state, depth))
        return {}

    register_game(GameSpec(name="slow-to-prepare", title="Slow", factory=Slow,
                           hooks=GameHooks(prepare=lambda game: calls.append(("prepare",)),
                                           perft=perft)))


def test_yipan_perft_prepares_the_counter_alone_before_its_clock(capsys):
    """The counter is compiled by a two-ply count from the start, then the asked count runs;
    the game's engine (its prepare hook) is not compiled for counting."""
    calls: list = []
    counting_game(calls)
    assert main(["perft", "slow-to-prepare", "--depth", "5"]) == 0
    assert calls == [("perft", 0, 2), ("perft", 0, 5)]
    assert "nodes: 0" in capsys.readouterr().out


def test_yipan_prepare_prepares_the_engine_and_the_counter(capsys):
    calls: list = []
    counting_game(calls)
    assert main(["prepare", "slow-to-prepare"]) == 0
    assert calls == [("prepare",), ("perft", 0, 2)]
    del calls[:]
    prepare.prepare_engines(["slow-to-prepare"])  # what a web server prepares: no counter
    assert calls == [("prepare",)]
    assert prepare.prepare_counter(Slow()) >= 0 and len(calls) == 2
    register_game(GameSpec(name="slow-to-prepare", title="Slow", factory=Slow,
                           hooks=GameHooks(prepare=lambda game: None)))
    assert prepare.prepare_counter(Slow()) == 0.0  # no counter: nothing to do


def test_engines_prepared_on_two_processes_say_each_and_keep_the_order_asked():
    said: list[str] = []
    seconds = prepare.prepare_engines(["pushfold", "bash"], said.append, workers=2)
    assert list(seconds) == ["pushfold", "bash"] and all(s >= 0 for s in seconds.values())
    assert said[0].startswith("preparing 2 engines on 2 processes")
    assert sorted(line.split()[0] for line in said[1:]) == ["bash", "pushfold"]
    assert all(" ready in " in line for line in said[1:])


def test_a_game_the_workers_do_not_know_is_prepared_here():
    """A game registered in this process only (as here) is unknown to a spawned worker: it is
    prepared in this process instead, and the call still answers for every game."""
    calls: list = []
    counting_game(calls)
    said: list[str] = []
    seconds = prepare.prepare_engines(["slow-to-prepare", "pushfold"], said.append, workers=2)
    assert list(seconds) == ["slow-to-prepare", "pushfold"] and calls == [("prepare",)]
    assert len([line for line in said if " ready in " in line]) == 2
