"""A user's own game, written as in the README, works with the registry and every search."""

from __future__ import annotations

import yipan
from yipan import Game, GameInfo, GameSpec, Outcome, register_game
from yipan.core import WIN
from yipan.search import alphabeta, iterate, minimax


class Pile(Game):
    """Take 1 or 2 stones; whoever takes the last stone wins. State: (stones, player to move)."""

    info = GameInfo(name="pile", title="Pile of stones")

    def initial_state(self):
        return (7, 0)

    def to_move(self, s):
        return s[1]

    def legal_moves(self, s):
        return [n for n in (1, 2) if n <= s[0]]

    def play(self, s, m):
        return (s[0] - m, 1 - s[1])

    def outcome(self, s):
        return Outcome(1 - s[1]) if s[0] == 0 else None


def test_registered_game_is_found_and_solved():
    register_game(GameSpec(name="pile", title="Pile of stones", factory=Pile))
    game = yipan.get_game("pile")
    assert "pile" in yipan.list_games()
    # 7 stones: the first player takes 1 and leaves a multiple of 3
    for stones in range(1, 13):
        state = (stones, 0)
        exact = minimax(game, state)
        assert (exact.value > 0) == (stones % 3 != 0)
        result = alphabeta(game, state, analysis=True)
        assert dict(result.move_values) == dict(exact.move_values)
        assert list(iterate(game, state))[-1].value == exact.value
    winning = alphabeta(game, (7, 0))
    assert winning.move == 1
    assert winning.value == WIN - len(winning.pv)
