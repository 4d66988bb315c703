"""Check a game against the Game protocol, and say what is wrong in words (``yipan check``).

``check_game(game, rng=...)`` plays random games (the moves drawn by the injected generator,
chance by its probabilities) and looks at every position for the faults a first game
usually has, each reported once, as a ``Fault``: what is wrong, the position that shows it
(the moves from the start and the game's own drawing) and what to look at.

- the state: hashable, and immutable all through (no list, dict or set inside);
- ``to_move``: player 0 moves first, names only players (or CHANCE), names the second
  player at some point;
- ``play`` is pure: it never changes the state it is given, and the same move on an equal
  state gives an equal state with the same hash;
- equal states hash equal (the same moves played twice);
- ``legal_moves`` is empty exactly when the game is over;
- the game ends: a random game of ``max_moves`` moves that has not ended has no draw test;
- ``outcome`` names a player or a draw, ``returns`` add up to zero in a zero-sum game;
- the winner is the player who made the last move in some game (else the win is scored for
  the wrong side, unless the game is misère by design: ``skip=("last-mover",)``);
- a win in one move is seen by the search as a win (else the search reads the finished
  position's ``to_move`` as the winner's opponent: the players are swapped for it);
- ``format_move`` and ``parse_move`` round-trip; ``play_checked`` accepts every legal move.

The conformance suite (``tests/conformance``) checks the built-in games more deeply; this
module is what a user runs on their own game, with messages a learner can act on.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import importlib.util
import pickle
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core import CHANCE, WIN, Game, GameInfo, YipanError, get_game, list_games
from .core.text import quote
from .search import PLAIN, alphabeta

DEFAULT_PLAYOUTS = 50
DEFAULT_MAX_MOVES = 10_000
ROUND_TRIP_MOVES = 20  # moves of a position whose notation is checked
CHECKS = ("state", "to-move", "play", "hash", "moves", "ends", "outcome", "last-mover",
          "search", "notation")


class LoadError(YipanError):
    """A game that cannot be loaded: a module that does not import, a name not found."""


@dataclass(frozen=True)
class Fault:
    """One thing wrong with a game, found at one position."""

    check: str  # one of CHECKS
    message: str  # what is wrong, in words
    hint: str  # what to look at
    moves: tuple[str, ...] = ()  # the moves from the start to the position that shows it
    position: str = ""  # the game's drawing of that position (render)

    def describe(self) -> str:
        lines = [self.message]
        if self.moves:
            lines.append(f"  after the moves: {' '.join(self.moves)}")
        elif self.position:
            lines.append("  at the start")
        if self.position:
            lines.extend("    " + line for line in self.position.splitlines())
        lines.append(f"  look at: {self.hint}")
        return "\n".join(lines)


class _Stop(Exception):
    """A fault after which the random games cannot go on."""


class _Checker:
    def __init__(self, game: Game, rng: random.Random, max_moves: int,
                 skip: tuple[str, ...]) -> None:
        self.game = game
        self.rng = rng
        self.max_moves = max_moves
        self.skip = skip
        self.faults: dict[str, Fault] = {}
        self.hashable = True
        self.players_seen: set[int] = set()
        self.wins = 0  # finished games with a winner
        self.last_mover_won = 0
        self.one_ply_wins: list[tuple[Any, list[str]]] = []
        self.a_win: tuple[Any, list[str]] | None = None  # a finished game with a winner
        self.played_through = 0  # random games not stopped by a fault
        self.long_games = 0  # random games in which the players chose at least twice
        self.start: Any = None
        self.first: Any = None  # to_move at the start

    # -- reporting -----------------------------------------------------------------------------
    def fault(self, check: str, message: str, hint: str, state: Any = None,
              moves: list[str] | None = None) -> None:
        if check in self.faults or check in self.skip:
            return
        self.faults[check] = Fault(check, message, hint, tuple(moves or ()),
                                   self.drawing(state) if state is not None else "")

    def drawing(self, state: Any) -> str:
        try:
            return str(self.game.render(state))
        except Exception:  # noqa: BLE001 - a user's render may fail too: the repr will do
            return repr(state)[:400]

    def call(self, what: str, function: Callable[..., Any], *args: Any, state: Any = None,
             moves: list[str] | None = None) -> Any:
        """Call the game; an exception becomes a fault (named after ``what``) and stops the
        random game it happened in."""
        try:
            return function(*args)
        except Exception as error:  # noqa: BLE001 - a user's game: report, never a traceback
            self.fault(f"raised:{what}", f"{what} raised {type(error).__name__}: {error}",
                       f"your {what}; the position below makes it fail", state, moves)
            raise _Stop from None

    def text(self, move: Any) -> str:
        try:
            return str(self.game.format_move(move))
        except Exception:  # noqa: BLE001
            return repr(move)

    # -- the checks ----------------------------------------------------------------------------
    def run(self, playouts: int) -> list[Fault]:
        game = self.game
        try:
            start = self.call("initial_state", game.initial_state)
            self.check_state(start, [])
            self.start, self.first = start, self.call("to_move", game.to_move, start,
                                                      state=start)
        except _Stop:
            return self.report()
        for _ in range(playouts):
            try:  # a fresh start each time: a faulty play may have changed the last one
                self.playout(self.call("initial_state", game.initial_state))
            except _Stop:
                continue
        self.after_playouts()
        return self.report()

    def report(self) -> list[Fault]:
        return list(self.faults.values())

    def check_state(self, state: Any, moves: list[str]) -> None:
        try:
            hash(state)
        except TypeError as error:
            self.hashable = False
            self.fault("state", f"the state cannot be hashed ({error}): the searches use "
                       "states as keys of their tables", "the state's type: make it a tuple "
                       "or a NamedTuple of numbers, strings and tuples", state, moves)
            return
        inside = mutable_part(state)
        if inside is not None:
            self.fault("state", f"the state holds a {inside}, which can change after it was "
                       "stored in a search's table", "the state's fields: use tuples and "
                       "frozensets instead of lists, dicts and sets", state, moves)
        if _copy(state) != state:
            self.fault("hash", "a copy of the state is not equal to it: states are compared "
                       "by identity, so a position reached twice is never recognised",
                       "the state's type: give it __eq__ and __hash__ by value (a tuple or "
                       "NamedTuple has both)", state, moves)

    def playout(self, start: Any) -> None:
        game = self.game
        state, moves = start, list[str]()
        decisions = 0
        players = game.info.players
        for _ in range(self.max_moves):
            outcome = self.call("outcome", game.outcome, state, state=state, moves=moves)
            mover = self.call("to_move", game.to_move, state, state=state, moves=moves)
            legal = list(self.call("legal_moves", game.legal_moves, state, state=state,
                                   moves=moves))
            if mover != CHANCE and mover not in range(players):
                self.fault("to-move", f"to_move returned {mover!r}, which is no player "
                           f"(0 to {players - 1}) and not CHANCE", "to_move", state, moves)
                raise _Stop
            if outcome is not None:
                self.check_end(state, moves, outcome, legal)
                self.played_through += 1
                return
            self.players_seen.add(mover)
            if mover == CHANCE:
                draws = self.call("chance_outcomes", game.chance_outcomes, state, state=state,
                                  moves=moves)
                move = self.rng.choices([d for d, _ in draws], [p for _, p in draws])[0]
            else:
                if not legal:
                    self.fault("moves", "there is no legal move, but outcome says the game "
                               "goes on", "legal_moves and outcome: a position where the "
                               "side to move cannot move must be the end (a win, a loss or a "
                               "draw)", state, moves)
                    raise _Stop
                move = legal[self.rng.randrange(len(legal))]
            child = self.check_play(state, move, moves)
            if mover != CHANCE:
                self.check_notation(state, legal, moves)
            moves = [*moves, self.text(move)]
            if mover != CHANCE:
                child_outcome = self.call("outcome", game.outcome, child, state=child,
                                          moves=moves)
                if child_outcome is not None and child_outcome.winner == mover:
                    self.one_ply_wins.append((state, moves[:-1]))
                if child_outcome is not None and child_outcome.winner is not None:
                    self.wins += 1
                    self.a_win = (child, moves)
                    self.last_mover_won += child_outcome.winner == mover
            decisions += mover != CHANCE
            if decisions == 2:
                self.long_games += 1
            state = child
        self.fault("ends", f"after {self.max_moves:,} random moves the game has not ended",
                   "your draw test (outcome): a game that can go on for ever needs a rule "
                   "that ends it (a move limit, a repeated position)", state, moves[-20:])

    def check_end(self, state: Any, moves: list[str], outcome: Any, legal: list) -> None:
        game = self.game
        if legal:
            self.fault("moves", f"the game is over ({self.said(outcome)}), but legal_moves "
                       f"still lists {len(legal)} move(s)", "legal_moves: return no move once "
                       "outcome is not None", state, moves)
        winner = getattr(outcome, "winner", "?")
        if winner is not None and winner not in range(game.info.players):
            self.fault("outcome", f"outcome names {winner!r} as the winner, who is no player",
                       "outcome: Outcome(0), Outcome(1) or Outcome(None) for a draw",
                       state, moves)
            return
        returns = self.call("returns", game.returns, state, state=state, moves=moves)
        if game.info.zero_sum and abs(sum(returns)) > 1e-9:
            self.fault("outcome", f"the game is declared zero-sum, but what the players win "
                       f"here does not add up to zero: {tuple(returns)}", "returns (or "
                       "GameInfo.zero_sum=False for a game that is not zero-sum)", state, moves)

    def said(self, outcome: Any) -> str:
        winner = getattr(outcome, "winner", None)
        return "a draw" if winner is None else f"player {winner} won"

    def check_play(self, state: Any, move: Any, moves: list[str]) -> Any:
        game = self.game
        before = _copy(state)
        frozen = _pickled(state)  # the whole structure, whatever its __eq__ says
        child = self.call("play", game.play, state, move, state=state, moves=moves)
        changed = _pickled(state) != frozen if frozen is not None else before != state
        if before is not state and changed:
            self.fault("play", f"`play` changed the state it was given (playing "
                       f"{self.text(move)})", "play: build and return a new state; never "
                       "append to, assign into or sort the one it was given", before, moves)
            raise _Stop
        self.check_state(child, [*moves, self.text(move)])
        if before is not state and self.hashable:
            again = self.call("play", game.play, before, move, state=before, moves=moves)
            if again != child:
                self.fault("play", f"playing {self.text(move)} twice on the same position "
                           "gave two different states", "play: it must depend on the state "
                           "and the move only (no randomness, no counter kept in the game)",
                           state, moves)
            elif hash(again) != hash(child):
                self.fault("hash", "two equal states have different hashes (playing "
                           f"{self.text(move)} twice)", "__hash__ and __eq__ of the state: "
                           "equal states must hash equal (a tuple or NamedTuple does this)",
                           state, moves)
        return child

    def check_notation(self, state: Any, legal: list, moves: list[str]) -> None:
        game = self.game
        for move in legal[:ROUND_TRIP_MOVES]:
            text = self.text(move)
            try:
                parsed = game.parse_move(state, text)
            except Exception as error:  # noqa: BLE001
                self.fault("notation", f"format_move writes {quote(text)}, but parse_move "
                           f"cannot read it back ({type(error).__name__}: {error})",
                           "format_move and parse_move: each must read what the other "
                           "writes", state, moves)
                return
            if parsed != move:
                self.fault("notation", f"format_move writes {move!r} as {quote(text)}, but "
                           f"parse_move reads that as {parsed!r}", "format_move and "
                           "parse_move: each must read what the other writes", state, moves)
                return
        move = legal[0]
        try:
            game.play_checked(_copy(state), move)
        except Exception as error:  # noqa: BLE001
            self.fault("notation", f"play_checked refuses the legal move {self.text(move)} "
                       f"({type(error).__name__}: {error})", "is_legal (or legal_moves): a "
                       "move legal_moves lists must be legal", state, moves)

    def after_playouts(self) -> None:
        game = self.game
        info = game.info
        if not self.played_through:  # (every game stopped at a fault already reported)
            return
        if info.players == 2 and self.long_games and 1 not in self.players_seen:
            self.fault("to-move", "to_move never names the second player (1) in any random "
                       "game", "to_move: it must name the player whose turn it is, 0 and 1 "
                       "in turn")
        if info.players == 2 and self.wins >= 3 and self.last_mover_won == 0:
            assert self.a_win is not None
            end, moves = self.a_win
            winner = self.said(game.outcome(end))
            if self.first == 1:  # (a set-up may start with player 1: Go's handicap stones)
                self.fault("to-move", "to_move says player 1 moves first, and in all "
                           f"{self.wins} random games that ended with a win the winner is the "
                           "player to_move says did not make the last move: the players are "
                           "swapped", "to_move: players are numbered 0 (the first to move) "
                           "and 1; it must name the player whose turn it is",
                           self.start, [])
                return
            self.fault("last-mover", f"in all {self.wins} random games that ended with a win, "
                       "the game says the player who did not make the last move won: the win "
                       "is scored for the wrong side", "outcome: check which player your "
                       "winning test names (if the last player to move loses by design, as "
                       "in misère play, skip this check: --skip last-mover); here the game "
                       f"says {winner}", end, moves)
        if (info.players == 2 and info.zero_sum and not info.chance
                and info.perfect_information):
            self.check_search()

    def check_search(self) -> None:
        """A position where the side to move wins at once is a win for the search too."""
        for state, moves in self.one_ply_wins[:5]:
            try:
                value = alphabeta(self.game, state, depth=1, options=PLAIN).value
            except Exception as error:  # noqa: BLE001
                self.fault("search", f"the search failed on this position "
                           f"({type(error).__name__}: {error})", "the methods the search "
                           "calls: to_move, legal_moves, play, outcome", state, moves)
                return
            if value != WIN - 1:
                self.fault("search", "the side to move here wins in one move, but the search "
                           f"scores the position {value:+g} (a win in one is {WIN - 1:+d}): "
                           "the maximising and minimising players are swapped",
                           "to_move of a finished position: it must name the player who "
                           "would move next (the loser after a win), since the search "
                           "scores the end for that player", state, moves)
                return


def _copy(state: Any) -> Any:
    """A deep copy of the state (the state itself when it cannot be copied)."""
    try:
        return copy.deepcopy(state)
    except Exception:  # noqa: BLE001 - a user's state: compared as it is
        return state


def _pickled(state: Any) -> bytes | None:
    try:
        return pickle.dumps(state)
    except Exception:  # noqa: BLE001 - a state pickle cannot write is compared by ==
        return None


def mutable_part(value: Any, depth: int = 0) -> str | None:
    """The name of a mutable container inside ``value`` (a list, dict, set, bytearray, an
    array or a dataclass that is not frozen), or None when it is immutable all through."""
    if depth > 20:
        return None
    if isinstance(value, (list, dict, set, bytearray)):
        return type(value).__name__
    if type(value).__name__ == "ndarray":
        return "numpy array"
    if isinstance(value, (tuple, frozenset)):
        for item in value:
            found = mutable_part(item, depth + 1)
            if found is not None:
                return found
        return None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = getattr(type(value), "__dataclass_params__", None)
        if params is not None and not params.frozen:
            return f"dataclass that is not frozen ({type(value).__name__})"
        for item in dataclasses.fields(value):
            found = mutable_part(getattr(value, item.name), depth + 1)
            if found is not None:
                return found
    return None


def check_game(game: Game, *, rng: random.Random, playouts: int = DEFAULT_PLAYOUTS,
               max_moves: int = DEFAULT_MAX_MOVES, skip: tuple[str, ...] = ()) -> list[Fault]:
    """Every fault found in ``game`` by ``playouts`` random games (module doc), each kind
    once; an empty list when none is found."""
    unknown = [name for name in skip if name not in CHECKS]
    if unknown:
        raise ValueError(f"unknown check {unknown[0]!r}; checks: {', '.join(CHECKS)}")
    if not isinstance(getattr(game, "info", None), GameInfo):
        return [Fault("info", "the game has no `info` (a GameInfo)", "set info = "
                      "GameInfo(name=..., title=...) in the class")]
    return _Checker(game, rng, max_moves, skip).run(playouts)


# -- loading a user's game --------------------------------------------------------------------
def load_game(target: str) -> Game:
    """A game from ``MODULE[:NAME]`` (a dotted module or a .py file; NAME a Game class, a
    factory or an instance; without NAME, the one Game class the module defines), or a
    registered game's name. Raises LoadError in one line."""
    module_name, _, name = target.partition(":")
    if not name and module_name in list_games():
        return get_game(module_name)
    module = _import(module_name)
    if name:
        try:
            found = getattr(module, name)
        except AttributeError:
            raise LoadError(f"{module_name} has no {quote(name)}") from None
    else:
        classes = list(_games_defined(module))
        if len(classes) != 1:
            listed = ", ".join(c.__name__ for c in classes) or "none"
            raise LoadError(f"name the game: {module_name}:NAME (Game classes defined in "
                            f"{module_name}: {listed})")
        found = classes[0]
    return _instantiate(found, target)


