"""The Connect Four AI: book, exact solve, heuristic fallback; never a proved loss by choice."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yipan.core import WIN, replay
from yipan.games.connect4 import ConnectFour
from yipan.games.connect4.book import build, read_book, shipped_book
from yipan.games.connect4.player import ConnectFourPlayer, make_ai, score_to_value
from yipan.games.connect4.solver import Solver
from yipan.players import SearchPlayer


def at(game: ConnectFour, moves: str):
    return replay(game, game.split_moves(moves))[-1]


def test_score_to_value_counts_plies_to_the_four(game):
    # X to move with three in a column: wins on this move (1 ply), score 22 - 4 = 18
    assert score_to_value(18, 6, 42) == WIN - 1
    # O to move, X wins on its next move whatever O does: 2 plies, score -18
    assert score_to_value(-18, 5, 42) == -(WIN - 2)
    assert score_to_value(0, 10, 42) == 0


def test_the_solver_plays_the_immediate_win(game):
    player = ConnectFourPlayer(game, random.Random(1), nodes=100_000)
    choice = player.choose(game, at(game, "121212"))
    assert choice.move == 0
    assert choice.result.exact and choice.result.value == WIN - 1


def test_it_blocks_when_every_other_move_loses(game):
    player = ConnectFourPlayer(game, random.Random(2), nodes=100_000)
    choice = player.choose(game, at(game, "1213133"))  # X threatens column 1; only 1 holds
    assert choice.move == 0


def test_out_of_time_the_tree_search_still_refuses_a_proved_loss(game):
    """With no time to solve, the fallback tree search must still block an immediate threat."""
    player = ConnectFourPlayer(game, random.Random(3), nodes=1000)
    position = at(game, "11223")  # X has 1,2,3 on the bottom; O must take 4
    choice = player.choose(game, position)
    assert not choice.result.exact  # 1000 nodes cannot solve this early position
    assert choice.move == 3


def test_perfect_player_keeps_the_proved_score_from_a_benchmark_position(game, benchmark_set):
    moves, expected = benchmark_set("Test_L2_R1")[10]
    position = at(game, moves)
    player = ConnectFourPlayer(game, random.Random(4), nodes=5_000_000)
    choice = player.choose(game, position)
    assert choice.result.exact
    assert choice.result.value == score_to_value(expected, position.moves, game.cells)


def test_the_player_probes_a_book(tmp_path):
    game = ConnectFour(5, 4)
    path = tmp_path / "small.book"
    build(game, path, 3, workers=1)
    book = read_book(path)
    player = ConnectFourPlayer(game, random.Random(5), book=book, nodes=1000)
    choice = player.choose(game, game.initial_state())
    assert choice.result.exact and choice.result.stats.nodes == 0  # answered from the book


@pytest.mark.parametrize("level", ["medium", "easy"])
def test_weaker_levels_are_the_generic_search_player(game, level):
    player = make_ai(game, level, random.Random(6), 1.0)
    assert isinstance(player, SearchPlayer)
    assert player.choose(game, at(game, "121212")).move in game.legal_moves(at(game, "121212"))


def random_position(game: ConnectFour, rng: random.Random, plies: int):
    position = game.initial_state()
    while position.moves < plies:
        going = [game.play(position, c) for c in game.legal_moves(position)]
        going = [child for child in going if game.outcome(child) is None]
        if not going:
            break
        position = rng.choice(going)
    return position


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_with_time_to_solve_every_choice_keeps_the_best_score(seed):
    game = ConnectFour()
    rng = random.Random(seed)
    position = random_position(game, rng, 26)
    player = ConnectFourPlayer(game, rng, nodes=50_000_000)
    choice = player.choose(game, position)
    scores = Solver(game, table_bits=18).analyze(position)
    assert scores[choice.move] == max(scores.values())


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_without_time_it_never_walks_into_a_loss_it_can_see(seed):
    """A move the opponent answers with an immediate four is never chosen while another
    move avoids that."""
    game = ConnectFour()
    rng = random.Random(seed)
    position = random_position(game, rng, rng.randrange(6, 20))
    player = ConnectFourPlayer(game, rng, nodes=1000)
    choice = player.choose(game, position)

    def loses_at_once(col: int) -> bool:
        if game.is_winning_move(position, col):
            return False
        child = game.play(position, col)
        return any(game.is_winning_move(child, reply) for reply in game.legal_moves(child))

    if not all(loses_at_once(col) for col in game.legal_moves(position)):
        assert not loses_at_once(choice.move)


def test_a_score_known_from_the_book_still_needs_its_moves_proved_in_time(game):
    """At the book's last ply it knows the score but not which replies keep it: with little
    time the player must fall back to the tree search rather than prove every reply at
    length."""
    book = shipped_book()
    position = at(game, "44533221")
    assert position.moves == book.depth and book.score(game, position) == 4
    player = ConnectFourPlayer(game, random.Random(6), book=book, nodes=20_000)
    choice = player.choose(game, position)
    assert not choice.result.exact and player.last_source == "judgement"
    assert choice.move in game.legal_moves(position)


def test_every_position_before_the_books_last_ply_is_answered_from_it(game):
    """Up to the ply before the book's last, every column's exact score is in the book: the
    move is proved without a node searched, and it keeps the score the book gives."""
    book = shipped_book()
    assert book.depth >= 8
    player = ConnectFourPlayer(game, random.Random(6), book=book, nodes=1)
    for moves in ("", "4", "44", "4453", "44444", "1234567"[:book.depth - 1]):
        position = at(game, moves)
        choice = player.choose(game, position)
        assert player.last_source == "book" and choice.result.exact, moves
        assert choice.result.stats.nodes == 0
        best = -book.score(game, game.play(position, choice.move))
        assert best == book.score(game, position), moves


def play_out(game: ConnectFour, player: ConnectFourPlayer, position) -> int:
    """The game from ``position`` with the player to move against a perfect opponent (the
    first move keeping the exact score, centre first): +1, 0 or -1 for the player."""
    oracle = Solver(game, table_bits=20)
    side = position.moves % 2
    while game.outcome(position) is None:
        if position.moves % 2 == side:
            col = player.choose(game, position).move
        else:
            score = oracle.solve(position).score
            col = next(c for c in game.order_moves(position, game.legal_moves(position))
                       if oracle.achieves(position, c, score))
        position = game.play(position, col)
    winner = game.outcome(position).winner
    return 0 if winner is None else (1 if winner == side else -1)


@pytest.mark.parametrize("wanted", [1, 0])
def test_against_a_perfect_opponent_it_keeps_a_win_and_a_draw(game, benchmark_set, wanted):
    moves, _ = next((m, s) for m, s in benchmark_set("Test_L2_R2")
                    if (s > 0) - (s < 0) == wanted)
    player = ConnectFourPlayer(game, random.Random(7), nodes=2_000_000)
    assert play_out(game, player, at(game, moves)) == wanted


def test_without_a_proof_the_choice_is_a_judgement_among_unrefuted_moves(game):
    player = ConnectFourPlayer(game, random.Random(8), nodes=30_000)
    choice = player.choose(game, at(game, "445332211"))  # past the book
    assert player.last_source == "judgement" and not choice.result.exact
    assert choice.result.scale == "mean"


def test_the_strategy_book_answers_first_and_says_its_move_is_a_proved_win(game):
    from yipan.games.connect4.strategy import shipped_strategy

    strategy = shipped_strategy()
    assert strategy is not None, "the strategy book is shipped in src/yipan/data"
    player = ConnectFourPlayer(game, random.Random(9), nodes=1000, strategy=strategy)
    choice = player.choose(game, game.initial_state())
    assert choice.move == 3 and player.last_source == "strategy"
    assert choice.result.value > 0 and not choice.result.exact  # a win, its length unknown
