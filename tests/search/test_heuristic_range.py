"""A heuristic is never read as a win or a loss, however far the game's evaluate overshoots."""

from __future__ import annotations

import io

import pytest

from yipan import Game, GameInfo
from yipan.core import DRAW, HEURISTIC_LIMIT, WIN, Limit, describe_value, is_loss, is_win
from yipan.search import PLAIN, Options, TracePrinter, alphabeta, iterate, minimax
from yipan.search.minimax import clamp_heuristic

PLIES = 4


class Overshoot(Game):
    """Each player in turn says 0 or 1, four times in all, and the game is drawn. The
    heuristic claims a huge edge for whoever just said 1: far past WIN, as an evaluate that
    counts ``4 ** stones`` on a big board does."""

    info = GameInfo(name="overshoot", title="overshooting heuristic", heuristic=True)

    def __init__(self, magnitude: float) -> None:
        self.magnitude = magnitude

    def initial_state(self) -> tuple[int, ...]:
        return ()

    def to_move(self, state: tuple[int, ...]) -> int:
        return len(state) % 2

    def legal_moves(self, state: tuple[int, ...]) -> list[int]:
        return [] if len(state) >= PLIES else [0, 1]

    def play(self, state: tuple[int, ...], move: int) -> tuple[int, ...]:
        return (*state, move)

    def outcome(self, state: tuple[int, ...]):
        return DRAW if len(state) >= PLIES else None

    def evaluate(self, state: tuple[int, ...]) -> float:
        # the side to move suffers when the opponent just said 1, gains when they said 0
        if not state:
            return 0
        return -self.magnitude if state[-1] else self.magnitude

    def format_move(self, move: int) -> str:
        return str(move)


MAGNITUDES = [HEURISTIC_LIMIT, WIN, 1_048_576, WIN + 5_000, 1e300, float("inf")]


def assert_heuristic(value: float) -> None:
    assert -HEURISTIC_LIMIT < value < HEURISTIC_LIMIT, value
    assert not is_win(value) and not is_loss(value)
    assert describe_value(value, exact=False).startswith("heuristic"), describe_value(value)


def test_clamp_keeps_values_strictly_inside_the_heuristic_range():
    assert clamp_heuristic(12.4) == 12 and clamp_heuristic(-12.6) == -13
    assert clamp_heuristic(HEURISTIC_LIMIT - 1) == HEURISTIC_LIMIT - 1
    assert clamp_heuristic(HEURISTIC_LIMIT) == HEURISTIC_LIMIT - 1
    assert clamp_heuristic(float("inf")) == HEURISTIC_LIMIT - 1
    assert clamp_heuristic(-float("inf")) == -(HEURISTIC_LIMIT - 1)
    assert isinstance(clamp_heuristic(1e300), int)


@pytest.mark.parametrize("magnitude", MAGNITUDES)
@pytest.mark.parametrize("options", [PLAIN, Options()], ids=["plain", "full"])
def test_alphabeta_never_reports_an_overshooting_heuristic_as_a_win(magnitude, options):
    game = Overshoot(magnitude)
    start = game.initial_state()
    for state in (start, (1,), (0, 1)):
        for depth in range(PLIES - len(state)):  # each search stops short of the end
            result = alphabeta(game, state, depth=depth, analysis=True, options=options)
            assert not result.exact
            assert_heuristic(result.value)
            for value in result.move_values.values():
                assert_heuristic(value)
    # searched to the end, the values are exact again: every line is a draw
    assert alphabeta(game, start, options=options).value == 0


@pytest.mark.parametrize("magnitude", MAGNITUDES)
def test_minimax_and_iterative_deepening_clamp_too(magnitude):
    game = Overshoot(magnitude)
    start = game.initial_state()
    for depth in range(PLIES):
        expected = minimax(game, start, depth=depth)
        assert_heuristic(expected.value)
        found = alphabeta(game, start, depth=depth, analysis=True, options=PLAIN)
        assert found.value == expected.value  # both clamp the same way
    for result in iterate(game, start, limit=Limit(depth=PLIES - 1)):
        assert_heuristic(result.value)


def test_a_clamped_leaf_prints_as_a_heuristic():
    game = Overshoot(1e300)
    out = io.StringIO()
    alphabeta(game, (1,), depth=1, trace=TracePrinter(game, 1, out=out))
    leaves = [line for line in out.getvalue().splitlines() if "horizon" in line]
    assert leaves and all(line.endswith(f"{HEURISTIC_LIMIT - 1}") for line in leaves), leaves
