"""What the chess family's NNUE tests share, so that chess's and xiangqi's build their made-up
networks and their tiny training runs the same way: the games differ only in the name and the
feature count. Imported relatively (``from .nnue_helpers import ...``; from a game's folder
``from ...chess_family.nnue_helpers import ...``), as the suite's other helpers are."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from yipan.chess_family.nnue import OUTPUT_SCALE, QA, QO
from yipan.chess_family.nnue_file import NetworkFile
from yipan.cli.main import main
from yipan.games.chess.nnue import FEATURES as CHESS_FEATURES
from yipan.games.chess.nnue import VALUE_FIELDS as CHESS_VALUE_FIELDS
from yipan.games.xiangqi.nnue import FEATURES as XIANGQI_FEATURES
from yipan.games.xiangqi.nnue import VALUE_FIELDS as XIANGQI_VALUE_FIELDS

FEATURES = {"chess": CHESS_FEATURES, "xiangqi": XIANGQI_FEATURES}

# the memory a game's ``network_value`` takes after the stack and the ply, in its order
VALUE_FIELDS = {"chess": CHESS_VALUE_FIELDS, "xiangqi": XIANGQI_VALUE_FIELDS}


def value_arguments(memory: dict[str, np.ndarray], game: str = "chess") -> list[np.ndarray]:
    """``memory`` (from ``network_memory``) as ``game``'s ``network_value``'s arguments."""
    return [memory[name] for name in VALUE_FIELDS[game]]


def random_arrays(game: str, rng: np.random.Generator, width: int = 16, hidden: int = 4,
                  buckets: int = 1, output_buckets: int = 1) -> dict[str, np.ndarray]:
    """The integer arrays of a network for ``game`` (``width`` accumulator units, ``hidden``
    units after it in each of ``output_buckets``, ``buckets`` king buckets), drawn from
    ``rng``."""
    rows = FEATURES[game] * buckets
    units = hidden * output_buckets
    return {"ft_weights": rng.integers(-30, 30, (rows, width)).astype(np.int16),
            "ft_bias": rng.integers(0, 80, width).astype(np.int16),
            "l1_weights": rng.integers(-200, 200, (units, 2 * width)).astype(np.int16),
            "l1_bias": rng.integers(-5000, 5000, units).astype(np.int32),
            "out_weights": rng.integers(-3000, 3000, units).astype(np.int32),
            "out_bias": rng.integers(-1000, 1000, output_buckets).astype(np.int32)}


def constant_network(game: str, centipawns: int, width: int = 8) -> NetworkFile:
    """A network whose value is ``centipawns`` in every position (only its output bias): a
    search's score with it is known exactly."""
    arrays = {name: np.zeros_like(array)
              for name, array in random_arrays(game, np.random.default_rng(0), width, 1).items()}
    arrays["out_bias"] = np.array([centipawns * QA * QO // OUTPUT_SCALE], np.int32)
    return NetworkFile(game, arrays)


def scores_by_network_and_hand(make_engine: Callable[[], Any], start: Any,
                                depth: int = 3) -> tuple[int, int]:
    """The search's score of ``start`` at ``depth`` with the shipped network and with the
    hand-set evaluation, each from a fresh engine; they must differ, else a test could not
    tell which evaluated."""
    from yipan.chess_family.nnue_file import BUILTIN
    from yipan.core import Limit

    def score(network: str | None) -> int:
        engine = make_engine()
        engine.use_network(network)
        return engine.think(start, Limit(depth=depth)).score

    by_network, by_hand = score(BUILTIN), score(None)
    assert by_network != by_hand
    return by_network, by_hand


def damaged(data: bytes) -> bytes:
    """A network file's bytes with one byte changed inside the stored (uncompressed) weights:
    the archive still opens, only its check finds the change."""
    changed = bytearray(data)
    changed[data.find(b"ft_weights.npy") + 400] ^= 0x55
    return bytes(changed)


def tiny_training(game: str, *extra: str) -> list[str]:
    """``yipan train GAME --nnue`` at the least that still plays, labels, trains and exports:
    two one-game units at depth 1, six steps, a network of 8 and 2 units."""
    return ["train", game, "--nnue", "--games", "2", "--games-per-unit", "1", "--depth", "1",
            "--random-plies", "6", "--steps", "6", "--batch", "16", "--accumulator", "8",
            "--hidden", "2", *extra]


def with_setting(command: list[str], option: str, value: str) -> list[str]:
    """``command`` with ``option``'s value replaced by ``value``."""
    at = command.index(option)
    return [*command[:at + 1], value, *command[at + 2:]]


def train(command: list[str], folder: Path) -> Path:
    """The network file ``command`` writes into ``folder`` (skipped without JAX and optax);
    its checkpoint lies beside it."""
    pytest.importorskip("jax", reason="training needs JAX and optax (the [train] extra)")
    output = folder / "tiny.nnue"
    assert main([*command, "--output", str(output)]) == 0
    return output


def assert_the_ai_follows_eval_file(game: Any, hooks: Any) -> None:
    """The AI a game's hooks make evaluates as ``start`` read ``--eval-file``: the shipped
    network without it or with ``builtin``, by hand with ``hand``."""
    import random

    from yipan.chess_family.nnue_file import BUILTIN, HAND

    for options, uses_network in (({}, True), ({"eval-file": HAND}, False),
                                  ({"eval-file": BUILTIN}, True)):
        hooks.start(game, options)  # what ``yipan play`` reads; the web page's AIs: {}
        player = hooks.HOOKS.make_ai(game, "easy", random.Random(3), None)
        assert (player.engine.network is not None) is uses_network, options
    hooks.start(game, {})
