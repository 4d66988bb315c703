"""The engine registry as the command line meets it: every registered engine answers
``analyze --ai``, every proving search ``solve --algorithm``, an unknown name is one line and
exit 2, and an engine registered here appears in the choices and runs."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from yipan import engines
from yipan.cli.main import main
from yipan.core import CHANCE, Analysis, Choice, Game, get_game
from yipan.engines import Asked, EngineSpec, PlayerRequest, engine_spec

ANALYZE_AT = [("tictactoe", ["a1", "b2"]), ("nim", []), ("2048", None), ("connect4", ["4", "4"])]
SOLVE_AT = [("kuhn", []), ("tictactoe", ["a1", "b2", "c3"])]


def decision_moves(game: Game, moves: list[str] | None) -> list[str]:
    """``moves``, or (None) the chance draws from the start up to the first choice."""
    if moves is not None:
        return moves
    state, drawn = game.initial_state(), []
    while game.to_move(state) == CHANCE:
        draw = game.chance_outcomes(state)[0][0]
        drawn.append(game.format_move(draw))
        state = game.play(state, draw)
    return drawn


def position_for(spec: EngineSpec, candidates: list) -> tuple[str, list[str]]:
    """A position of a game the engine serves: one the web page offers it for if any (where
    a network ships, for the network's engines), else the first it serves."""
    served = [(name, moves) for name, moves in candidates if spec.serves(get_game(name))]
    assert served, f"no game here for {spec.name}"
    shown = [(name, moves) for name, moves in served if spec.on_page(get_game(name))]
    name, moves = (shown or served)[0]
    return name, decision_moves(get_game(name), moves)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", engines.analyze_engines())
def test_every_registered_engine_answers_analyze(capsys, name: str) -> None:
    game_name, moves = position_for(engine_spec(name), ANALYZE_AT)
    code, out, err = run(capsys, "analyze", game_name, *moves, "--ai", name, "--depth", "2",
                         "--nodes", "300", "--seed", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    game = get_game(game_name)
    state = game.initial_state()
    for move in moves:
        state = game.play_checked(state, game.parse_move(state, move))
    assert data["move"] in [game.format_move(m) for m in game.legal_moves(state)]


@pytest.mark.parametrize("name", engines.solve_algorithms())
def test_every_proving_search_answers_solve(capsys, name: str) -> None:
    game_name, moves = position_for(engine_spec(name, "solve"), SOLVE_AT)
    code, out, err = run(capsys, "solve", game_name, *moves, "--algorithm", name,
                         "--iterations", "200", "--seed", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["value"] is not None or data["outcome"] is not None


@pytest.mark.parametrize(("command", "words"), [
    ("analyze", ["--ai", "nope"]), ("solve", ["--algorithm", "nope"]), ("watch", ["--ai", "nope"]),
    ("analyze", ["--ai", "minimax"]),  # a proving search, not an analysis
    ("solve", ["--algorithm", "random"]),  # an analysis, not a proof
])
def test_an_unknown_engine_is_one_line_and_exit_2(capsys, command: str, words: list[str]) -> None:
    code, out, err = run(capsys, command, "tictactoe", *words)
    assert code == 2
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert words[1] in err and "auto" in err  # the name given, and the names there are


def test_an_engine_that_does_not_serve_the_game_is_one_line_and_exit_2(capsys) -> None:
    code, _, err = run(capsys, "analyze", "2048", "--ai", "alphabeta")
    assert code == 2 and err.count("\n") == 1
    assert "alphabeta cannot analyse" in err and "auto" in err
    code, _, err = run(capsys, "solve", "kuhn", "--algorithm", "minimax")
    assert code == 2 and err.count("\n") == 1 and "cfr" in err


# -- an engine added in one place -----------------------------------------------------------------
class FirstMovePlayer:
    name = "first-move"

    def choose(self, game: Game, state: Any) -> Choice:
        return Choice(game.legal_moves(state)[0])


def first_move_thoughts(asked: Asked) -> Iterator[Analysis]:
    """Thinks aloud twice: the last legal move, then (its answer) the first."""
    moves = list(asked.game.legal_moves(asked.state))
    for move in (moves[-1], moves[0]):
        yield Analysis(move=move, value=None, pv=(move,), engine="first-move")


def first_move_player(game: Game, how: PlayerRequest) -> FirstMovePlayer:
    return FirstMovePlayer()


@pytest.fixture
def first_move_engine() -> Iterator[EngineSpec]:
    spec = engines.register_engine(EngineSpec(
        "first-move", "plays the first legal move (a test's engine)",
        think=first_move_thoughts, player=first_move_player, label="the first move"))
    yield spec
    engines.unregister_engine(spec.name)


def test_a_registered_engine_is_in_every_commands_choices_and_runs(
        capsys, first_move_engine: EngineSpec) -> None:
    for command in ("analyze", "watch"):
        with pytest.raises(SystemExit):
            main([command, "tictactoe", "--help"])
        out, _ = capsys.readouterr()
        assert "first-move: plays the first legal move" in " ".join(out.split()), command
    code, out, err = run(capsys, "analyze", "tictactoe", "b2", "--ai", "first-move", "--json")
    assert code == 0, err
    assert json.loads(out)["move"] == "a1"  # its last thought, its answer
    code, out, err = run(capsys, "watch", "tictactoe", "--ai", "first-move", "--json")
    assert code == 0, err
    assert json.loads(out)["result"] == "X won"  # a1 b1 c1 a2 b2: down the first column
    assert "first-move" in engines.engines_for(get_game("tictactoe"))


def test_the_engines_think_aloud_and_answer_with_their_last_thought(
        first_move_engine: EngineSpec) -> None:
    game = get_game("tictactoe")
    thoughts = list(engines.think(game, game.initial_state(), "first-move"))
    assert [game.format_move(t.move) for t in thoughts] == ["c3", "a1"]
    assert engines.analyze(game, game.initial_state(), "first-move",
                           rng=random.Random(1)).move == thoughts[-1].move


def test_a_registered_proving_search_is_solves_choice_and_no_analysis(capsys) -> None:
    def draw_by_agreement(asked: Asked) -> Analysis:
        return Analysis(move=None, value=0, pv=(), engine="agreement", exact=True)

    spec = engines.register_engine(EngineSpec("agreement", "calls every position a draw",
                                              solve=draw_by_agreement))
    try:
        with pytest.raises(SystemExit):
            main(["solve", "tictactoe", "--help"])
        assert "agreement: calls every position a draw" in " ".join(
            capsys.readouterr().out.split())
        code, out, err = run(capsys, "solve", "tictactoe", "--algorithm", "agreement", "--json")
        assert code == 0, err
        assert json.loads(out)["value"] == 0 and json.loads(out)["engine"] == "agreement"
        code, _, err = run(capsys, "analyze", "tictactoe", "--ai", "agreement")
        assert code == 2 and "agreement" in err
    finally:
        engines.unregister_engine(spec.name)
