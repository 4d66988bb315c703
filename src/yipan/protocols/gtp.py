"""The Go Text Protocol (GTP, version 2) on stdin/stdout, for yipan's Go engine: what GoGui,
Sabaki, gogui-twogtp, KGS and OGS bots speak to an engine.

A command is ``[id] name [arguments]``; the answer is ``=[id] result`` or ``?[id] message``,
then an empty line. Before a line is read, control characters other than tab and newline are
dropped, tabs become spaces, and everything from ``#`` on is a comment (GTP 2, section 3.1).

Commands: protocol_version, name, version, known_command, list_commands, quit, boardsize,
clear_board, komi, fixed_handicap, place_free_handicap, set_free_handicap, play, genmove,
undo, time_settings, time_left, final_score, final_status_list, showboard, loadsgf, printsgf,
kgs-genmove_cleanup, kgs-time_settings, kgs-game_over, reg_genmove; and for the analysis
GUIs: lz-analyze, kata-analyze, lz-genmove_analyze, kata-genmove_analyze (Sabaki, Lizzie),
stop, and gogui-analyze_commands with the yipan-* commands it lists (GoGui). (KaTrain talks
to KataGo's JSON analysis engine, not GTP: it is not served here.)

``lz-analyze`` / ``kata-analyze [colour] [interval] [key value ...]`` answer ``=`` at once,
then a line of ``info move ... pv ...`` candidates every ``interval`` centiseconds, as Leela
Zero and KataGo write them (KataGo's docs/GTP_Extensions.md), until the next line arrives on
stdin; an empty line ends the answer and the next command is carried out as usual. Win rates
are the side to move's; ``scoreLead`` / ``scoreMean`` are the mean final score of the
playouts from the position, the same for every candidate (the tree keeps no score per move);
``prior`` is the prior knowledge's share (there is no policy network). Keys read: interval,
minmoves, maxmoves, ownership, rootInfo; ``allow`` / ``avoid`` and any other key are accepted
and have no effect. With ``--playouts`` the search stops there (as KataGo's maxVisits) and its
last report stands until the next line. The ``*-genmove_analyze`` commands stream the same
lines while they think, then ``play <move>``.

A malformed line never stops the engine: it is answered ``?`` with the reason, in one short
line (a name it does not know gets ``? unknown command``, as the protocol asks).
``genmove`` answers a vertex, ``pass`` or ``resign``; the move is played on the engine's board.
Time: each move gets what ``yipan.games.go.timing`` allots under the clock that
``time_settings`` / ``time_left`` describe; without a clock, the ``--time`` seconds.
"""

from __future__ import annotations

import argparse
import codecs
import math
import os
import queue
import random
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..core import IllegalMoveError, InvalidMoveError, YipanError
from ..core.files import FileRefusedError, write_atomically
from ..core.text import quote, read_int
from ..core.version import VERSION
from ..games.go.rules import (
    BLACK,
    DEFAULT_KOMI,
    MAX_SIZE,
    MIN_SIZE,
    PASS,
    WHITE,
    Go,
    Position,
    handicap_points,
    parse_komi,
)
from ..games.go.sgf import MAX_SGF_BYTES

if TYPE_CHECKING:
    from ..games.go.engine import Candidate, Engine

DEFAULT_SECONDS = 5.0
MAX_LINE = 4096  # characters of a command line read; the rest is dropped
MAX_ANSWER = 300  # characters of an error message
MAX_VERTICES = 400
FREE_HANDICAP_PLAYOUTS = 300  # a short search for each free handicap stone past the fixed ones
ANALYSIS_PLAYOUTS = 3000  # the GoGui analyze commands' search without --playouts
LCB_Z = 1.96  # the win rate's lower confidence bound: Wilson's, at about 95%
IDLE_POLL_SECONDS = 0.02  # an analysis past its playouts looks this often for the next line
GFX_CANDIDATES = 10  # candidate moves labelled on GoGui's board
GOGUI_ANALYZE_COMMANDS = (
    "dboard/Ownership/yipan-ownership",
    "gfx/Ownership and score/yipan-ownership_gfx",
    "gfx/Candidate moves/yipan-candidates_gfx",
    "sboard/Candidate win rates/yipan-candidates_sboard",
    "var/Principal variation/yipan-pv",
    "plist/Dead stones/final_status_list dead",
    "string/Score estimate/final_score",
)


@dataclass
class AnalyzeOptions:
    """What an ``lz-analyze`` / ``kata-analyze`` line asked for."""

    colour: int | None = None  # the side to analyse for; None: the side to move
    interval: float = 0.0  # seconds between reports; 0: one report, when stopped
    min_moves: int = 0  # report at least this many moves (unvisited ones too)
    max_moves: int = 0  # at most this many; 0: every visited move
    ownership: bool = False
    root_info: bool = False


class GtpError(ValueError):
    """A command that cannot be carried out; answered ``? message``."""


