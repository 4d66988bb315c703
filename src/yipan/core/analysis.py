"""What ``analyze`` and ``solve`` report, for every game: one shape, one JSON schema.

A search returns a ``SearchResult``; a game's own analysis (Connect Four's solver, Gomoku's
threat search, the heap games' Sprague-Grundy theory) returns an ``Analysis`` directly. The
front ends (the CLI, the web app) format only ``Analysis``, so every game reads the same::

    {"game": "connect4", "moves": ["4", "4"], "to_move": 0, "game_over": false,
     "winner": null, "move": "4", "value": 999981, "outcome": "win",
     "description": "win in 19", "scale": "minimax",
     "pv": ["4", ...], "move_values": {"1": -999978, ...}, "move_outcomes": {"1": "loss", ...},
     "depth": 19, "exact": true, "nodes": 123456, "seconds": 0.42,
     "nodes_per_second": 293942, "engine": "connect4 solver", "extra": {"benchmark_score": 2, ...}}

- ``value``: for the side to move; a win ``ply`` half-moves away is ``WIN - ply``, a loss
  ``-(WIN - ply)``, a draw 0. ``null`` when only the outcome is known (the heap games know
  who wins by theory, not in how many moves).
- ``outcome``: ``"win"``, ``"draw"`` or ``"loss"`` for the side to move once proven, else null.
- ``scale``: how to read an unproven ``value``: ``"minimax"`` (a heuristic evaluation),
  ``"mean"`` (MCTS: the mean result in [-1, 1]), ``"expected"`` (a one-player game's
  expected score).
- ``move_values`` / ``move_outcomes``: each root move's value and proven outcome, where known.
- ``extra``: the game's own fields, documented by each game's hooks (Connect Four:
  ``benchmark_score`` and ``benchmark_scores`` in the benchmark's convention; Gomoku: the
  forced line; heap games: ``grundy`` and ``winning_moves``; 2048: ``score``, ``max_tile``),
  and a search's own figures (``tt_hits``, ``cutoffs``; MCTS: ``visits``, ``tree_size``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from .game import Game
from .results import (
    HEURISTIC_LIMIT,
    SearchResult,
    SearchStats,
    describe_centipawns,
    describe_value,
)

OUTCOME_WORDS = {1: "win", 0: "draw", -1: "loss"}


def _frozen(mapping: Mapping | None = None) -> Mapping:
    return MappingProxyType(dict(mapping or {}))


def outcome_of(value: float | None, exact: bool) -> int | None:
    """+1, 0 or -1 for a proven win, draw or loss (a proven value), else None."""
    if value is None:
        return None
    if value > HEURISTIC_LIMIT:
        return 1
    if value < -HEURISTIC_LIMIT:
        return -1
    return 0 if exact and value == 0 else None


@dataclass(frozen=True, slots=True)
class Analysis:
    """A position's analysis in the schema above; moves are the game's own move objects."""

    move: Hashable | None
    value: float | None
    outcome: int | None = None  # +1 / 0 / -1 for the side to move, when proven
    pv: tuple = ()
    move_values: Mapping[Any, float | None] = field(default_factory=_frozen)
    move_outcomes: Mapping[Any, int] = field(default_factory=_frozen)
    depth: int = 0
    exact: bool = False
    scale: str = "minimax"
    bounded: bool = False  # a proved win or loss whose length the value only bounds
    nodes: int = 0
    seconds: float = 0.0
    engine: str = ""
    extra: Mapping[str, Any] = field(default_factory=_frozen)

    @classmethod
    def from_search(cls, result: SearchResult, engine: str,
                    extra: Mapping[str, Any] | None = None) -> Analysis:
        """A search's result in the shared shape; the search's own statistics (MCTS visits,
        tree size) go to ``extra``."""
        outcomes = {move: o for move, value in result.move_values.items()
                    if (o := outcome_of(value, result.exact)) is not None}
        return cls(
            move=result.move, value=result.value,
            outcome=outcome_of(result.value, result.exact), pv=tuple(result.pv),
            move_values=_frozen(result.move_values), move_outcomes=_frozen(outcomes),
            depth=result.depth, exact=result.exact, scale=result.scale,
            bounded=result.bounded,
            nodes=result.stats.nodes, seconds=result.stats.elapsed, engine=engine,
            extra=_frozen({**search_figures(result.stats), **(extra or {})}))

    @property
    def description(self) -> str:
        """The value in words for the side to move: "win in 5", "draw", "62% to win"..."""
        if self.value is None:
            return OUTCOME_WORDS.get(self.outcome, "unknown") if self.outcome is not None \
                else "unknown"
        return describe_value(self.value, self.exact, self.scale, self.bounded)

    def described_for(self, game: Game) -> str:
        """The description in the terms of the game's players (pawns for a chess engine)."""
        if self.value is not None and game.values_in_centipawns:
            return describe_centipawns(self.value, self.exact)
        return self.description

    def to_json(self, game: Game, state: Any, moves: list[str]) -> dict[str, Any]:
        """The documented JSON object (module docstring)."""
        fmt = game.format_move

        def word(outcome: int | None) -> str | None:
            return None if outcome is None else OUTCOME_WORDS[outcome]

        def move_text(move: Any) -> Any:
            return move if isinstance(move, str) else fmt(move)

        return {
            "game": game.info.name, "moves": list(moves),
            **position_json(game, state),
            "move": None if self.move is None else fmt(self.move),
            "value": _number(self.value), "outcome": word(self.outcome),
            "description": self.described_for(game), "scale": self.scale,
            "pv": [fmt(m) for m in self.pv],
            "move_values": {fmt(m): _number(v) for m, v in self.move_values.items()},
            "move_outcomes": {fmt(m): word(o) for m, o in self.move_outcomes.items()},
            "depth": self.depth, "exact": self.exact,
            "nodes": self.nodes, "seconds": round(self.seconds, 6),
            "nodes_per_second": round(self.nodes / self.seconds)
            if self.seconds > 0 and self.nodes else None,
            "engine": self.engine,
            "extra": {key: _json_ready(value, move_text) for key, value in self.extra.items()},
        }


