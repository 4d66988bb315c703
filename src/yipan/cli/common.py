"""What the commands share: errors, game options on the command line, JSON output, and the
options a game's hooks add to a command."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

from ..core import CommandOption, Game, GameHooks, GameSpec, YipanError, game_spec, get_game
from ..core.files import InputFile, OutputFile
from ..core.text import quote, read_int
from ..prepare import prepare_for


class UsageError(YipanError, ValueError):
    """Bad command-line arguments (printed as one line, exit status 2)."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def seconds(text: str) -> float:
    """An argparse type: a finite, positive number of seconds."""
    try:
        if not text.isascii() or len(text) > 32:
            raise ValueError
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {quote(text)}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"seconds must be a finite number above 0, got {text}")
    return value


def level(text: str) -> str:
    """An argparse type: one of the AI's levels (checked with the rest of the command line,
    before any engine is prepared)."""
    from ..core import LEVELS

    if text not in LEVELS:
        raise argparse.ArgumentTypeError(f"unknown level {quote(text[:40])}; levels: "
                                         f"{', '.join(LEVELS)}")
    return text


def count(low: int = 1, high: int | None = None) -> Any:
    """An argparse type: a whole number within ``low..high`` (ASCII digits, not too many)."""
    def parse(text: str) -> int:
        try:
            value = read_int(text, "the value")
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        if value < low or (high is not None and value > high):
            span = f"{low}..{high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {span}, got {value}")
        return value
    return parse


def argument_type(kind: Any) -> Any:
    """An argparse type from ``kind`` whose refusals (a ``YipanError``) keep their own words,
    such as ``OutputFile``'s "--save x is a folder"."""
    def parse(text: str) -> Any:
        try:
            return kind(text)
        except YipanError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    parse.__name__ = getattr(kind, "__name__", "value")
    return parse


output_file = argument_type(OutputFile)
"""An argparse type: a file to write, checked before any work (``yipan.core.files``)."""

input_file = argument_type(InputFile)
"""An argparse type: a regular file to read, checked before any work."""


def game_parser(command: str, spec: GameSpec, help_text: str) -> Parser:
    """A parser for ``yipan COMMAND GAME ...`` with the game's own options added."""
    parser = Parser(prog=f"yipan {command} {spec.name}", description=help_text)
    for option in spec.options:
        if option.positional:
            # read before argparse (leading_values), so that moves may follow: nim 3 4 5 1:2
            parser.usage = f"yipan {command} {spec.name} [{option.name.upper()} ...] [options]"
        else:
            flag = "--" + option.name.replace("_", "-")
            parser.add_argument(flag, dest=option.name, default=None, help=option.help,
                                choices=option.choices)
    return parser


def game_from_args(spec: GameSpec, args: argparse.Namespace, name: str | None = None) -> Game:
    raw = {option.name: getattr(args, option.name) for option in spec.options
           if getattr(args, option.name, None) not in (None, [])}
    return get_game(name or spec.name, **raw)


def add_hook_options(parser: argparse.ArgumentParser, options: Sequence[CommandOption]) -> None:
    """The options a game's hooks add to this command (``--weak`` for ``solve connect4``)."""
    for option in options:
        flag = "--" + option.name
        dest = "hook_" + option.name.replace("-", "_")
        if option.kind is bool:
            parser.add_argument(flag, dest=dest, action="store_true", help=option.help)
        else:
            parser.add_argument(flag, dest=dest, type=argument_type(option.kind),
                                default=option.default, help=option.help,
                                metavar=option.metavar or option.name.upper().replace("-", "_"))


def hook_option_values(options: Sequence[CommandOption], args: argparse.Namespace
                       ) -> dict[str, Any]:
    """The values of the hook options, by their names, for ``AnalysisRequest.options``."""
    return {option.name: getattr(args, "hook_" + option.name.replace("-", "_"))
            for option in options}


