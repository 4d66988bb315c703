"""The import layers of src/yipan, enforced: arrows only point down.

    rank 0  native, native_struct     numba helpers; nothing of yipan
    rank 1  core                      the Game protocol, results, hooks, registry
    rank 2  search, impartial, poker  algorithms over the protocol (never a game), and the
                                      poker library (cards, hand values, equities, push/fold)
    rank 3  books, learning,          stored search results (opening books), networks;
            chess_family              what the chess family's engines share (driver, table)
    rank 4  games                     one package per game, with their shared helpers
    rank 5  players, engines, prepare the AI for any game, the engines by name, kernels loaded,
            plugins, cluster          games from other packages, units of work on Ray,
            explain, check            the tree a search explored, a user's game checked
    rank 6  cli, web, protocols       front ends (cli may start the web app and protocols)
    rank 7  yipan, __main__           the package itself (registers the built-in games)

A module may import from a lower rank, or from its own component (``games.connect4`` from
``games.grid``, ``search.mcts`` from ``search.alphabeta``). Every import counts, those inside
functions included (the AST is walked, nothing is executed).
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

RANKS = {
    "native": 0, "native_struct": 0,
    "core": 1, "search": 2, "impartial": 2, "poker": 2, "books": 3, "learning": 3,
    "chess_family": 3,
    "games": 4,
    "players": 5, "engines": 5, "prepare": 5, "plugins": 5, "cluster": 5, "explain": 5,
    "check": 5,
    "cli": 6, "web": 6, "protocols": 6,
    "": 7, "__main__": 7,
}
ALLOWED_ACROSS = {("engines", "players"), ("cli", "web"), ("cli", "protocols"),
                  ("prepare", "plugins")}  # (processes preparing games load the same games)


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str, root: Path) -> bool:
    path = root / Path(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, imported yipan module) for every import in the file, relative ones resolved."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                child = f"{target}.{alias.name}"
                found.append((node.lineno, child if is_module(child, root) else target))
    return [(line, target) for line, target in found
            if target == "yipan" or target.startswith("yipan.")]


def component(module: str) -> str:
    """``yipan.games.connect4.rules`` -> ``games``; ``yipan`` -> ``""``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def upward_imports(root: Path) -> list[str]:
    """Every import that points up or across the layers, as ``file:line: a -> b``."""
    problems = []
    for path in sorted((root / "yipan").rglob("*.py")):
        source = module_name(path, root)
        mine = component(source)
        for line, target in imports_of(path, root):
            theirs = component(target)
            if mine not in RANKS or theirs not in RANKS:
                problems.append(f"{path.relative_to(root)}:{line}: {source} -> {target} "
                                "(a component the layer table does not know)")
                continue
            if RANKS[theirs] < RANKS[mine] or theirs == mine:
                continue
            if (mine, theirs) in ALLOWED_ACROSS:
                continue
            problems.append(f"{path.relative_to(root)}:{line}: {source} -> {target}")
    return problems


def test_no_module_imports_up_or_across_the_layers():
    assert upward_imports(SRC) == []


def test_every_component_has_a_rank():
    components = {path.stem if path.is_file() else path.name
                  for path in (SRC / "yipan").iterdir()
                  if not path.name.startswith((".", "_")) or path.name == "__main__.py"}
    components -= {"data", "py"}
    assert components <= set(RANKS), sorted(components - set(RANKS))


def test_a_planted_upward_import_is_caught(tmp_path):
    copy = tmp_path / "src"
    shutil.copytree(SRC / "yipan", copy / "yipan",
                    ignore=shutil.ignore_patterns("__pycache__", "*.book", "static"))
    planted = copy / "yipan" / "core" / "planted.py"
    planted.write_text("def later():\n    from ..games.connect4 import rules\n"
                       "    return rules\n")
    search_up = copy / "yipan" / "search" / "planted.py"
    search_up.write_text("import yipan.players\n")
    problems = upward_imports(copy)
    assert any("core/planted.py:2: yipan.core.planted -> yipan.games.connect4.rules" in p
               for p in problems), problems
    assert any("search/planted.py:1:" in p and "yipan.players" in p for p in problems)
    assert len(problems) == 2
