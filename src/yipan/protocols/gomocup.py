"""The Gomocup (Piskvork) brain protocol on stdin/stdout, for yipan's Gomoku engine.

Commands from the manager, one a line: ``START size``, ``RECTSTART w,h`` (answered ERROR:
square boards only), ``RESTART``, ``BEGIN``, ``TURN x,y``, ``BOARD`` then ``x,y,field``
lines and ``DONE`` (field 1 own stone, 2 opponent's, 3 a continuous game's winning-line stone,
taken as a blocking stone), ``INFO key value`` (timeout_turn, timeout_match, time_left,
max_memory, game_type, rule, folder), ``TAKEBACK x,y``, ``PLAY x,y``, ``ABOUT``, ``END``,
and the swap2 opening's ``SWAP2BOARD`` (a line ``x,y`` a stone in playing order, black first,
then ``DONE``): on an empty board the brain answers three stones ``x,y x,y x,y``; on three
or five stones ``SWAP`` (it takes black) or white's move ``x,y`` (it plays white).
Answers: a move ``x,y`` (0-based, x = column, y = row from the top), ``OK``, ``ERROR reason``,
``UNKNOWN reason``, ``MESSAGE text``, ``DEBUG text``.

A malformed line never stops the brain: it answers ``ERROR`` with the reason and reads on
(a command word in capitals that it does not implement gets ``UNKNOWN``, as the protocol
asks).
Rules (``INFO rule``, a sum of bits): 4 renju; 8 caro (five or more, not blocked at both
ends), with 1 caro-exact (exactly five, not blocked at both ends); else 1 standard (exactly
five) and 0 freestyle. Bit 2 (a continuous game) changes nothing here.

Time: each move gets a share of what is left of the match clock, capped below the per-turn
timeout. Memory: the search tables take at most a quarter of ``max_memory``.
"""

from __future__ import annotations

import argparse
import re
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, TextIO

from ..core.text import quote, read_int
from ..core.version import VERSION
from ..games.gomoku.rules import MAX_SIZE, MIN_SIZE
from ..prepare import announced

if TYPE_CHECKING:  # the engine loads its kernels: imported when a board is made
    from ..games.gomoku.engine import Engine

ABOUT = f'name="yipan", version="{VERSION}", author="yipan", country="-"'
DEFAULT_TURN_SECONDS = 5.0
SAFETY_SECONDS = 0.15  # kept back for pipes and the manager's clock (a quarter of short turns)
RULE_EXACT_FIVE, RULE_CONTINUOUS, RULE_RENJU, RULE_CARO = 1, 2, 4, 8


class ProtocolError(ValueError):
    """A line the brain cannot act on; answered ``ERROR <message>``."""


MAX_ANSWER = 200  # characters: an answer never echoes a whole hostile line back


def _short(answer: str) -> str:
    """An answer as one line of at most MAX_ANSWER characters."""
    text = " ".join(answer.split())
    return text if len(text) <= MAX_ANSWER else text[:MAX_ANSWER] + "…"


