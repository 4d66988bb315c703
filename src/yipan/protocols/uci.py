"""The UCI protocol on stdin/stdout, for yipan's chess engine (``yipan uci``, ``uci-yipan``)
and its xiangqi engine (``yipan uci --variant xiangqi``, or ``setoption name UCI_Variant
value xiangqi`` as Fairy-Stockfish takes it): the UCI dialect of the loop in
``uci_family``.

A GUI (or cutechess, lichess-bot, python-chess) sends one command a line::

    uci                          -> id name/author, the options, uciok
    isready                      -> readyok (once the kernels are loaded)
    debug on|off                 in debug mode, an answer on the clock is preceded by
                                 ``info string clock: U ms used of A ms allowed``: the time
                                 from reading ``position`` to the answer, by the engine's
                                 own measure, and the time left less Move Overhead
    ucinewgame                   a new game: the table and the move history are cleared
    setoption name N [value V]   Hash (MB), Threads (1), Move Overhead (ms), MultiPV (lines
                                 reported, each with its own score and pv: the n-th is the
                                 best search with the first n - 1 lines' moves banned at the
                                 root), Ponder (go ponder is always understood: the
                                 option only says the GUI may send it),
                                 UCI_LimitStrength and UCI_Elo (a node budget and a
                                 weighted random choice among four lines: strength.py; the
                                 Elo scale is Stockfish 15.1's UCI_Elo, measured, and its
                                 range is the measured one), Seed (of that choice; 0:
                                 none), UCI_Variant
                                 (chess or xiangqi), and each variant's own (uci_variants):
                                 chess: OwnBook, BookFile (a Polyglot .bin, read through
                                 python-chess), TablebasePath (yipan's endgame tables;
                                 default: their usual folder), SyzygyPath (a folder of
                                 Syzygy tables, probed through python-chess at the root);
                                 xiangqi: UCI_Coordinates (fairy, ranks 1-10 as
                                 Fairy-Stockfish writes them, h3e3; or iccs, ranks 0-9 as
                                 Pikafish writes them, h2e2). A variant's option set while
                                 another is played is kept for when it is played.
    position startpos|fen F [moves m1 m2 ...]
    go [wtime T btime T winc I binc I movestogo N movetime T depth D nodes N mate M
        infinite ponder searchmoves m1 m2 ...]
                                 -> info lines, then bestmove (after "stop" when infinite)
    stop                         the search ends at once and answers bestmove
    ponderhit                    a ``go ponder`` goes on under its clock
    quit

``info`` lines give ``depth seldepth [multipv k] score cp|mate nodes nps [tbhits] hashfull time
pv`` per finished depth (with MultiPV N > 1, N lines a depth, best first). ``bestmove 0000``
only where the side to move has no move at all (mated, stalemated); a position drawn by rule
(fifty moves, repetition, bare kings) still gets a move. The clock (a move's time counted
from its ``position`` line, Move Overhead, the reserve) is the loop's (``uci_family``).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from ..core import YipanError
from ..core.text import quote
from . import strength
from .uci_family import (
    AUTHOR,
    DEFAULT_HASH_MB,
    DEFAULT_OVERHEAD_MS,
    MAX_HASH_MB,
    MAX_MULTIPV,
    NAME,
    EngineProtocol,
    Go,
    add_hash_argument,
    go_number,
    run_on_stdio,
    script_main,
    spin,
)
from .uci_variants import VARIANTS, Option, Variant

MAX_SEED = 2**31 - 1

# options of the protocol itself; each variant adds its own
OPTIONS = (
    Option("Hash", "spin", str(DEFAULT_HASH_MB), 1, MAX_HASH_MB),
    Option("Threads", "spin", "1", 1, 1),
    Option("Move Overhead", "spin", str(DEFAULT_OVERHEAD_MS), 0, 5000),
    Option("MultiPV", "spin", "1", 1, MAX_MULTIPV),
    # the GUI's word that it will send ``go ponder``: nothing to change here (the search
    # thinks on the opponent's time only when asked to)
    Option("Ponder", "check", "false"),
    Option("UCI_LimitStrength", "check", "false"),
    Option("UCI_Elo", "spin", str(strength.MAX_ELO), strength.MIN_ELO, strength.MAX_ELO),
    # the random source of a weakened engine's choices (0: none; games then differ)
    Option("Seed", "spin", "0", 0, MAX_SEED),
)
GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes",
              "mate")
GO_WORDS = (*GO_NUMBERS, "infinite", "ponder", "searchmoves")


class UciEngine(EngineProtocol):
    """The UCI dialect (``handle(line)`` as in ``EngineProtocol``)."""

    commands = {**EngineProtocol.commands, "uci": "uci", "ucinewgame": "ucinewgame",
                "setoption": "setoption", "debug": "debug_mode", "register": "ignore"}

    def __init__(self, write: Callable[[str], None], *, hash_mb: int = DEFAULT_HASH_MB,
                 book: str = "", rng: random.Random | None = None, variant: str = "chess",
                 coordinates: str = "fairy") -> None:
        # the variants' option values (lower-case names), kept across UCI_Variant
        self.settings: dict[str, str] = {"uci_coordinates": coordinates}
        if book:
            self.settings.update(bookfile=book, ownbook="true")
        super().__init__(write, VARIANTS[variant](hash_mb), hash_mb=hash_mb, rng=rng)
        self.limit_strength = False
        self.elo_asked = strength.MAX_ELO
        self._apply_settings(self.variant)

    def _apply_settings(self, variant: Variant) -> Variant:
        for option in variant.options:
            key = option.name.lower()
            if key in self.settings:
                try:
                    variant.set_option(key, self.settings[key], self.info_string)
                except (YipanError, ValueError) as error:
                    self.info_string(f"{option.name}: {error}")
        return variant

    # -- commands -------------------------------------------------------------------------------
    def uci(self, _arguments: list[str]) -> None:
        self.say(f"id name {NAME}")
        self.say(f"id author {AUTHOR}")
        variants = tuple(VARIANTS)
        for option in (*OPTIONS, Option("UCI_Variant", "combo", self.variant.name,
                                        choices=variants)):
            self.say(option.line())
        said = set()
        # the variant played first: EvalFile, one option for every variant, shows its default
        for kind in (type(self.variant), *VARIANTS.values()):
            for option in kind.options:
                if option.name not in said:
                    said.add(option.name)
                    self.say(option.line())
        self.say("uciok")

    def ucinewgame(self, _arguments: list[str]) -> None:
        self.new_game()

    def ignore(self, _arguments: list[str]) -> None:
        """register: accepted and ignored (nothing to register)."""

    def debug_mode(self, arguments: list[str]) -> None:
        """``debug on|off``: in debug mode each answer on the clock is preceded by an info
        string of the time it took, by the engine's own measure, and the time allowed."""
        if arguments not in (["on"], ["off"]):
            raise ValueError("expected: debug on|off")
        self.debug = arguments == ["on"]

    def setoption(self, arguments: list[str]) -> None:
        if not arguments or arguments[0] != "name":
            raise ValueError("expected: setoption name NAME [value VALUE]")
        words = arguments[1:]  # "value" may end the line: an empty string (EvalFile)
        cut = words.index("value") if "value" in words else len(words)
        name, value = " ".join(words[:cut]).lower(), " ".join(words[cut + 1:])
        if name == "hash":
            self.resize(spin(value, "Hash", 1, MAX_HASH_MB))
        elif name == "threads":
            spin(value, "Threads", 1, 1)
        elif name == "move overhead":
            self.overhead_ms = spin(value, "Move Overhead", 0, 5000)
        elif name == "ponder":
            check(value, "Ponder")
        elif name == "uci_limitstrength":
            self.limit_strength = check(value, "UCI_LimitStrength")
            self.elo = self.elo_asked if self.limit_strength else None
        elif name == "uci_elo":
            self.elo_asked = spin(value, "UCI_Elo", strength.MIN_ELO, strength.MAX_ELO)
            self.elo = self.elo_asked if self.limit_strength else None
        elif name == "seed":
            self.seed = spin(value, "Seed", 0, MAX_SEED)
            self.rng = random.Random(self.seed) if self.seed else random.Random()
        elif name == "multipv":
            self.multipv = spin(value, "MultiPV", 1, MAX_MULTIPV)
        elif name == "uci_variant":
            if value.lower() not in VARIANTS:
                raise ValueError(f"UCI_Variant is one of {', '.join(VARIANTS)}")
            if value.lower() != self.variant.name:
                self.switch(self._apply_settings(VARIANTS[value.lower()](self.hash_mb)))
        elif name in {option.name.lower() for option in self.variant.options}:
            self._settle()
            self.variant.set_option(name, value, self.info_string)
            self.settings[name] = value
        elif any(name == option.name.lower() for kind in VARIANTS.values()
                 for option in kind.options):
            self.settings[name] = value
            self.info_string(f"{name}: kept for when its variant is played")
        else:
            raise ValueError(f"no option {quote(name, 30)}")

    def read_go(self, arguments: list[str]) -> Go:
        numbers: dict[str, int] = {}
        flags: set[str] = set()
        searchmoves: list[str] = []
        index = 0
        while index < len(arguments):
            word = arguments[index]
            if word in ("infinite", "ponder"):
                flags.add(word)
            elif word in GO_NUMBERS and index + 1 < len(arguments):
                index += 1
                numbers[word] = go_number(arguments[index], word)
            elif word == "searchmoves":
                while index + 1 < len(arguments) and arguments[index + 1] not in GO_WORDS:
                    index += 1
                    searchmoves.append(arguments[index])
            index += 1
        return Go(time_left=(numbers.get("wtime"), numbers.get("btime")),
                  increment=(numbers.get("winc", 0), numbers.get("binc", 0)),
                  moves_to_go=numbers.get("movestogo"), move_time=numbers.get("movetime"),
                  depth=numbers.get("depth"), nodes=numbers.get("nodes"),
                  mate=numbers.get("mate"), infinite="infinite" in flags,
                  ponder="ponder" in flags, searchmoves=tuple(searchmoves))

    # -- what it writes -------------------------------------------------------------------------
    def report(self, iteration: Any, rank: int = 0) -> None:
        """An info line (``rank``: its ``multipv`` number, 0 for none)."""
        hits = self.variant.table_hits(iteration)
        self.say(
            f"info depth {iteration.depth} seldepth {iteration.seldepth} "
            + ("" if rank == 0 else f"multipv {rank} ")
            + f"score {self.variant.score_text(iteration.score)} nodes {iteration.nodes} "
            f"nps {iteration.nodes_per_second} "
            + ("" if hits is None else f"tbhits {hits} ")
            + f"hashfull {self.variant.hashfull()} time {int(iteration.seconds * 1000)} "
            f"pv {' '.join(self.variant.move_text(m) for m in iteration.pv)}")

    def report_lines(self, lines: list[Any]) -> None:
        for rank, line in enumerate(lines, 1):
            self.report(line, rank)

    def no_move_line(self) -> str:
        return "bestmove 0000"


