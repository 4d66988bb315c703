"""Playing weaker on purpose (UCI ``UCI_LimitStrength`` and ``UCI_Elo``): a node budget and a
controlled randomness, both read from a table measured against Stockfish's own ``UCI_Elo``.

The engine searches a few candidate lines (MultiPV) within a node budget, then plays one of
them at random, each weighted by ``exp((score - best) / temperature)``: the lower the Elo, the
smaller the budget and the warmer the choice, so that a weak setting misses tactics and
sometimes prefers a worse move. The random source is the loop's injected ``random.Random``
(the ``Seed`` option).

``ANCHORS`` are the measured points: at each anchor's (budget, temperature) yipan scored
about 50% against Stockfish 15.1 at ``UCI_LimitStrength true, UCI_Elo`` = the anchor's Elo,
Stockfish searching to the depth where it picks its weakened move (``go depth 1 + level``,
the pick a long time control makes), chess's engine evaluating by hand: a weakened chess
search evaluates so whatever ``EvalFile`` says (``Variant.scaled_evaluation``). Between
anchors the budget is interpolated geometrically and the temperature linearly.
``benchmarks/chess_strength.py`` measures them (docs/performance.md has the table); the Elo
range is what was measured, nothing outside it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import pairwise
from typing import Any, NamedTuple

CANDIDATES = 4  # lines searched to choose among
GAP_CAP = 2_000  # centipawns: a mate's lead counts as this (exp of it stays finite)


class Anchor(NamedTuple):
    """One measured point of the strength scale."""

    elo: int  # on Stockfish 15.1's UCI_Elo scale
    nodes: int  # the node budget of a move (all candidate lines together)
    temperature: float  # centipawns: how far below the best a line may score and be played


# ascending Elo; budgets never shrink and temperatures never rise along it
ANCHORS: tuple[Anchor, ...] = (
    Anchor(1350, 2_800, 130.0),
    Anchor(1600, 6_700, 104.0),
    Anchor(1750, 12_000, 87.0),
    Anchor(1900, 95_000, 25.0),
    Anchor(2000, 200_000, 5.0),
)
MIN_ELO = ANCHORS[0].elo
MAX_ELO = ANCHORS[-1].elo


def _between(elo: int) -> tuple[Anchor, Anchor, float]:
    """The anchors either side of ``elo`` (clamped to the range) and how far along it lies."""
    anchors = ANCHORS
    elo = min(max(elo, anchors[0].elo), anchors[-1].elo)
    for low, high in pairwise(anchors):
        if elo <= high.elo:
            return low, high, (elo - low.elo) / (high.elo - low.elo)
    return anchors[-1], anchors[-1], 0.0


def node_budget(elo: int) -> int:
    """The nodes a move may search at this Elo."""
    low, high, share = _between(elo)
    return round(low.nodes * (high.nodes / low.nodes) ** share)


def temperature(elo: int) -> float:
    """Centipawns: how far below the best a line may score and still be played often."""
    low, high, share = _between(elo)
    return low.temperature + (high.temperature - low.temperature) * share


def choose(lines: Sequence[Any], elo: int, rng: random.Random) -> Any:
    """One of the candidate ``lines`` (each with a ``score``, best first), at random,
    weighted by how close its score is to the best's."""
    best = lines[0].score
    heat = temperature(elo)
    weights = [math.exp(-min(best - line.score, GAP_CAP) / heat) for line in lines]
    return rng.choices(list(lines), weights=weights)[0]
