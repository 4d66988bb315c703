"""The UCCI protocol on stdin/stdout, for yipan's xiangqi engine (``yipan ucci``,
``ucci-yipan``): the protocol of ElephantEye and the GUIs built on it (XiangQi Wizard,
BHGUI). A GUI sends one command a line::

    ucci                         -> id name/author, the options, ucciok
    isready                      -> readyok (once the kernels are loaded)
    setoption NAME [VALUE]       hashsize (MB), usemillisec (true/false), newgame (clear
                                 the table), ponder, batch, debug...: others are accepted
                                 and ignored, as UCCI asks
    position startpos|fen F [moves m1 m2 ...]
    banmoves m1 m2 ...           moves the next search may not play (until the position
                                 changes)
    go [ponder|draw] [depth D|depth infinite|nodes N|time T [movestogo M|increment I]
       [opptime ...]]            -> info lines, then bestmove M [ponder P] [draw]
                                 (nobestmove when there is no legal move)
    ponderhit [draw]             the pondered search goes on under the clock ``go ponder``
                                 gave (its share of the time left), then answers
    stop                         the search ends at once and answers bestmove
    probe F [moves ...]          ignored (no tables)
    quit                         -> bye

Moves are ICCS coordinates in lower case, ranks 0-9 (``h2e2``), FEN as UCI's xiangqi FEN.
Times are seconds, or milliseconds after ``setoption usemillisec true``. ``info depth D
score S pv ...`` per finished depth (S centipawns for the side to move; a mate in n plies is
``30000 - n``), then ``info time T nodes N``. With ``go draw`` (the opponent offers a draw)
the answer carries ``draw`` when the engine's score is below ``-DRAW_ACCEPT``. The
repetition rule (perpetual check loses) is the package's, in ``yipan.games.xiangqi``.

Garbage never ends the loop: an unknown command or a bad FEN, move or number is answered
with one ``info string`` line saying why, and the engine goes on.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from ..core import GameOptionError, IllegalMoveError, InvalidMoveError, Limit, YipanError
from ..core.text import quote, read_int
from .uci import DEFAULT_HASH_MB, MAX_HASH_MB, MAX_LINE, MAX_MILLISECONDS, NAME, UciEngine

AUTHOR = "the yipan authors"
DRAW_ACCEPT = 100  # centipawns: a draw offered is taken when the engine is this far behind
GO_NUMBERS = ("depth", "nodes", "time", "movestogo", "increment", "opptime",
              "oppmovestogo", "oppincrement")


class UcciEngine(UciEngine):
    """The protocol's state between lines (``handle(line)`` as in ``UciEngine``)."""

    def __init__(self, write: Callable[[str], None], *,
                 hash_mb: int = DEFAULT_HASH_MB) -> None:
        super().__init__(write, hash_mb=hash_mb, variant="xiangqi", coordinates="iccs")
        self.milliseconds = False
        self.banned: tuple[int, ...] = ()
        self.pondering: dict[str, int] | None = None  # the clock of a ``go ponder``

    def handle(self, line: str) -> bool:
        words = line[:MAX_LINE].split()
        if not words:
            return True
        command, arguments = words[0], words[1:]
        handler = UCCI_COMMANDS.get(command)
        if handler is None:
            self.info_string(f"unknown command {quote(command, 20)}")
            return True
        try:
            return handler(self, arguments) is not False
        except (YipanError, ValueError) as error:
            self.info_string(f"{command}: {error}")
            return True

    # -- commands -------------------------------------------------------------------------------
    def ucci(self, _arguments: list[str]) -> None:
        self.say(f"id name {NAME}")
        self.say("id copyright the yipan authors, MIT licence")
        self.say(f"id author {AUTHOR}")
        self.say("id user unknown")
        self.say("option usemillisec type check default false")
        self.say(f"option hashsize type spin min 1 max {MAX_HASH_MB} default {DEFAULT_HASH_MB}")
        self.say("option ponder type check default false")
        self.say("option newgame type button")
        self.say("ucciok")

    def setoption_ucci(self, arguments: list[str]) -> None:
        if not arguments:
            raise ValueError("expected: setoption NAME [VALUE]")
        name = arguments[0].lower()
        value = " ".join(arguments[1:]).strip().lower()
        if name == "hashsize":
            megabytes = self._spin(value, "hashsize", 1, MAX_HASH_MB)
            self.stop_search()
            self.ready.wait()
            self.engine.resize(megabytes)
        elif name == "usemillisec":
            if value not in ("true", "false", "on", "off"):
                raise ValueError("usemillisec is true or false")
            self.milliseconds = value in ("true", "on")
        elif name == "newgame":
            self.ucinewgame([])
            self.banned = ()
        # batch, debug, ponder, threads, usebook, bookfiles, randomness...: ignored

    def position(self, arguments: list[str]) -> None:
        super().position(arguments)
        self.banned = ()

    def banmoves(self, arguments: list[str]) -> None:
        banned = []
        for text in arguments:
            try:
                move = self.read_move(self.game, self.state, text)
            except (InvalidMoveError, IllegalMoveError) as error:
                self.info_string(f"banmoves: {error}")
                continue
            if move in self.game.legal_moves(self.state):
                banned.append(move)
        self.banned = tuple(banned)

    def go_ucci(self, arguments: list[str]) -> None:
        self.stop_search()
        numbers, infinite, draw_offered = self._read_ucci_go(arguments)
        self.pondering = numbers if "ponder" in (word.lower() for word in arguments) else None
        self.ready.wait()
        self.stop_event = threading.Event()
        self.search_thread = threading.Thread(
            target=self._search_ucci,
            args=(self.state, numbers, infinite, draw_offered, self.stop_event), daemon=True)
        self.search_thread.start()

    def _read_ucci_go(self, arguments: list[str]) -> tuple[dict[str, int], bool, bool]:
        """The numbers of a ``go`` (times in milliseconds), whether it searches until
        ``stop`` (ponder, depth infinite) and whether a draw is offered."""
        numbers: dict[str, int] = {}
        infinite = draw = False
        index = 0
        while index < len(arguments):
            word = arguments[index].lower()
            if word == "ponder":
                infinite = True
            elif word == "draw":
                draw = True
            elif word == "depth" and index + 1 < len(arguments) \
                    and arguments[index + 1].lower() == "infinite":
                infinite = True
                index += 1
            elif word in GO_NUMBERS and index + 1 < len(arguments):
                index += 1
                value = read_int(arguments[index], word, max_digits=12)
                if word in ("time", "increment", "opptime", "oppincrement") \
                        and not self.milliseconds:
                    value *= 1000
                numbers[word] = max(0, min(value, MAX_MILLISECONDS))
            index += 1
        return numbers, infinite, draw

    def ponderhit(self, _arguments: list[str]) -> None:
        """The opponent played the move pondered on: the search goes on for this move's
        share of the clock ``go ponder`` gave (without a clock it answers now)."""
        numbers, self.pondering = self.pondering, None
        if numbers is None or self.search_thread is None:
            return
        from ..games.xiangqi.engine import Clock, budget

        if "time" not in numbers:
            self.stop_event.set()
            return
        clock = Clock(time_left=numbers["time"] / 1000,
                      increment=numbers.get("increment", 0) / 1000,
                      moves_to_go=numbers.get("movestogo") or None)
        _, hard = budget(clock, self.overhead_ms / 1000)
        timer = threading.Timer(hard or 0.0, self.stop_event.set)
        timer.daemon = True
        timer.start()

    def quit_ucci(self, _arguments: list[str]) -> bool:
        self.stop_search()
        self.say("bye")
        return False

    # -- searching --------------------------------------------------------------------------------
    def _ucci_limit(self, numbers: dict[str, int], infinite: bool,
                    stop: threading.Event) -> tuple[Limit, float | None]:
        from ..games.xiangqi.engine import Clock, budget

        clock = Clock(time_left=None if "time" not in numbers else numbers["time"] / 1000,
                      increment=numbers.get("increment", 0) / 1000,
                      moves_to_go=numbers.get("movestogo") or None)
        soft, hard = (None, None) if infinite else budget(clock, self.overhead_ms / 1000)
        depth = numbers.get("depth")
        nodes = numbers.get("nodes")
        return Limit(depth=max(1, depth) if depth is not None else None,
                     nodes=max(1, nodes) if nodes is not None else None,
                     time=hard, stop=stop.is_set), soft

    def _search_ucci(self, state: Any, numbers: dict[str, int], infinite: bool,
                     draw_offered: bool, stop: threading.Event) -> None:
        game = self.game
        moves = game.legal_moves(state)
        if not moves:
            if infinite:
                stop.wait()
            self.say("nobestmove")
            return
        best, ponder, score = self.move_text(moves[0]), None, 0
        try:
            limit, soft = self._ucci_limit(numbers, infinite, stop)

            def report(iteration: Any) -> None:
                self.say(f"info depth {iteration.depth} score {iteration.score} pv "
                         + " ".join(self.move_text(m) for m in iteration.pv))

            found = self.engine.think(state, limit, soft_time=soft, on_iteration=report,
                                      banned=self.banned)
            if found is not None:
                best, score = self.move_text(found.move), found.score
                if len(found.pv) > 1:
                    ponder = self.move_text(found.pv[1])
                self.say(f"info time {int(found.seconds * 1000)} nodes {found.nodes}")
        except Exception as error:  # noqa: BLE001 - a GUI must get its bestmove whatever
            self.info_string(f"search failed: {type(error).__name__}: {error}")
        if infinite:
            stop.wait()
        answer = f"bestmove {best}" + (f" ponder {ponder}" if ponder else "")
        if draw_offered and score < -DRAW_ACCEPT:
            answer += " draw"
        self.say(answer)


