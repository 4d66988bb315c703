"""The UCI family of engine protocols as one loop with dialects, as python-chess's
``chess.engine.Protocol`` has its ``UciProtocol`` and ``XBoardProtocol``:

- UCI (``uci.py``): chess, and xiangqi in Fairy-Stockfish's dialect (``UCI_Variant``);
- UCCI (``ucci.py``): xiangqi for XiangQi Wizard and BHGUI.

The loop (``EngineProtocol``) does what every dialect does alike: a line's first word picks
its handler; the search runs in a thread of its own (``stop`` sets the event its limit
polls, and the engine's watcher stops the kernel within a millisecond); ``isready`` answers
once the kernels are loaded; ``position`` reads a FEN and a move list, playing only the moves
that differ from the last line's (``PositionLine``); ``ponderhit`` turns a pondering search
into one on the clock ``go ponder`` gave; every ``go`` gets one answer,
a legal move whenever the pieces have one. A dialect (a subclass) says what differs: its
command words and options, how its ``go`` reads (into a ``Go``), how it writes info and
best-move lines. The game is a ``Variant`` (``uci_variants.py``): the only place an engine
is called.

Input never ends the loop. An unknown command, a bad FEN, an illegal move in a move list or
a number out of range is ignored as UCI asks, with one short ``info string`` saying why; so
is any error a handler meets (the line names its type when it is not one yipan raises on
purpose). A move list is read as Stockfish reads it: up to the first move that cannot be
played; the null move ``0000`` (which GUIs may send) ends it the same way, since passing the
turn is not a move of these games.

The clock: a GUI starts the engine's clock when it sends ``position`` and ``go`` together, so
a search's time is counted from the moment the ``position`` line was read (the time spent on
it and on ``go`` is ``spent`` for ``chess_family.clock.budget``; a pause between the two
lines, when the GUI waits, is not counted), and ``Move Overhead`` is kept for what the
engine cannot see.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar, TextIO

from ..core import GameOptionError, Limit, YipanError
from ..core.text import quote, read_int
from ..core.version import VERSION
from . import strength
from .uci_variants import Variant

NAME = f"yipan {VERSION}"
AUTHOR = "the yipan authors"
MAX_LINE = 10_000  # characters of a line read; a longer one is cut (a move list of ~2,000)
MAX_ANSWER = 200
MAX_HASH_MB = 4096
DEFAULT_HASH_MB = 64
# Move Overhead: the time the GUI counts and the engine cannot see (pipes, the process being
# scheduled). Stockfish's 10 ms suits a native engine; measured here (benchmarks/uci_clock.py)
# the GUI sees a few milliseconds beyond yipan's own measure on a quiet machine and 100 ms
# and more on a loaded one, so 50, and the clock's reserve (chess_family.clock) is four of it
DEFAULT_OVERHEAD_MS = 50
MAX_MILLISECONDS = 10**9  # about eleven days: any clock beyond is read as this
NULL_MOVE = "0000"
MAX_MULTIPV = 64
MAX_MULTIPV_DEPTH = 100  # the deepest depth of a MultiPV search without a depth limit


@dataclass(slots=True)
class PositionLine:
    """The last ``position`` line, ply by ply. A GUI sends the whole game at every move: the
    same start and the same moves, plus the two played since. The next line is set up from
    the last state the two lines share (the moves the GUI took back are dropped, the new ones
    played), so a long game costs a few plies a move, not all of them; a different start
    plays the line from its start. Every state carries its own repetition history, so the
    position reached is the one a full replay gives.

        setup   ("startpos",) or ("fen", FEN words...)
        game    the rules from that start
        moves   the moves played, as written: moves[i] led from states[i] to states[i + 1]
        states  states[0] the start; states[-1] the position set up
    """

    setup: tuple[str, ...]
    game: Any
    moves: list[str]
    states: list[Any]

    @property
    def state(self) -> Any:
        return self.states[-1]

    def shared_plies(self, setup: tuple[str, ...], moves: list[str]) -> int:
        """How many plies of ``moves`` from ``setup`` this line has already played (0 for
        another start)."""
        if setup != self.setup:
            return 0
        plies = 0
        for old, new in zip(self.moves, moves, strict=False):
            if old != new:
                break
            plies += 1
        return plies

    def cut(self, plies: int) -> None:
        """Back to the state after ``plies`` moves."""
        del self.moves[plies:]
        del self.states[plies + 1:]

    def extend(self, text: str, state: Any) -> None:
        self.moves.append(text)
        self.states.append(state)


@dataclass(frozen=True, slots=True)
class Handled:
    """A command the loop has acted on, and when (``now`` seconds): the clock of a ``go``
    that follows a ``position`` counts the time the position took."""

    method: str
    started: float
    finished: float


@dataclass(frozen=True, slots=True)
class MoveTime:
    """What a move on the clock took by the engine's own measure, from the moment its clock
    started (``clock_started``) to the answer, against its hard limit (counted from the
    same moment; None when the search had none) and what it was allowed: its time left less
    the overhead (or ``movetime`` less it)."""

    used: float
    limit: float | None
    allowed: float
    position: float  # of ``used``: the ``position`` line

    def line(self) -> str:
        limit = "none" if self.limit is None else f"{self.limit * 1000:.0f} ms"
        return (f"clock: {self.used * 1000:.1f} ms used, limit {limit}, "
                f"{self.allowed * 1000:.0f} ms allowed (position {self.position * 1000:.2f} ms)")


@dataclass(frozen=True, slots=True)
class Go:
    """One ``go``, read by a dialect into the loop's terms: times in milliseconds, the
    clock of each side (index 0: white / red)."""

    time_left: tuple[int | None, int | None] = (None, None)
    increment: tuple[int, int] = (0, 0)
    moves_to_go: int | None = None
    move_time: int | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None  # moves: a search this deep (UCI ``go mate``)
    infinite: bool = False  # no answer before ``stop``
    ponder: bool = False  # no answer before ``stop``; ``ponderhit`` starts the clock
    searchmoves: tuple[str, ...] = ()  # the only root moves to search (as written)
    draw_offered: bool = False  # UCCI ``go draw``

    @property
    def until_stop(self) -> bool:
        return self.infinite or self.ponder


def go_number(text: str, word: str) -> int:
    """A number of a ``go`` (a negative one is 0; a huge one ``MAX_MILLISECONDS``)."""
    return max(0, min(read_int(text, word, max_digits=12), MAX_MILLISECONDS))


def short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_ANSWER else text[:MAX_ANSWER] + "…"


def spin(value: str, name: str, low: int, high: int) -> int:
    """An option's whole number within its range, or a ValueError saying why not."""
    number = read_int(value, name, max_digits=9)
    if not low <= number <= high:
        raise ValueError(f"{name} is {low} to {high}, not {number}")
    return number