class Brain:
    """The brain's state between commands; ``handle(line)`` returns the lines to answer."""

    def __init__(self, *, max_depth: int = 64, threats: bool = True) -> None:
        self.max_depth = max_depth  # a weaker brain for matches (the benchmark's)
        self.threats = threats
        self.engine: Engine | None = None
        self.size = 0
        self.rule = "freestyle"
        self.colour = 0  # the brain's colour on the engine's board (0 moves first)
        self.timeout_turn = DEFAULT_TURN_SECONDS
        self.timeout_match: float | None = None
        self.time_left: float | None = None
        self.max_memory = 0
        self.board_lines: list[tuple[int, int, int]] | None = None
        self.swap2 = False  # the board being read is a SWAP2BOARD's
        self.ended = False
        self.say: Callable[[str], None] | None = None  # a line out at once (serve sets it)

    # -- the command loop ---------------------------------------------------------------------
    def handle(self, line: str) -> list[str]:
        """Answer one line (never raises: a bad line is answered ERROR, in one short line)."""
        return [_short(answer) for answer in self._answer(line)]

    def _answer(self, line: str) -> list[str]:
        text = line.strip()
        if not text:
            return []
        try:
            if self.board_lines is not None:
                return self._board_line(text)
            command, _, rest = text.partition(" ")
            handler = COMMANDS.get(command.upper())
            if handler is None:
                if re.fullmatch(r"[A-Z][A-Z0-9_]*", command):  # a command it lacks
                    return [f"UNKNOWN command {command!r}"]
                raise ProtocolError(f"cannot read {quote(text)}: not a command")
            return handler(self, rest.strip())
        except ProtocolError as error:
            return [f"ERROR {error}"]
        except Exception as error:  # noqa: BLE001 - the brain must outlive any bad line
            return [f"ERROR internal error on {quote(text)}: {type(error).__name__}: {error}"]

    # -- commands -------------------------------------------------------------------------------
    def start(self, rest: str) -> list[str]:
        size = _integer(rest, "START needs a board size")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ProtocolError(f"unsupported size {size} (square boards {MIN_SIZE}..{MAX_SIZE})")
        self.size = size
        self._new_engine()
        return ["OK"]

    def rectstart(self, rest: str) -> list[str]:
        raise ProtocolError("rectangular boards are not supported")

    def restart(self, rest: str) -> list[str]:
        self._need_board()
        self._new_engine()
        return ["OK"]

    def begin(self, rest: str) -> list[str]:
        engine = self._need_board()
        if engine.moves:
            raise ProtocolError("BEGIN on a board that is not empty")
        self.colour = 0
        return [self._think()]

    def turn(self, rest: str) -> list[str]:
        engine = self._need_board()
        x, y = self._point(rest)
        point = y * self.size + x
        if not engine.is_empty(point):
            raise ProtocolError(f"{x},{y} is occupied")
        if not engine.moves:
            self.colour = 1
        engine.play(point, 1 - self.colour)
        return [self._think()]

    def board(self, rest: str) -> list[str]:
        self._need_board()
        self.board_lines = []
        return []

    def swap2board(self, rest: str) -> list[str]:
        self._need_board()
        self.board_lines = []
        self.swap2 = True
        return []

    def _board_line(self, text: str) -> list[str]:
        if text.upper() == "DONE":
            stones, self.board_lines = self.board_lines or [], None
            if self.swap2:
                self.swap2 = False
                return self._swap2(stones)
            return self._load_board(stones)
        if self.swap2:  # the swap2 extension's stones: x,y in playing order (black first)
            match = re.fullmatch(r"(-?[0-9]+)\s*,\s*(-?[0-9]+)(?:\s*,\s*(-?[0-9]+))?", text)
            if not match:
                return [f"ERROR cannot read swap2 board line {quote(text)} (x,y or DONE)"]
            x, y = (read_int(g, "a board number", max_digits=4, error=ProtocolError)
                    for g in match.groups()[:2])
            if not (0 <= x < self.size and 0 <= y < self.size):
                return [f"ERROR swap2 board line {quote(text)} is off the board"]
            assert self.board_lines is not None  # (in board mode)
            self.board_lines.append((x, y, 1 + len(self.board_lines) % 2))
            return []
        match = re.fullmatch(r"(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)", text)
        if not match:
            return [f"ERROR cannot read board line {quote(text)} (x,y,field or DONE)"]
        x, y, field = (read_int(g, "a board number", max_digits=4, error=ProtocolError)
                       for g in match.groups())
        if not (0 <= x < self.size and 0 <= y < self.size) or field not in (1, 2, 3):
            return [f"ERROR board line {quote(text)} is off the board or has no field 1, 2 "
                    "or 3"]
        assert self.board_lines is not None  # (in board mode)
        self.board_lines.append((x, y, field))
        return []

    def _load_board(self, stones: list[tuple[int, int, int]]) -> list[str]:
        engine = self._need_board()
        own = sum(1 for _, _, field in stones if field == 1)
        other = len(stones) - own
        self.colour = 1 if other == own + 1 else 0
        engine.reset()
        notes = []
        for x, y, field in stones:
            point = y * self.size + x
            if not engine.is_empty(point):
                notes.append(f"MESSAGE {x},{y} is given twice; the second is ignored")
                continue
            engine.play(point, self.colour if field == 1 else 1 - self.colour)
        return [*notes, self._think()]

    def _swap2(self, stones: list[tuple[int, int, int]]) -> list[str]:
        """A swap2 opening step, by the number of stones given: none, place three (the
        most balanced of a few shapes by a short search); three, take black (SWAP) if
        white's side is worse, else play white's move; five, take white by playing its move
        if white's side is not worse, else SWAP. (Placing two more stones at three, which
        the rule also allows, is not offered.)"""
        engine = self._need_board()
        if len(stones) not in (0, 3, 5):
            raise ProtocolError(f"a swap2 board has 0, 3 or 5 stones, not {len(stones)}")
        if len({(x, y) for x, y, _ in stones}) < len(stones):
            raise ProtocolError("a swap2 board gives a point twice")
        colours = [index % 2 for index in range(len(stones))]  # black, white, black, ...
        engine.reset()  # (checked first: a refused board leaves the brain's board alone)
        for (x, y, _), colour in zip(stones, colours, strict=True):
            engine.play(y * self.size + x, colour)
        if not stones:
            return [self._swap2_opening()]
        engine.side = 1  # white to move after three stones or five
        seconds = self.move_seconds()
        decision = engine.think(seconds=seconds, max_depth=self.max_depth, threats=self.threats)
        white_value = decision.result.value
        take_black = white_value < 0
        if self.say is not None:
            self.say(f"MESSAGE swap2: white's value {white_value:+.0f} after "
                     f"{len(stones)} stones: {'SWAP' if take_black else 'white'}")
        engine.side = None  # (black, white, ... by the count again)
        if take_black:
            self.colour = 0
            return ["SWAP"]
        self.colour = 1
        engine.play(decision.move, 1)
        return [f"{decision.move % self.size},{decision.move // self.size}"]

    def _swap2_opening(self) -> str:
        """Three stones (black, white, black) near the centre: of a few shapes, the one whose
        value for white (to move) a short search finds nearest to even."""
        engine = self._need_board()
        c = self.size // 2
        shapes = [((0, 0), (1, 0), (0, 2)), ((0, 0), (1, 1), (2, 0)), ((0, 0), (0, 1), (2, 2)),
                  ((0, 0), (1, -1), (1, 2)), ((0, 0), (2, 0), (1, 2)), ((0, 0), (1, 1), (-1, 2))]
        share = self.move_seconds() / len(shapes)
        best, best_gap = shapes[0], float("inf")
        for shape in shapes:
            engine.reset()
            for index, (dx, dy) in enumerate(shape):
                engine.play((c + dy) * self.size + c + dx, index % 2)
            engine.side = 1
            value = engine.think(seconds=share, max_depth=self.max_depth,
                                 threats=self.threats).result.value
            if abs(value) < best_gap:
                best, best_gap = shape, abs(value)
        engine.reset()
        for index, (dx, dy) in enumerate(best):
            engine.play((c + dy) * self.size + c + dx, index % 2)
        engine.side = None
        self.colour = 0  # (until the opponent chooses)
        return " ".join(f"{c + dx},{c + dy}" for dx, dy in best)

    def info(self, rest: str) -> list[str]:
        key, _, value = rest.partition(" ")
        key = key.lower()
        value = value.strip()
        if key == "timeout_turn":
            milliseconds = _integer(value, "timeout_turn needs milliseconds")
            self.timeout_turn = milliseconds / 1000 if milliseconds > 0 else 0.05
        elif key == "timeout_match":
            milliseconds = _integer(value, "timeout_match needs milliseconds")
            self.timeout_match = milliseconds / 1000 if milliseconds > 0 else None
        elif key == "time_left":
            self.time_left = _integer(value, "time_left needs milliseconds") / 1000
        elif key == "max_memory":
            self.max_memory = _integer(value, "max_memory needs bytes")
            if self.engine is not None and not self.engine.moves:
                self._new_engine()
        elif key == "rule":
            self.rule = rule_of(_integer(value, "rule needs a number"))
            if self.engine is not None and self.engine.game.rule != self.rule:
                self._new_engine(keep_stones=True)
        # game_type, folder, evaluate and keys unknown to this brain need no answer
        return []

    def takeback(self, rest: str) -> list[str]:
        engine = self._need_board()
        x, y = self._point(rest)
        point = y * self.size + x
        if engine.is_empty(point):
            raise ProtocolError(f"TAKEBACK {x},{y}: there is no stone there")
        engine.take_back(point)
        return ["OK"]

    def play(self, rest: str) -> list[str]:
        engine = self._need_board()
        x, y = self._point(rest)
        point = y * self.size + x
        if not engine.is_empty(point):
            raise ProtocolError(f"{x},{y} is occupied")
        engine.play(point, self.colour)
        return [f"{x},{y}"]

    def about(self, rest: str) -> list[str]:
        return [ABOUT]

    def end(self, rest: str) -> list[str]:
        self.ended = True
        return []

    # -- helpers ------------------------------------------------------------------------------
    def _new_engine(self, keep_stones: bool = False) -> None:
        from ..games.gomoku.engine import Engine

        stones: list[tuple[int, int]] = []
        if keep_stones and self.engine is not None:
            engine = self.engine
            stones = [(p, int(engine.board.cells[engine.cell(p)]) - 1) for p in engine.moves]
        memory = 64 << 20 if self.max_memory <= 0 else max(1 << 16, self.max_memory // 4)
        made: list[Engine] = []

        def make() -> None:
            made.append(Engine.prepared(self.size, self.rule, memory_bytes=memory))

        # every kernel loaded now, not on the clock of the first move; on a machine where
        # numba has not compiled them yet, the manager hears why START takes a while
        say = self.say
        announced(make, "Gomoku", None if say is None else lambda line: say(f"MESSAGE {line}"))
        engine = made[0]
        for point, colour in stones:
            engine.play(point, colour)
        self.engine = engine

    def _need_board(self) -> Engine:
        if self.engine is None:
            raise ProtocolError("no board yet: send START first")
        return self.engine

    def _point(self, rest: str) -> tuple[int, int]:
        match = re.fullmatch(r"(-?[0-9]+)\s*,\s*(-?[0-9]+)", rest)
        if not match:
            raise ProtocolError(f"cannot read coordinates {quote(rest)} (expected x,y)")
        x, y = (read_int(match.group(i), "a coordinate", max_digits=4, error=ProtocolError)
                for i in (1, 2))
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise ProtocolError(f"{x},{y} is off the {self.size}x{self.size} board")
        return x, y

    def move_seconds(self) -> float:
        """This move's time: under the turn timeout, and a share of the match clock."""
        budget = self.timeout_turn - min(SAFETY_SECONDS, self.timeout_turn / 4)
        left = self.time_left
        if left is None and self.timeout_match is not None:
            left = self.timeout_match
        if left is not None:
            empty = self.size * self.size - len(self._need_board().moves)
            moves_to_come = max(8, min(30, empty // 4))
            share = left / moves_to_come
            budget = min(budget, share - min(SAFETY_SECONDS, share / 4))
        return max(0.01, budget * 0.9)

    def _think(self) -> str:
        engine = self._need_board()
        if len(engine.moves) == self.size * self.size:
            raise ProtocolError("the board is full")
        engine.side = self.colour
        decision = engine.think(seconds=self.move_seconds(), max_depth=self.max_depth,
                                threats=self.threats)
        engine.play(decision.move, self.colour)
        x, y = decision.move % self.size, decision.move // self.size
        if self.say is not None:  # what managers show beside the move (and referees read)
            stats = decision.result.stats
            speed = f" | speed {stats.nodes_per_second:.0f}" \
                if decision.reason == "search" else ""  # (no search: no speed to report)
            self.say(f"MESSAGE {decision.reason} | depth {decision.result.depth} | "
                     f"nodes {stats.nodes}{speed} | time {stats.elapsed * 1000:.0f} ms")
        return f"{x},{y}"


COMMANDS: dict[str, Callable[[Brain, str], list[str]]] = {
    "START": Brain.start, "RECTSTART": Brain.rectstart, "RESTART": Brain.restart,
    "BEGIN": Brain.begin, "TURN": Brain.turn, "BOARD": Brain.board, "INFO": Brain.info,
    "TAKEBACK": Brain.takeback, "PLAY": Brain.play, "ABOUT": Brain.about, "END": Brain.end,
    "SWAP2BOARD": Brain.swap2board,
}


def rule_of(bits: int) -> str:
    """The Game's rule for the bits of ``INFO rule``."""
    if bits < 0:
        raise ProtocolError(f"rule {bits} is not a sum of rule bits")
    if bits & RULE_RENJU:
        if bits & RULE_CARO:
            raise ProtocolError("rule bits 4 (renju) and 8 (caro) exclude each other")
        return "renju"
    if bits & RULE_CARO:
        return "caro-exact" if bits & RULE_EXACT_FIVE else "caro"
    return "standard" if bits & RULE_EXACT_FIVE else "freestyle"


def _integer(text: str, message: str) -> int:
    try:
        return read_int(text, "the number")
    except ValueError:
        raise ProtocolError(f"{message}, got {quote(text.strip())}") from None


def serve(lines: Iterable[str], out: TextIO, brain: Brain | None = None) -> int:
    """Run the brain over ``lines`` until END or the end of input; returns 0."""
    brain = brain or Brain()
    lock = threading.Lock()

    def say(text: str) -> None:  # from the thread that announces a slow START
        with lock:
            out.write(_short(text) + "\n")
            out.flush()

    brain.say = say
    for line in lines:
        answers = brain.handle(line)
        with lock:
            for answer in answers:
                out.write(answer + "\n")
            out.flush()
        if brain.ended:
            break
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-depth", type=int, default=64,
                        help="search at most this many plies (a weaker brain)")
    parser.add_argument("--no-threats", action="store_true",
                        help="no VCF/VCT search before alpha-beta (a weaker brain)")


def main(argv: Sequence[str] | None = None) -> int:
    """``pbrain-yipan``: the brain on stdin/stdout (options only for weaker brains)."""
    parser = argparse.ArgumentParser(prog="pbrain-yipan", description=__doc__.split("\n")[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run_brain(args)


def run_brain(args: argparse.Namespace) -> int:
    brain = Brain(max_depth=max(1, args.max_depth), threats=not args.no_threats)
    try:
        return serve(sys.stdin, sys.stdout, brain)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