def parse_game_command(command: str, argv: Sequence[str], help_text: str,
                       add_arguments: Any) -> tuple[GameSpec, argparse.Namespace, GameHooks]:
    """Second stage of ``yipan COMMAND GAME ARGS``: the game's options, the command's own
    arguments (``add_arguments(parser)``), and the options the game's hooks add."""
    if not argv or argv[0].startswith("-"):
        if argv and argv[0] in ("-h", "--help"):
            print(f"usage: yipan {command} GAME [options]   (yipan {command} GAME --help for "
                  f"a game's options)\ngames: {', '.join(_names())}")
            raise SystemExit(0)
        raise UsageError(f"yipan {command}: name a game ({', '.join(_names())})")
    name = argv[0]
    spec = game_spec(name)
    parser = game_parser(command, spec, help_text)
    add_arguments(parser)
    hooks = spec.load_hooks()
    options = hooks.options_for(command)
    add_hook_options(parser, options)
    positional = [option for option in spec.options if option.positional]
    has_moves = any(action.dest == "moves" for action in parser._actions)
    notation = getattr(spec.load_factory(), "notation_help", "")
    for action in parser._actions:
        if action.dest == "moves" and notation and action.help:
            action.help = f"{action.help}: {notation}"
    if notation and not has_moves:  # (play) the moves are typed at the prompt
        parser.epilog = f"Moves: {notation}."
    if positional and not has_moves:
        parser.add_argument("moves", nargs="*", default=[], help=argparse.SUPPRESS)
    # options and words in any order: `nim --first ai 3 4 5` as well as `nim 3 4 5 --first ai`
    args = parser.parse_intermixed_args(list(argv[1:]))
    for option in positional:
        values, args.moves = leading_values(option, list(args.moves))
        setattr(args, option.name, values or None)
    if positional and not has_moves and args.moves:
        raise UsageError(f"yipan {command} {name}: unexpected {quote(' '.join(args.moves))}")
    args.game_name = name
    args.hook_options = hook_option_values(options, args)
    return spec, args, hooks


def leading_values(option: Any, words: list[str]) -> tuple[list[str], list[str]]:
    """The leading words that are values of a positional game option (``3 4 5`` of
    ``nim 3 4 5 1:2 --json``), and the words after them."""
    count = 0
    for word in words:
        if word.startswith("-") and not word[1:].isdigit():
            break
        try:
            option.parse(word)
        except (ValueError, TypeError) as error:
            if word.lstrip("-").isdigit():  # a number, but not an acceptable one
                raise UsageError(f"bad {option.name} value {word!r}: {error}") from None
            break
        count += 1
    return words[:count], words[count:]


def start_game_command(command: str, argv: Sequence[str], help_text: str,
                       add_arguments: Any, *, prepare: bool = True,
                       ) -> tuple[argparse.Namespace, Game, GameHooks]:
    """Parse ``yipan COMMAND GAME ...`` and make the game; returns the arguments, the game
    and its hooks. With ``prepare=False`` the command calls ``prepare_game`` itself once
    its input is read, so bad input is refused in one line before any compiling."""
    spec, args, hooks = parse_game_command(command, argv, help_text, add_arguments)
    game = game_from_args(spec, args, args.game_name)
    if prepare and command in PREPARED_COMMANDS:
        prepare_game(game)
    return args, game, hooks


def prepare_game(game: Game) -> None:
    """Compiled kernels loaded now, never on a move's clock; a first run says so."""
    prepare_for(game, say=say_on_stderr)


def say_on_stderr(line: str) -> None:
    """A line about the command's own work (such as compiling), apart from its output."""
    print(f"yipan: {line}", file=sys.stderr, flush=True)


PREPARED_COMMANDS = ("play", "analyze", "solve", "watch")
"""The commands that run a game's engine, whose kernels are prepared before they start."""


def _names() -> list[str]:
    from ..core import list_games

    return list_games()


def print_json(data: dict[str, Any]) -> None:
    json.dump(data, sys.stdout, separators=(", ", ": "))
    sys.stdout.write("\n")


def moves_from_args(game: Game, texts: Sequence[str]) -> list[str]:
    """Move texts from command-line words, each word split the game's way (``4453``)."""
    moves: list[str] = []
    for text in texts:
        if not text.strip():
            raise UsageError("an empty move was given; leave it out to mean the start position")
        moves.extend(game.split_moves(text))
    return moves