def check(value: str, name: str) -> bool:
    """A check option's value, or a ValueError saying why not."""
    if value.lower() not in ("true", "false"):
        raise ValueError(f"{name} is true or false")
    return value.lower() == "true"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_hash_argument(parser)
    parser.add_argument("--book", default="", metavar="FILE",
                        help="a Polyglot opening book (.bin) to play from (OwnBook on)")
    parser.add_argument("--variant", default="chess", choices=tuple(VARIANTS),
                        help="the game: chess (default) or xiangqi (as UCI_Variant)")
    parser.add_argument("--coordinates", default="fairy", choices=("fairy", "iccs"),
                        help="xiangqi moves: fairy (ranks 1-10, Fairy-Stockfish) or iccs "
                             "(ranks 0-9, Pikafish)")


def run_engine(args: argparse.Namespace) -> int:
    return run_on_stdio(args, lambda write, args: UciEngine(
        write, hash_mb=args.hash, book=args.book, variant=args.variant,
        coordinates=args.coordinates))


def main(argv: list[str] | None = None) -> int:
    """The ``uci-yipan`` script."""
    return script_main("uci-yipan", "yipan's chess engine, speaking UCI", add_arguments,
                       run_engine, argv)


if __name__ == "__main__":
    raise SystemExit(main())