def clean(line: str) -> str:
    """A line as GTP 2 section 3.1 asks: control characters dropped (but tab, made a space),
    the comment cut off, spaces at the ends stripped."""
    line = line[:MAX_LINE].replace("\t", " ")
    line = "".join(ch for ch in line if ch >= " " and ch != "\x7f")
    return line.split("#", 1)[0].strip()


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_ANSWER else text[:MAX_ANSWER] + "…"


class GtpEngine:
    """The engine's state between commands; ``handle(line)`` returns the answer to write
    (``""`` for an empty line)."""

    def __init__(self, *, seconds: float = DEFAULT_SECONDS, playouts: int | None = None,
                 rng: random.Random | None = None, resign: bool = True) -> None:
        from ..games.go.timing import Clock

        self.seconds = seconds
        self.playouts = playouts
        self.rng = rng or random.Random()
        self.allow_resign = resign
        self.size = 9
        self.komi_points = DEFAULT_KOMI
        self.clocks = {BLACK: Clock(), WHITE: Clock()}
        self.ended = False
        # A streamed answer (the analyze commands) is written to ``out`` as it is made; without
        # an ``out`` it is gathered and returned whole. ``waiting()`` says whether the next
        # line has arrived (it stops an analysis); alone, the engine assumes it has.
        self.out: TextIO | None = None
        self.waiting: Callable[[], bool] = lambda: True
        self._stream: list[str] | None = None
        self._ident = ""
        self._owned: tuple[tuple[int, float, Position], tuple[float, ...]] | None = None
        self._new_game()

    # -- the game ------------------------------------------------------------------------------
    def _new_game(self, game: Go | None = None, states: Sequence[Position] | None = None) -> None:
        self.game = game or Go(self.size, self.komi_points)
        self.states: list[Position] = list(states) if states else [self.game.initial_state()]
        self.moves: list[int] = []
        self._player = None

    @property
    def state(self) -> Position:
        return self.states[-1]

    def player(self):
        from ..games.go.player import EnginePlayer

        if self._player is None or self._player.engine.game is not self.game:
            self._player = EnginePlayer(self.game, "perfect", self.rng, self.seconds,
                                        playouts=self.playouts)
        return self._player

    def _play(self, colour: int, move: int) -> None:
        state = self.state
        if state.to_move != colour:  # GTP lets a colour play twice in a row
            state = state._replace(to_move=colour, passes=0)
        if self.game.outcome(state) is not None:  # play on after two passes, as GTP allows
            state = state._replace(passes=0)
        try:
            after = self.game.play_checked(state, move)
        except (IllegalMoveError, InvalidMoveError) as error:
            raise GtpError(f"illegal move: {error}") from None
        self.states.append(after)
        self.moves.append(move)

    # -- the command loop ------------------------------------------------------------------------
    def handle(self, line: str) -> str:
        """The answer to one line (never raises)."""
        text = clean(line)
        if not text:
            return ""
        words = text.split()
        ident = ""
        if words[0].isdigit() and words[0].isascii():
            ident = words.pop(0)[:18]
            if not words:
                return f"?{ident} no command\n\n"
        name, arguments = words[0].lower(), words[1:]
        handler = COMMANDS.get(name)
        self._ident, self._stream = ident, None
        try:
            if handler is None:
                raise GtpError("unknown command")
            result = handler(self, arguments)
        except (GtpError, YipanError) as error:
            message = _short(str(error))
        except Exception as error:  # noqa: BLE001 - the engine must outlive any bad line
            message = _short(f"internal error: {type(error).__name__}: {error}")
        else:
            if self._stream is not None:
                return self._end_stream(result)
            result = result.rstrip("\n")
            return f"={ident} {result}\n\n" if result else f"={ident}\n\n"
        if self._stream is not None:  # the answer began as a success: it can only end
            return self._end_stream("")
        return f"?{ident} {message}\n\n"

    def _emit(self, text: str) -> None:
        """Part of a streamed answer (``=`` and the id first, when it begins)."""
        if self._stream is None:
            self._stream = []
            text = f"={self._ident}\n{text}"
        if self.out is not None:
            self.out.write(text)
            self.out.flush()
        else:
            self._stream.append(text)

    def _end_stream(self, result: str) -> str:
        """The rest of a streamed answer: the last lines and the empty line that ends it."""
        assert self._stream is not None
        result = result.rstrip("\n")
        text = "".join(self._stream) + (result + "\n" if result else "") + "\n"
        self._stream = None
        return text

    # -- helpers -----------------------------------------------------------------------------------
    def _colour(self, text: str) -> int:
        word = text.lower()
        if word in ("b", "black"):
            return BLACK
        if word in ("w", "white"):
            return WHITE
        raise GtpError(f"syntax error (not a colour: {quote(text, 12)})")

    def _vertex(self, text: str) -> int:
        try:
            return self.game.parse_move(None, text)
        except InvalidMoveError:
            raise GtpError(f"syntax error (not a vertex: {quote(text, 12)})") from None

    def _count(self, arguments: list[str], what: str) -> int:
        if len(arguments) != 1:
            raise GtpError(f"syntax error ({what} needs one number)")
        try:
            return read_int(arguments[0], what, max_digits=6)
        except ValueError:
            raise GtpError(f"syntax error ({what} must be a whole number)") from None

    def _seconds(self, text: str) -> float:
        if not re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,6})?", text):
            raise GtpError(f"syntax error (not a number of seconds: {quote(text, 12)})")
        return float(text)

    def _empty_board(self) -> bool:
        return not (self.state.black | self.state.white) and not self.moves

    def _format(self, move: int) -> str:
        return self.game.format_move(move)

    # -- administrative ------------------------------------------------------------------------
    def protocol_version(self, arguments: list[str]) -> str:
        return "2"

    def name(self, arguments: list[str]) -> str:
        return "yipan"

    def version(self, arguments: list[str]) -> str:
        return VERSION

    def known_command(self, arguments: list[str]) -> str:
        return "true" if arguments and arguments[0].lower() in COMMANDS else "false"

    def list_commands(self, arguments: list[str]) -> str:
        return "\n".join(COMMANDS)

    def quit(self, arguments: list[str]) -> str:
        self.ended = True
        return ""

    # -- setup -----------------------------------------------------------------------------------
    def boardsize(self, arguments: list[str]) -> str:
        size = self._count(arguments, "boardsize")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpError(f"unacceptable size (boards {MIN_SIZE} to {MAX_SIZE})")
        self.size = size
        self._new_game()
        return ""

    def clear_board(self, arguments: list[str]) -> str:
        self._new_game(Go(self.size, self.komi_points))
        return ""

    def komi(self, arguments: list[str]) -> str:
        if len(arguments) != 1:
            raise GtpError("syntax error (komi needs a number)")
        try:
            komi = parse_komi(arguments[0])
        except ValueError:
            raise GtpError(f"syntax error (not a komi: {quote(arguments[0], 12)})") from None
        self.komi_points = komi
        game = Go(self.size, komi, self.game.handicap)
        self.game = game  # the stones and history stand; the score counts the new komi
        self._player = None
        return ""

    def fixed_handicap(self, arguments: list[str]) -> str:
        stones = self._count(arguments, "fixed_handicap")
        if not self._empty_board():
            raise GtpError("board not empty")
        try:
            points = handicap_points(self.size, stones)
        except YipanError:
            raise GtpError("invalid number of stones") from None
        if not points:
            raise GtpError("invalid number of stones")
        self._new_game(Go(self.size, self.komi_points, stones))
        return " ".join(self._format(self.game.point(r, c)) for r, c in points)

    def place_free_handicap(self, arguments: list[str]) -> str:
        stones = self._count(arguments, "place_free_handicap")
        if not self._empty_board():
            raise GtpError("board not empty")
        if not 2 <= stones <= self.size * self.size - 1:
            raise GtpError("invalid number of stones")
        try:
            points = handicap_points(self.size, min(stones, 9))
        except YipanError:
            points = handicap_points(self.size, 4) if self.size >= 7 else []
        chosen = [self.game.point(r, c) for r, c in points][:stones]
        black = sum(1 << self.game.bits[p] for p in chosen)
        # more than the fixed points: the engine places the rest, each by a short search
        # (no longer than the engine's playouts), all of them within one move's time; past
        # it, the first free points (hundreds of stones must not take minutes)
        playouts = min(FREE_HANDICAP_PLAYOUTS, self.playouts or FREE_HANDICAP_PLAYOUTS)
        deadline = time.monotonic() + self.seconds
        while len(chosen) < stones:
            state = self.game.position(black, 0, BLACK)
            move = PASS
            if time.monotonic() < deadline:
                move = self.player().engine.think(state, playouts=playouts).move
            if move == PASS or move in chosen:
                move = next(p for p in range(self.size * self.size) if p not in chosen)
            chosen.append(move)
            black |= 1 << self.game.bits[move]
        self._set_free(chosen)
        return " ".join(self._format(p) for p in chosen)

    def set_free_handicap(self, arguments: list[str]) -> str:
        if not self._empty_board():
            raise GtpError("board not empty")
        if not 2 <= len(arguments) <= min(MAX_VERTICES, self.size * self.size - 1):
            raise GtpError("bad vertex list")
        points = [self._vertex(word) for word in arguments]
        if PASS in points or len(set(points)) != len(points):
            raise GtpError("bad vertex list")
        self._set_free(points)
        return ""

    def _set_free(self, points: list[int]) -> None:
        black = sum(1 << self.game.bits[p] for p in points)
        game = Go(self.size, self.komi_points)
        self._new_game(game, [game.position(black, 0, WHITE)])

    # -- playing ---------------------------------------------------------------------------------
    def play(self, arguments: list[str]) -> str:
        if len(arguments) != 2:
            raise GtpError("syntax error (play needs a colour and a vertex)")
        colour = self._colour(arguments[0])
        self._play(colour, self._vertex(arguments[1]))
        return ""

    def _playing(self, colour: int) -> Position:
        """The position with ``colour`` to move, the game open (as GTP lets a colour move
        twice, or play on after two passes)."""
        state = self.state
        if state.to_move != colour:
            state = state._replace(to_move=colour, passes=0)
        if self.game.outcome(state) is not None:
            state = state._replace(passes=0)
        return state

    def genmove(self, arguments: list[str], cleanup: bool = False, commit: bool = True,
                stop: Callable[[], bool] | None = None) -> str:
        if len(arguments) != 1:
            raise GtpError("syntax error (genmove needs a colour)")
        colour = self._colour(arguments[0])
        state = self._playing(colour)
        from ..games.go.scoring import dead_stones

        player = self.player()
        clock = self.clocks[colour]
        empty = self.size * self.size - (state.black | state.white).bit_count()
        seconds = None if self.playouts is not None and clock.unlimited else \
            clock.move_seconds(empty, self.seconds)
        if self.playouts is not None and seconds is not None:
            # under a clock, the playouts asked for (--playouts) still end the search first
            decision = player.engine.think(state, playouts=self.playouts, seconds=seconds,
                                           moves=tuple(self.moves[-2:]), stop=stop)
        else:
            decision = player.decide(state, seconds=seconds, moves=tuple(self.moves[-2:]),
                                     stop=stop)
        move = decision.move
        if self.allow_resign and decision.resign and not cleanup:
            return "resign"
        if cleanup and move == PASS:
            opponent = self.game.stones(state, 1 - colour)
            if dead_stones(self.game, state, decision.ownership) & opponent:
                others = {m: v for m, v in decision.visits.items() if m != PASS}
                if others:
                    move = max(others, key=lambda m: others[m])
        if commit:
            self._play(colour, move)
        return self._format(move)

    def kgs_genmove_cleanup(self, arguments: list[str]) -> str:
        return self.genmove(arguments, cleanup=True)

    def reg_genmove(self, arguments: list[str]) -> str:
        return self.genmove(arguments, commit=False)

    def undo(self, arguments: list[str]) -> str:
        if not self.moves:
            raise GtpError("cannot undo")
        self.moves.pop()
        self.states.pop()
        return ""

    # -- time ------------------------------------------------------------------------------------
    def time_settings(self, arguments: list[str]) -> str:
        if len(arguments) != 3:
            raise GtpError("syntax error (time_settings main_time byo_yomi_time stones)")
        main, period = self._seconds(arguments[0]), self._seconds(arguments[1])
        stones = self._count(arguments[2:], "byo_yomi_stones")
        for clock in self.clocks.values():
            clock.set_canadian(main, period, stones)
        return ""

    def kgs_time_settings(self, arguments: list[str]) -> str:
        if not arguments:
            raise GtpError("syntax error (kgs-time_settings none|absolute|byoyomi|canadian)")
        system = arguments[0].lower()
        numbers = arguments[1:]
        for clock in self.clocks.values():
            if system == "none" and not numbers:
                clock.set_none()
            elif system == "absolute" and len(numbers) == 1:
                clock.set_canadian(self._seconds(numbers[0]), 0.0, 0)
            elif system == "byoyomi" and len(numbers) == 3:
                clock.set_japanese(self._seconds(numbers[0]), self._seconds(numbers[1]),
                                   self._count(numbers[2:], "periods"))
            elif system == "canadian" and len(numbers) == 3:
                clock.set_canadian(self._seconds(numbers[0]), self._seconds(numbers[1]),
                                   self._count(numbers[2:], "stones"))
            else:
                raise GtpError("syntax error (kgs-time_settings none | absolute M | "
                               "byoyomi M P N | canadian M P S)")
        return ""

    def time_left(self, arguments: list[str]) -> str:
        if len(arguments) != 3:
            raise GtpError("syntax error (time_left colour time stones)")
        colour = self._colour(arguments[0])
        self.clocks[colour].update(self._seconds(arguments[1]),
                                   self._count(arguments[2:], "stones"))
        return ""

    # -- the end ---------------------------------------------------------------------------------
    def _ownership(self) -> tuple[float, ...]:
        """Who owns each point (+1 black .. -1 white), searched once per position so that
        final_score, final_status_list, showboard and the ownership commands agree."""
        from ..games.go.engine import ownership_of

        key = (self.game.size, self.game.komi, self.state)
        if self._owned is None or self._owned[0] != key:
            playouts = self.playouts or 3000
            self._owned = (key, ownership_of(self.game, self.state, playouts, self.rng))
        return self._owned[1]

    def final_score(self, arguments: list[str]) -> str:
        from ..games.go.scoring import estimated_score

        return self.game.result_text(estimated_score(self.game, self.state, self._ownership()))

    def final_status_list(self, arguments: list[str]) -> str:
        if len(arguments) != 1 or arguments[0].lower() not in ("alive", "dead", "seki"):
            raise GtpError("syntax error (final_status_list alive|dead|seki)")
        from ..games.go.scoring import statuses

        found = statuses(self.game, self.state, self._ownership())[arguments[0].lower()]
        return " ".join(self._format(p) for p in found)

    def kgs_game_over(self, arguments: list[str]) -> str:
        return ""

    def showboard(self, arguments: list[str]) -> str:
        state = self.state
        mover = self.game.player_names[state.to_move]
        board = self.game.render(state)
        if self.game.outcome(state) is not None:  # the result as final_score counts it
            from ..games.go.scoring import estimated_score

            result = self.game.result_text(estimated_score(self.game, state, self._ownership()))
            board = "\n".join(f"result: {result}" if line.startswith("result: ") else line
                              for line in board.split("\n"))
        return "\n" + board + f"\n{mover} to move"

    # -- analysis (Sabaki, Lizzie) --------------------------------------------------------------
    def _analyze_options(self, arguments: list[str]) -> AnalyzeOptions:
        words = list(arguments)
        options = AnalyzeOptions()
        if words and words[0].lower() in ("b", "w", "black", "white"):
            options.colour = self._colour(words.pop(0))
        if words and words[0].isdigit():
            options.interval = self._centiseconds(words.pop(0))
        while words:
            key = words.pop(0).lower()
            wanted = 3 if key in ("allow", "avoid") else 1  # colour, vertices, depth
            if len(words) < wanted:
                raise GtpError(f"syntax error ({quote(key, 12)} needs a value)")
            values, words = words[:wanted], words[wanted:]
            if key == "interval":
                options.interval = self._centiseconds(values[0])
            elif key in ("minmoves", "maxmoves"):
                count = self._count(values, key)
                if key == "minmoves":
                    options.min_moves = count
                else:
                    options.max_moves = count
            elif key in ("ownership", "rootinfo"):
                if values[0].lower() not in ("true", "false"):
                    raise GtpError(f"syntax error ({key} is true or false)")
                if key == "ownership":
                    options.ownership = values[0].lower() == "true"
                else:
                    options.root_info = values[0].lower() == "true"
        return options

    def _centiseconds(self, text: str) -> float:
        if not re.fullmatch(r"[0-9]{1,7}", text):
            raise GtpError(f"syntax error (not an interval in centiseconds: {quote(text, 12)})")
        return int(text) / 100

    def _reporter(self, kind: str, state: Position, engine: Engine, options: AnalyzeOptions,
                  stoppable: bool) -> _Reporter:
        return _Reporter(lambda: self._emit(self._report(kind, state, engine, options) + "\n"),
                         options.interval, self.waiting if stoppable else None)

    def _analyze(self, arguments: list[str], kind: str) -> str:
        """Search until the next line comes (or, with ``--playouts``, those playouts are
        done: then the last report stands until the next line, as KataGo's maxVisits)."""
        options = self._analyze_options(arguments)
        state = self._playing(self.state.to_move if options.colour is None else options.colour)
        engine = self.player().engine
        reporter = self._reporter(kind, state, engine, options, stoppable=True)
        self._emit("")  # "=" at once: the GUI learns the analysis has begun
        engine.begin(state, tuple(self.moves[-2:]))
        engine.run(playouts=self.playouts, stop=reporter)
        if not reporter.stopped:
            reporter.report()
            while not self.waiting():
                time.sleep(IDLE_POLL_SECONDS)
        return ""

    def lz_analyze(self, arguments: list[str]) -> str:
        return self._analyze(arguments, "lz")

    def kata_analyze(self, arguments: list[str]) -> str:
        return self._analyze(arguments, "kata")

    def _genmove_analyze(self, arguments: list[str], kind: str) -> str:
        options = self._analyze_options(arguments)
        colour = self.state.to_move if options.colour is None else options.colour
        engine = self.player().engine
        stop = self._reporter(kind, self._playing(colour), engine, options, stoppable=False)
        self._emit("")
        move = self.genmove([("b", "w")[colour]], stop=stop)
        return f"play {move}"

    def lz_genmove_analyze(self, arguments: list[str]) -> str:
        return self._genmove_analyze(arguments, "lz")

    def kata_genmove_analyze(self, arguments: list[str]) -> str:
        return self._genmove_analyze(arguments, "kata")

    def _legal_line(self, state: Position, line: Sequence[int]) -> list[int]:
        """``line`` up to its first move the rules forbid (the tree checks only simple ko)
        or the end of the game."""
        legal = []
        for move in line:
            if self.game.outcome(state) is not None or not self.game.is_legal(state, move):
                break
            legal.append(move)
            state = self.game.play(state, move)
        return legal

    def _score_lead(self, state: Position, ownership: Sequence[float]) -> float:
        """The playouts' mean final score for the side to move: each point counts as
        often as it ended in the mover's area, less as often as in the other's."""
        black_lead = sum(ownership) - self.game.komi
        return black_lead if state.to_move == BLACK else -black_lead

    def _report(self, kind: str, state: Position, engine: Engine,
                options: AnalyzeOptions) -> str:
        """One line of candidates as Leela Zero (``lz``) or KataGo (``kata``) writes it."""
        candidates = engine.candidates()
        shown = [c for c in candidates if c.visits > 0]
        if len(shown) < options.min_moves:
            shown = candidates[:options.min_moves]
        if options.max_moves:
            shown = shown[:options.max_moves]
        ownership = engine.ownership()
        lead = self._score_lead(state, ownership)
        parts = []
        for order, candidate in enumerate(shown):
            pv = " ".join(self._format(m) for m in self._legal_line(state, candidate.pv))
            lcb = _wilson_lower(candidate.win_rate, candidate.visits)
            head = f"info move {self._format(candidate.move)} visits {candidate.visits}"
            if kind == "lz":
                parts.append(f"{head} winrate {_permyriad(candidate.win_rate)} "
                             f"prior {_permyriad(candidate.prior)} lcb {_permyriad(lcb)} "
                             f"order {order} pv {pv}")
            else:
                parts.append(f"{head} winrate {candidate.win_rate:.6f} scoreMean {lead:.3f} "
                             f"scoreLead {lead:.3f} prior {candidate.prior:.6f} "
                             f"lcb {lcb:.6f} order {order} pv {pv}")
        if kind == "kata" and options.root_info:
            visits, win_rate = engine.root_visits()
            parts.append(f"rootInfo visits {visits} winrate {win_rate:.6f} "
                         f"scoreMean {lead:.3f} scoreLead {lead:.3f}")
        if kind == "kata" and options.ownership:
            sign = 1 if state.to_move == BLACK else -1
            parts.append("ownership " + " ".join(f"{sign * x + 0.0:.4f}" for x in ownership))
        return " ".join(parts)

    def stop(self, arguments: list[str]) -> str:
        """KataGo's ``stop``: any line ends an analysis, so there is nothing left to halt."""
        return ""

    # -- GoGui's analyze commands ------------------------------------------------------------------
    def gogui_analyze_commands(self, arguments: list[str]) -> str:
        return "\n".join(GOGUI_ANALYZE_COMMANDS)

    def _candidates_now(self) -> tuple[Position, list[Candidate]]:
        """A search of the position (``--playouts`` or ``ANALYSIS_PLAYOUTS``): its root moves
        visited, most visited first."""
        state = self._playing(self.state.to_move)
        engine = self.player().engine
        engine.begin(state, tuple(self.moves[-2:]))
        engine.run(playouts=self.playouts or ANALYSIS_PLAYOUTS)
        return state, [c for c in engine.candidates() if c.visits > 0]

    def _board_rows(self, cells: Sequence[str]) -> str:
        """Per point values as GoGui's boards take them: a row a line, from the top."""
        n = self.size
        return "\n".join(" ".join(cells[r * n:(r + 1) * n]) for r in range(n))

    def yipan_ownership(self, arguments: list[str]) -> str:
        return self._board_rows([f"{x:.2f}" for x in self._ownership()])

    def yipan_ownership_gfx(self, arguments: list[str]) -> str:
        from ..games.go.scoring import estimated_score

        ownership = self._ownership()
        influence = " ".join(f"{self._format(p)} {x:.2f}" for p, x in enumerate(ownership))
        score = self.game.result_text(estimated_score(self.game, self.state, ownership))
        return f"INFLUENCE {influence}\nTEXT score estimate {score} (dead stones removed)"

    def yipan_candidates_gfx(self, arguments: list[str]) -> str:
        state, candidates = self._candidates_now()
        shown = [c for c in candidates if c.move != PASS][:GFX_CANDIDATES]
        if not shown:
            return "TEXT no move but pass"
        labels = " ".join(f"{self._format(c.move)} {round(100 * c.win_rate)}" for c in shown)
        best = shown[0]
        colours = "bw"
        line = self._legal_line(state, best.pv)
        variation = " ".join(f"{colours[(state.to_move + i) % 2]} {self._format(m)}"
                             for i, m in enumerate(line))
        lines = [f"LABEL {labels}", f"COLOR green {self._format(best.move)}"]
        if len(shown) > 1:
            lines.append("COLOR yellow " + " ".join(self._format(c.move) for c in shown[1:]))
        lines.append(f"VAR {variation}")
        lines.append(f"TEXT {self._format(best.move)} wins {100 * best.win_rate:.1f}% "
                     f"of {best.visits} playouts")
        return "\n".join(lines)

    def yipan_candidates_sboard(self, arguments: list[str]) -> str:
        _, candidates = self._candidates_now()
        cells = ['""'] * (self.size * self.size)
        for candidate in candidates:
            if candidate.move != PASS:
                cells[candidate.move] = str(round(100 * candidate.win_rate))
        return self._board_rows(cells)

    def yipan_pv(self, arguments: list[str]) -> str:
        state, candidates = self._candidates_now()
        if not candidates:
            return "pass"
        return " ".join(self._format(m) for m in self._legal_line(state, candidates[0].pv))

    # -- files -----------------------------------------------------------------------------------
    def loadsgf(self, arguments: list[str]) -> str:
        if not 1 <= len(arguments) <= 2:
            raise GtpError("syntax error (loadsgf filename [move_number])")
        from ..games.go.sgf import read_sgf

        upto = None
        if len(arguments) == 2:
            upto = self._count(arguments[1:], "move_number")
        data = _read_file(Path(arguments[0]))
        try:
            record = read_sgf(data)
        except YipanError as error:
            raise GtpError(f"cannot load file: {error}") from None
        keep = len(record.moves) if upto is None else max(0, min(len(record.moves), upto - 1))
        self.size, self.komi_points = record.game.size, record.game.komi
        self._new_game(record.game, record.states[:keep + 1])
        self.moves = list(record.moves[:keep])
        return self.game.player_names[self.state.to_move]

    def printsgf(self, arguments: list[str]) -> str:
        from ..games.go.sgf import write_sgf

        over = self.game.outcome(self.state) is not None
        result = self.game.result_text(self.game.score(self.state)) if over else None
        data = write_sgf(self.game, self.states, self.moves, result=result)
        if arguments:
            target = Path(arguments[0])
            # a new file, or a regular file replaced: never a device (/dev/null replaced by
            # a file breaks the machine), a folder, or a folder made on the way
            if (target.exists() or target.is_symlink()) and not target.is_file() \
                    or not target.parent.is_dir():
                raise GtpError("cannot write file (not a regular file in an existing folder)")
            try:
                write_atomically(target, data)
            except FileRefusedError as error:  # a link, say, where the check above followed it
                raise GtpError(f"cannot write file: {error}") from None
            except OSError as error:
                raise GtpError(f"cannot write file: {error.strerror}") from None
            return ""
        return data.decode("utf-8")