class EngineProtocol:
    """The loop's state between lines; ``handle(line)`` acts on one line and returns False
    once the engine should exit. Answers go to ``write`` (one line a call, thread-safe).
    ``commands`` maps a dialect's command words to its methods' names."""

    commands: ClassVar[dict[str, str]] = {
        "isready": "isready", "position": "position", "go": "go", "stop": "stop",
        "ponderhit": "ponderhit", "quit": "quit"}

    def __init__(self, write: Callable[[str], None], variant: Variant, *, hash_mb: int,
                 rng: random.Random | None = None) -> None:
        self._write = write
        self._lock = threading.Lock()
        self.hash_mb = hash_mb
        self.variant = variant
        self.game = variant.new_game()
        self.state = self.game.initial_state()
        self.banned: tuple[int, ...] = ()  # root moves the next search may not play
        self.multipv = 1  # lines a search reports (UCI MultiPV)
        self.elo: int | None = None  # play at this strength (UCI_LimitStrength); None: full
        self.overhead_ms = DEFAULT_OVERHEAD_MS
        self.rng = rng or random.Random()
        self.seed = 0  # UCI Seed: 0 for none (the random source runs on across games)
        self.ready = threading.Event()
        self.stop_event = threading.Event()
        self.search_thread: threading.Thread | None = None
        self.pondering: Go | None = None  # the ``go ponder`` a ponderhit puts on the clock
        self.line: PositionLine | None = None  # the last position line set up
        self.replayed = 0  # plies the last ``position`` played (the others were kept)
        self.now: Callable[[], float] = time.perf_counter  # the clock (a test's fake one)
        self.previous: Handled | None = None  # the command acted on before this one
        self.received = 0.0  # when the command being acted on was read
        self.last_move: MoveTime | None = None  # the last answer's time on the clock
        self.move_limit: float | None = None  # the last search's hard limit, from its clock
        self.debug = False  # UCI ``debug on``: each answer on the clock says its time
        self._start_warm_up()

    @property
    def engine(self) -> Any:
        return self.variant.engine

    # -- output ---------------------------------------------------------------------------------
    def say(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def info_string(self, text: str) -> None:
        self.say(short(f"info string {text}"))

    def _start_warm_up(self) -> None:
        self.ready.clear()
        threading.Thread(target=self._warm_up, args=(self.variant,), daemon=True).start()

    def _warm_up(self, variant: Variant) -> None:
        try:
            variant.warm_up()
        except Exception as error:  # noqa: BLE001 - the first search will say it again
            self.info_string(f"warm-up failed: {type(error).__name__}: {error}")
        finally:
            self.ready.set()

    # -- the loop -------------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one line; False once the engine should exit. Never raises."""
        words = line[:MAX_LINE].split()
        if not words:
            return True
        command, arguments = words[0], words[1:]
        method = self.commands.get(command)
        if method is None:
            if len(words) > 1 and words[1] in self.commands:  # UCI: skip one unknown token
                return self.handle(" ".join(words[1:]))
            self.info_string(f"unknown command {quote(command, 20)}")
            return True
        self.received = self.now()
        try:
            return getattr(self, method)(arguments) is not False
        except (YipanError, ValueError) as error:
            self.info_string(f"{command}: {error}")
        except Exception as error:  # noqa: BLE001 - no input may end the engine
            self.info_string(f"{command}: internal error: {type(error).__name__}: {error}")
        finally:
            self.previous = Handled(method, self.received, self.now())
        return True

    def close(self) -> None:
        self.stop_search()

    # -- what every dialect does alike ----------------------------------------------------------
    def isready(self, _arguments: list[str]) -> None:
        self.ready.wait()
        self.say("readyok")

    def stop(self, _arguments: list[str]) -> None:
        self.stop_search()

    def quit(self, _arguments: list[str]) -> bool:
        self.stop_search()
        return False

    def new_game(self) -> None:
        """A new game: the engine's memory and the banned moves forgotten, the random
        source started again from its seed (when one was set)."""
        self._settle()
        if self.seed:
            self.rng = random.Random(self.seed)
        self.variant.clear()
        self.state = self.game.initial_state()
        self.banned = ()

    def resize(self, megabytes: int) -> None:
        self._settle()
        self.variant.resize(megabytes)
        self.hash_mb = megabytes

    def switch(self, variant: Variant) -> None:
        """Play another game from now on (its kernels warm up meanwhile)."""
        self._settle()
        self.variant = variant
        self.game = variant.new_game()
        self.state = self.game.initial_state()
        self.banned = ()
        self._start_warm_up()

    def _settle(self) -> None:
        """No search running and the engine loaded: its state may change (and the moves of
        the last position line may be read otherwise: it is forgotten)."""
        self.stop_search()
        self.ready.wait()
        self.line = None

    def position(self, arguments: list[str]) -> None:
        """Set up a start and play a move list from it, from where it parts from the last
        line (``PositionLine``)."""
        if "moves" in arguments:
            split = arguments.index("moves")
            setup, moves = tuple(arguments[:split]), arguments[split + 1:]
        else:
            setup, moves = tuple(arguments), []
        if setup != ("startpos",) and not (len(setup) > 1 and setup[0] == "fen"):
            raise ValueError("expected: position startpos|fen FEN [moves ...]")
        line = self.line
        if line is None or line.setup != setup:
            game = self.variant.new_game(None if setup == ("startpos",) else " ".join(setup[1:]))
            line = PositionLine(setup, game, [], [game.initial_state()])
        self.stop_search()
        kept = line.shared_plies(setup, moves)
        line.cut(kept)
        self.line = line
        game, state = line.game, line.state
        for number, text in enumerate(moves[kept:], kept + 1):
            if text == NULL_MOVE:
                self.info_string(f"move {number} is the null move 0000, which these rules "
                                 "do not allow: the moves before it are played, the ones "
                                 "after it ignored")
                break
            try:
                state = game.play(state, self.variant.read_move(game, state, text))
            except (YipanError, ValueError) as error:
                self.info_string(f"move {number} ({quote(text, 12)}): {error}; "
                                 "the moves after it are ignored")
                break
            line.extend(text, state)
        self.replayed = len(line.moves) - kept
        self.game, self.state, self.banned = game, state, ()

    def clock_started(self) -> float:
        """When this move's clock started (``now``): as the command being acted on was read,
        less the time the ``position`` line just before it took."""
        previous = self.previous
        if previous is not None and previous.method == "position":
            return self.received - (previous.finished - previous.started)
        return self.received

    def go(self, arguments: list[str]) -> None:
        started = self.clock_started()
        self.stop_search()
        go = self.read_go(arguments)
        allowed = self._root_moves(go)
        self.ready.wait()
        self.pondering = go if go.ponder else None
        self.stop_event = threading.Event()
        self.search_thread = threading.Thread(
            target=self._search,
            args=(self.state, go, allowed, started, self.received - started, self.stop_event),
            daemon=True)
        self.search_thread.start()

    def ponderhit(self, _arguments: list[str]) -> None:
        """The opponent played the move pondered on: the search goes on for this move's
        share of the clock ``go ponder`` gave (without a clock it answers now)."""
        go, self.pondering = self.pondering, None
        if go is None or self.search_thread is None:
            return
        stop = self.stop_event
        _, hard = self._budget(go)
        if hard is None:
            stop.set()
            return
        timer = threading.Timer(hard, stop.set)
        timer.daemon = True
        timer.start()

    def _root_moves(self, go: Go) -> tuple[int, ...] | None:
        """The moves this search may play (None: all): ``searchmoves`` and not banned."""
        moves = self.variant.moves(self.state)
        allowed = list(moves)
        if go.searchmoves:
            named = []
            for text in go.searchmoves:
                try:
                    named.append(self.variant.read_move(self.game, self.state, text))
                except (YipanError, ValueError) as error:
                    self.info_string(f"searchmoves: {error}")
            allowed = [move for move in moves if move in named]
        allowed = [move for move in allowed if move not in self.banned]
        if not allowed:
            if go.searchmoves or self.banned:
                self.info_string("no legal move left to search: every move is searched")
            return None
        return None if len(allowed) == len(moves) else tuple(allowed)

    # -- searching ------------------------------------------------------------------------------
    def stop_search(self) -> None:
        """End a running search at once (it answers) and wait for it."""
        thread = self.search_thread
        if thread is not None:
            self.stop_event.set()
            thread.join()
            self.search_thread = None

    def _budget(self, go: Go, spent: float = 0.0) -> tuple[float | None, float | None]:
        """(soft, hard) seconds for this move on the clock of the side to move, of which
        ``spent`` are gone."""
        side = self.game.to_move(self.state)
        left = go.time_left[side]
        return self.variant.budget(
            time_left=None if left is None else left / 1000, increment=go.increment[side] / 1000,
            moves_to_go=go.moves_to_go or None,
            move_time=None if go.move_time is None else go.move_time / 1000,
            overhead=self.overhead_ms / 1000, spent=spent)

    def limit(self, go: Go, stop: threading.Event,
              spent: float = 0.0) -> tuple[Limit, float | None]:
        """The search's limit and its soft time (no new depth after it), ``spent`` seconds
        after the clock started."""
        soft, hard = (None, None) if go.until_stop else self._budget(go, spent)
        depth = go.depth
        if go.mate is not None and depth is None:
            depth = 2 * go.mate + 1
        return Limit(depth=None if depth is None else max(1, depth),
                     nodes=None if go.nodes is None else max(1, go.nodes),
                     time=hard, stop=stop.is_set), soft

    def _search(self, state: Any, go: Go, allowed: tuple[int, ...] | None, started: float,
                position: float, stop: threading.Event) -> None:
        """The search thread: one answer, after ``stop`` when the go asked so; the clock
        started at ``started`` (``now``), ``position`` seconds before the ``go`` was read."""
        self.move_limit = None
        try:
            answer = self._answer(state, go, allowed, started, stop)
        except Exception as error:  # noqa: BLE001 - a GUI must get its bestmove whatever
            self.info_string(f"search failed: {type(error).__name__}: {error}")
            moves = allowed or self.variant.moves(state)
            answer = self.best_line(moves[0], None, None, go) if moves else self.no_move_line()
        if go.until_stop:
            stop.wait()  # UCI: no bestmove before "stop" in infinite mode
        else:
            self._measure(state, go, started, position)
        self.say(answer)

    def _measure(self, state: Any, go: Go, started: float, position: float) -> None:
        """Keep (and in debug mode say) the time this answer took on the clock."""
        side = self.game.to_move(state)
        left = go.move_time if go.move_time is not None else go.time_left[side]
        if left is None:
            return
        self.last_move = MoveTime(self.now() - started, self.move_limit,
                                  max(0.0, left / 1000 - self.overhead_ms / 1000), position)
        if self.debug:
            self.info_string(self.last_move.line())

    def _answer(self, state: Any, go: Go, allowed: tuple[int, ...] | None, started: float,
                stop: threading.Event) -> str:
        moves = allowed or self.variant.moves(state)
        if not moves:
            return self.no_move_line()
        if allowed is None:
            book = self.variant.opening_move(state, self.rng, self.info_string)
            if book is not None:
                self.info_string("book move")
                return self.best_line(book, None, None, go)
        spent = self.now() - started
        limit, soft = self.limit(go, stop, spent=spent)
        self.move_limit = None if limit.time is None else spent + limit.time
        if len(moves) == 1 and not go.until_stop:
            limit = replace(limit, depth=1, nodes=None, time=None)
        if self.elo is not None and len(moves) > 1:
            budget = strength.node_budget(self.elo)
            with self.variant.scaled_evaluation():
                lines = self._think_lines(
                    state, moves, replace(limit, nodes=min(limit.nodes or budget, budget)),
                    soft, max(self.multipv, strength.CANDIDATES))
            found = strength.choose(lines, self.elo, self.rng)
        elif self.multipv > 1 and len(moves) > 1:
            found = self._think_lines(state, moves, limit, soft, self.multipv)[0]
        else:
            found = self.variant.think(state, limit, soft_time=soft, report=self.report,
                                       allowed=allowed, note=self.info_string)
        if found is None or found.move not in moves:
            if found is not None:
                self.info_string("the search's move is not legal here: the first legal "
                                 "move is played")
            return self.best_line(moves[0], None, None, go)
        self.finished(found)
        return self.best_line(found.move, self.variant.ponder_move(state, found), found.score,
                              go)

    def _think_lines(self, state: Any, moves: tuple[int, ...], limit: Limit,
                     soft: float | None, count: int) -> list[Any]:
        """MultiPV: depth after depth, the best line among ``moves``, then the best with
        that line's first move banned at the root, and so on (``count`` lines); each
        finished depth reports its lines best first (``report_lines``). A depth cut short
        (stop, time, nodes) is thrown away, except the first: its lines found so far
        answer. Returns the lines of the last depth, best first."""
        start = time.perf_counter()
        every = len(self.variant.moves(state))
        count = min(count, len(moves))
        deepest = MAX_MULTIPV_DEPTH if limit.depth is None else limit.depth
        nodes = 0
        last: list[Any] = []

        def spent() -> bool:
            elapsed = time.perf_counter() - start
            return limit.stopped() or (limit.time is not None and elapsed >= limit.time) \
                or (limit.nodes is not None and nodes >= limit.nodes)

        for depth in range(1, deepest + 1):
            lines: list[Any] = []
            while len(lines) < count:
                taken = {line.move for line in lines}
                left = tuple(move for move in moves if move not in taken)
                elapsed = time.perf_counter() - start
                part = Limit(depth=depth,
                             nodes=None if limit.nodes is None else max(1, limit.nodes - nodes),
                             time=None if limit.time is None else max(0.0, limit.time - elapsed),
                             stop=limit.stop)
                found = self.variant.think(state, part, soft_time=None, report=ignore,
                                           allowed=None if len(left) == every else left,
                                           note=self.info_string)
                if found is None:
                    break
                nodes += found.nodes
                if spent() and (last or lines):
                    break
                lines.append(found)
            if len(lines) < count:  # cut short
                return last or sorted(lines, key=lambda line: -line.score)
            lines.sort(key=lambda line: -line.score)
            seconds = time.perf_counter() - start
            last = [replace(line, depth=depth, nodes=nodes, seconds=seconds) for line in lines]
            self.report_lines(last)
            if soft is not None and seconds >= soft:
                break
        return last

    # -- what a dialect writes ------------------------------------------------------------------
    def read_go(self, arguments: list[str]) -> Go:
        raise NotImplementedError

    def report(self, iteration: Any) -> None:
        """The info line of a finished depth."""

    def report_lines(self, lines: list[Any]) -> None:
        """The info lines of a finished MultiPV depth, best first (a dialect without
        MultiPV reports the best)."""
        self.report(lines[0])

    def finished(self, found: Any) -> None:
        """Lines after the search, before the answer."""

    def best_line(self, move: int, ponder: int | None, score: int | None, go: Go) -> str:
        text = f"bestmove {self.variant.move_text(move)}"
        return text if ponder is None else f"{text} ponder {self.variant.move_text(ponder)}"

    def no_move_line(self) -> str:
        raise NotImplementedError


def ignore(_iteration: Any) -> None:
    """A report nobody reads (the lines of a MultiPV depth are reported together)."""


# -- running a dialect as a program ---------------------------------------------------------------
def run(protocol: EngineProtocol, input_stream: TextIO) -> int:
    """Read commands until ``quit`` or the end of input; returns the exit status."""
    try:
        for line in input_stream:
            if not protocol.handle(line):
                break
    finally:
        protocol.close()
    return 0


def line_writer(output: TextIO) -> Callable[[str], None]:
    def write(line: str) -> None:
        output.write(line + "\n")
        output.flush()

    return write


def add_hash_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hash", type=int, default=DEFAULT_HASH_MB, metavar="MB",
                        help=f"transposition table size (1 to {MAX_HASH_MB} MB)")


def run_on_stdio(args: argparse.Namespace,
                 make: Callable[[Callable[[str], None], argparse.Namespace], EngineProtocol]
                 ) -> int:
    """A dialect on stdin/stdout (``--hash`` checked first; bad bytes read as U+FFFD)."""
    if not 1 <= args.hash <= MAX_HASH_MB:
        raise GameOptionError(f"--hash is 1 to {MAX_HASH_MB} MB, not {args.hash}")
    sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
    return run(make(line_writer(sys.stdout), args), sys.stdin)


def script_main(prog: str, description: str,
                add_arguments: Callable[[argparse.ArgumentParser], None],
                run_engine: Callable[[argparse.Namespace], int], argv: list[str] | None) -> int:
    """A script's ``main``: one line on stderr and status 2 for bad arguments."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    add_arguments(parser)
    try:
        return run_engine(parser.parse_args(argv))
    except YipanError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
