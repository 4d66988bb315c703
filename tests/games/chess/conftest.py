"""What the chess tests share: python-chess as the referee of a game's end, and the engine
run as a GUI runs it, through python-chess's engine client."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.engine
import pytest

from yipan.core import DRAW, Outcome


def reference_outcome(board: chess.Board) -> Outcome | None:
    """python-chess's verdict, with the fifty-move rule and threefold repetition automatic."""
    result = board.outcome()
    if result is not None:
        return DRAW if result.winner is None else Outcome(0 if result.winner else 1)
    if board.halfmove_clock >= 100 or board.is_repetition(3):
        return DRAW
    return None


SRC = Path(__file__).resolve().parents[3] / "src"


@pytest.fixture(scope="module")
def compiled() -> None:
    """The kernels compiled here first, so the engine process only loads them."""
    from yipan.games.chess.hooks import prepare

    prepare()


@pytest.fixture(scope="module")
def engine(compiled) -> Iterator[chess.engine.SimpleEngine]:
    """``yipan uci`` in its own process, driven by python-chess's engine client."""
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    client = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "yipan", "uci"],
                                                 timeout=120, env=env)
    yield client
    client.quit()
