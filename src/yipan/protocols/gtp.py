"""The Go Text Protocol (GTP, version 2) on stdin/stdout, for yipan's Go engine: what GoGui,
Sabaki, gogui-twogtp, KGS and OGS bots speak to an engine.

A command is ``[id] name [arguments]``; the answer is ``=[id] result`` or ``?[id] message``,
then an empty line. Before a line is read, control characters other than tab and newline are
dropped, tabs become spaces, and everything from ``#`` on is a comment (GTP 2, section 3.1).

Commands: protocol_version, name, version, known_command, list_commands, quit, boardsize,
clear_board, komi, fixed_handicap, place_free_handicap, set_free_handicap, play, genmove,
undo, time_settings, time_left, final_score, final_status_list, showboard, loadsgf, printsgf,
kgs-genmove_cleanup, kgs-time_settings, kgs-game_over, reg_genmove.

A malformed line never stops the engine: it is answered ``?`` with the reason, in one short
line (a name it does not know gets ``? unknown command``, as the protocol asks).
``genmove`` answers a vertex, ``pass`` or ``resign``; the move is played on the engine's board.
Time: each move gets what ``yipan.games.go.timing`` allots under the clock that
``time_settings`` / ``time_left`` describe; without a clock, the ``--time`` seconds.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

from ..core import IllegalMoveError, InvalidMoveError, YipanError
from ..core.files import write_atomically
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

DEFAULT_SECONDS = 5.0
MAX_LINE = 4096  # characters of a command line read; the rest is dropped
MAX_ANSWER = 300  # characters of an error message
MAX_VERTICES = 400
FREE_HANDICAP_PLAYOUTS = 300  # a short search for each free handicap stone past the fixed ones


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
        try:
            if handler is None:
                raise GtpError("unknown command")
            result = handler(self, arguments)
        except GtpError as error:
            return f"?{ident} {_short(str(error))}\n\n"
        except YipanError as error:
            return f"?{ident} {_short(str(error))}\n\n"
        except Exception as error:  # noqa: BLE001 - the engine must outlive any bad line
            message = _short(f"internal error: {type(error).__name__}: {error}")
            return f"?{ident} {message}\n\n"
        result = result.rstrip("\n")
        return f"={ident} {result}\n\n" if result else f"={ident}\n\n"

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

    def genmove(self, arguments: list[str], cleanup: bool = False, commit: bool = True) -> str:
        if len(arguments) != 1:
            raise GtpError("syntax error (genmove needs a colour)")
        colour = self._colour(arguments[0])
        state = self.state
        if state.to_move != colour:
            state = state._replace(to_move=colour, passes=0)
        if self.game.outcome(state) is not None:
            state = state._replace(passes=0)
        from ..games.go.scoring import dead_stones

        player = self.player()
        clock = self.clocks[colour]
        empty = self.size * self.size - (state.black | state.white).bit_count()
        seconds = None if self.playouts is not None and clock.unlimited else \
            clock.move_seconds(empty, self.seconds)
        if self.playouts is not None and seconds is not None:
            # under a clock, the playouts asked for (--playouts) still end the search first
            decision = player.engine.think(state, playouts=self.playouts, seconds=seconds,
                                           moves=tuple(self.moves[-2:]))
        else:
            decision = player.decide(state, seconds=seconds, moves=tuple(self.moves[-2:]))
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
        from ..games.go.engine import ownership_of

        playouts = self.playouts or 3000
        return ownership_of(self.game, self.state, playouts, self.rng)

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
        return "\n" + self.game.render(state) + f"\n{mover} to move"

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
}


def serve(lines: Iterable[str], out: TextIO, engine: GtpEngine | None = None) -> int:
    """Answer ``lines`` until ``quit`` or the end of input; returns 0."""
    engine = engine or GtpEngine()
    for line in lines:
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
    import math

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
