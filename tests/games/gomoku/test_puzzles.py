"""The VCF puzzles of the reference data: the engine's move is one of the listed answers, and
its forced line, replayed with the rules, is fours all the way to a five."""

from __future__ import annotations

from pathlib import Path

import pytest

from yipan.games.gomoku import Gomoku
from yipan.games.gomoku.engine import Engine
from yipan.games.gomoku.puzzles import Puzzle, read_puzzles

NODE_BUDGET = 200_000  # searches bounded by nodes, not seconds: a busy machine changes nothing


@pytest.fixture(scope="module")
def puzzles(shared_data: Path) -> list[Puzzle]:
    return read_puzzles(shared_data / "gomoku" / "vcf_puzzles.txt")


def five_points(game: Gomoku, state, player: int) -> int:
    """How many empty points would give ``player`` a five (by the rules module)."""
    stones = game.stones_of(state, player)
    taken = state.black | state.white
    return sum(game.has_five(stones | 1 << game.bit(p)) for p in range(game.size ** 2)
               if not taken >> game.bit(p) & 1)


def test_every_puzzle_is_solved_with_a_listed_answer(puzzles):
    assert len(puzzles) >= 20
    engines: dict = {}
    wrong = []
    for puzzle in puzzles:
        key = (puzzle.size, "standard" if puzzle.rule == "standard" else "freestyle")
        engine = engines.setdefault(key, Engine(*key, memory_bytes=16 << 20))
        engine.reset(puzzle.points())
        decision = engine.think(seconds=None, nodes=NODE_BUDGET)
        move = (decision.move % puzzle.size, decision.move // puzzle.size)
        if move not in puzzle.answers:
            wrong.append((puzzle.id, move, decision.reason))
            continue
        if decision.threat is None:
            continue
        # the forced line, replayed by the rules: the attacker keeps a five threat, then wins
        game = engine.game
        state = game.initial_state()
        for x, y in puzzle.moves:
            state = game.play(state, game.point(x, y))
        attacker = game.to_move(state)
        for index, point in enumerate(decision.threat.line):
            state = game.play_checked(state, point)
            if index % 2 == 0 and game.outcome(state) is None:
                assert five_points(game, state, attacker) >= 1, (puzzle.id, index)
        # the line ends with a five, or with a move that threatens two (an open/double four)
        outcome = game.outcome(state)
        won = outcome is not None and outcome.winner == attacker
        assert won or five_points(game, state, attacker) >= 2, puzzle.id
    assert wrong == []
