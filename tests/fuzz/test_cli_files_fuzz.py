"""The CLI's files under generated command lines: the commands that read or write a file a
user names get special and endless files among their inputs and outputs (a named pipe, links
to /dev/zero and /dev/null, a folder, a dangling link, a missing folder, junk, an empty
file), all inside a temporary folder, mixed with hostile words. Every line ends with exit
status 0, 1 or 2 and no traceback, within a time per line (a reader of an endless input
would never end); nothing but a regular file is ever written, and every special file is
left as it was.

Each line runs in a child forked from a server that has yipan imported (``multiprocessing``'s
forkserver), so a line costs its own work, not an interpreter's start. A few dozen lines run
by default; ``YIPAN_FUZZ_FILE_LINES=3000`` runs more (``YIPAN_FUZZ_FILE_SEED`` draws other
lines, ``YIPAN_FUZZ_FILE_TIMEOUT`` is the seconds a line may take before it counts as hung),
and ``-s`` shows the counts.
"""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import os
import random
import shutil
import signal
import stat
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from yipan.cli.main import COMMAND_MODULES

LINES = int(os.environ.get("YIPAN_FUZZ_FILE_LINES", "24"))
SEED = int(os.environ.get("YIPAN_FUZZ_FILE_SEED", "30"))
TIMEOUT = float(os.environ.get("YIPAN_FUZZ_FILE_TIMEOUT", "90"))  # a hang guard, not a speed
SRC = str(Path(__file__).resolve().parents[2] / "src")

HOSTILE = ["", "-", "--", "²", "9" * 500, "\x00", "nan", "-1", "0", "--json", "--time",
           "0.01", "--depth", "2", "--nodes", "50", "5", "a1"]

# the paths drawn as inputs and as outputs, by their names in the temporary folder
INPUTS = ["fifo", "zero", "null", "folder", "dangling", "missing/x", "empty", "junk", "big",
          "damaged.sgf", "batch.txt", "link", "folder/", "", "."]
OUTPUTS = ["fifo", "zero", "null", "folder", "dangling", "missing/x", "existing", "link",
           "folder/", "", ".", "..", "new.out", "new.out", "new.out"]
FOLDERS = ["fifo", "zero", "folder", "dangling", "missing/x", "existing", "newdir", "newdir"]

READERS = ["yipan.books", "yipan.learning.network", "yipan.games.go.hooks",
           "yipan.games.tictactoe.rules", "yipan.games.kuhn.rules", "yipan.search.cfr"]

# (weight, template): IN an input, OUT an output, DIR a folder to write into, STDIN a batch
# read from standard input (fed from /dev/zero or from nothing)
TEMPLATES = [
    (6, ["analyze", "tictactoe", "--ai", "puct", "--nodes", "20", "--network", "IN"]),
    (4, ["analyze", "connect4", "--ai", "net", "--network", "IN"]),
    (3, ["play", "tictactoe", "--ai", "net", "--network", "IN"]),
    (6, ["analyze", "go", "--size", "9", "--nodes", "20", "--sgf", "IN"]),
    (3, ["play", "go", "--size", "9", "--sgf", "IN", "--save", "OUT"]),
    (1, ["play", "go", "--size", "9", "--save", "OUT"]),
    (6, ["solve", "tictactoe", "--batch", "IN"]),
    (3, ["solve", "tictactoe", "--batch", "-", "STDIN"]),
    (6, ["solve", "kuhn", "--iterations", "5", "--save", "OUT"]),
    (6, ["book", "build", "tictactoe", "--depth", "1", "--output", "OUT"]),
    (2, ["train", "tictactoe", "--from-solver", "4", "--epochs", "1", "--hidden", "4",
         "--output", "OUT", "--start", "IN"]),
    (1, ["train", "tictactoe", "--from-solver", "4", "--epochs", "1", "--hidden", "4",
         "--output", "OUT"]),
    (1, ["tablebase", "build", "chess", "KQK", "--workers", "1", "--output", "DIR"]),
    (3, ["tablebase", "info", "chess", "--folder", "DIR"]),
]

CHILD = """
import os, sys, traceback
assert sys.modules["yipan"].__file__.startswith(job["src"]), sys.modules["yipan"].__file__
os.setsid()  # its own group: a line that hangs is stopped with every process it started
os.chdir(job["cwd"])
for fd, path, flags in ((0, job["stdin"], os.O_RDONLY),
                        (1, job["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                        (2, job["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
    os.dup2(os.open(path, flags, 0o644), fd)
sys.stdin = open(0, "r", closefd=False)
sys.stdout = open(1, "w", closefd=False)
sys.stderr = open(2, "w", closefd=False)
try:
    from yipan.cli.main import main
    status = main(job["argv"])
except SystemExit as stop:
    status = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
except BaseException:
    traceback.print_exc()
    status = 3
sys.stdout.flush()
sys.stderr.flush()
os._exit(status)
"""


def build_folder(folder: Path, rng: random.Random) -> None:
    """The files the lines name: special ones (only links to devices, never devices
    written), and regular ones a reader refuses or takes."""
    os.mkfifo(folder / "fifo")
    (folder / "zero").symlink_to("/dev/zero")
    (folder / "null").symlink_to("/dev/null")
    (folder / "folder").mkdir()
    (folder / "dangling").symlink_to(folder / "nowhere")
    (folder / "target").write_text("kept")
    (folder / "link").symlink_to(folder / "target")
    (folder / "existing").write_text("a regular file, which a write may replace")
    (folder / "empty").write_bytes(b"")
    (folder / "junk").write_bytes(rng.randbytes(4096))
    (folder / "big").write_bytes(bytes(5 << 20))  # more than an SGF ever holds
    (folder / "damaged.sgf").write_text("(;GM[1]SZ[9];B[zz]")
    (folder / "batch.txt").write_text("5 0\n1 0\n")


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry's kind, a link's target, and the target file's bytes."""
    shapes: dict[str, tuple] = {}
    for path in sorted(walk(folder)):
        mode = os.lstat(path).st_mode
        link = os.readlink(path) if stat.S_ISLNK(mode) else None
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.name == "target" else None
        shapes[str(path.relative_to(folder))] = (stat.S_IFMT(mode), link, digest)
    return shapes


