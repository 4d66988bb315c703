"""``yipan sg ...`` (Grundy values and periods of heap games) and ``yipan nim`` (who wins Nim).

    yipan sg octal 0.77 --upto 100        G(0..100) of Kayles
    yipan sg subtraction 1,3,4 --upto 50  G(0..50) of a subtraction game
    yipan sg grundy-game --upto 1000      G(0..1000) of Grundy's game (rare-values method)
    yipan sg grundy-game --upto 10000000 --time 60   as far as a minute goes
    yipan sg wythoff 3 5                  G(3, 5) of Wythoff's game
    yipan sg period 0.07                  pre-period and least period, with a proof
    yipan sg period --subtraction 2,5,7
    yipan nim 3 4 5 [--misere]            the winner and every winning move

``--json`` prints one object: ``{"values": [...]}`` (Wythoff: the rows G(a, 0..B) for
a = 0..A, with ``value`` and ``p_position``), ``{"preperiod", "period", "proved"}``,
``{"winner", "moves": [{"heap", "from", "to"}]}`` (heaps numbered from 1). A table that
``--time`` stopped short holds the values reached and ``"stopped"``.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from ..core import GameOptionError
from .analyze import say_progress
from .common import UsageError, count, print_json, seconds

if TYPE_CHECKING:
    from ..impartial.rules import HeapRule

LARGEST_UNPROVED_OCTAL = 1 << 16  # without a period an octal table is quadratic
LARGEST_TABLE = 10**7  # 80 MB of values
PROGRESS_AFTER = 1.0  # seconds a table is computed before it says how far it is ...
PROGRESS_EVERY = 5.0  # ... and then every so often


def register(subparsers: argparse._SubParsersAction) -> None:
    sg = subparsers.add_parser("sg", help="Grundy values and periods of impartial games",
                               description="Sprague-Grundy values of heap games.")
    games = sg.add_subparsers(dest="sg_command", metavar="GAME")

    def values_parser(name: str, help_text: str) -> argparse.ArgumentParser:
        parser = games.add_parser(name, help=help_text, description=help_text)
        parser.add_argument("--upto", type=int, default=50, metavar="N",
                            help="print G(0) to G(N) (default 50)")
        parser.add_argument("--json", action="store_true", help='print {"values": [...]}')
        parser.add_argument("--time", type=seconds, default=None, metavar="S",
                            help="stop after S seconds and print the values reached (a long "
                                 "table says how far it is on stderr after a second)")
        return parser

    values_parser("octal", "G(0..N) of an octal game").add_argument(
        "code", help="the code, e.g. 0.77 (Kayles), 0.07, 0.137, 4.7")
    values_parser("subtraction", "G(0..N) of a subtraction game").add_argument(
        "amounts", help="the amounts a move may take, e.g. 1,3,4")
    values_parser("grundy-game", "G(0..N) of Grundy's game")

    wythoff = games.add_parser("wythoff", help="G(a, b) of Wythoff's game")
    wythoff.add_argument("a", help="the first heap")
    wythoff.add_argument("b", help="the second heap")
    wythoff.add_argument("--json", action="store_true", help="print one JSON object")

    period = games.add_parser(
        "period", help="pre-period and least period of an octal or subtraction game",
        description="Find and prove the period (Guy-Smith for octal codes, the window "
                    "argument for subtraction games).")
    period.add_argument("code", nargs="?", help="an octal code, e.g. 0.77")
    period.add_argument("--subtract", metavar="S", dest="subtraction",
                        help="a subtraction game's amounts, e.g. 1,3,4 (as the game option)")
    period.add_argument("--subtraction", metavar="S", dest="subtraction",
                        help=argparse.SUPPRESS)  # the older name
    period.add_argument("--bound", type=count(1, 10_000_000), default=None, metavar="N",
                        help="compute at most N values looking for a proof")
    period.add_argument("--json", action="store_true", help="print one JSON object")
    sg.set_defaults(func=run_sg, sg_parser=sg)

    nim = subparsers.add_parser(
        "nim", help="who wins Nim, and every winning move",
        description="Who wins a Nim position, and how (the same as `yipan analyze nim HEAPS`, "
                    "with the same --json schema).")
    nim.add_argument("heaps", nargs="+", help="heap sizes, e.g. 3 4 5")
    nim.add_argument("--rule", choices=("normal", "misere"), default="normal",
                     help="normal, or misere: taking the last token loses")
    nim.add_argument("--misere", action="store_const", const="misere", dest="rule",
                     help="the same as --rule misere")
    nim.add_argument("--json", action="store_true", help="print one JSON object")
    nim.set_defaults(func=run_nim)


# -- sg -------------------------------------------------------------------------------------
def run_sg(args: argparse.Namespace) -> int:
    command = args.sg_command
    if command is None:
        raise UsageError("yipan sg: name a game: octal, subtraction, grundy-game, wythoff, "
                         "or period")
    if command == "wythoff":
        return _wythoff(args)
    if command == "period":
        return _period(args)
    from ..impartial import GrundyRule, OctalRule, SubtractionRule

    if not 0 <= args.upto <= LARGEST_TABLE:
        raise UsageError(f"--upto must be from 0 to {LARGEST_TABLE:,}, got {args.upto}")
    rule: HeapRule
    if command == "octal":
        rule = OctalRule(args.code)
        if args.upto >= LARGEST_UNPROVED_OCTAL and not rule.periodicity().proved:
            raise GameOptionError(
                f"{rule.code} has no proved period; tables without one stop at "
                f"{LARGEST_UNPROVED_OCTAL - 1}")
    elif command == "subtraction":
        rule = SubtractionRule(args.amounts)
    else:
        rule = GrundyRule()
    reached, stopped = _grow(rule, args.upto, args.time)
    values = rule.table(reached).tolist()
    if stopped:
        say_progress(f"yipan sg: stopped at the time limit of {args.time:g} s after "
                     f"G(0..{reached:,}) of G(0..{args.upto:,}); printing those")
    if args.json:
        print_json({"values": values} if not stopped else
                   {"values": values, "stopped": f"at the time limit of {args.time:g} s"})
        return 0
    print(f"{rule.title}: G(0..{reached})")
    _print_rows(values)
    return 0


def _grow(rule: HeapRule, upto: int, limit: float | None) -> tuple[int, bool]:
    """Compute G(0..upto) a slice at a time: a line on stderr once it has run a second
    (and every few seconds after), and a stop at ``limit`` seconds. Returns the largest heap
    done and whether the limit stopped the table short."""
    start = last = time.perf_counter()
    reached = -1
    for reached in rule.growing_table(upto):
        now = time.perf_counter()
        if reached < upto and limit is not None and now - start >= limit:
            return reached, True
        if reached < upto and now - last >= (PROGRESS_AFTER if last == start
                                             else PROGRESS_EVERY):
            last = now
            say_progress(f"{rule.title}: G(0..{reached:,}) of G(0..{upto:,}) done, "
                         f"{now - start:.0f} s so far")
    return reached, False


def _print_rows(values: list[int], per_row: int = 10) -> None:
    width = max(len(str(v)) for v in values)
    label = len(str(len(values) - 1))
    for start in range(0, len(values), per_row):
        row = " ".join(f"{v:>{width}}" for v in values[start:start + per_row])
        print(f"{start:>{label}}: {row}")


def _whole(text: str, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{what} must be a whole number, got {text!r}") from None
    if value < 0:
        raise GameOptionError(f"{what} cannot be negative, got {value}")
    return value


def _wythoff(args: argparse.Namespace) -> int:
    """G(a, b), and with --json the whole table G(0..a, 0..b) as ``values`` (rows by a)."""
    from ..impartial.wythoff import is_p_position, wythoff_table

    a, b = _whole(args.a, "a heap"), _whole(args.b, "a heap")
    table = wythoff_table(max(a, b) + 1)
    value = int(table[a, b])
    lost = is_p_position(a, b)
    if args.json:
        print_json({"values": table[:a + 1, :b + 1].tolist(), "value": value,
                    "p_position": lost})
        return 0
    verdict = ("a P-position: the side to move loses" if lost
               else "an N-position: the side to move wins")
    print(f"Wythoff's game ({a}, {b}): G = {value}, {verdict}")
    return 0


def _period(args: argparse.Namespace) -> int:
    from ..impartial import OctalRule, SubtractionRule

    if (args.code is None) == (args.subtraction is None):
        raise UsageError("yipan sg period: give an octal code or --subtract S (one of them)")
    if args.bound is not None and args.bound < 2:
        raise UsageError(f"--bound must be at least 2, got {args.bound}")
    rule: OctalRule | SubtractionRule
    if args.code is not None:
        rule = OctalRule(args.code)
        theorem = ("the window argument" if rule.most_parts <= 1
                   else "the Guy-Smith periodicity theorem")
        if rule.most_parts >= 2 and args.bound is not None \
                and args.bound > LARGEST_UNPROVED_OCTAL \
                and not rule.periodicity(LARGEST_UNPROVED_OCTAL).proved:
            # a move that splits a heap makes the table's cost grow as the square of its
            # length: ten million values would take days, silently
            raise UsageError(f"--bound {args.bound:,}: {rule.code} splits heaps, so its table "
                             f"costs the square of its length, and no period is proved from the "
                             f"first {LARGEST_UNPROVED_OCTAL:,} values; give at most that")
    else:
        rule = SubtractionRule(args.subtraction)
        theorem = "the window argument"
    found = rule.periodicity() if args.bound is None else rule.periodicity(args.bound)
    if args.json:
        print_json({"preperiod": found.preperiod, "period": found.period,
                    "proved": found.proved})
        return 0
    if found.proved:
        print(f"{rule.title}: pre-period {found.preperiod}, period {found.period} "
              f"(G(n + {found.period}) = G(n) for every n >= {found.preperiod}); "
              f"proved by {theorem} from {found.checked} values")
    else:
        print(f"{rule.title}: no period proved from the first {found.checked} values "
              "(try a larger --bound)")
    return 0


# -- nim --------------------------------------------------------------------------------------
def run_nim(args: argparse.Namespace) -> int:
    """``yipan analyze nim HEAPS``, by its short name."""
    from .. import engines
    from ..core import get_game
    from .report import show

    game = get_game("nim", heaps=list(args.heaps), rule=args.rule)
    state = game.initial_state()
    show(game, state, [], engines.analyze(game, state), as_json=args.json)
    return 0
