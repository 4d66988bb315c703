"""Engines thinking aloud (``yipan.engines.think``, the hooks' ``make_thinker``): reports as
they go, the last one the answer, and a stop heeded soon with the best so far."""

from __future__ import annotations

import random
import time

import pytest

from yipan import engines
from yipan.core import AnalysisRequest, Limit, game_spec, get_game, last_choice, list_games, replay
from yipan.core.analysis import Analysis
from yipan.search.players import SearchPlayer


def position(name: str, moves: list[str], **options):
    game = get_game(name, **options)
    return game, replay(game, moves)[-1]


def stop_after(seconds: float):
    deadline = time.perf_counter() + seconds
    return lambda: time.perf_counter() >= deadline


@pytest.mark.parametrize(("name", "moves", "engine"), [
    ("gomoku", ["h8", "h9", "i8"], "player"),  # the engine: each depth of its search
    ("tictactoe", [], "mcts"),  # MCTS: a report every quarter second
    ("tictactoe", [], "alphabeta"),  # each depth
])
def test_engines_report_as_they_go_and_end_on_their_answer(name: str, moves: list[str],
                                                          engine: str) -> None:
    game, state = position(name, moves)
    request = AnalysisRequest(limit=Limit(time=1.0))
    thoughts = list(engines.think(game, state, engine, request=request,
                                  rng=random.Random(3)))
    assert len(thoughts) >= 2
    assert all(isinstance(thought, Analysis) and thought.move is not None
               for thought in thoughts)
    assert thoughts[-1].move in game.legal_moves(state)


def test_analyze_with_the_player_is_the_end_of_its_thoughts() -> None:
    game, state = position("tictactoe", ["a1", "a2", "b1", "b2"])
    answer = engines.analyze(game, state, "player", rng=random.Random(1))
    assert game.format_move(answer.move) == "c1"
    last = list(engines.think(game, state, "player", rng=random.Random(1)))[-1]
    assert last.move == answer.move


@pytest.mark.parametrize(("name", "moves"), [
    ("connect4", ["4", "4", "3"]),  # solving (numba) in slices, then the tree search
    ("gomoku", ["h8", "h9", "i8"]),  # between its steps and depths
    ("tictactoe", []),  # alpha-beta by iterative deepening (3x3: the book answers at once)
    ("chess", ["e2e4"]),  # the chess engine, between its depths and inside one
    ("xiangqi", ["h2e2"]),
])
def test_a_game_ai_heeds_a_stop_with_its_best_so_far(name: str, moves: list[str]) -> None:
    options = {"size": "6x6", "k": 4} if name == "tictactoe" else {}
    game, state = position(name, moves, **options)
    limit = 600  # seconds: far beyond any first compile, so only the stop can end it sooner
    started = time.perf_counter()
    request = AnalysisRequest(limit=Limit(time=limit, stop=stop_after(0.4)))
    answer = engines.analyze(game, state, "player", request=request, rng=random.Random(2))
    assert time.perf_counter() - started < limit / 2  # ended by the stop, not by its limit
    assert answer.move in game.legal_moves(state)


def test_the_search_player_thinks_each_depth_then_chooses() -> None:
    game, state = position("tictactoe", ["b2"], size="4x4", k=3)
    player = SearchPlayer("perfect", random.Random(0), time=0.5)
    choices = list(player.think(game, state, Limit(time=0.5)))
    depths = [choice.result.depth for choice in choices if choice.result is not None]
    assert depths[:3] == [1, 2, 3]
    assert last_choice(iter(choices)).move in game.legal_moves(state)


def test_when_no_depth_finished_every_front_end_answers_with_the_same_one_ply_search() -> None:
    """Stopped before depth 1 finished (here by a budget of one node), ``analyze``, ``think``,
    the web page's search, the search player and ``solve --algorithm iterative`` all answer
    one way: a one-ply search."""
    from yipan.web.engines import SearchJob, run

    game, state = position("tictactoe", ["b2"], size="4x4", k=3)
    stopped = Limit(nodes=1)
    request = AnalysisRequest(limit=stopped)
    answers = [engines.analyze(game, state, "alphabeta", request=request),
               *engines.think(game, state, "alphabeta", request=request),
               engines.solve(game, state, "iterative", request=request)]
    assert [answer.depth for answer in answers] == [1, 1, 1]
    assert len({answer.value for answer in answers}) == 1
    assert answers[0].move_values and len(answers[0].move_values) == len(game.legal_moves(state))
    job = SearchJob(game="tictactoe", moves=("b2",), engine="alphabeta", limit=stopped,
                    options={"size": "4x4", "k": 3}, analysis=True)
    [web] = run(job)
    assert web["depth"] == 1 and web["value"] == answers[0].value
    choice = last_choice(SearchPlayer("perfect", random.Random(0)).think(game, state, stopped))
    assert choice.result is not None and choice.result.depth == 1


AIS_WITHOUT_A_SEARCH = {  # each reads a strategy made before the move: nothing to show or stop
    "pushfold": "the push-or-fold equilibrium's chart",
    **dict.fromkeys(["kuhn", "leduc", "liars-dice"], "its CFR+ equilibrium, solved once"),
}
GAMES_WITH_AN_AI = [name for name in list_games()
                    if game_spec(name).load_hooks().make_ai is not None]


@pytest.mark.parametrize("name", [name for name in GAMES_WITH_AN_AI
                                  if name not in AIS_WITHOUT_A_SEARCH])
def test_every_games_ai_thinks_aloud_so_every_front_end_can_watch_and_stop_it(name: str) -> None:
    """The registry's ``player`` engine streams and stops through the hooks' thinker (or
    ``think``): a game whose AI searches without one would show nothing on the web page
    until it moved, and its "Move now" would do nothing."""
    hooks = game_spec(name).load_hooks()
    assert hooks.make_thinker is not None or hooks.think is not None


def test_the_ais_without_a_search_are_games_with_an_ai() -> None:
    assert set(AIS_WITHOUT_A_SEARCH) <= set(GAMES_WITH_AN_AI)