def walk(folder: Path) -> Iterator[Path]:
    for root, folders, files in os.walk(folder, followlinks=False):
        for name in folders + files:
            yield Path(root) / name


def draw_line(rng: random.Random) -> tuple[list[str], str]:
    """A command line (its paths named relative to the folder it runs in, ``@``-marked) and
    what its standard input is."""
    template = rng.choices([t for _, t in TEMPLATES], [w for w, _ in TEMPLATES])[0]
    stdin = "null"
    words: list[str] = []
    for word in template:
        if word == "STDIN":
            stdin = rng.choice(["zero", "null"])
        elif word == "IN":
            words.append("@" + rng.choice(INPUTS))
        elif word == "OUT":
            words.append("@" + rng.choice(OUTPUTS))
        elif word == "DIR":
            words.append("@" + rng.choice(FOLDERS))
        else:
            words.append(word)
    for _ in range(rng.choice([0, 0, 0, 1, 2])):  # hostile words, after the command's name
        words.insert(rng.randint(2, len(words)), rng.choice(HOSTILE))
    return words, stdin


@dataclass
class Tally:
    lines: int = 0
    statuses: Counter = field(default_factory=Counter)
    tracebacks: list = field(default_factory=list)
    hangs: list = field(default_factory=list)
    not_regular: list = field(default_factory=list)
    changed: list = field(default_factory=list)
    refusals: list = field(default_factory=list)  # an exit 2 that was not one error line

    def problems(self) -> list:
        return self.tracebacks + self.hangs + self.not_regular + self.changed + self.refusals


def run_line(context: multiprocessing.context.BaseContext, folder: Path, logs: Path,
             argv: list[str], stdin: str) -> tuple[int | None, str]:
    """The exit status (None: stopped after TIMEOUT seconds) and the standard error."""
    job = {"argv": argv, "cwd": str(folder), "stdin": str(folder / stdin if stdin != "null"
                                                          else os.devnull),
           "out": str(logs / "out"), "err": str(logs / "err"), "src": SRC}
    child = context.Process(target=exec, args=(CHILD, {"job": job}))
    child.start()
    child.join(TIMEOUT)
    status = child.exitcode
    if status is None:
        with contextlib.suppress(ProcessLookupError):  # ended just now
            os.killpg(child.pid, signal.SIGKILL)
        child.join()
    return status, (logs / "err").read_text(errors="replace")


def restore(folder: Path, baseline: dict[str, tuple]) -> None:
    """What a line made is removed; the regular file a write may replace is made again."""
    for path in sorted(walk(folder), key=lambda p: -len(p.parts)):
        if str(path.relative_to(folder)) not in baseline:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
    (folder / "existing").write_text("a regular file, which a write may replace")


def test_command_lines_with_special_files_end_cleanly_and_write_only_regular_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(SEED)
    folder, logs = tmp_path / "files", tmp_path / "logs"
    folder.mkdir()
    logs.mkdir()
    build_folder(folder, rng)
    baseline = snapshot(folder)
    # the server imports this tree's yipan (it is started with this environment; it does
    # not take this process's sys.path)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        filter(None, [SRC, os.environ.get("PYTHONPATH")])))
    context = multiprocessing.get_context("forkserver")
    # every command's module, and the readers the lines reach, imported once in the server
    context.set_forkserver_preload(["yipan.cli.main", *COMMAND_MODULES, *READERS])
    tally = Tally()
    for _ in range(LINES):
        words, stdin = draw_line(rng)
        argv = [word.removeprefix("@") for word in words]  # names in the child's folder
        status, err = run_line(context, folder, logs, argv, stdin)
        tally.lines += 1
        tally.statuses[status] += 1
        if status is None:
            tally.hangs.append(argv)
        elif status not in (0, 1, 2) or "Traceback" in err:
            tally.tracebacks.append((argv, status, err[-600:]))
        elif status == 2 and [line.startswith("yipan: error:")
                              for line in err.splitlines()].count(True) != 1:
            tally.refusals.append((argv, err[-400:]))
        now = snapshot(folder)
        for name, shape in baseline.items():
            if now.get(name) != shape and name not in ("existing",):
                tally.changed.append((argv, name, shape, now.get(name)))
        for name, (kind, _link, _digest) in now.items():
            if name not in baseline and kind not in (stat.S_IFREG, stat.S_IFDIR):
                tally.not_regular.append((argv, name, stat.filemode(kind)))
            if name not in baseline and name.endswith(".tmp"):
                tally.not_regular.append((argv, name, "a temporary file left"))
        if now.get("existing", (stat.S_IFREG,))[0] != stat.S_IFREG:
            tally.not_regular.append((argv, "existing", "no longer a regular file"))
        restore(folder, baseline)
    print(f"\nfile fuzz: {tally.lines} lines, exit statuses {dict(tally.statuses)}, "
          f"{len(tally.tracebacks)} tracebacks, {len(tally.hangs)} hangs, "
          f"{len(tally.not_regular)} non-regular files written, {len(tally.changed)} special "
          f"files changed, {len(tally.refusals)} refusals not in one line")
    assert not tally.problems(), tally.problems()[:5]
