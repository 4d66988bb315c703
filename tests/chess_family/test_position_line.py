"""The ``position`` line of the UCI family set up from where it parts from the last one: the
position, its key and its repetition history are those of a replay from the start, for
chess (UCI) and xiangqi (UCCI, and UCI in Fairy-Stockfish's coordinates)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yipan.games.chess import Chess
from yipan.protocols.ucci import UcciEngine
from yipan.protocols.uci import UciEngine
from yipan.protocols.uci_family import EngineProtocol

SQUARES = re.compile(r"([a-i]\d+)([a-i]\d+)")
DIALECTS: dict[str, Callable[[], EngineProtocol]] = {
    "chess, UCI": lambda: UciEngine(ignore, hash_mb=1),
    "xiangqi, UCCI": lambda: UcciEngine(ignore, hash_mb=1),
    "xiangqi, UCI": lambda: UciEngine(ignore, hash_mb=1, variant="xiangqi"),
}
# a choice of move: an index into the legal moves, or None for "take back my last move",
# which makes positions repeat
CHOICES = st.lists(st.one_of(st.integers(0, 1000), st.none()), min_size=1, max_size=90)


def ignore(_line: str) -> None:
    """Answers nobody reads."""


@pytest.fixture(scope="module", params=list(DIALECTS))
def engine(request: pytest.FixtureRequest) -> EngineProtocol:
    made = DIALECTS[request.param]()
    made.ready.wait()  # the warm-up done: it does not run beside the examples
    yield made
    made.close()


def play_out(engine: EngineProtocol, choices: list[int | None],
             start: Any = None) -> tuple[list[str], list[Any]]:
    """A game of the engine's rules from ``start`` (default: the usual start) as move texts,
    and the states reached (played by the rules themselves, not through the protocol)."""
    game = engine.variant.new_game()
    state = game.initial_state() if start is None else start
    texts: list[str] = []
    states = [state]
    for choice in choices:
        moves = engine.variant.moves(state)
        if not moves:
            break
        move = moves[choice % len(moves)] if choice is not None else None
        if choice is None and len(texts) >= 2:
            shape = SQUARES.fullmatch(texts[-2])  # the mover's last move, back where it was
            back = None if shape is None else shape[2] + shape[1]
            move = next((m for m in moves if engine.variant.move_text(m) == back), moves[0])
        move = moves[0] if move is None else move
        texts.append(engine.variant.move_text(move))
        state = game.play(state, move)
        states.append(state)
    return texts, states


def replayed(engine: EngineProtocol, texts: list[str]) -> Any:
    """The state of a line set up from its start (the last line forgotten)."""
    engine.line = None
    engine.handle("position startpos moves " + " ".join(texts))
    assert engine.replayed == len(texts)
    return engine.state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=CHOICES, steps=st.lists(st.integers(1, 3), min_size=1, max_size=60))
def test_a_line_grown_a_few_plies_at_a_time_is_the_line_replayed(engine, choices, steps):
    texts, states = play_out(engine, choices)
    engine.new_game()
    end = 0
    for step in [*steps, len(texts)]:
        before = end
        end = min(len(texts), end + step)
        engine.handle("position startpos moves " + " ".join(texts[:end]))
        assert engine.replayed == end - before  # only the new plies were played
        assert engine.state == states[end]  # the pieces, the key and the whole history
        if end == len(texts):
            break
    assert replayed(engine, texts) == engine.state == states[-1]
    assert engine.state.history == states[-1].history


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=CHOICES, other=CHOICES, back=st.integers(0, 90))
def test_a_line_that_parts_from_the_last_is_set_up_from_where_they_part(
        engine, choices, other, back):
    texts, states = play_out(engine, choices)
    kept = min(back, len(texts))
    branch, branch_states = play_out(engine, other, start=states[kept])
    new_line = texts[:kept] + branch
    shared = kept
    while shared < min(len(texts), len(new_line)) and texts[shared] == new_line[shared]:
        shared += 1
    engine.new_game()
    engine.handle("position startpos moves " + " ".join(texts))
    engine.handle("position startpos moves " + " ".join(new_line))
    assert engine.replayed == len(new_line) - shared
    assert engine.state == branch_states[-1] == replayed(engine, new_line)


def test_a_different_first_move_or_another_start_replays_the_whole_line():
    engine = UciEngine(ignore, hash_mb=1)
    engine.handle("position startpos moves e2e4 e7e5 g1f3")
    engine.handle("position startpos moves d2d4 e7e5 g1f3")
    assert engine.replayed == 3
    fen = Chess().fen(Chess().initial_state())
    engine.handle(f"position fen {fen} moves d2d4 e7e5 g1f3")  # the same position, written
    assert engine.replayed == 3  # otherwise: another start
    engine.handle(f"position fen {fen} moves d2d4 e7e5 g1f3 b8c6")
    assert engine.replayed == 1
    engine.close()


def test_repetitions_counted_across_lines_end_the_game_as_a_replay_does():
    engine = UciEngine(ignore, hash_mb=1)
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    game = Chess()
    for plies in range(1, 9):
        engine.handle("position startpos moves " + " ".join((shuffle * 2)[:plies]))
        assert engine.replayed == 1
    assert game.termination(engine.state) == "threefold repetition"
    assert engine.state == replayed(engine, shuffle * 2)
    engine.close()


def test_an_illegal_move_ends_the_line_again_when_the_line_comes_again():
    lines: list[str] = []
    engine = UciEngine(lines.append, hash_mb=1)
    game = Chess()
    expected = game.initial_state()
    for text in ("e2e4", "e7e5"):
        expected = game.play(expected, game.parse_move(expected, text))
    for _ in range(2):
        engine.handle("position startpos moves e2e4 e7e5 e1e3 g1f3")
        assert engine.state == expected
        assert lines[-1].startswith("info string move 3 ('e1e3')")
    engine.close()


def test_other_coordinates_forget_the_last_line():
    engine = UciEngine(ignore, hash_mb=1, variant="xiangqi")
    engine.handle("position startpos moves h3e3")  # fairy: the cannon h3-e3
    assert engine.state != engine.game.initial_state()
    engine.handle("setoption name UCI_Coordinates value iccs")
    engine.handle("position startpos moves h3e3")  # ICCS: h3 is empty, no move
    assert engine.replayed == 0 and engine.state == engine.game.initial_state()
    engine.close()
