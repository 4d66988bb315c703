"""The UCI protocol on stdin/stdout, for yipan's chess engine (``yipan uci``, ``uci-yipan``)
and its xiangqi engine (``yipan uci --variant xiangqi``, or ``setoption name UCI_Variant
value xiangqi`` as Fairy-Stockfish takes it).

A GUI (or cutechess, lichess-bot, python-chess) sends one command a line::

    uci                          -> id name/author, the options, uciok
    isready                      -> readyok (once the kernels are loaded)
    ucinewgame                   a new game: the table and the move history are cleared
    setoption name N [value V]   Hash (MB), Threads (1), Move Overhead (ms), OwnBook,
                                 BookFile (a Polyglot .bin, read through python-chess),
                                 TablebasePath (yipan's endgame tables; default: their
                                 usual folder), SyzygyPath (a folder of Syzygy tables,
                                 probed through python-chess at the root; refused with an
                                 info string when it holds none), UCI_Variant (chess or
                                 xiangqi),
                                 UCI_Coordinates (xiangqi: fairy, ranks 1-10 as
                                 Fairy-Stockfish writes them, h3e3; or iccs, ranks 0-9
                                 as Pikafish writes them, h2e2)
    position startpos|fen F [moves m1 m2 ...]
    go [wtime T btime T winc I binc I movestogo N movetime T depth D nodes N infinite]
                                 -> info lines, then bestmove (after "stop" when infinite)
    stop                         the search ends at once and answers bestmove
    quit

The search runs in a thread of its own; ``stop`` sets the event its limit polls, which the
engine's watcher turns into the kernel's stop flag within a millisecond. ``info`` lines give
``depth seldepth score cp|mate nodes nps tbhits time pv`` per finished depth. Anything the engine
cannot act on (an unknown command, a bad FEN, an illegal move in a move list, a number out of
range) is ignored as UCI asks, with at most one short ``info string`` saying why; it never
ends the loop.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..core import GameOptionError, IllegalMoveError, InvalidMoveError, Limit, YipanError
from ..core.text import quote, read_int
from ..core.version import VERSION

NAME = f"yipan {VERSION}"
AUTHOR = "the yipan authors"
MAX_LINE = 10_000  # characters of a line read; a longer one is cut (a move list of ~2,000)
MAX_ANSWER = 200
MAX_HASH_MB = 4096
DEFAULT_HASH_MB = 64
DEFAULT_OVERHEAD_MS = 50
MAX_MILLISECONDS = 10**9  # about eleven days: any clock beyond is read as this


@dataclass(frozen=True, slots=True)
class Option:
    """One ``option`` line of the ``uci`` answer."""

    name: str
    kind: str  # spin, check, string
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


OPTIONS = (
    Option("Hash", "spin", str(DEFAULT_HASH_MB), 1, MAX_HASH_MB),
    Option("Threads", "spin", "1", 1, 1),
    Option("Move Overhead", "spin", str(DEFAULT_OVERHEAD_MS), 0, 5000),
    Option("OwnBook", "check", "false"),
    Option("BookFile", "string", ""),
    Option("TablebasePath", "string", ""),
    Option("SyzygyPath", "string", ""),
)

VARIANTS = ("chess", "xiangqi")
COORDINATES = ("fairy", "iccs")

GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes",
              "mate")


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_ANSWER else text[:MAX_ANSWER] + "…"


class UciEngine:
    """The protocol's state between lines; ``handle(line)`` acts on one line and returns
    False after ``quit``. Answers go to ``write`` (one line a call, thread-safe)."""

    def __init__(self, write: Callable[[str], None], *, hash_mb: int = DEFAULT_HASH_MB,
                 book: str = "", rng: random.Random | None = None,
                 variant: str = "chess", coordinates: str = "fairy") -> None:
        self._write = write
        self._lock = threading.Lock()
        self.hash_mb = hash_mb
        self.variant = variant
        self.coordinates = coordinates
        self.game: Any = None
        self.engine: Any = None
        self._set_variant(variant)
        self.overhead_ms = DEFAULT_OVERHEAD_MS
        self.own_book = bool(book)
        self.book_file = book
        self.rng = rng or random.Random()
        self.ready = threading.Event()
        self.stop_event = threading.Event()
        self.search_thread: threading.Thread | None = None
        self._warm_thread = threading.Thread(target=self._warm_up, daemon=True)
        self._warm_thread.start()

    def _set_variant(self, variant: str) -> None:
        """The game and engine of a variant (a new engine: its kernels warm up again)."""
        if variant == "xiangqi":
            from ..games.xiangqi.engine import Engine as XiangqiEngine
            from ..games.xiangqi.rules import Xiangqi

            self.game, self.engine = Xiangqi(), XiangqiEngine(self.hash_mb)
        else:
            from ..games.chess.engine import Engine
            from ..games.chess.rules import Chess

            self.game, self.engine = Chess(), Engine(self.hash_mb)
        self.variant = variant
        self.state = self.game.initial_state()

    def new_game(self, fen: str | None = None) -> Any:
        """A game of the current variant from its start or a FEN."""
        if self.variant == "xiangqi":
            from ..games.xiangqi.rules import Xiangqi

            return Xiangqi(fen)
        from ..games.chess.rules import Chess

        return Chess(fen)

    def options(self) -> tuple[Option, ...]:
        return (*OPTIONS, Option("UCI_Variant", "combo", self.variant, choices=VARIANTS),
                Option("UCI_Coordinates", "combo", self.coordinates, choices=COORDINATES))

    def move_text(self, move: int) -> str:
        """A move as this protocol writes it (xiangqi: ranks 1-10 unless iccs)."""
        text = self.game.format_move(move)
        if self.variant == "xiangqi" and self.coordinates == "fairy":
            return f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}"
        return text

    def read_move(self, game: Any, state: Any, text: str) -> int:
        if self.variant == "xiangqi" and self.coordinates == "fairy":
            shape = re.fullmatch(r"([a-i])(10|[1-9])([a-i])(10|[1-9])", text.lower())
            if shape is None:
                raise InvalidMoveError(f"cannot read move {quote(text, 12)}")
            text = f"{shape[1]}{int(shape[2]) - 1}{shape[3]}{int(shape[4]) - 1}"
        return int(game.parse_move(state, text))

    def score_text(self, score: int) -> str:
        if self.variant == "xiangqi":
            from ..games.xiangqi.engine import uci_score as xiangqi_score

            return xiangqi_score(score)
        from ..games.chess.engine import uci_score

        return uci_score(score)

    # -- output ---------------------------------------------------------------------------------
    def say(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def info_string(self, text: str) -> None:
        self.say(_short(f"info string {text}"))

    def _warm_up(self) -> None:
        try:
            self.engine.warm_up()
        finally:
            self.ready.set()

    # -- the loop -------------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one line; False once the engine should exit. Never raises on bad input."""
        words = line[:MAX_LINE].split()
        if not words:
            return True
        command, arguments = words[0], words[1:]
        handler = COMMANDS.get(command)
        if handler is None:
            if len(words) > 1 and words[1] in COMMANDS:  # UCI: skip one unknown token
                return self.handle(" ".join(words[1:]))
            self.info_string(f"unknown command {quote(command, 20)}")
            return True
        try:
            return handler(self, arguments) is not False
        except (YipanError, ValueError) as error:
            self.info_string(f"{command}: {error}")
            return True

    def close(self) -> None:
        self.stop_search()

    # -- commands -------------------------------------------------------------------------------
    def uci(self, _arguments: list[str]) -> None:
        self.say(f"id name {NAME}")
        self.say(f"id author {AUTHOR}")
        for option in self.options():
            self.say(option.line())
        self.say("uciok")

    def isready(self, _arguments: list[str]) -> None:
        self.ready.wait()
        self.say("readyok")

    def ucinewgame(self, _arguments: list[str]) -> None:
        self.stop_search()
        self.ready.wait()
        self.engine.clear()
        self.state = self.game.initial_state()

    def debug(self, _arguments: list[str]) -> None:
        """Accepted and ignored."""

    def register(self, _arguments: list[str]) -> None:
        """Accepted and ignored (nothing to register)."""

    def ponderhit(self, _arguments: list[str]) -> None:
        """Pondering is not offered; a stray ponderhit is ignored."""

    def setoption(self, arguments: list[str]) -> None:
        if not arguments or arguments[0] != "name":
            raise ValueError("expected: setoption name NAME [value VALUE]")
        text = " ".join(arguments[1:])
        name, _, value = text.partition(" value ")
        name, value = name.strip().lower(), value.strip()
        if name == "hash":
            megabytes = self._spin(value, "Hash", 1, MAX_HASH_MB)
            self.stop_search()
            self.ready.wait()
            self.engine.resize(megabytes)
        elif name == "threads":
            self._spin(value, "Threads", 1, 1)
        elif name == "move overhead":
            self.overhead_ms = self._spin(value, "Move Overhead", 0, 5000)
        elif name == "ownbook":
            if value.lower() not in ("true", "false"):
                raise ValueError("OwnBook is true or false")
            self.own_book = value.lower() == "true"
        elif name == "bookfile":
            self.book_file = "" if value == "<empty>" else value
        elif name == "uci_variant":
            if value.lower() not in VARIANTS:
                raise ValueError(f"UCI_Variant is one of {', '.join(VARIANTS)}")
            if value.lower() != self.variant:
                self.stop_search()
                self.ready.wait()
                self.ready.clear()
                self._set_variant(value.lower())
                self._warm_thread = threading.Thread(target=self._warm_up, daemon=True)
                self._warm_thread.start()
        elif name == "uci_coordinates":
            if value.lower() not in COORDINATES:
                raise ValueError(f"UCI_Coordinates is one of {', '.join(COORDINATES)}")
            self.coordinates = value.lower()
        elif name == "tablebasepath" and self.variant == "chess":
            from ..games.chess.tablebase import Tablebase, tablebase

            self.stop_search()
            self.ready.wait()
            empty = value in ("", "<empty>")
            self.engine.tables = tablebase() if empty else Tablebase(Path(value))
        elif name == "syzygypath":
            from ..games.chess.syzygy import Syzygy

            self.stop_search()
            self.ready.wait()
            empty = value in ("", "<empty>")
            self.engine.syzygy = None  # a folder refused leaves none in use
            self.engine.syzygy = None if empty else Syzygy(value)
        else:
            raise ValueError(f"no option {quote(name, 30)}")

    @staticmethod
    def _spin(value: str, name: str, low: int, high: int) -> int:
        number = read_int(value, name, max_digits=9)
        if not low <= number <= high:
            raise ValueError(f"{name} is {low} to {high}, not {number}")
        return number

    def position(self, arguments: list[str]) -> None:
        if not arguments:
            raise ValueError("expected: position startpos|fen FEN [moves ...]")
        if "moves" in arguments:
            split = arguments.index("moves")
            setup, moves = arguments[:split], arguments[split + 1:]
        else:
            setup, moves = arguments, []
        if setup == ["startpos"]:
            game = self.new_game()
        elif setup and setup[0] == "fen" and len(setup) > 1:
            game = self.new_game(" ".join(setup[1:]))
        else:
            raise ValueError("expected startpos or fen FEN")
        self.stop_search()
        state = game.initial_state()
        for number, text in enumerate(moves, 1):
            try:
                state = game.play_checked(state, self.read_move(game, state, text))
            except (InvalidMoveError, IllegalMoveError) as error:
                self.info_string(f"move {number} ({quote(text, 12)}): {error}; "
                                 "the moves after it are ignored")
                break
        self.game, self.state = game, state

    def go(self, arguments: list[str]) -> None:
        self.stop_search()
        numbers, infinite = self._read_go(arguments)
        self.ready.wait()
        self.stop_event = threading.Event()
        self.search_thread = threading.Thread(target=self._search,
                                              args=(self.state, numbers, infinite,
                                                    self.stop_event), daemon=True)
        self.search_thread.start()

    @staticmethod
    def _read_go(arguments: list[str]) -> tuple[dict[str, int], bool]:
        numbers: dict[str, int] = {}
        infinite = False
        index = 0
        while index < len(arguments):
            word = arguments[index]
            if word in ("infinite", "ponder"):
                infinite = True
            elif word in GO_NUMBERS and index + 1 < len(arguments):
                index += 1
                value = read_int(arguments[index], word, max_digits=12)
                numbers[word] = max(0, min(value, MAX_MILLISECONDS))
            elif word == "searchmoves":
                break  # not supported: the whole position is searched
            index += 1
        return numbers, infinite

    def stop(self, _arguments: list[str]) -> None:
        self.stop_search()

    def quit(self, _arguments: list[str]) -> bool:
        self.stop_search()
        return False

    # -- searching --------------------------------------------------------------------------------
    def stop_search(self) -> None:
        """End a running search at once (it answers its bestmove) and wait for it."""
        thread = self.search_thread
        if thread is not None:
            self.stop_event.set()
            thread.join()
            self.search_thread = None

    def _limit(self, state, numbers: dict[str, int], infinite: bool,
               stop: threading.Event) -> tuple[Limit, float | None]:
        from ..games.chess.engine import Clock, budget

        white = state.turn == 0  # xiangqi: red
        left = numbers.get("wtime" if white else "btime")
        clock = Clock(time_left=None if left is None else left / 1000,
                      increment=numbers.get("winc" if white else "binc", 0) / 1000,
                      moves_to_go=numbers.get("movestogo") or None,
                      move_time=None if "movetime" not in numbers
                      else numbers["movetime"] / 1000)
        soft, hard = (None, None) if infinite else budget(clock, self.overhead_ms / 1000)
        depth = numbers.get("depth")
        if "mate" in numbers and depth is None:
            depth = 2 * numbers["mate"] + 1
        nodes = numbers.get("nodes")
        limit = Limit(depth=max(1, depth) if depth is not None else None,
                      nodes=max(1, nodes) if nodes is not None else None,
                      time=hard, stop=stop.is_set)
        return limit, soft

    def _search(self, state, numbers: dict[str, int], infinite: bool,
                stop: threading.Event) -> None:
        game = self.game
        moves = game.legal_moves(state)
        best, ponder = "0000", None
        try:
            book_move = self._book_move(state) if moves else None
            if book_move is not None:
                best = book_move
                self.info_string("book move")
            elif moves:
                limit, soft = self._limit(state, numbers, infinite, stop)
                if len(moves) == 1 and not infinite:
                    limit = Limit(depth=1, stop=stop.is_set)

                def report(iteration) -> None:
                    # endgame tables are chess's; xiangqi's iterations carry no such count
                    hits = getattr(iteration, "tablebase_hits", None)
                    self.say(
                        f"info depth {iteration.depth} seldepth {iteration.seldepth} "
                        f"score {self.score_text(iteration.score)} nodes {iteration.nodes} "
                        f"nps {iteration.nodes_per_second} "
                        + (f"tbhits {hits} " if hits is not None else "")
                        + f"hashfull {self._hashfull()} "
                        f"time {int(iteration.seconds * 1000)} "
                        f"pv {' '.join(self.move_text(m) for m in iteration.pv)}")

                found = self.engine.think(state, limit, soft_time=soft, on_iteration=report)
                if found is not None:
                    best = self.move_text(found.move)
                    if len(found.pv) > 1:
                        ponder = self.move_text(found.pv[1])
        except Exception as error:  # noqa: BLE001 - a GUI must get its bestmove whatever
            self.info_string(f"search failed: {type(error).__name__}: {error}")
            if moves:
                best = self.move_text(moves[0])
        if infinite:
            stop.wait()  # UCI: no bestmove before "stop" in infinite mode
        self.say(f"bestmove {best}" + (f" ponder {ponder}" if ponder else ""))

    def _hashfull(self) -> int:
        """Permille of the table's first thousand slots in use (as UCI's hashfull)."""
        entries = self.engine.ctx.table_entries[:1000]
        return int((entries != 0).sum() * 1000 // max(1, len(entries)))

    def _book_move(self, state) -> str | None:
        """A move from the Polyglot book (OwnBook and BookFile), weighted by its counts."""
        if not (self.own_book and self.book_file) or self.variant != "chess":
            return None
        import chess.polyglot

        try:
            with chess.polyglot.open_reader(self.book_file) as reader:
                entry = reader.weighted_choice(self.game.to_board(state), random=self.rng)
        except IndexError:
            return None  # the position is not in the book
        except (OSError, ValueError) as error:
            self.info_string(f"book {quote(self.book_file, 60)} cannot be read: {error}")
            return None
        return entry.move.uci()


COMMANDS: dict[str, Callable[[UciEngine, list[str]], object]] = {
    "uci": UciEngine.uci, "isready": UciEngine.isready, "ucinewgame": UciEngine.ucinewgame,
    "setoption": UciEngine.setoption, "position": UciEngine.position, "go": UciEngine.go,
    "stop": UciEngine.stop, "quit": UciEngine.quit, "debug": UciEngine.debug,
    "register": UciEngine.register, "ponderhit": UciEngine.ponderhit,
}


def run(input_stream: TextIO, output: TextIO, *, hash_mb: int = DEFAULT_HASH_MB,
        book: str = "", variant: str = "chess", coordinates: str = "fairy") -> int:
    """Read commands until ``quit`` or the end of input; returns the exit status."""
    def write(line: str) -> None:
        output.write(line + "\n")
        output.flush()

    engine = UciEngine(write, hash_mb=hash_mb, book=book, variant=variant,
                       coordinates=coordinates)
    try:
        for line in input_stream:
            if not engine.handle(line):
                break
    finally:
        engine.close()
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hash", type=int, default=DEFAULT_HASH_MB, metavar="MB",
                        help=f"transposition table size (1 to {MAX_HASH_MB} MB)")
    parser.add_argument("--book", default="", metavar="FILE",
                        help="a Polyglot opening book (.bin) to play from (OwnBook on)")
    parser.add_argument("--variant", default="chess", choices=VARIANTS,
                        help="the game: chess (default) or xiangqi (as UCI_Variant)")
    parser.add_argument("--coordinates", default="fairy", choices=COORDINATES,
                        help="xiangqi moves: fairy (ranks 1-10, Fairy-Stockfish) or iccs "
                             "(ranks 0-9, Pikafish)")


def run_engine(args: argparse.Namespace) -> int:
    if not 1 <= args.hash <= MAX_HASH_MB:
        raise GameOptionError(f"--hash is 1 to {MAX_HASH_MB} MB, not {args.hash}")
    sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
    return run(sys.stdin, sys.stdout, hash_mb=args.hash, book=args.book,
               variant=getattr(args, "variant", "chess"),
               coordinates=getattr(args, "coordinates", "fairy"))


def main(argv: list[str] | None = None) -> int:
    """The ``uci-yipan`` script."""
    parser = argparse.ArgumentParser(prog="uci-yipan",
                                     description="yipan's chess engine, speaking UCI")
    add_arguments(parser)
    try:
        return run_engine(parser.parse_args(argv))
    except YipanError as error:
        print(f"uci-yipan: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