def _read_file(path: Path) -> bytes:
    """A regular file's bytes, if it is no larger than an SGF file may be (a device such as
    /dev/zero or /dev/stdin would be read for ever, or take the commands' own input)."""
    try:
        if path.exists() and not path.is_file():
            raise GtpError("cannot load file (not a file)")
        with path.open("rb") as stream:
            data = stream.read(MAX_SGF_BYTES + 1)
    except OSError:
        raise GtpError("cannot load file") from None
    if len(data) > MAX_SGF_BYTES:
        raise GtpError(f"cannot load file (larger than {MAX_SGF_BYTES >> 20} MB)")
    return data


COMMANDS: dict[str, Callable[[GtpEngine, list[str]], str]] = {
    "protocol_version": GtpEngine.protocol_version, "name": GtpEngine.name,
    "version": GtpEngine.version, "known_command": GtpEngine.known_command,
    "list_commands": GtpEngine.list_commands, "quit": GtpEngine.quit,
    "boardsize": GtpEngine.boardsize, "clear_board": GtpEngine.clear_board,
    "komi": GtpEngine.komi, "fixed_handicap": GtpEngine.fixed_handicap,
    "place_free_handicap": GtpEngine.place_free_handicap,
    "set_free_handicap": GtpEngine.set_free_handicap, "play": GtpEngine.play,
    "genmove": GtpEngine.genmove, "reg_genmove": GtpEngine.reg_genmove,
    "undo": GtpEngine.undo, "time_settings": GtpEngine.time_settings,
    "time_left": GtpEngine.time_left, "final_score": GtpEngine.final_score,
    "final_status_list": GtpEngine.final_status_list, "showboard": GtpEngine.showboard,
    "loadsgf": GtpEngine.loadsgf, "printsgf": GtpEngine.printsgf,
    "kgs-genmove_cleanup": GtpEngine.kgs_genmove_cleanup,
    "kgs-time_settings": GtpEngine.kgs_time_settings, "kgs-game_over": GtpEngine.kgs_game_over,
    "lz-analyze": GtpEngine.lz_analyze, "kata-analyze": GtpEngine.kata_analyze,
    "lz-genmove_analyze": GtpEngine.lz_genmove_analyze,
    "kata-genmove_analyze": GtpEngine.kata_genmove_analyze,
    "stop": GtpEngine.stop, "gogui-analyze_commands": GtpEngine.gogui_analyze_commands,
    "yipan-ownership": GtpEngine.yipan_ownership,
    "yipan-ownership_gfx": GtpEngine.yipan_ownership_gfx,
    "yipan-candidates_gfx": GtpEngine.yipan_candidates_gfx,
    "yipan-candidates_sboard": GtpEngine.yipan_candidates_sboard,
    "yipan-pv": GtpEngine.yipan_pv,
}


