"""The command-line reference as Markdown, written from the parsers themselves (the docs'
``reference/cli.md`` is generated from it at build time, so it cannot drift from the code).

Every command's ``--help`` is the text shown. A game command (``play``, ``analyze``,
``solve``...) parses in two stages (the game first, then the options that game and its hooks
add), so its page shows the second stage for one example game, as ``yipan COMMAND GAME
--help`` prints it; the table of games and their options follows.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
from collections.abc import Iterator

from ..core import game_spec, list_games

WIDTH = "88"  # columns argparse wraps help to: the same text on every machine

# the game each two-stage command is shown with (one that has every option the command has)
EXAMPLE_GAMES = {"book build": "connect4", "train": "connect4"}
DEFAULT_EXAMPLE = "tictactoe"


def markdown() -> str:
    """The whole reference page's generated part (headings from level 3 down: the page
    puts it under a heading of its own)."""
    from .main import build_parser

    with _columns(WIDTH):
        parser = build_parser()
        sections = [_section("yipan", parser.format_help(), "###")]
        for path, command in _commands(parser, ()):
            sections.append(_command_section(path, command))
    return "\n".join([*sections, _games_table()])


@contextlib.contextmanager
def _columns(width: str) -> Iterator[None]:
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = width
    try:
        yield
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...]
              ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command and subcommand below ``parser``, depth first, in the order of its help."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield (*path, name), child
                yield from _commands(child, (*path, name))


def _is_game_command(parser: argparse.ArgumentParser) -> bool:
    return any(action.dest == "argv" and action.nargs == argparse.REMAINDER
               for action in parser._actions)


def _command_section(path: tuple[str, ...], parser: argparse.ArgumentParser) -> str:
    name = " ".join(path)
    level = "###" if len(path) == 1 else "####"
    if not _is_game_command(parser):
        return _section(f"yipan {name}", parser.format_help(), level)
    game = EXAMPLE_GAMES.get(name, DEFAULT_EXAMPLE)
    text = _help_of([*path, game, "--help"])
    note = (f"A game command: `yipan {name} GAME ...`. Shown for `{game}`; "
            f"`yipan {name} GAME --help` lists what another game adds.\n")
    return _section(f"yipan {name}", text, level, note)


def _help_of(argv: list[str]) -> str:
    """What ``yipan ARGV`` prints (a ``--help``: it ends by exiting 0)."""
    from .main import main

    out = io.StringIO()
    status: int | str | None
    with contextlib.redirect_stdout(out):
        try:
            status = main(argv)
        except SystemExit as exit_:
            status = exit_.code
    if status not in (0, None):
        raise RuntimeError(f"yipan {' '.join(argv)} exited with {status}")
    return out.getvalue()


def _section(title: str, text: str, level: str, note: str = "") -> str:
    return f"{level} `{title}`\n\n{note}\n```text\n{text.rstrip()}\n```\n"


def _games_table() -> str:
    rows = ["### The games and their options", "",
            "`yipan games` lists them; an option is given as `--name value` after the game "
            "(`yipan play tictactoe --size 4x4 --k 4`), a positional one as words "
            "(`yipan play nim 3 4 5`).", "",
            "| game | title | options |", "|---|---|---|"]
    for name in list_games():
        spec = game_spec(name)
        options = "<br>".join(
            (f"`{option.name.upper()} ...`" if option.positional
             else f"`--{option.name.replace('_', '-')}`")
            + (f": {_cell(option.help)}" if option.help else "")
            for option in spec.options)
        rows.append(f"| `{name}` | {_cell(spec.title)} | {options} |")
    return "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")
