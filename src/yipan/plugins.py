"""Games from outside yipan: installed packages and modules named by the user.

A package makes its games known by an entry point in the group ``yipan.games`` whose object is
a function that registers them (or a module that does so when imported)::

    # pyproject.toml of the package "pile-game"
    [project.entry-points."yipan.games"]
    pile = "pile_game:register"        # def register(): register_game(GameSpec(...))

A loose module works too: ``yipan --games-from my_games play pile`` (or the environment
variable ``YIPAN_GAMES=my_games``, several separated by commas, which the web app reads as
well) imports ``my_games`` first. Either way the games then work with every command, the
web page and every algorithm, as the built-in ones do.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable
from importlib.metadata import entry_points

from .core import YipanError
from .core.text import quote

GROUP = "yipan.games"
ENVIRONMENT = "YIPAN_GAMES"


class PluginError(YipanError):
    """A module of games that cannot be imported, or whose registering failed."""


_loaded: set[str] = set()


def load_game_modules(names: Iterable[str] = ()) -> None:
    """Import the named modules, those in ``$YIPAN_GAMES``, and every installed entry point
    of the group ``yipan.games`` (each once per process)."""
    wanted = [*names, *filter(None, os.environ.get(ENVIRONMENT, "").split(","))]
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # a module beside the user, as `python -m` finds it
    for name in wanted:
        name = name.strip()
        if name in _loaded:
            continue
        try:
            importlib.import_module(name)
        except Exception as error:  # noqa: BLE001 - a user's module: report, never a traceback
            raise PluginError(f"cannot import the games module {quote(name)}: "
                              f"{type(error).__name__}: {error}") from None
        _loaded.add(name)
    for point in entry_points(group=GROUP):
        if point.value in _loaded:
            continue
        try:
            loaded = point.load()
            if callable(loaded):
                loaded()
        except Exception as error:  # noqa: BLE001
            raise PluginError(f"the games of {point.name!r} ({point.value}) failed to load: "
                              f"{type(error).__name__}: {error}") from None
        _loaded.add(point.value)