def _import(module_name: str) -> Any:
    path = Path(module_name)
    try:
        if module_name.endswith(".py"):
            if not path.is_file():
                raise LoadError(f"no such file: {module_name}")
            spec = importlib.util.spec_from_file_location(path.stem, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[path.stem] = module
            spec.loader.exec_module(module)
            return module
        if "" not in sys.path and str(Path.cwd()) not in sys.path:
            sys.path.append(str(Path.cwd()))
        return importlib.import_module(module_name)
    except LoadError:
        raise
    except SystemExit as error:  # a script's sys.exit() when imported
        raise LoadError(f"cannot load {quote(module_name)}: it exits when imported (SystemExit "
                        f"{error.code}); put its script under if __name__ == '__main__'"
                        ) from None
    except Exception as error:  # noqa: BLE001 - a user's module: one line, never a traceback
        raise LoadError(f"cannot load {quote(module_name)}: {type(error).__name__}: "
                        f"{error}") from None


def _games_defined(module: Any) -> Iterator[type]:
    for value in vars(module).values():
        if (isinstance(value, type) and issubclass(value, Game) and value is not Game
                and value.__module__ == module.__name__):
            yield value


def _instantiate(found: Any, target: str) -> Game:
    if isinstance(found, Game):
        return found
    if not callable(found):
        raise LoadError(f"{target} is neither a Game class nor a function that makes one")
    try:
        game = found()
    except Exception as error:  # noqa: BLE001
        raise LoadError(f"cannot make the game {target}: {type(error).__name__}: "
                        f"{error}") from None
    if not isinstance(game, Game):
        raise LoadError(f"{target} made a {type(game).__name__}, not a yipan Game")
    return game
