"""The UCCI protocol on stdin/stdout, for yipan's xiangqi engine (``yipan ucci``,
``ucci-yipan``): the protocol of ElephantEye and the GUIs built on it (XiangQi Wizard,
BHGUI), as a dialect of the loop in ``uci_family``. A GUI sends one command a line::

    ucci                         -> id name/author, the options, ucciok
    isready                      -> readyok (once the kernels are loaded)
    setoption NAME [VALUE]       hashsize (MB), usemillisec (true/false), newgame (clear
                                 the table), evalfile (``builtin``, the shipped network,
                                 by default; a network made by ``yipan train xiangqi
                                 --nnue``; empty or ``hand``: the hand-set one), ponder,
                                 batch, debug...: others are accepted and ignored, as UCCI
                                 asks
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

``yipan ucci --eval-file NETWORK`` starts with another network than the shipped one (or
``hand``: the hand-set evaluation); a damaged file, or one for another game, is refused in
one line and status 2 before the engine starts.

Moves are ICCS coordinates in lower case, ranks 0-9 (``h2e2``), FEN as UCI's xiangqi FEN.
Times are seconds, or milliseconds after ``setoption usemillisec true``; ``time`` is the
engine's own clock (``opptime`` and the like are read and not used). ``info depth D score S
pv ...`` per finished depth (S centipawns for the side to move; a mate in n plies is
``30000 - n``), then ``info time T nodes N``. With ``go draw`` (the opponent offers a draw)
the answer carries ``draw`` when the engine's score is below ``-DRAW_ACCEPT``. The
repetition rule (perpetual check loses) is the package's, in ``yipan.games.xiangqi``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..chess_family.nnue_file import BUILTIN, choose
from . import uci_family as family
from .uci_family import EngineProtocol, Go, go_number, spin
from .uci_variants import XiangqiVariant

DRAW_ACCEPT = 100  # centipawns: a draw offered is taken when the engine is this far behind
GO_NUMBERS = ("depth", "nodes", "time", "movestogo", "increment", "opptime",
              "oppmovestogo", "oppincrement")
SECONDS = ("time", "increment", "opptime", "oppincrement")  # the numbers that are times


class UcciEngine(EngineProtocol):
    """The UCCI dialect (``handle(line)`` as in ``EngineProtocol``)."""

    commands = {**EngineProtocol.commands, "ucci": "ucci", "setoption": "setoption",
                "banmoves": "banmoves", "probe": "probe"}

    def __init__(self, write: Callable[[str], None], *,
                 hash_mb: int = family.DEFAULT_HASH_MB, network: Any = BUILTIN) -> None:
        """``network``: a ``NetworkFile`` (or a path; ``builtin``: the shipped one) to
        evaluate with from the start; None: the hand-set evaluation."""
        variant = XiangqiVariant(hash_mb, coordinates="iccs")
        variant.engine.use_network(network)
        super().__init__(write, variant, hash_mb=hash_mb)
        self.milliseconds = False

    # -- commands -------------------------------------------------------------------------------
    def ucci(self, _arguments: list[str]) -> None:
        self.say(f"id name {family.NAME}")
        self.say("id copyright the yipan authors, MIT licence")
        self.say(f"id author {family.AUTHOR}")
        self.say("id user unknown")
        self.say("option usemillisec type check default false")
        self.say(f"option hashsize type spin min 1 max {family.MAX_HASH_MB} "
                 f"default {family.DEFAULT_HASH_MB}")
        self.say("option ponder type check default false")
        self.say("option newgame type button")
        self.say(f"option evalfile type string default {BUILTIN}")
        self.say("ucciok")

    def setoption(self, arguments: list[str]) -> None:
        if not arguments:
            raise ValueError("expected: setoption NAME [VALUE]")
        name = arguments[0].lower()
        text = " ".join(arguments[1:]).strip()  # a file's name keeps its case
        value = text.lower()
        if name == "hashsize":
            self.resize(spin(value, "hashsize", 1, family.MAX_HASH_MB))
        elif name == "usemillisec":
            if value not in ("true", "false", "on", "off"):
                raise ValueError("usemillisec is true or false")
            self.milliseconds = value in ("true", "on")
        elif name == "newgame":
            self.new_game()
        elif name == "evalfile":
            self._settle()
            self.variant.use_eval_file(text)
        # batch, debug, ponder, threads, usebook, bookfiles, randomness...: ignored

    def banmoves(self, arguments: list[str]) -> None:
        banned = []
        for text in arguments:
            try:
                banned.append(self.variant.read_move(self.game, self.state, text))
            except ValueError as error:
                self.info_string(f"banmoves: {error}")
        self.banned = tuple(banned)

    def probe(self, _arguments: list[str]) -> None:
        """Ignored: no endgame tables for xiangqi."""

    def quit(self, arguments: list[str]) -> bool:
        super().quit(arguments)
        self.say("bye")
        return False

    def read_go(self, arguments: list[str]) -> Go:
        numbers: dict[str, int] = {}
        infinite = ponder = draw = False
        index = 0
        while index < len(arguments):
            word = arguments[index].lower()
            if word == "ponder":
                ponder = True
            elif word == "draw":
                draw = True
            elif word == "depth" and index + 1 < len(arguments) \
                    and arguments[index + 1].lower() == "infinite":
                infinite = True
                index += 1
            elif word in GO_NUMBERS and index + 1 < len(arguments):
                index += 1
                value = go_number(arguments[index], word)
                numbers[word] = value if self.milliseconds or word not in SECONDS \
                    else go_number(str(value * 1000), word)
            index += 1
        time_left, increment = numbers.get("time"), numbers.get("increment", 0)
        return Go(time_left=(time_left, time_left), increment=(increment, increment),
                  moves_to_go=numbers.get("movestogo"), depth=numbers.get("depth"),
                  nodes=numbers.get("nodes"), infinite=infinite, ponder=ponder,
                  draw_offered=draw)

    # -- what it writes -------------------------------------------------------------------------
    def report(self, iteration: Any) -> None:
        self.say(f"info depth {iteration.depth} score {iteration.score} pv "
                 + " ".join(self.variant.move_text(m) for m in iteration.pv))

    def finished(self, found: Any) -> None:
        self.say(f"info time {int(found.seconds * 1000)} nodes {found.nodes}")

    def best_line(self, move: int, ponder: int | None, score: int | None, go: Go) -> str:
        text = super().best_line(move, ponder, score, go)
        if go.draw_offered and score is not None and score < -DRAW_ACCEPT:
            text += " draw"
        return text

    def no_move_line(self) -> str:
        return "nobestmove"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    family.add_hash_argument(parser)
    parser.add_argument("--eval-file", default=BUILTIN, metavar="NETWORK",
                        help="the evaluation: builtin (the network yipan ships, the default), "
                             "hand (the hand-set one), or a network made by yipan train "
                             "xiangqi --nnue")


def run_engine(args: argparse.Namespace) -> int:
    # refused before the loop starts (NetworkFileError: one line, status 2)
    network = choose(args.eval_file, "xiangqi")
    return family.run_on_stdio(args, lambda write, args: UcciEngine(
        write, hash_mb=args.hash, network=network))


def main(argv: list[str] | None = None) -> int:
    """The ``ucci-yipan`` script."""
    return family.script_main("ucci-yipan", "yipan's xiangqi engine, speaking UCCI",
                              add_arguments, run_engine, argv)


if __name__ == "__main__":
    raise SystemExit(main())
