"""A skip cannot hide a failure in CI: with ``--strict-skips`` (``.ci/run``), a skip whose reason
is not an allowed one (no browser, no optional extra) fails the run. Checked here on a planted
suite run with this suite's own conftest."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PLANTED = '''
import pytest

def test_passes():
    assert True

def test_needs_an_extra():
    pytest.importorskip("yipan_no_such_module", reason="the planted test needs it (the web extra)")

def test_needs_a_browser():
    pytest.skip("browser tests need Debian's chromium at /usr/bin/chromium")

def test_hides_a_missing_game():
    pytest.skip("the game is not registered in this build")

@pytest.mark.skipif(True, reason="gnugo is not installed")
def test_needs_a_tool():
    pass

@pytest.mark.xfail(reason="a known bug")
def test_known_bug():
    assert False
'''

PLANTED_MODULE_SKIP = '''
import pytest

pytest.skip("no puzzle file found", allow_module_level=True)
'''


def run_planted(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """The planted suite beside a copy of this suite's conftest and pyproject.toml."""
    tests = tmp_path / "tests"
    tests.mkdir(exist_ok=True)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copy(ROOT / "tests" / "conftest.py", tests / "conftest.py")
    (tests / "test_planted.py").write_text(PLANTED)
    (tests / "test_planted_module.py").write_text(PLANTED_MODULE_SKIP)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs",
                           *options, "tests"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)


def refused_lines(output: str) -> list[str]:
    """The lines of the summary's section listing the refused skips."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "skips not allowed" in line)
    return [line for line in lines[start + 1:] if line.startswith("tests/")]


def test_a_skip_not_allowed_fails_the_run_and_is_named(tmp_path: Path) -> None:
    done = run_planted(tmp_path, "--strict-skips")
    assert done.returncode == 1, done.stdout
    assert "3 skips not allowed" in done.stdout
    refused = refused_lines(done.stdout)
    assert len(refused) == 3, done.stdout
    assert any("test_hides_a_missing_game: the game is not registered" in line
               for line in refused)
    assert any("test_needs_a_tool: gnugo is not installed" in line for line in refused)
    assert any("test_planted_module.py: no puzzle file found" in line for line in refused)
    assert not any("needs_an_extra" in line or "needs_a_browser" in line for line in refused)


def test_allowed_skips_pass_and_every_skip_is_said(tmp_path: Path) -> None:
    done = run_planted(tmp_path, "--strict-skips", "-k", "passes or extra or browser or bug",
                       "--ignore", "tests/test_planted_module.py")
    assert done.returncode == 0, done.stdout
    assert "skips not allowed" not in done.stdout
    assert "the planted test needs it (the web extra)" in done.stdout  # (-rs)
    assert "Debian's chromium" in done.stdout


def test_without_the_option_a_skip_is_only_a_skip(tmp_path: Path) -> None:
    done = run_planted(tmp_path)
    assert done.returncode == 0, done.stdout
    assert "skips not allowed" not in done.stdout