def _permyriad(fraction: float) -> int:
    """A fraction in [0, 1] as Leela Zero writes it: 10000 times, rounded."""
    return min(10000, max(0, round(10000 * fraction)))


def _wilson_lower(rate: float, visits: int) -> float:
    """The lower end of the Wilson interval of a win rate seen over ``visits`` playouts
    (0 with none): low for a move tried little, as Leela Zero's ``lcb`` is."""
    if visits <= 0:
        return 0.0
    z2 = LCB_Z * LCB_Z
    centre = rate + z2 / (2 * visits)
    spread = LCB_Z * math.sqrt(max(0.0, rate * (1 - rate)) / visits + z2 / (4 * visits * visits))
    return max(0.0, (centre - spread) / (1 + z2 / visits))


class _Reporter:
    """An analysis' ``stop`` for the engine's search: a report every ``interval`` seconds,
    and, given ``waiting``, the end of the search once the next line has come (with a report
    if none was written)."""

    def __init__(self, report: Callable[[], None], interval: float,
                 waiting: Callable[[], bool] | None) -> None:
        self._report = report
        self.interval = interval
        self.waiting = waiting
        self.last = time.perf_counter()
        self.reported = False
        self.stopped = False

    def report(self) -> None:
        self._report()
        self.last, self.reported = time.perf_counter(), True

    def __call__(self) -> bool:
        if self.interval > 0 and time.perf_counter() - self.last >= self.interval:
            self.report()
        if self.waiting is not None and self.waiting():
            if not self.reported:
                self.report()
            self.stopped = True
        return self.stopped


