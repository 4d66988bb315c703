"""No import circles in src/yipan: the modules can be read, and tested, bottom up.

The graph is read as the layer test reads it (``test_layers.imports_of``: the AST walked,
nothing executed), so an import inside a function counts, and so does one under
``if TYPE_CHECKING:``. A deferred import only hides a circle from the interpreter, not from
a reader: a module whose signatures name another's classes depends on that module as surely
as one that calls it, and two modules that name each other can be understood only together.
When a helper needs a circle, it sits in the wrong module: move it (an annotation can usually
name a protocol from ``yipan.core`` instead).

Importing ``a.b`` also runs the package ``a``; that implied edge is not drawn (a package that
re-exports its modules would otherwise be a circle with each of them).
"""

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


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of ``root/yipan`` to the yipan modules it imports (those that exist)."""
    paths = sorted((root / "yipan").rglob("*.py"))
    modules = {layers.module_name(path, root): path for path in paths}
    return {name: {target for _, target in layers.imports_of(path, root)
                   if target in modules and target != name}
            for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle for each back edge a depth-first walk meets, as ``[a, b, ..., a]``."""
    found = []
    state: dict[str, str] = {}  # "open" while on the walk's path, "done" after
    for start in sorted(graph):
        if start in state:
            continue
        path = [start]
        pending = [iter(sorted(graph[start]))]
        state[start] = "open"
        while pending:
            target = next(pending[-1], None)
            if target is None:
                state[path.pop()] = "done"
                pending.pop()
            elif state.get(target) == "open":
                found.append(path[path.index(target):] + [target])
            elif target not in state:
                state[target] = "open"
                path.append(target)
                pending.append(iter(sorted(graph[target])))
    return found


def test_no_module_imports_itself_back():
    assert [" -> ".join(cycle) for cycle in cycles(import_graph(SRC))] == []


def test_a_planted_circle_is_caught(tmp_path):
    copy = tmp_path / "src"
    shutil.copytree(SRC / "yipan", copy / "yipan",
                    ignore=shutil.ignore_patterns("__pycache__", "*.book", "static"))
    # a circle through a function-level import and a type-only one
    (copy / "yipan" / "core" / "planted_a.py").write_text(
        "def later():\n    from .planted_b import B\n    return B\n")
    (copy / "yipan" / "core" / "planted_b.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from . import planted_a\n\nB = 1\n")
    found = cycles(import_graph(copy))
    assert found == [["yipan.core.planted_a", "yipan.core.planted_b", "yipan.core.planted_a"]]
