"""Playing weaker on purpose (UCI ``UCI_LimitStrength`` and ``UCI_Elo``): a node budget and a
controlled randomness, both mapped from the Elo asked for.

The engine searches a few candidate lines (MultiPV) within a node budget that doubles every
``ELO_PER_DOUBLING`` points, then plays one of them at random, each weighted by
``exp((score - best) / temperature)``: the lower the Elo, the smaller the budget and the
warmer the choice, so that a weak setting misses tactics and sometimes prefers a worse move.
The random source is the loop's injected ``random.Random`` (the ``Seed`` option).

The mapping is provisional: it has not been measured against rated opponents (measure it
with ``benchmarks/chess_strength.py`` on a quiet machine before trusting the numbers).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

MIN_ELO = 800
MAX_ELO = 2400
NODES_AT_MIN_ELO = 200
ELO_PER_DOUBLING = 160  # of the node budget: 200 nodes at 800, about 200,000 at 2400
CANDIDATES = 4  # lines searched to choose among
WARMEST = 200.0  # centipawns: the temperature at MIN_ELO
COOLEST = 10.0  # centipawns: the temperature at MAX_ELO
GAP_CAP = 2_000  # centipawns: a mate's lead counts as this (exp of it stays finite)


def node_budget(elo: int) -> int:
    """The nodes a move may search at this Elo."""
    return int(NODES_AT_MIN_ELO * 2 ** ((elo - MIN_ELO) / ELO_PER_DOUBLING))


def temperature(elo: int) -> float:
    """Centipawns: how far below the best a line may score and still be played often."""
    share = (MAX_ELO - elo) / (MAX_ELO - MIN_ELO)
    return COOLEST + (WARMEST - COOLEST) * share


def choose(lines: Sequence[Any], elo: int, rng: random.Random) -> Any:
    """One of the candidate ``lines`` (each with a ``score``, best first), at random,
    weighted by how close its score is to the best's."""
    best = lines[0].score
    heat = temperature(elo)
    weights = [math.exp(-min(best - line.score, GAP_CAP) / heat) for line in lines]
    return rng.choices(list(lines), weights=weights)[0]
