"""The recipe of a game package (``yipan.games``' docstring), where a test can hold it: every
package under games/ is a game, declared in its ``meta.py`` beside its ``rules.py``; and a
game's ``hooks.py`` is reached through the registry only, never imported by another module
(logic that others need lives in a module named for what it does)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

_spec = importlib.util.spec_from_file_location("architecture_layers",
                                               Path(__file__).with_name("test_layers.py"))
assert _spec is not None and _spec.loader is not None
layers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(layers)

SRC = layers.SRC


def packages_off_the_recipe(root: Path) -> list[str]:
    """Packages under games/ that lack a meta.py or a rules.py (a library is not a game)."""
    games = root / "yipan" / "games"
    return sorted(f"{path.name}: no {needed}"
                  for path in games.iterdir() if (path / "__init__.py").is_file()
                  for needed in ("meta.py", "rules.py") if not (path / needed).is_file())


def imports_of_hooks(root: Path) -> list[str]:
    """Every import of a game's hooks module from another module, as ``file:line: a -> b``."""
    found = []
    for path in sorted((root / "yipan").rglob("*.py")):
        source = layers.module_name(path, root)
        for line, target in layers.imports_of(path, root):
            parts = target.split(".")
            if parts[1:2] == ["games"] and parts[-1] == "hooks" and target != source:
                found.append(f"{path.relative_to(root)}:{line}: {source} -> {target}")
    return found


def test_every_package_under_games_is_a_game():
    assert packages_off_the_recipe(SRC) == []


def test_no_module_imports_a_games_hooks():
    assert imports_of_hooks(SRC) == []


def test_a_planted_library_and_a_planted_hooks_import_are_caught(tmp_path):
    copy = tmp_path / "src"
    shutil.copytree(SRC / "yipan", copy / "yipan",
                    ignore=shutil.ignore_patterns("__pycache__", "*.book", "static"))
    library = copy / "yipan" / "games" / "cards"
    library.mkdir()
    (library / "__init__.py").write_text("")
    (copy / "yipan" / "games" / "connect4" / "planted.py").write_text(
        "def later():\n    from .hooks import HOOKS\n    return HOOKS\n")
    assert packages_off_the_recipe(copy) == ["cards: no meta.py", "cards: no rules.py"]
    assert imports_of_hooks(copy) == [
        "yipan/games/connect4/planted.py:2: yipan.games.connect4.planted -> "
        "yipan.games.connect4.hooks"]
