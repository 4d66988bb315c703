"""The documentation site (``docs/``, ``mkdocs.yml``) and the README: every example they
show runs, and the site builds with warnings as errors.

What runs, page by page:

- each ```python block, in order, in one namespace per page (a later block uses what an
  earlier one defined); where a ```text title="Output" block follows it, what the block
  printed must be that (``...`` as below); a block whose first line is ``# file: NAME.py`` is
  a file the reader saves: it is written to the page's folder, where the page's commands run
  (``--games-from``);
- each ```console line ``$ yipan ...``, with this tree's yipan (``python -m yipan``): its
  exit status must be 0 and its standard output what the page shows under it, where ``...``
  stands for any text (doctest's ELLIPSIS: a time, the rest of a long tree); an output
  that ends with the line ``[exit status N]`` expects that status instead (``yipan check``
  on a broken game: 1);
- each ```bash line that starts with ``yipan ``: its exit status must be 0.

A command too slow or too interactive for a test (training, a server, a game at the terminal)
is shown in a ```text block, which nothing runs.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from yipan.core import registry

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SRC = ROOT / "src"

FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```\s*$", re.DOTALL | re.MULTILINE)
OUTPUT_TITLE = 'title="Output"'


@dataclass
class Code:
    source: str
    expected: str | None = None  # what it prints, where the page shows it
FILE_LINE = re.compile(r"#\s*file:\s*(\S+\.py)\s*$")


@dataclass
class Command:
    argv: list[str]  # after "yipan"
    expected: str | None  # the output the page shows (None: only the exit status is checked)
    line: str
    status: int = 0


EXIT_STATUS = re.compile(r"^\[exit status (\d+)\]\s*\Z", re.MULTILINE)


@dataclass
class Page:
    path: Path
    steps: list[tuple[str, object]] = field(default_factory=list)  # (kind, code/file/command)


def commands_of_console(body: str) -> list[Command]:
    """``$ yipan ...`` lines and the output shown under each (until the next ``$``)."""
    commands: list[Command] = []
    for chunk in re.split(r"^(?=\$ )", body, flags=re.MULTILINE):
        if not chunk.startswith("$ "):
            continue
        first, _, output = chunk.partition("\n")
        words = shlex.split(first[2:], comments=True)
        if words and words[0] == "yipan":
            status = EXIT_STATUS.search(output)
            if status:
                output = output[:status.start()]
            commands.append(Command(words[1:], output, first,
                                    int(status.group(1)) if status else 0))
    return commands


def commands_of_bash(body: str) -> list[Command]:
    return [Command(shlex.split(line, comments=True)[1:], None, line)
            for line in body.splitlines() if line.startswith("yipan ")]


def read_page(path: Path) -> Page:
    page = Page(path)
    for match in FENCE.finditer(path.read_text(encoding="utf-8")):
        language, attributes, body = match.group(1), match.group(2), match.group(3)
        if language == "python":
            first = body.split("\n", 1)[0]
            named = FILE_LINE.match(first)
            page.steps.append(("file", (named.group(1), body)) if named
                              else ("python", Code(body)))
        elif language == "text" and OUTPUT_TITLE in attributes:
            kind, code = page.steps[-1] if page.steps else (None, None)
            assert kind == "python" and isinstance(code, Code), (
                f"{path}: an Output block follows no python block")
            code.expected = body
        elif language == "console":
            page.steps.extend(("command", command) for command in commands_of_console(body))
        elif language == "bash":
            page.steps.extend(("command", command) for command in commands_of_bash(body))
    return page


# the README is the front door: its examples run as the site's do
PAGES = [page for page in map(read_page, [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))])
         if page.steps]


def test_the_docs_have_examples_to_run() -> None:
    """The collection below is not silently empty (a fence the reader does not match)."""
    kinds = {kind for page in PAGES for kind, _ in page.steps}
    assert kinds == {"python", "command", "file"}
    assert any(isinstance(step, Code) and step.expected for page in PAGES
               for _, step in page.steps)  # the Output blocks are read
    assert len(PAGES) >= 10


def run_yipan(command: Command, folder: Path) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, [str(SRC), str(folder), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "yipan", *command.argv], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=600)


CHECKER = doctest.OutputChecker()


def same_output(expected: str, got: str) -> bool:
    want = "\n".join(line.rstrip() for line in expected.strip("\n").splitlines()) + "\n"
    have = "\n".join(line.rstrip() for line in got.strip("\n").splitlines()) + "\n"
    return CHECKER.check_output(want, have, doctest.ELLIPSIS)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.path.relative_to(ROOT)) for p in PAGES])
def test_every_example_of_the_page_runs(page: Page, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a block that writes a file writes it here
    monkeypatch.syspath_prepend(str(tmp_path))  # and a file the page saved is importable
    # a game a page registers is gone after it (the registry is the process's own)
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    before = set(sys.modules)
    try:
        run_page(page, tmp_path)
    finally:
        for name in set(sys.modules) - before:
            if str(tmp_path) in str(getattr(sys.modules[name], "__file__", "") or ""):
                del sys.modules[name]


def run_page(page: Page, tmp_path: Path) -> None:
    namespace: dict[str, object] = {"__name__": f"docs_{page.path.stem.replace('-', '_')}"}
    for kind, step in page.steps:
        if kind == "python":
            assert isinstance(step, Code)
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                exec(compile(step.source, str(page.path), "exec"), namespace)  # noqa: S102
            if step.expected is not None:
                assert same_output(step.expected, printed.getvalue()), (
                    f"{page.path}:\n{step.source}\n--- the page shows:\n{step.expected}\n"
                    f"--- it printed:\n{printed.getvalue()}")
        elif kind == "file":
            name, body = step  # type: ignore[misc]
            (tmp_path / name).write_text(body, encoding="utf-8")
        else:
            assert isinstance(step, Command)
            done = run_yipan(step, tmp_path)
            assert done.returncode == step.status, f"{step.line}\n{done.stderr[-2000:]}"
            if step.expected and step.expected.strip():
                assert same_output(step.expected, done.stdout), (
                    f"{step.line}\n--- the page shows:\n{step.expected}\n--- it printed:\n"
                    f"{done.stdout}")


def test_output_comparison_honours_ellipsis_and_trailing_space() -> None:
    assert same_output("nodes: 241\ntime: ... ms\n", "nodes: 241  \ntime: 19.46 ms\n")
    assert same_output("root\n...\n", "root\n  a\n  b\n")
    assert not same_output("nodes: 241\n", "nodes: 242\n")
    [command] = commands_of_console("$ yipan check broken\n2 fault(s)\n[exit status 1]\n")
    assert (command.argv, command.expected, command.status) == (["check", "broken"],
                                                                "2 fault(s)\n", 1)


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """``mkdocs build --strict``: a broken link, a missing page or an API name that no longer
    exists fails; the command-line reference is generated from the parsers."""
    for module in ("mkdocs", "material", "mkdocstrings"):
        pytest.importorskip(module, reason=f"{module} is in the docs extra")
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1",  # Material's notice about MkDocs 2
           "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(ROOT / "mkdocs.yml"), "--site-dir", str(site)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    cli = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    from yipan.cli.main import build_parser

    commands = next(action for action in build_parser()._actions
                    if action.dest == "command").choices  # type: ignore[attr-defined]
    for name in commands:
        assert f"yipan {name}" in cli, f"the command-line reference lacks yipan {name}"
    assert "usage: yipan solve tictactoe" in cli  # a game command, shown for its example game


def test_the_cli_reference_shows_every_command_and_game() -> None:
    """The generated reference (``yipan.cli.reference``) holds every command's and
    subcommand's help, a game command's second stage for its example game, and every game."""
    from yipan.cli.main import build_parser
    from yipan.cli.reference import markdown
    from yipan.core import list_games

    text = markdown()
    commands = next(action for action in build_parser()._actions
                    if action.dest == "command").choices  # type: ignore[attr-defined]
    for name in commands:
        assert f"### `yipan {name}`" in text
    for name in ("sg octal", "book build", "tablebase info", "poker pushfold"):
        assert f"#### `yipan {name}`" in text
    assert "usage: yipan explain tictactoe" in text and "--algorithm" in text
    assert "usage: yipan train connect4" in text
    for game in list_games():
        assert f"| `{game}` |" in text