UCCI_COMMANDS: dict[str, Callable[[UcciEngine, list[str]], object]] = {
    "ucci": UcciEngine.ucci, "isready": UcciEngine.isready,
    "setoption": UcciEngine.setoption_ucci, "position": UcciEngine.position,
    "banmoves": UcciEngine.banmoves, "go": UcciEngine.go_ucci, "stop": UcciEngine.stop,
    "ponderhit": UcciEngine.ponderhit, "quit": UcciEngine.quit_ucci,
    "probe": lambda engine, arguments: None,
}


def run(input_stream: TextIO, output: TextIO, *, hash_mb: int = DEFAULT_HASH_MB) -> int:
    """Read commands until ``quit`` or the end of input; returns the exit status."""
    def write(line: str) -> None:
        output.write(line + "\n")
        output.flush()

    engine = UcciEngine(write, hash_mb=hash_mb)
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


def run_engine(args: argparse.Namespace) -> int:
    if not 1 <= args.hash <= MAX_HASH_MB:
        raise GameOptionError(f"--hash is 1 to {MAX_HASH_MB} MB, not {args.hash}")
    sys.stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
    return run(sys.stdin, sys.stdout, hash_mb=args.hash)


def main(argv: list[str] | None = None) -> int:
    """The ``ucci-yipan`` script."""
    parser = argparse.ArgumentParser(prog="ucci-yipan",
                                     description="yipan's xiangqi engine, speaking UCCI")
    add_arguments(parser)
    try:
        return run_engine(parser.parse_args(argv))
    except YipanError as error:
        print(f"ucci-yipan: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
