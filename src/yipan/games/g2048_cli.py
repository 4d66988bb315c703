"""2048 on the command line: ``yipan play 2048`` reads w/a/s/d, arrow keys or move names."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import TextIO

from ..core import Game, InvalidMoveError
from .g2048 import G2048, max_tile

ARROWS = {"\x1b[A": "up", "\x1b[B": "down", "\x1b[C": "right", "\x1b[D": "left"}


def extend_parser(command: str, parser: argparse.ArgumentParser) -> None:
    """No options of its own: ``--seed`` (from play) seeds the new tiles."""


def run(command: str, args: argparse.Namespace, game: Game) -> int | None:
    if command != "play" or not isinstance(game, G2048):
        return None
    return play_2048(game, random.Random(getattr(args, "seed", None)))


def play_2048(game: G2048, rng: random.Random, read: Callable[[str], str] = input,
              out: TextIO | None = None) -> int:
    """The terminal game: one move a line (w/a/s/d, an arrow key then Enter, or a name)."""
    out = out or sys.stdout
    state = game.start(rng)
    print("2048: w/a/s/d or arrows then Enter; q quits.", file=out)
    while game.outcome(state) is None:
        print(game.render(state), file=out, flush=True)
        try:
            text = read("move> ").strip()
        except (EOFError, KeyboardInterrupt):
            print(file=out)
            break
        if text.lower() in ("q", "quit"):
            break
        try:
            move = game.parse_move(state, ARROWS.get(text, text))
        except InvalidMoveError as error:
            print(error, file=out)
            continue
        if move not in game.legal_moves(state):
            print(f"{game.format_move(move)} changes nothing; try another way", file=out)
            continue
        state = game.play(state, move)
        state = game.play(state, game.sample_spawn(state, rng))
    print(game.render(state), file=out)
    ended = "game over" if game.outcome(state) is not None else "stopped"
    print(f"{ended}: score {state.score}, largest tile {max_tile(state.board)}", file=out)
    return 0
