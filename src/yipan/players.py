"""Players: agents that choose a move (human, random, search at a level, book), and a match loop.

A player is anything with a ``name`` and ``choose(game, state) -> Choice``. Randomness is
always an injected ``random.Random``; ties between equally good moves are broken by it, so a
player asked for variety gets it, and a seeded one repeats itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .core import (
    CHANCE,
    WIN,
    CapabilityError,
    Game,
    GameOptionError,
    IllegalMoveError,
    InvalidMoveError,
    Limit,
    Outcome,
    SearchResult,
    game_spec,
    require,
)
from .core.registry import resolve
from .search import TranspositionTable, alphabeta

LEVELS = ("perfect", "medium", "easy")


@dataclass(frozen=True, slots=True)
class Choice:
    """A player's move and, for an engine, the search behind it."""

    move: Hashable
    result: SearchResult | None = None


class Player(Protocol):
    name: str

    def choose(self, game: Game, state: Any) -> Choice: ...


class RandomPlayer:
    """Uniformly random legal moves."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.name = "random"

    def choose(self, game: Game, state: Any) -> Choice:
        return Choice(self.rng.choice(list(game.legal_moves(state))))


class SearchPlayer:
    """The generic engine's player. Levels:

    - ``perfect``: exact alpha-beta to the end of the game (iterative deepening under ``time``
      when the game is too large to finish: then strong, not perfect);
    - ``medium``: a 3-ply search with the heuristic, and one move in five a random sound-ish
      move (any move not losing at once);
    - ``easy``: a 1-ply search, and one move in two a random move.

    Among equally valued best moves it picks one at random (``rng``), for variety.
    """

    def __init__(self, level: str = "perfect", rng: random.Random | None = None,
                 time: float | None = None) -> None:
        if level not in LEVELS:
            raise GameOptionError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        self.level = level
        self.rng = rng or random.Random()
        self.time = time
        self.name = f"search ({level})"
        self.tt = TranspositionTable(1 << 18)

    def _search(self, game: Game, state: Any) -> SearchResult:
        if self.level == "perfect":
            if self.time is None:
                return alphabeta(game, state, tt=self.tt, analysis=True)
            return alphabeta(game, state, tt=self.tt, analysis=True, limit=Limit(time=self.time))
        depth = 3 if self.level == "medium" else 1
        return alphabeta(game, state, depth=depth, tt=self.tt, analysis=True)

    def choose(self, game: Game, state: Any) -> Choice:
        require(game, two_player_zero_sum=True, no_chance=True, algorithm="the search player")
        result = self._search(game, state)
        blunder_rate = {"perfect": 0.0, "medium": 0.2, "easy": 0.5}[self.level]
        values = dict(result.move_values)
        if values and self.rng.random() < blunder_rate:
            # a weaker move, but not one that loses at once (still a sensible opponent)
            worst_allowed = -(WIN - 2)  # not a loss on the very next move
            candidates = [m for m, v in values.items() if v > worst_allowed] or list(values)
            return Choice(self.rng.choice(candidates), result)
        if values:
            best = max(values.values())
            ties = [m for m, v in values.items() if v == best]
            return Choice(self.rng.choice(ties), result)
        return Choice(result.move, result)


class UndoRequested(Exception):  # noqa: N818 - a request, not a failure
    """The human asked to take back their last move (the game loop handles it)."""


class QuitRequested(Exception):  # noqa: N818
    """The human asked to leave, or their input ended."""


HUMAN_HELP = """Type a move ({example}), or:
  help   this text
  undo   take back your last move (and the AI's answer)
  moves  list the legal moves
  quit   leave the game"""


class HumanPlayer:
    """A person at a terminal: reads moves in the game's notation until one is legal.

    Nonsense and illegal moves re-prompt with the reason; ``help`` and ``moves`` answer and
    re-prompt; ``undo`` and ``quit`` (and the end of input, or Ctrl-C) raise UndoRequested and
    QuitRequested for the game loop.
    """

    def __init__(self, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print, name: str = "you") -> None:
        self.read = read
        self.write = write
        self.name = name

    def choose(self, game: Game, state: Any) -> Choice:
        mark = game.player_names[game.to_move(state)]
        while True:
            try:
                text = self.read(f"your move ({mark}): ").strip()
            except (EOFError, KeyboardInterrupt):
                raise QuitRequested from None
            command = text.lower()
            if not command:
                continue
            if command in ("quit", "exit", "q"):
                raise QuitRequested
            if command == "undo":
                raise UndoRequested
            if command in ("help", "h", "?"):
                examples = [game.format_move(m) for m in list(game.legal_moves(state))[:2]]
                self.write(HUMAN_HELP.format(example=", ".join(examples) or "a move"))
                continue
            if command == "moves":
                self.write("legal moves: "
                           + " ".join(game.format_move(m) for m in game.legal_moves(state)))
                continue
            try:
                move = game.parse_move(state, text)
                game.play_checked(state, move)
            except (InvalidMoveError, IllegalMoveError) as error:
                self.write(f"{error}; try again ('help' for help)")
                continue
            return Choice(move)


class ScriptedPlayer:
    """Plays a fixed list of moves (for tests and replays)."""

    def __init__(self, moves: Sequence[Hashable], name: str = "scripted") -> None:
        self.moves = list(moves)
        self.name = name

    def choose(self, game: Game, state: Any) -> Choice:
        return Choice(self.moves.pop(0))


def make_ai(game: Game, level: str = "perfect", rng: random.Random | None = None,
            time: float | None = None) -> Player:
    """The best AI player for ``game`` at ``level``: the game's own (``GameSpec.ai``) if it
    registered one, else the generic search player."""
    rng = rng or random.Random()
    spec = game_spec(game.info.name)
    if spec.ai is not None:
        factory: Callable[..., Player] = resolve(spec.ai)
        return factory(game, level, rng, time)
    if game.info.players != 2 or game.info.chance:
        raise CapabilityError(f"{game.info.name} has no AI player registered")
    return SearchPlayer(level, rng, time)


@dataclass
class MatchResult:
    outcome: Outcome
    moves: list[Hashable] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)


def play_match(game: Game, players: Sequence[Player], rng: random.Random | None = None,
               state: Any = None, max_moves: int | None = None) -> MatchResult:
    """Play a game to its end: ``players[i]`` moves for player i; chance nodes draw from ``rng``.

    Every move is checked (``play_checked``): a player that answers an illegal move raises.
    """
    rng = rng or random.Random()
    state = game.initial_state() if state is None else state
    moves: list[Hashable] = []
    states = [state]
    while (outcome := game.outcome(state)) is None:
        if max_moves is not None and len(moves) >= max_moves:
            break
        mover = game.to_move(state)
        if mover == CHANCE:
            outcomes = game.chance_outcomes(state)
            draw = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            state = game.play(state, draw)
        else:
            move = players[mover % len(players)].choose(game, state).move
            state = game.play_checked(state, move)
            moves.append(move)
        states.append(state)
    return MatchResult(outcome if outcome is not None else Outcome(None), moves, states)
