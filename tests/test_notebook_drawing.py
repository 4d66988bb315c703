"""Every built-in game's states draw themselves in a notebook (``_repr_html_``): an SVG board
where the game has one, its text in a ``<pre>`` otherwise; the drawing follows the position."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

import yipan
from yipan.core import CHANCE
from yipan.core.drawing import notebook_html

BOARDS = {"tictactoe", "connect4", "gomoku", "go", "chess", "xiangqi", "2048", "nim", "bash",
          "kayles", "dawsons-kayles", "grundy-game", "octal", "subtraction", "wythoff"}


def next_state(game, state, rng):
    if game.to_move(state) == CHANCE:
        return game.play(state, game.chance_outcomes(state)[0][0])
    return game.play(state, rng.choice(list(game.legal_moves(state))))


@pytest.mark.parametrize("name", yipan.list_games())
def test_each_initial_state_draws_itself_and_the_drawing_follows_the_position(name):
    game = yipan.get_game(name)
    rng = random.Random(1)
    state = game.initial_state()
    drawn = state._repr_html_()
    if name in BOARDS:
        assert drawn.startswith("<svg")
        ElementTree.fromstring(drawn)  # well-formed
    else:
        assert drawn.startswith("<pre>") and drawn.endswith("</pre>")
    later = state
    for _ in range(3):
        later = next_state(game, later, rng)
    assert later._repr_html_() != drawn


def test_the_position_is_in_the_drawing():
    game = yipan.get_game("tictactoe")
    state = game.play(game.play(game.initial_state(), game.parse_move(None, "b2")),
                      game.parse_move(None, "a1"))
    drawn = state._repr_html_()
    assert drawn.count(">X</text>") == 1 and drawn.count(">O</text>") == 1
    nim = yipan.get_game("nim", heaps="3,4,5")
    assert notebook_html(nim, nim.initial_state()).count("<circle") == 12
    chess = yipan.get_game("chess")
    assert "♔" in chess.initial_state()._repr_html_()
    kuhn = yipan.get_game("kuhn")
    assert "pot" in kuhn.initial_state()._repr_html_()


def test_a_state_of_another_size_is_drawn_with_its_game():
    game = yipan.get_game("tictactoe", size="4x4", k=3)
    drawn = notebook_html(game, game.initial_state())
    assert drawn.count('fill="none"') == 16


def test_the_package_says_it_is_typed():
    assert (Path(yipan.__file__).parent / "py.typed").is_file()
