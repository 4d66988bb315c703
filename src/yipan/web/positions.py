"""Positions as the web app sees them: a game name, its options and a list of moves.

The server keeps no session: every request carries ``{game, options, moves}`` and this module
turns that into a checked position and into the JSON the page draws. No web framework here,
so the same code runs in the request handlers and in the search processes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..core import (
    CHANCE,
    Game,
    GameOptionError,
    GameSpec,
    IllegalMoveError,
    InvalidMoveError,
    game_spec,
    get_game,
)
from ..core.errors import YipanError

MAX_MOVES = 2_000
"""The longest move list accepted for a game that does not declare ``info.max_moves``."""

MAX_BRANCHING = 100_000
"""The most legal moves a position of a game served here may have (a game that declares
``info.max_branching`` above it is refused: every search would spend its time listing moves)."""

MAX_LISTED_MOVES = 5_000
"""The most legal moves a state response lists (a heap of a million tokens has a million)."""

MAX_PREVIEWS = 200
"""Heap boards get the heaps after each legal move, when there are at most this many moves."""


class MoveListTooLongError(YipanError, ValueError):
    """More moves than any game of this kind can have."""


class PositionTooLargeError(GameOptionError):
    """A game whose positions have more moves than this server searches (heaps too large)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A checked position: the game, the moves that led here, and every state on the way."""

    spec: GameSpec
    game: Game
    options: dict[str, Any]
    moves: tuple[str, ...]
    states: tuple[Any, ...]  # len(moves) + 1 states, the first the initial one

    @property
    def state(self) -> Any:
        return self.states[-1]


def options_key(options: dict[str, Any]) -> str:
    """A hashable, order-free key for a dict of JSON option values."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"), allow_nan=False)


@lru_cache(maxsize=32)
def _cached_game(name: str, key: str) -> Game:
    return get_game(name, **json.loads(key))


def load_game(name: str, options: dict[str, Any] | None = None) -> Game:
    """The game ``name`` built with ``options`` (JSON values), shared between requests.

    Games are stateless rules objects, and some take a moment to build (symmetry tables), so
    one instance per (name, options) is kept.
    """
    try:
        key = options_key(options or {})
    except (TypeError, ValueError):
        raise GameOptionError("options must be JSON values") from None
    return _cached_game(name, key)


def load_position(name: str, options: dict[str, Any] | None, moves: list[str]) -> Position:
    """Build the game and replay ``moves``, raising the errors of ``yipan.core`` on bad input."""
    spec = game_spec(name)
    options = dict(options or {})
    game = load_game(name, options)
    if game.info.max_branching is not None and game.info.max_branching > MAX_BRANCHING:
        raise PositionTooLargeError(
            f"{game.info.title} with these options has up to {game.info.max_branching:,} "
            f"moves a position; this server takes games of at most {MAX_BRANCHING:,} "
            "(smaller heaps)")
    longest = game.info.max_moves if game.info.max_moves is not None else MAX_MOVES
    if len(moves) > longest:
        raise MoveListTooLongError(
            f"{len(moves)} moves is longer than any game of {game.info.title}"
            f" (at most {longest})")
    states = replay_with_chance(game, moves)
    return Position(spec, game, options, tuple(moves), tuple(states))


def replay_with_chance(game: Game, moves: list[str]) -> list[Any]:
    """``yipan.core.replay``, where a move at a chance node is the draw that happened (as
    ``format_move`` writes it), so that a game of chance is a move list like any other."""
    states = [game.initial_state()]
    for number, text in enumerate(moves, 1):
        state = states[-1]
        if game.outcome(state) is None and game.to_move(state) == CHANCE:
            draws = {game.format_move(draw): draw for draw, _ in game.chance_outcomes(state)}
            if text.strip() not in draws:
                known = ", ".join(list(draws)[:8]) + (", ..." if len(draws) > 8 else "")
                raise IllegalMoveError(
                    f"move {number} ({text}): not one of the possible chance draws ({known})")
            states.append(game.play(state, draws[text.strip()]))
        else:
            states.append(_play_one(game, state, number, text))
    return states


def _play_one(game: Game, state: Any, number: int, text: str) -> Any:
    try:
        return game.play_checked(state, game.parse_move(state, text))
    except (InvalidMoveError, IllegalMoveError) as error:
        raise type(error)(f"move {number} ({text}): {error}") from None


def option_descriptions(spec: GameSpec) -> list[dict[str, Any]]:
    """A game's options as the page offers them (text fields, choices, lists): ``label`` in
    words, ``hidden`` for another spelling of what a shown option sets (not offered)."""
    return [{
        "name": option.name,
        "label": option.label or option.name,
        "hidden": option.hidden,
        "default": _json_value(option.default),
        "help": option.help,
        "choices": None if option.choices is None else list(option.choices),
        "choice_labels": None if option.choice_labels is None else dict(option.choice_labels),
        "many": option.many,
        "max_items": option.max_items if option.many else None,
        "limits": option.limits or None,
    } for option in spec.options]


def _json_value(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_json_value(item) for item in value]
    return str(value)


def finite(value: float | None) -> float | None:
    """JSON has no infinity: an unbounded value is sent as None."""
    return value if value is not None and math.isfinite(value) else None


