"""Shared fixtures: where the reference data lives (read-only, beside the repository), and a
fresh process that counts what numba compiles. And ``--strict-skips`` (``.ci/run`` gives it):
a skip is allowed only for a reason on a short list, so that a skip cannot hide a failure."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]  # the checkout
SRC = ROOT / "src"
DATA_DIR = Path(os.environ.get("YIPAN_DATA", ROOT.parent / "shared" / "data"))

# Every process the tests start imports this checkout's yipan, whatever is installed: the web
# server's search workers come from a forkserver, which takes its import path from the
# environment, not from this process's sys.path.
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(SRC), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder of reference data (``$YIPAN_DATA`` or ``../shared/data``); skip if absent."""
    if not DATA_DIR.is_dir():
        pytest.skip(f"reference data not found at {DATA_DIR} (set YIPAN_DATA to its folder)")
    return DATA_DIR


COUNTING = """
import collections, json, sys
from numba.core import event

compiled = collections.Counter()

class Count(event.Listener):
    def on_start(self, ev):
        compiled[ev.data["dispatcher"].py_func.__name__] += 1

    def on_end(self, ev):
        pass

event.register("numba:compile", Count())
report = {}
exec(sys.argv[1], {"report": report})
print(json.dumps({"compiled": compiled, **report}))
"""


@pytest.fixture
def count_compilations(tmp_path: Path) -> Callable[..., dict]:
    """``count(code)``: run ``code`` in a fresh process on this test's numba cache
    (``tmp_path``: empty at first, kept between calls) and return what numba compiled there
    (``{"compiled": {kernel name: times}}``, with what the code put in ``report``)."""

    def count(code: str) -> dict:
        # (this tree's yipan, not whichever one is installed)
        path = os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": path}
        done = subprocess.run([sys.executable, "-c", COUNTING, code], capture_output=True,
                              text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    return count


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The learning tests run last: training imports JAX, which starts threads, and a process
    that forks after that may deadlock (MCTS root parallelism, the web app's and the book
    builder's worker processes fork)."""
    learning = [item for item in items if "tests/learning/" in item.nodeid
                or item.nodeid.startswith("learning/")]
    others = [item for item in items if item not in learning]
    items[:] = others + learning


# -- skips allowed in CI ---------------------------------------------------------------------------
EXTRAS = "|".join(tomllib.loads((ROOT / "pyproject.toml").read_text())
                  ["project"]["optional-dependencies"])

# A skip says why in its reason; with --strict-skips, one of these must name it. Any other skip
# (a game missing from the build, a file not found, a tool not installed) fails the run.
ALLOWED_SKIPS = {
    "no browser": re.compile(r"\bneeds? Debian's chromium\b"),
    # the extra is named as pyproject.toml names it: "the web extra", "the [train] extra"
    "no optional extra": re.compile(rf"\[?\b(?:{EXTRAS})\]? extra\b"),
}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--strict-skips", action="store_true",
                     help="fail the run on a skip whose reason is not allowed (no browser, no "
                          "optional extra: ALLOWED_SKIPS in tests/conftest.py)")


def skip_reason(report: pytest.CollectReport | pytest.TestReport) -> str:
    """The reason a skipped report gives (as ``-rs`` prints it)."""
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def is_allowed(reason: str) -> bool:
    return any(pattern.search(reason) for pattern in ALLOWED_SKIPS.values())


class StrictSkips:
    """Collects the skips whose reason is not allowed, of collection and of tests; the
    session's exit status is then a failure, and the summary lists them."""

    def __init__(self) -> None:
        self.refused: list[tuple[str, str]] = []  # (where, reason)

    def note(self, report: pytest.CollectReport | pytest.TestReport) -> None:
        if report.skipped and not hasattr(report, "wasxfail"):  # (an xfail is no skip)
            reason = skip_reason(report)
            if not is_allowed(reason):
                self.refused.append((report.nodeid, reason))

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        self.note(report)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.note(report)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.refused and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.refused:
            return
        terminalreporter.section(f"{len(self.refused)} skips not allowed (--strict-skips)",
                                 red=True)
        for where, reason in self.refused:
            terminalreporter.line(f"{where}: {reason}")
        terminalreporter.line("allowed: " + ", ".join(ALLOWED_SKIPS)
                              + " (tests/conftest.py, ALLOWED_SKIPS)")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--strict-skips"):
        config.pluginmanager.register(StrictSkips(), "strict-skips")