class _Lines:
    """The input lines, read on a thread so that a long analysis notices the next one.
    A real stdin is read from its descriptor: a thread blocked in the buffered reader would
    hold its lock when the interpreter ends."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._queue: queue.Queue[str | None] = queue.Queue()
        fd = None
        if lines is sys.stdin:
            try:
                fd = lines.fileno()
            except (OSError, ValueError, AttributeError):
                fd = None
        target = self._read_descriptor if fd is not None else self._read_lines
        threading.Thread(target=target, args=(fd if fd is not None else lines,),
                         daemon=True).start()

    def _read_lines(self, lines: Iterable[str]) -> None:
        try:
            for line in lines:
                self._queue.put(line)
        finally:
            self._queue.put(None)

    def _read_descriptor(self, fd: int) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        pending = ""
        try:
            while chunk := os.read(fd, 1 << 16):
                pending += decoder.decode(chunk)
                *complete, pending = pending.split("\n")
                for line in complete:
                    self._queue.put(line + "\n")
            pending += decoder.decode(b"", final=True)
            if pending:
                self._queue.put(pending)
        except OSError:
            pass
        finally:
            self._queue.put(None)

    def waiting(self) -> bool:
        """Whether a line (or the end of input) is there to be read."""
        return not self._queue.empty()

    def __iter__(self) -> Iterator[str]:
        while (line := self._queue.get()) is not None:
            yield line


def serve(lines: Iterable[str], out: TextIO, engine: GtpEngine | None = None) -> int:
    """Answer ``lines`` until ``quit`` or the end of input; returns 0. An analysis streams
    to ``out`` until the next line comes."""
    engine = engine or GtpEngine()
    source = _Lines(lines)
    engine.out, engine.waiting = out, source.waiting
    for line in source:
        answer = engine.handle(line)
        if answer:
            out.write(answer)
            out.flush()
        if engine.ended:
            break
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--time", type=float, default=DEFAULT_SECONDS,
                        help=f"seconds a move without a game clock (default {DEFAULT_SECONDS:g})")
    parser.add_argument("--playouts", type=int, default=None,
                        help="playouts a move instead of a time (the same on every machine)")
    parser.add_argument("--no-resign", action="store_true", help="never resign")
    parser.add_argument("--seed", type=int, default=None, help="seed the engine's choices")


def main(argv: Sequence[str] | None = None) -> int:
    """``gtp-yipan``: the engine on stdin/stdout."""
    parser = argparse.ArgumentParser(prog="gtp-yipan", description=__doc__.split("\n")[0])
    add_arguments(parser)
    return run_engine(parser.parse_args(argv))


def run_engine(args: argparse.Namespace) -> int:
    seconds = args.time
    if not (math.isfinite(seconds) and 0 < seconds <= 3600):
        print("gtp-yipan: --time must be a number of seconds above 0", file=sys.stderr)
        return 2
    if args.playouts is not None and not 1 <= args.playouts <= 10**9:
        print("gtp-yipan: --playouts must be 1 or more", file=sys.stderr)
        return 2
    from ..games.go.engine import warm_up

    warm_up()  # compile or load the kernels before the first clock starts
    engine = GtpEngine(seconds=seconds, playouts=args.playouts, resign=not args.no_resign,
                       rng=random.Random(args.seed))
    try:
        return serve(sys.stdin, sys.stdout, engine)
    except (KeyboardInterrupt, BrokenPipeError):
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
