"""``yipan games``: the registered games and their options."""

from __future__ import annotations

import argparse

from ..core import game_spec, list_games
from .common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("games", help="list the games yipan knows")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    specs = [game_spec(name) for name in list_games()]
    if args.json:
        print_json({"games": [{
            "name": spec.name, "title": spec.title, "aliases": list(spec.aliases),
            "options": [{"name": o.name, "default": o.default, "help": o.help,
                         "choices": list(o.choices) if o.choices else None} for o in spec.options],
        } for spec in specs]})
        return 0
    for spec in specs:
        options = " ".join(f"[{o.name}]" if o.positional else f"[--{o.name}]"
                           for o in spec.options)
        print(f"{spec.name:<16} {spec.title}  {options}".rstrip())
    return 0
