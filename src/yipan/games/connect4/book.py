"""Opening books for Connect Four: every position up to ``depth`` plies with its exact score.

A book stores each position once for it and its mirror image, under the mirror-folded key
``min(current + mask, mirror(current + mask))``, sorted, so the kernel probes it by binary
search. File layout (little-endian)::

    b"YIPANC4\x02" | header length (uint32) | header (JSON) | keys (int64 x n)
                   | scores (int8 x n) | sha256 of every byte before it (32 bytes)

The header is a JSON object of exactly ``game``, ``width``, ``height``, ``depth`` and
``count``, each checked (types, ranges, the board's size rules); the checksum covers the
header as well as the table. A file whose checksum, header, size or order does not match is
refused (``CorruptBookError``, one line).

Building (``build``) solves the deepest ply first, in *units of work*: plain lists of
``(current, mask, moves)`` positions that ``solve_unit`` turns into scores anywhere (a local
process pool here; a cluster could take the same lists). Each finished unit is saved
atomically in a work folder beside the book, so an interrupted build resumes where it stopped.
The shallower plies then follow from the deepest one in moments.

Probing: ``make_solver`` gives a solver that probes the shipped book, compiled and kept (the
hooks' ``analyze`` and ``solve`` and the solver's labels share it).
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...books.book import CorruptBookError
from ...core import YipanError
from ...core.files import FileRefusedError, read_capped, write_atomically
from . import kernel
from .rules import ConnectFour, Position, check_size, has_four

if TYPE_CHECKING:
    from .solver import Solver

MAGIC = b"YIPANC4\x02"
MAX_HEADER = 1024  # bytes: the header is five small fields
MAX_BOOK_BYTES = 4 << 30  # nine bytes a position: books to ply 16 and beyond
UNIT_SIZE = 64  # positions per unit of work: siblings share a table, so not too few
# A unit's solver on the full board: 2^26 slots (512 MB) let 64 neighbours at ply 8 share
# their subtrees, and enhanced transposition cut-offs pay in such deep searches (the
# solver's defaults suit the short searches of a game); benchmarks/book_cost.py --tables
# compares them on whole units. Smaller boards keep the solver's defaults.
UNIT_TABLE_BITS = 26
UNIT_FLAGS = kernel.ETC


@dataclass(frozen=True)
class OpeningBook:
    """Exact scores of every position up to ``depth`` plies (``table``: keys over scores)."""

    width: int
    height: int
    depth: int
    table: np.ndarray  # int64, shape (2, n): sorted mirror-folded keys, then scores

    def __len__(self) -> int:
        return int(self.table.shape[1])

    def score(self, game: ConnectFour, position: Position) -> int | None:
        """The exact score of ``position`` for its side to move, or None if not in the book."""
        if position.moves > self.depth:
            return None
        key = game.key(position)
        keys = self.table[0]
        i = int(np.searchsorted(keys, key))
        if i < len(keys) and keys[i] == key:
            return int(self.table[1, i])
        return None


# -- file format ------------------------------------------------------------------------------
def _payload(table: np.ndarray) -> bytes:
    return table[0].astype("<i8").tobytes() + table[1].astype("i1").tobytes()


def write_book(book: OpeningBook, path: str | Path) -> None:
    """Write atomically (temp file in the same folder, fsync, rename) with a checksum."""
    header = json.dumps({"game": "connect4", "width": book.width, "height": book.height,
                         "depth": book.depth, "count": len(book)}).encode()
    data = MAGIC + len(header).to_bytes(4, "little") + header + _payload(book.table)
    write_atomically(path, data + hashlib.sha256(data).digest())


def read_book(path: str | Path) -> OpeningBook:
    """Load and verify a book; raises CorruptBookError naming what is wrong."""
    path = Path(path)
    try:
        data = read_capped(path, MAX_BOOK_BYTES, "book")
    except FileRefusedError as error:  # "book PATH: no such file", "... is a folder"
        raise CorruptBookError(f"cannot read {error}") from None
    return parse_book(data, str(path))


def parse_book(data: bytes, name: str = "book") -> OpeningBook:
    start = len(MAGIC) + 4
    if not data.startswith(MAGIC) or len(data) < start + 32:
        raise CorruptBookError(f"{name} is not a yipan Connect Four book (or cut short)")
    body, digest = data[:-32], data[-32:]
    if hashlib.sha256(body).digest() != digest:
        raise CorruptBookError(f"{name}: checksum mismatch, the book is damaged or altered")
    length = int.from_bytes(data[len(MAGIC):start], "little")
    if length > MAX_HEADER or start + length > len(body):
        raise CorruptBookError(f"{name}: the book's header is damaged")
    try:
        width, height, depth, count = _checked_header(data[start:start + length])
    except (ValueError, RecursionError) as error:
        raise CorruptBookError(f"{name}: the book's header is damaged "
                               f"({str(error)[:80]})") from None
    payload = body[start + length:]
    if len(payload) != 9 * count:
        raise CorruptBookError(f"{name}: expected {count} entries, the file is cut or padded")
    table = np.empty((2, count), np.int64)
    table[0] = np.frombuffer(payload[:8 * count], "<i8")
    table[1] = np.frombuffer(payload[8 * count:], "i1")
    if count and not (np.diff(table[0]) > 0).all():
        raise CorruptBookError(f"{name}: keys are not sorted")
    return OpeningBook(width, height, depth, table)


def _checked_header(text: bytes) -> tuple[int, int, int, int]:
    """(width, height, depth, count) from the header, or a ValueError saying what is wrong."""
    header = json.loads(text)
    fields = ("game", "width", "height", "depth", "count")
    if not isinstance(header, dict) or set(header) != set(fields):
        raise ValueError(f"expected the fields {', '.join(fields)}")
    if header["game"] != "connect4":
        raise ValueError("a book for another game")
    numbers = [header[field] for field in fields[1:]]
    if not all(type(value) is int for value in numbers):
        raise ValueError("width, height, depth and count must be whole numbers")
    width, height, depth, count = numbers
    check_size(width, height)
    if not 0 <= depth <= width * height or count < 0:
        raise ValueError("depth or count out of range")
    return width, height, depth, count


def shipped_book_path(width: int = 7, height: int = 6) -> Path:
    return Path(str(resources.files("yipan") / "data" / f"connect4-{width}x{height}.book"))


_SHIPPED: dict[tuple[int, int], OpeningBook | None] = {}


def shipped_book(width: int = 7, height: int = 6) -> OpeningBook | None:
    """The book shipped with yipan for this board size, if any (loaded once, verified)."""
    if (width, height) not in _SHIPPED:
        path = shipped_book_path(width, height)
        _SHIPPED[(width, height)] = read_book(path) if path.is_file() else None
    return _SHIPPED[(width, height)]


@lru_cache(maxsize=2)
def make_solver(width: int, height: int, use_book: bool = True,
                table_bits: int | None = None) -> Solver:
    """A solver with the shipped book (when one exists for this board), compiled and ready;
    kept for the next position (its table is emptied before each, as the benchmark asks, by
    clearing only the slots the last search wrote)."""
    from .solver import DEFAULT_TABLE_BITS, Solver

    solver = Solver(ConnectFour(width, height),
                    table_bits=DEFAULT_TABLE_BITS if table_bits is None else table_bits,
                    book=shipped_book(width, height) if use_book else None)
    solver.warm_up()
    return solver


# -- positions ------------------------------------------------------------------------------
def positions_at(game: ConnectFour, ply: int) -> list[Position]:
    """Every position after ``ply`` moves with the game still going, one per mirror pair,
    siblings next to each other (neighbours share subtrees, which a unit's table exploits)."""
    layer = [game.initial_state()]
    for _ in range(ply):
        found: dict[int, Position] = {}
        for position in layer:
            for col in game.legal_moves(position):
                child = game.play(position, col)
                if not has_four(child.current ^ child.mask, game.height):
                    found.setdefault(game.key(child), child)
        layer = list(found.values())
    return layer


def units_of(positions: list[Position], size: int = UNIT_SIZE) -> list[list[tuple]]:
    return [[tuple(p) for p in positions[i:i + size]] for i in range(0, len(positions), size)]


_WORKER_SOLVERS: dict[tuple[int, int], object] = {}


def solve_unit(width: int, height: int, positions: list[tuple[int, int, int]]
               ) -> list[tuple[int, int]]:
    """Solve one unit of work: ``[(current, mask, moves), ...]`` -> ``[(key, score), ...]``.

    Self-contained (plain ints in and out), so a unit can be solved on any machine. The
    table is kept across the unit's positions: they are neighbours and share subtrees.
    """
    from .solver import Solver

    game = ConnectFour(width, height)
    solver = _WORKER_SOLVERS.get((width, height))
    if solver is None:
        solver = _WORKER_SOLVERS[(width, height)] = \
            Solver(game, table_bits=UNIT_TABLE_BITS, flags=UNIT_FLAGS) if game.cells >= 42 \
            else Solver(game)
    out = []
    for current, mask, moves in positions:
        position = Position(current, mask, moves)
        out.append((game.key(position), solver.solve(position).score))  # type: ignore
    return out


def _solve_unit_star(job: tuple[int, int, list[tuple[int, int, int]]]) -> list[tuple[int, int]]:
    return solve_unit(*job)


# -- building -------------------------------------------------------------------------------
@dataclass(frozen=True)
class BuildReport:
    depth: int
    positions: int
    seconds: float
    units_done_before: int  # units found already solved (a resumed build)


def build(game: ConnectFour, path: str | Path, depth: int, *, workers: int = 2,
          unit_size: int | None = None, progress: Callable[[str], None] | None = None,
          map_units: Callable[[Iterable], Iterator] | None = None) -> BuildReport:
    """Solve every position up to ``depth`` plies and write the book to ``path``.

    Resumable: finished units are kept in ``<path>.work/`` until the book is written.
    ``map_units`` may replace the local process pool (e.g. to send units to a cluster); it
    takes an iterable of ``(width, height, positions)`` jobs and yields their results in order.
    """
    say = progress or (lambda _text: None)
    start = time.perf_counter()
    path = Path(path)
    work = path.with_name(path.name + ".work")
    work.mkdir(parents=True, exist_ok=True)
    deepest = positions_at(game, depth)
    if unit_size is None:  # enough units to keep every worker busy to the end
        unit_size = max(1, min(UNIT_SIZE, len(deepest) // (8 * max(1, workers))))
    plan = {"width": game.width, "height": game.height, "depth": depth, "unit_size": unit_size}
    plan_file = work / "plan.json"
    if plan_file.exists() and _read_plan(plan_file, say) not in (plan, None):
        raise YipanError(f"{work} holds a build with other settings; remove it to start over")
    write_atomically(plan_file, json.dumps(plan))

    units = units_of(deepest, unit_size)
    done = {index for index in range(len(units))
            if _unit_is_sound(work, index, game, units[index], say)}
    todo = [i for i in range(len(units)) if i not in done]
    say(f"ply {depth}: {len(deepest)} positions in {len(units)} units, "
        f"{len(done)} already solved")
    jobs = [(game.width, game.height, units[i]) for i in todo]
    pool = None
    if map_units is None and workers > 1 and jobs:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # an executor, not multiprocessing.Pool: a worker that dies breaks the build (which
        # can be resumed) instead of being replaced while its unit is waited for forever
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
        results: Iterable = pool.map(_solve_unit_star, jobs)
    else:
        results = (map_units or (lambda js: map(_solve_unit_star, js)))(jobs)
    failed: list[int] = []
    try:
        for count, (index, result) in enumerate(zip(todo, results, strict=True), 1):
            error = getattr(result, "error", None)
            if error is not None:  # a unit the runner skipped (on_error="skip")
                failed.append(index)
                current, mask, moves = units[index][0]
                say(f"unit {index} ({len(units[index])} positions from ply {moves}, the first "
                    f"with key {game.key(Position(current, mask, moves))}): {error}; skipped")
                continue
            saved = io.BytesIO()
            np.save(saved, np.array(result, np.int64).reshape(-1, 2))
            write_atomically(_unit_file(work, index), saved.getvalue())
            if count % 10 == 0 or count == len(todo):
                say(f"  {count}/{len(todo)} units, {time.perf_counter() - start:.0f} s")
    except BrokenProcessPool:
        raise YipanError(f"a worker process died; run the build again to resume from {work}")\
            from None
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    if failed:
        raise YipanError(f"{len(failed)} unit(s) failed ({', '.join(map(str, failed[:10]))}"
                         f"{'...' if len(failed) > 10 else ''}): the book is not written; the "
                         f"others are saved in {work}, and running the build again retries "
                         "only these")

    solved = np.concatenate([_load_unit(_unit_file(work, i)) for i in range(len(units))]
                            or [np.zeros((0, 2), np.int64)])
    known = dict(zip(solved[:, 0].tolist(), solved[:, 1].tolist(), strict=True))
    for ply in range(depth - 1, -1, -1):  # each shallower ply from the one below it
        for position in positions_at(game, ply):
            known[game.key(position)] = _score_from_children(game, position, known)
        say(f"ply {ply} done")
    keys = np.array(sorted(known), np.int64)
    table = np.vstack([keys, np.array([known[k] for k in keys.tolist()], np.int64)])
    write_book(OpeningBook(game.width, game.height, depth, table), path)
    shutil.rmtree(work)
    return BuildReport(depth, len(keys), time.perf_counter() - start, len(done))


def _unit_file(work: Path, index: int) -> Path:
    return work / f"unit-{index:06d}.npy"


def _load_unit(path: Path) -> np.ndarray:
    """A unit's ``(key, score)`` rows; a ValueError (or OSError) when the file is damaged."""
    table = np.load(path, allow_pickle=False)
    if table.dtype != np.int64 or table.ndim != 2 or table.shape[1] != 2:
        raise ValueError("not a table of (key, score) rows")
    return table


def _unit_is_sound(work: Path, index: int, game: ConnectFour, unit: list[tuple],
                   say: Callable[[str], None]) -> bool:
    """Whether unit ``index`` is solved and saved whole: its file reads back as one row per
    position of the unit, with the unit's keys. A damaged file is removed (solved again)."""
    path = _unit_file(work, index)
    if not path.exists():
        return False
    try:
        table = _load_unit(path)
        keys = [game.key(Position(*position)) for position in unit]
        if table[:, 0].tolist() != keys:
            raise ValueError("its positions are not this unit's")
    except (OSError, ValueError, EOFError) as error:
        say(f"{path.name} is damaged ({str(error)[:60]}); it will be solved again")
        path.unlink(missing_ok=True)
        return False
    return True


def _read_plan(path: Path, say: Callable[[str], None]) -> dict | None:
    """The saved plan of a build, or None (said) when the file is damaged."""
    try:
        plan = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(plan, dict):
            return plan
    except (OSError, ValueError, RecursionError):
        pass
    say(f"{path.name} is damaged; it is written again from this build's settings")
    return None


def _score_from_children(game: ConnectFour, position: Position, known: dict[int, int]) -> int:
    """Negamax over one ply when every child's score is known."""
    best = None
    for col in game.legal_moves(position):
        if game.is_winning_move(position, col):
            return (game.cells + 1 - position.moves) // 2
        child = game.play(position, col)
        score = -known[game.key(child)]
        best = score if best is None else max(best, score)
    assert best is not None
    return best