def position_json(game: Game, state: Any) -> dict[str, Any]:
    """Who is to move and whether the game is over, as every report gives them."""
    outcome = game.outcome(state)
    return {"to_move": None if outcome is not None else game.to_move(state),
            "game_over": outcome is not None,
            "winner": None if outcome is None else outcome.winner}


def game_over_analysis(game: Game, state: Any) -> Analysis:
    """The report for a finished game: no move, the result for the side that would move."""
    outcome = game.outcome(state)
    assert outcome is not None
    result = outcome.result_for(game.to_move(state))
    return Analysis(move=None, value=None, outcome=result, exact=True, engine="rules")


def search_figures(stats: SearchStats) -> dict[str, Any]:
    """The figures a search adds to SearchStats (MCTS: visits per move, tree size...)."""
    extra: dict[str, Any] = {}
    for item in fields(stats):
        if item.name in ("nodes", "tt_hits", "cutoffs", "elapsed"):
            continue
        extra[item.name] = getattr(stats, item.name)
    if stats.tt_hits or stats.cutoffs:
        extra["tt_hits"], extra["cutoffs"] = stats.tt_hits, stats.cutoffs
    return extra


def _number(value: float | None) -> float | None:
    """JSON has no infinity: an unbounded value is sent as null; whole numbers as ints."""
    if value is None or value != value or value in (float("inf"), float("-inf")):
        return None
    return int(value) if float(value).is_integer() else value


def _json_ready(value: Any, move_text: Any) -> Any:
    """Extra fields as JSON: mappings keyed by moves get the moves' text."""
    if isinstance(value, Mapping):
        return {move_text(k) if not isinstance(k, str) else k: _json_ready(v, move_text)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v, move_text) for v in value]
    if isinstance(value, float):
        return _number(value)
    return value