def describe_position(position: Position, engines: list[str],
                      viewer: int | None = None) -> dict[str, Any]:
    """The JSON the page draws: board view, side to move, legal moves, outcome, engines;
    ``player_names`` as the game calls its players (its colours), ``figures`` what a person
    reads beside the board (2048's score).

    ``viewer``: the seat whose eyes the board is drawn for (``Game.as_seen_by``); in a game of
    hidden cards the other seat's cards are masked, and so are the deals of them in
    ``moves_seen`` (the move list as that seat may read it). None: everything is shown.
    """
    game, state = position.game, position.state
    outcome = game.outcome(state)
    to_move = game.to_move(state)
    legal = [] if outcome is not None else list(game.legal_moves(state))
    chance: list[dict[str, Any]] = []
    if outcome is None and to_move == CHANCE:
        chance = [{"move": game.format_move(draw), "probability": probability}
                  for draw, probability in game.chance_outcomes(state)]
        legal = []
    view = game.view(game.as_seen_by(state, viewer))
    if position.moves and "last" not in view:
        last = _changed_cell(game.view(game.as_seen_by(position.states[-2], viewer)), view)
        if last is not None:
            view = {**view, "last": last}
    info = game.info
    return {
        "game": info.name,
        "title": info.title,
        "options": position.options,
        "moves": list(position.moves),
        "moves_seen": moves_seen(position, viewer),
        "move_names": move_names(position, view["kind"], viewer),
        "perfect_information": info.perfect_information,
        "movers": [_mover(game, before) for before in position.states[:-1]],
        "ply": len(position.moves),
        "players": info.players,
        "player_names": list(game.player_names[:max(info.players, 1)]),
        "chance_game": info.chance,
        "to_move": None if outcome is not None else ("chance" if to_move == CHANCE else to_move),
        "legal_moves": [game.format_move(move) for move in legal[:MAX_LISTED_MOVES]],
        "legal_move_count": len(legal),
        "chance": chance,
        "outcome": None if outcome is None else {"winner": outcome.winner},
        "view": view,
        "previews": _previews(game, state, legal, view),
        "text": game.render(game.as_seen_by(state, viewer)),
        "figures": game.figures(game.as_seen_by(state, viewer)),
        "engines": engines,
    }


HIDDEN_MOVE = "?"


def moves_seen(position: Position, viewer: int | None) -> list[str]:
    """The moves as ``viewer`` may read them: a chance draw they cannot see (the other seat's
    card) is ``?``, until the end shows everything (a showdown). A draw is hidden when another
    draw there would have looked the same to the viewer."""
    game, moves = position.game, list(position.moves)
    if viewer is None or game.info.perfect_information:
        return moves
    final = position.state
    if game.outcome(final) is not None and game.as_seen_by(final, viewer) == final:
        return moves
    shown = []
    for text, before, after in zip(moves, position.states[:-1], position.states[1:],
                                   strict=True):
        if game.outcome(before) is None and game.to_move(before) == CHANCE:
            seen = game.as_seen_by(after, viewer)
            alike = sum(game.as_seen_by(game.play(before, draw), viewer) == seen
                        for draw, _ in game.chance_outcomes(before))
            shown.append(HIDDEN_MOVE if alike > 1 else text)
        else:
            shown.append(text)
    return shown


def move_names(position: Position, view_kind: str, viewer: int | None) -> list[str]:
    """The moves as the move list shows them: chess's in SAN (``Game.describe_move``), every
    other game's as ``moves_seen`` (elsewhere ``describe_move`` is a sentence, too long for a
    list)."""
    game = position.game
    if view_kind != "chess":
        return moves_seen(position, viewer)
    return [game.describe_move(before, game.parse_move(before, text))
            for text, before in zip(position.moves, position.states[:-1], strict=True)]


def _mover(game: Game, state: Any) -> int | str:
    """Who made the move from ``state``: player 0 or 1, or "chance" for a draw."""
    mover = game.to_move(state)
    return "chance" if mover == CHANCE else mover


def _changed_cell(before: dict[str, Any], after: dict[str, Any]) -> list[int] | None:
    """The grid cell a move filled (to mark the last move), when exactly one changed."""
    if before.get("kind") != after.get("kind") or after.get("kind") not in ("grid", "go"):
        return None
    if after["kind"] == "go":  # a stone placed; the stones it took are not the move
        placed = [[r, c] for r, (old, new) in enumerate(zip(before["cells"], after["cells"],
                                                             strict=True))
                  for c, (a, b) in enumerate(zip(old, new, strict=True))
                  if a is None and b is not None]
        return placed[0] if len(placed) == 1 else None
    if before.get("rows") != after.get("rows") or before.get("cols") != after.get("cols"):
        return None
    changed = [[r, c] for r, (old, new) in enumerate(zip(before["cells"], after["cells"],
                                                          strict=True))
               for c, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    return changed[0] if len(changed) == 1 else None


def _previews(game: Game, state: Any, legal: list, view: dict[str, Any]) -> dict[str, Any]:
    """For heap boards, the heaps after each legal move: the page then knows which move a click
    on a heap's token means, whatever the game's notation."""
    if view.get("kind") != "heaps" or len(legal) > MAX_PREVIEWS:
        return {}
    return {game.format_move(move): game.view(game.play(state, move)).get("heaps")
            for move in legal}
