"""Scoring with dead stones: constructed positions, and GNU Go's own ``final_score`` on
played-out games when ``gnugo`` is installed."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from yipan.games.go.engine import final_score, ownership_of
from yipan.games.go.rules import PASS, Go
from yipan.games.go.scoring import dead_stones, statuses

from .conftest import from_diagram

GNUGO = shutil.which("gnugo") or shutil.which("gnugo", path="/usr/games")


def test_a_lone_stone_in_the_opponents_area_is_dead():
    game = Go(7, komi=0.5)
    state = from_diagram(game, """
        ...XO..
        ...XO..
        ...XO..
        ...XO.X
        ...XO..
        ...XO..
        ...XO..""")
    ownership = ownership_of(game, state, 1500, random.Random(1))
    dead = dead_stones(game, state, ownership)
    assert dead == 1 << game.grid.bit(3, 6)
    found = statuses(game, state, ownership)
    assert [game.format_move(p) for p in found["dead"]] == ["G4"]
    assert len(found["alive"]) == 14 and found["seki"] == []
    # black 4 columns (28), white 3 columns (21) once G4 is removed
    assert final_score(game, state, 1500, random.Random(1)) == 28 - 21 - 0.5


def test_every_stone_has_one_status_and_shared_liberties_alone_are_seki():
    game = Go(5, komi=0)
    state = from_diagram(game, """
        .XO.O
        XXOOO
        XO...
        OO...
        .O...""")
    found = statuses(game, state, ownership_of(game, state, 1500, random.Random(2)))
    assert sum(map(len, found.values())) == (state.black | state.white).bit_count()
    # two groups whose only liberties are shared (A1 and C5 touch both colours): seki
    seki = from_diagram(game, """
        XXXXX
        OOOOX
        .XXOX
        OOXOX
        .OXO.""")
    every = statuses(game, seki, [0.0] * 25)  # nothing dead
    assert game.format_move(game.parse_move(None, "B3")) in {game.format_move(p)
                                                             for p in every["seki"]}


def test_a_settled_board_is_scored_as_tromp_taylor():
    game = Go(5, komi=0.5)
    state = from_diagram(game, """
        .X.O.
        XX.OO
        .XXO.
        XX.OO
        .X.O.""")
    assert final_score(game, state, 800, random.Random(3)) == game.score(state)


def _gnugo_score(size: int, komi: float, moves: list[str]) -> str:
    commands = [f"boardsize {size}", f"komi {komi}", "clear_board"]
    commands += [f"play {'b' if i % 2 == 0 else 'w'} {m}" for i, m in enumerate(moves)]
    commands += ["final_score", "quit"]
    output = subprocess.run([GNUGO, "--mode", "gtp", "--chinese-rules"],
                            input="\n".join(commands) + "\n", capture_output=True, text=True,
                            timeout=120).stdout
    answers = [block.strip() for block in output.split("\n\n") if block.strip()]
    return answers[-2].lstrip("= ").strip()


@pytest.mark.skipif(GNUGO is None, reason="gnugo is not installed (apt-get install gnugo)")
def test_scores_agree_with_gnugo_on_played_out_games():
    """Games played out by the engine against itself until two passes; GNU Go's final_score
    and ours name the same winner."""
    from yipan.games.go.engine import Engine

    agreements = 0
    for seed in range(3):
        game = Go(7, komi=0.5 + seed)
        engine = Engine(game, capacity=1 << 18, rng=random.Random(seed))
        state = game.initial_state()
        moves = []
        while game.outcome(state) is None and len(moves) < 150:
            move = engine.think(state, playouts=400).move
            moves.append(game.format_move(move))
            state = game.play(state, move)
        if game.outcome(state) is None:
            state = game.play(game.play(state, PASS), PASS)
        ours = game.result_text(final_score(game, state, 1500, random.Random(seed)))
        theirs = _gnugo_score(7, game.komi, [m for m in moves])
        agreements += ours[:1] == theirs[:1]
        assert ours == theirs or ours[:1] == theirs[:1], (moves, ours, theirs)
    assert agreements == 3
