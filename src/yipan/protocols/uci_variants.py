"""The games the UCI family plays (``uci_family``), one object a game: chess and xiangqi.

A ``Variant`` holds a game's rules, its engine and its notation, and is the one place the
protocols call an engine (``Engine.think``, ``warm_up``, ``clear``, ``resize``, the clock's
``budget``), so that a change in the engines is a change here. The loop and its dialects
ask it for:

- the moves the pieces can make (``moves``): the board's legal moves, even where the game
  is over by a rule an arbiter applies (fifty moves, repetition, bare kings), because a GUI
  that has not claimed the draw still wants a move;
- a move read or written in the protocol's coordinates (``read_move``, ``move_text``), a
  score as UCI writes it (``score_text``), a clock's share (``budget``);
- a search (``think``) among all moves or only some (UCI ``searchmoves``, UCCI
  ``banmoves``), reporting each finished depth;
- its own UCI options (``options``, ``set_option``; an ``Option`` writes its line of the
  ``uci`` answer): the chess books and endgame tables, xiangqi's coordinates, and for both
  ``EvalFile``, a network (``yipan train GAME --nnue``) the engine evaluates with
  (by default ``builtin``, the one the package ships; empty or ``hand``: the hand-set one).

The loop imports this module, never the other way round: a variant knows nothing of the
protocol's lines but its options' names.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ..core import IllegalMoveError, InvalidMoveError, Limit
from ..core.text import quote


@dataclass(frozen=True, slots=True)
class Option:
    """One ``option`` line of the ``uci`` answer."""

    name: str
    kind: str  # spin, check, string, combo, button
    default: str
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()

    def line(self) -> str:
        text = f"option name {self.name} type {self.kind} default {self.default or '<empty>'}"
        if self.kind == "spin":
            text += f" min {self.low} max {self.high}"
        for choice in self.choices:
            text += f" var {choice}"
        return text


Note = Callable[[str], None]  # a line for the GUI (the loop's ``info string``)
Report = Callable[[Any], None]  # called with each finished depth's Iteration
Budget = tuple[float | None, float | None]  # (soft, hard) seconds for a move


def is_empty(value: str) -> bool:
    return value in ("", "<empty>")


class Variant:
    """A game as the UCI family plays it: a subclass gives ``__init__`` its engine, rules,
    move generator, clock and score writer, and may add options."""

    name: ClassVar[str]
    options: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, engine: Any, rules: Callable[[str | None], Any],
                 legal_moves: Callable[[Any], Sequence[int]],
                 clock: Callable[..., Any], budget: Callable[..., Budget],
                 uci_score: Callable[[int], str]) -> None:
        self.engine = engine
        self._rules = rules
        self._legal_moves = legal_moves
        self._clock = clock
        self._budget = budget
        self._uci_score = uci_score
        self._rules_at_start = rules(None)  # writes moves (which need no position)

    # -- the game -------------------------------------------------------------------------------
    def new_game(self, fen: str | None = None) -> Any:
        """The rules from the usual start or from a FEN (GameOptionError when it is bad)."""
        return self._rules(fen)

    def moves(self, state: Any) -> tuple[int, ...]:
        """The moves the pieces can make (the module docstring says why not ``legal_moves``)."""
        return tuple(self._legal_moves(state))

    def read_move(self, game: Any, state: Any, text: str) -> int:
        """A move of this position in the protocol's coordinates, or an InvalidMoveError /
        IllegalMoveError saying why not."""
        move = int(game.parse_move(state, text))
        if move not in self.moves(state):
            raise IllegalMoveError(f"illegal move {quote(text, 12)}")
        return move

    def move_text(self, move: int) -> str:
        return str(self._rules_at_start.format_move(move))

    def score_text(self, score: int) -> str:
        """``cp 35`` or ``mate 3`` / ``mate -2``."""
        return self._uci_score(score)

    def table_hits(self, iteration: Any) -> int | None:
        """Positions the endgame tables valued in a search (None: the game has none)."""
        return None

    # -- the engine -----------------------------------------------------------------------------
    def budget(self, *, time_left: float | None, increment: float, moves_to_go: int | None,
               move_time: float | None, overhead: float, spent: float = 0.0) -> Budget:
        """(soft, hard) seconds for a move under a clock (seconds; None: not given), from
        the search's start, ``spent`` seconds after the clock started."""
        return self._budget(self._clock(time_left=time_left, increment=increment,
                                        moves_to_go=moves_to_go, move_time=move_time),
                            overhead, spent)

    def think(self, state: Any, limit: Limit, *, soft_time: float | None, report: Report,
              allowed: tuple[int, ...] | None, note: Note) -> Any:
        """The engine's last Iteration within the limit, among ``allowed`` moves (None:
        all); None when the position has no move."""
        raise NotImplementedError

    def ponder_move(self, state: Any, found: Any) -> int | None:
        """The move to ponder on after ``found``'s: its line's second, else the table's
        reply (a depth stopped at a new best move leaves a line of one move)."""
        if len(found.pv) > 1:
            return int(found.pv[1])
        return self.engine.table_reply(state, found.move)

    @contextmanager
    def scaled_evaluation(self) -> Iterator[None]:
        """The evaluation that ``UCI_LimitStrength``'s scale (``strength.ANCHORS``) was
        measured with, in use for the block; the one chosen is back after it."""
        yield

    def warm_up(self) -> None:
        self.engine.warm_up()

    def clear(self) -> None:
        self.engine.clear()

    def resize(self, megabytes: int) -> None:
        self.engine.resize(megabytes)

    def hashfull(self) -> int:
        """Permille of the table's first thousand slots in use (as UCI's hashfull)."""
        entries = self.engine.ctx.table_entries[:1000]
        return int((entries != 0).sum() * 1000 // max(1, len(entries)))

    # -- options and books ----------------------------------------------------------------------
    def set_option(self, name: str, value: str, note: Note) -> None:
        """Apply one of ``options`` (``name`` in lower case); a ValueError when the value is
        bad."""
        raise ValueError(f"no option {quote(name, 30)} in {self.name}")

    def opening_move(self, state: Any, rng: random.Random, note: Note) -> int | None:
        """A move from an opening book, when one is in use and knows the position."""
        return None

    def use_eval_file(self, value: str) -> None:
        """``EvalFile``: evaluate with the network in ``value`` (``builtin``: the one the
        package ships; empty or ``hand``: the hand-set evaluation); a ValueError in one line
        when the file is damaged or for another game (the evaluation in use is then the
        hand-set one)."""
        from ..chess_family.nnue_file import HAND, NetworkFileError

        try:
            self.engine.use_network(None if is_empty(value) or value == HAND else value)
        except NetworkFileError as error:
            self.engine.use_network(None)
            raise ValueError(f"EvalFile: {error}") from None


# -- chess ----------------------------------------------------------------------------------------
class ChessVariant(Variant):
    """Chess: yipan's engine with its endgame tables (``TablebasePath``), a user's Syzygy
    tables (``SyzygyPath``) and a Polyglot book (``OwnBook``, ``BookFile``). With
    ``UCI_Chess960`` true, castling is written and read as the king taking its own rook
    (``e1h1``) in every layout; Chess960 FENs are read either way. A damaged table
    is set aside with a note and the search runs again without it. ``searchmoves`` is
    searched move by move (the chess engine has no root-move filter): each move's position
    by the engine, one ply shallower, depth after depth."""

    name = "chess"
    options: ClassVar[tuple[Option, ...]] = (
        Option("OwnBook", "check", "false"), Option("BookFile", "string", ""),
        Option("TablebasePath", "string", ""), Option("SyzygyPath", "string", ""),
        Option("UCI_Chess960", "check", "false"))
    # EvalFile: the shipped network unless a GUI names another (yipan train chess --nnue),
    # or empty (or hand) for the hand-set evaluation
    options += (Option("EvalFile", "string", "builtin"),)

    def __init__(self, hash_mb: int) -> None:
        from ..chess_family.nnue_file import BUILTIN
        from ..games.chess.engine import Clock, Engine, budget, uci_score
        from ..games.chess.rules import Chess, legal_moves_of

        super().__init__(Engine(hash_mb), Chess, legal_moves_of, Clock, budget, uci_score)
        self.engine.use_network(BUILTIN)
        self.own_book = False
        self.book_file = ""
        self.chess960 = False

    def table_hits(self, iteration: Any) -> int | None:
        return int(iteration.tablebase_hits)

    @contextmanager
    def scaled_evaluation(self) -> Iterator[None]:
        """The hand-set evaluation: the strength scale was measured with it, and a network
        makes every node budget play stronger than its anchor says."""
        chosen = self.engine.network
        self.engine.use_network(None)
        try:
            yield
        finally:
            self.engine.use_network(chosen)

    def set_option(self, name: str, value: str, note: Note) -> None:
        if name == "ownbook":
            if value.lower() not in ("true", "false"):
                raise ValueError("OwnBook is true or false")
            self.own_book = value.lower() == "true"
        elif name == "bookfile":
            self.book_file = "" if is_empty(value) else value
        elif name == "evalfile":  # empty: the hand-set evaluation
            self.use_eval_file(value)
        elif name == "uci_chess960":
            if value.lower() not in ("true", "false"):
                raise ValueError("UCI_Chess960 is true or false")
            self.chess960 = value.lower() == "true"
        elif name == "tablebasepath":
            from ..games.chess.tablebase import Tablebase, tablebase

            if is_empty(value):
                self.engine.tables = tablebase()
                return
            try:
                found = Path(value).is_dir()
            except OSError as error:  # a name too long, a loop of links...
                raise ValueError(f"cannot read folder {quote(value, 60)}: {error.strerror}"
                                 ) from None
            if not found:
                note(f"TablebasePath: no folder {quote(value, 60)}: no endgame tables in use")
            self.engine.tables = Tablebase(Path(value))
        elif name == "syzygypath":
            from ..games.chess.syzygy import Syzygy

            self.engine.syzygy = None  # a folder refused leaves none in use
            self.engine.syzygy = None if is_empty(value) else Syzygy(value)
        else:
            super().set_option(name, value, note)

    def move_text(self, move: int) -> str:
        if self.chess960:
            from ..games.chess.notation import king_takes_rook

            return king_takes_rook(move)
        return super().move_text(move)

    def read_move(self, game: Any, state: Any, text: str) -> int:
        if self.chess960:
            from ..games.chess.notation import king_takes_rook

            for move in self.moves(state):
                if king_takes_rook(move) == text.lower():
                    return move
        return super().read_move(game, state, text)

    def opening_move(self, state: Any, rng: random.Random, note: Note) -> int | None:
        """A move from the Polyglot book (OwnBook and BookFile), weighted by its counts."""
        if not (self.own_book and self.book_file):
            return None
        import chess.polyglot

        from ..games.chess.rules import to_board

        try:
            with chess.polyglot.open_reader(self.book_file) as reader:
                entry = reader.weighted_choice(to_board(state), random=rng)
        except IndexError:
            return None  # the position is not in the book
        except (OSError, ValueError) as error:
            note(f"book {quote(self.book_file, 60)} cannot be read: {error}")
            return None
        try:
            return self.read_move(self._rules_at_start, state, entry.move.uci())
        except (InvalidMoveError, IllegalMoveError):
            note(f"book {quote(self.book_file, 60)} gives an illegal move")
            return None

    def think(self, state: Any, limit: Limit, *, soft_time: float | None, report: Report,
              allowed: tuple[int, ...] | None, note: Note) -> Any:
        from ..games.chess.tablebase import DamagedTableError

        moves = self.moves(state)
        while True:
            try:
                banned = () if allowed is None else \
                    tuple(move for move in moves if move not in allowed)
                return self.engine.think(state, limit, soft_time=soft_time,
                                         on_iteration=report, banned=banned)
            except (DamagedTableError, OSError) as error:
                # the tables are set aside for this session; the search runs without them
                if str(error).startswith("Syzygy") and self.engine.syzygy is not None:
                    self.engine.syzygy = None
                    note(f"Syzygy tables not used: {error}")
                elif self.engine.tables is not None:
                    self.engine.tables = None
                    note(f"endgame tables not used: {error}")
                else:
                    raise


# -- xiangqi --------------------------------------------------------------------------------------
COORDINATES = ("fairy", "iccs")
FAIRY_MOVE = re.compile(r"([a-i])(10|[1-9])([a-i])(10|[1-9])")


class XiangqiVariant(Variant):
    """Xiangqi: yipan's engine, its moves in Fairy-Stockfish's coordinates (ranks 1-10,
    ``h3e3``) or in ICCS (ranks 0-9, ``h2e2``) as Pikafish and UCCI write them
    (``UCI_Coordinates``). A restricted search bans the other root moves in the engine."""

    name = "xiangqi"
    # EvalFile: the shipped network unless a GUI names another (yipan train xiangqi --nnue),
    # or empty (or hand) for the hand-set evaluation
    options = (Option("UCI_Coordinates", "combo", "fairy", choices=COORDINATES),
               Option("EvalFile", "string", "builtin"))

    def __init__(self, hash_mb: int, coordinates: str = "fairy") -> None:
        from ..chess_family.nnue_file import BUILTIN
        from ..games.xiangqi.engine import Clock, Engine, budget, uci_score
        from ..games.xiangqi.rules import Xiangqi, legal_moves_of

        super().__init__(Engine(hash_mb), Xiangqi, legal_moves_of, Clock, budget, uci_score)
        self.engine.use_network(BUILTIN)
        self.coordinates = coordinates

    def set_option(self, name: str, value: str, note: Note) -> None:
        if name == "uci_coordinates":
            if value.lower() not in COORDINATES:
                raise ValueError(f"UCI_Coordinates is one of {', '.join(COORDINATES)}")
            self.coordinates = value.lower()
        elif name == "evalfile":  # empty: the hand-set evaluation
            self.use_eval_file(value)
        else:
            super().set_option(name, value, note)

    def move_text(self, move: int) -> str:
        text = super().move_text(move)
        if self.coordinates == "fairy":
            return f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}"
        return text

    def read_move(self, game: Any, state: Any, text: str) -> int:
        if self.coordinates == "fairy":
            shape = FAIRY_MOVE.fullmatch(text.lower())
            if shape is None:
                raise InvalidMoveError(f"cannot read move {quote(text, 12)}")
            text = f"{shape[1]}{int(shape[2]) - 1}{shape[3]}{int(shape[4]) - 1}"
        return super().read_move(game, state, text)

    def think(self, state: Any, limit: Limit, *, soft_time: float | None, report: Report,
              allowed: tuple[int, ...] | None, note: Note) -> Any:
        banned = () if allowed is None else \
            tuple(move for move in self.moves(state) if move not in allowed)
        return self.engine.think(state, limit, soft_time=soft_time, on_iteration=report,
                                 banned=banned)


VARIANTS: dict[str, type[ChessVariant] | type[XiangqiVariant]] = {
    "chess": ChessVariant, "xiangqi": XiangqiVariant}
