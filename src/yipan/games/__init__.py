"""The built-in games: one package per game, each found by its ``meta.py``.

Every package here is a game (a library shared by games lives outside, as ``yipan.poker``
and ``yipan.chess_family``, the engine chess and xiangqi share, do), and holds these files,
each with one job::

    games/<name>/
        meta.py       GAMES = (GameSpec(...),): its name, title, options, rules in a few
                      plain sentences, example option sets, and where its Game and hooks
                      are ("module:attribute"). Read at start-up without importing the
                      package, so it imports only yipan.core at its top (an option's
                      parser imports the rules inside itself)
        __init__.py   the Game class and what callers import, re-exported from rules (and
                      the guard of the package's numba cache, when it has kernels)
        rules.py      the Game: rules, notation (parse_move / format_move), render, view
        kernel.py     numba kernels, when the game has a fast engine (several files for a
                      large engine, each named for its one job: board, search, threats...)
        player.py     the game's strongest AI: make_ai(game, level, rng, time) -> Player,
                      best a Thinker (its think(game, state, limit) reports as it goes and
                      heeds limit.stop: the web page shows it thinking, "Move now" works)
        hooks.py      HOOKS = GameHooks(...) (yipan.core.hooks): the AI, the game's own
                      analysis, options it adds to commands, its book builder; the front
                      ends reach it through the registry, no other module imports it (what
                      others need lives in a module named for what it does)
        labels.py     positions labelled for ``yipan train --from-solver`` (the ``label``
                      hook), when the game has a solver or an engine to learn from

Shared by the games: ``grid.py`` (bitboards on a grid with a sentinel column, ``a1``
coordinates, the text board and the web view), ``hidden.py`` and ``equilibrium.py`` (the games
of hidden information: their table view, and the CFR+ player and hooks) and ``yipan.native``
(the numba toolkit). A game imports ``yipan.core``, ``search``, ``impartial``, ``books``,
``learning``, ``poker``, ``chess_family``, ``native`` and these; never ``players``, ``cli``,
``web`` or ``protocols``. ``tests/architecture`` holds these rules: the layers, no import
circle, every package here a game with a ``meta.py`` and no import of a ``hooks.py``.
``tests/conformance`` plays every registered game at random under its defaults and each
example, checks its declared capabilities, and ``yipan perft <name>`` counts its tree; record
its playthroughs with ``python tests/playthroughs/record.py <name>``. A protocol of its own
goes in ``yipan/protocols/``, a command in ``yipan/cli/``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from ..core.registry import register_game

GAMES_DIRECTORY = Path(__file__).parent


def game_packages() -> list[str]:
    """The packages here that hold a game: those with a ``meta.py``."""
    return sorted(path.parent.name for path in GAMES_DIRECTORY.glob("*/meta.py"))


def read_meta(package: str) -> ModuleType:
    """``games/<package>/meta.py``, executed without its package's ``__init__`` (which loads
    the rules, and numba with the kernels): listing the games stays fast. The module is
    entered in ``sys.modules`` under its usual name, so a later import (or unpickling an
    option's parser) finds this one."""
    name = f"{__name__}.{package}.meta"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, GAMES_DIRECTORY / package / "meta.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def register_builtin_games() -> None:
    """Register every built-in game by name (no game's rules or kernels are imported)."""
    for package in game_packages():
        for spec in read_meta(package).GAMES:
            register_game(spec)
