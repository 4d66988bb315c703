"""The registry of games: names to factories, with the options each factory takes.

Games register lazily (``"module:Class"``) so that listing games imports no kernel. The
built-in games are registered by ``yipan.games`` (imported by ``yipan/__init__``, so any
``import yipan...`` has them); core itself never imports a game. A user's own game joins with
``register_game(GameSpec(...))`` and then works with every algorithm, the CLI and the web app.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import GameOptionError, UnknownGameError
from .game import Game
from .hooks import NO_HOOKS, GameHooks
from .text import read_int


@dataclass(frozen=True, slots=True)
class GameOption:
    """One option of a game's factory, as the CLI and the web app offer it.

    ``parse`` turns the text a user typed into the factory's argument (raising ValueError
    on nonsense); ``many`` takes a list (``yipan play nim 3 4 5``) of at most ``max_items``;
    ``positional`` makes it a positional argument on the command line. ``limits`` says in
    words what the factory accepts (``"0 to 100000 each"``), for help texts and the API.
    A list typed as text may separate its items by commas or spaces (``"3 4 5"``, ``"3,4,5"``).

    ``label`` names the option in words for a form (``"stones in a row to win"`` rather than
    ``k``); ``choice_labels`` names each choice in words for a form's list (the value, such
    as ``renju``, is still what is sent); ``hidden`` keeps it out of forms while every front
    end still accepts it (another spelling of what a shown option sets: Connect Four's
    ``width`` and ``height`` beside its ``size``).
    """

    name: str
    parse: Callable[[str], Any]
    default: Any
    help: str = ""
    choices: Sequence[str] | None = None
    many: bool = False
    positional: bool = False
    max_items: int = 64
    limits: str = ""
    label: str = ""
    hidden: bool = False
    choice_labels: Mapping[str, str] | None = field(default=None, hash=False)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A registered game: its factory and options, and its hooks (``yipan.core.hooks``),
    given as a ``GameHooks`` or named ``"module:attribute"`` to be imported when first used.

    ``presets`` fixes factory arguments for an alias; ``examples`` are option sets the
    conformance suite runs besides the defaults (``{"size": "4x4", "k": "3"}``). ``rules``
    says in a few plain sentences how the game is played and won (the web page shows it).
    """

    name: str
    title: str
    factory: Callable[..., Game] | str
    options: tuple[GameOption, ...] = ()
    hooks: GameHooks | str | None = None
    aliases: tuple[str, ...] = ()
    presets: dict[str, Any] = field(default_factory=dict)  # fixed factory kwargs for an alias
    examples: tuple[dict[str, Any], ...] = ()
    rules: str = ""

    def load_factory(self) -> Callable[..., Game]:
        return resolve(self.factory) if isinstance(self.factory, str) else self.factory

    def load_hooks(self) -> GameHooks:
        """The game's hooks (every field None when it has none)."""
        if self.hooks is None:
            return NO_HOOKS
        hooks = resolve(self.hooks) if isinstance(self.hooks, str) else self.hooks
        if not isinstance(hooks, GameHooks):
            raise TypeError(f"{self.name}: hooks must be a GameHooks, got {type(hooks).__name__}")
        return hooks

    def parse_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Options as given by a user (text, or JSON values) to factory keyword arguments."""
        known = {option.name: option for option in self.options}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            accepted = ", ".join(known) or "none"
            raise GameOptionError(
                f"{self.name} has no option {unknown[0]!r} (options: {accepted})")
        parsed: dict[str, Any] = {}
        for name, value in raw.items():
            option = known[name]
            if value is None:
                continue
            try:
                if option.many:
                    items = split_items(value) if isinstance(value, str) else list(value)
                    if len(items) > option.max_items:
                        raise ValueError(f"at most {option.max_items} values, got {len(items)}")
                    parsed[name] = [_convert(option, item) for item in items]
                else:
                    parsed[name] = _convert(option, value)
            except (ValueError, TypeError) as error:
                raise GameOptionError(f"{self.name}: bad value for {name}: "
                                      f"{str(error)[:200]}") from None
        return parsed


def whole_number(text: str) -> int:
    """The parser of an option that takes a whole number (``GameOption("size", whole_number,
    ...)``); the game's factory checks its range."""
    return read_int(text, "the value")


def split_items(text: str) -> list[str]:
    """The items of a list typed as text: separated by commas, spaces or both."""
    return [item for item in re.split(r"[\s,]+", text.strip()) if item]


def _convert(option: GameOption, value: Any) -> Any:
    if isinstance(value, str):
        if option.choices is not None and value not in option.choices:
            raise ValueError(f"{value!r} is not one of {', '.join(option.choices)}")
        return option.parse(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected text or a number, got {type(value).__name__}")
    return option.parse(str(value))


def resolve(path: str) -> Any:
    module_name, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


_REGISTRY: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> GameSpec:
    for name in (spec.name, *spec.aliases):
        _REGISTRY[name] = spec
    return spec


def game_spec(name: str) -> GameSpec:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownGameError(name, list_games()) from None


def list_games() -> list[str]:
    """The registered games' names (aliases not repeated), sorted."""
    return sorted({spec.name for spec in _REGISTRY.values()})


def get_game(name: str, **options: Any) -> Game:
    """A game by name, e.g. ``get_game("tictactoe", size="4x4", k=4)``.

    Options may be given as text (as typed on the command line) or as values.
    """
    spec = game_spec(name)
    kwargs = spec.parse_options(options)
    preset = spec.presets.get(name, {})
    try:
        return spec.load_factory()(**preset, **kwargs)
    except GameOptionError:
        raise
    except (ValueError, TypeError) as error:
        raise GameOptionError(f"{name}: {error}") from None
