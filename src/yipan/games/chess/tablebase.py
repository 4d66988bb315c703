"""Endgame tables: which to build, building them (``retrograde``), the files, probing.

A table is named by its material, white's pieces then black's, each side's king first and
the rest strongest first: ``KQK``, ``KRKP``, ``KBNK``. Only one colour's version is built:
the stronger side (by material, then by name) is white; a position with the colours the other
way round is probed mirrored (board flipped, colours swapped). Up to four pieces, at most one
pawn. Building a table builds the smaller ones its captures and promotions lead into first.

A table file ``KRK.tb`` (written atomically)::

    yipan-tablebase 1
    {"signature": "KRK", "pieces": 3, "entries": 524288, "longest_mate_plies": 31, ...}
    <zlib-compressed int16 little-endian entries, the layout of retrograde.py>
    sha256 <hex digest of every byte above this line>

A file whose checksum, header or size does not match is refused (``DamagedTableError``).
The tables are found in ``$YIPAN_TABLEBASES`` or ``~/.cache/yipan/tablebases`` (``yipan
tablebase build`` writes there unless ``--output`` says otherwise).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ...core import YipanError
from ...core.files import FileRefusedError, read_capped, write_atomically
from ...core.text import quote
from . import retrograde
from .board import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK
from .rules import Position, bitboard

MAGIC = b"yipan-tablebase 1\n"
MAX_TABLE_BYTES = 1 << 30  # a compressed table of a few pieces is a few MiB
SUFFIX = ".tb"
LETTERS = {"K": KING, "Q": QUEEN, "R": ROOK, "B": BISHOP, "N": KNIGHT, "P": PAWN}
ORDER = "KQRBNP"  # within a side: the king, then strongest first
VALUE = {"K": 0, "Q": 9, "R": 5, "B": 3, "N": 3, "P": 1}
DRAWN_MATERIAL = {"K", "KN", "KB"}  # a side alone with these cannot mate a bare king
ENVIRONMENT = "YIPAN_TABLEBASES"
ALL_THREE = ("KQK", "KRK", "KBK", "KNK", "KPK")
FOUR_PIECE = ("KQKQ", "KQKR", "KQKB", "KQKN", "KQKP", "KRKR", "KRKB", "KRKN", "KRKP",
              "KBKB", "KBKN", "KBKP", "KNKN", "KNKP", "KQQK", "KQRK", "KQBK", "KQNK",
              "KRRK", "KRBK", "KRNK", "KBBK", "KBNK", "KNNK", "KQPK", "KRPK", "KBPK", "KNPK")


class TablebaseError(YipanError, ValueError):
    """A table name that is not one we build (too many pieces, two pawns, no kings...)."""


class DamagedTableError(YipanError, ValueError):
    """A table file that fails its checks (checksum, header, size)."""


@dataclass(frozen=True, slots=True)
class Material:
    """The pieces of each side, as letters in ``ORDER`` (``"KR"``, ``"K"``)."""

    white: str
    black: str

    @property
    def name(self) -> str:
        return self.white + self.black

    @property
    def pieces(self) -> int:
        return len(self.white) + len(self.black)

    def mirrored(self) -> Material:
        return Material(self.black, self.white)

    def canonical(self) -> tuple[Material, bool]:
        """The version built (the stronger side white), and whether it is this one mirrored."""
        def strength(side: str) -> tuple[int, str]:
            return sum(VALUE[letter] for letter in side), "".join(
                chr(100 - ORDER.index(letter)) for letter in side)
        if strength(self.white) >= strength(self.black):
            return self, False
        return self.mirrored(), True

    def drawn(self) -> bool:
        """Neither side can mate (the Game's insufficient material for these tables)."""
        return self.white in DRAWN_MATERIAL and self.black in DRAWN_MATERIAL and (
            self.white == "K" or self.black == "K")

    def kinds_and_colours(self) -> tuple[np.ndarray, np.ndarray]:
        kinds = [LETTERS[letter] for letter in self.white + self.black]
        colours = [0] * len(self.white) + [1] * len(self.black)
        return np.array(kinds, dtype=np.int64), np.array(colours, dtype=np.int64)


def _side(text: str) -> str:
    return "K" + "".join(sorted(text, key=ORDER.index))


def parse_signature(text: str) -> Material:
    """``KRKP`` (or ``krkp``) as Material; a TablebaseError for what no table covers."""
    name = str(text).strip().upper()
    if not name or len(name) > 8 or not name.isascii() or any(c not in LETTERS for c in name):
        raise TablebaseError(f"not a table name: {quote(str(text))} (e.g. KQK, KRKP)")
    if name[0] != "K" or name.count("K") != 2:
        raise TablebaseError(f"a table name has two kings, white's first: {quote(name)}")
    split = name.index("K", 1)
    material = Material(_side(name[1:split]), _side(name[split + 1:]))
    if material.pieces > retrograde.MAX_PIECES:
        raise TablebaseError(f"{name}: tables go up to {retrograde.MAX_PIECES} pieces")
    if name.count("P") > 1:
        raise TablebaseError(f"{name}: tables here have at most one pawn")
    return material


def material_of(state: Position) -> Material:
    sides = []
    for colour in (state.white, state.black):
        letters = ""
        for letter in ORDER:
            bits = bitboard(state, LETTERS[letter]) & colour
            letters += letter * bits.bit_count()
        sides.append(letters)
    return Material(sides[0], sides[1])


# -- building -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Table:
    """A built table: its material and entries (``retrograde`` layout)."""

    material: Material
    values: np.ndarray
    longest_mate_plies: int
    seconds: float = 0.0

    def value(self, side: int, squares: Iterable[int]) -> int:
        index = side
        for square in squares:
            index = (index << 6) | square
        return int(self.values[index])


def dependencies(material: Material) -> list[Material]:
    """The canonical tables the captures and promotions of ``material`` lead into."""
    found: dict[str, Material] = {}
    pieces = list(material.white + material.black)
    split = len(material.white)
    for captured in [None, *range(len(pieces))]:
        if captured is not None and pieces[captured] == "K":
            continue
        for promotion in [None, *"QRBN"]:
            if captured is None and promotion is None:
                continue
            if promotion is not None and "P" not in pieces:
                continue
            white = [p for i, p in enumerate(pieces[:split]) if i != captured]
            black = [p for i, p in enumerate(pieces[split:], split) if i != captured]
            if promotion is not None:
                if "P" in white:
                    white[white.index("P")] = promotion
                elif "P" in black:
                    black[black.index("P")] = promotion
                else:
                    continue  # the pawn was the piece captured
            sub = Material(_side("".join(white[1:])), _side("".join(black[1:])))
            if sub.drawn() or sub.pieces < 3:
                continue
            canonical, _ = sub.canonical()
            found[canonical.name] = canonical
    return list(found.values())


def _exits(material: Material, built: dict[str, Table]) -> tuple:
    """The exit arrays of ``retrograde.initialise`` for a table, over the built sub-tables."""
    pieces = list(material.white + material.black)
    split = len(material.white)
    pawn = pieces.index("P") if "P" in pieces else None
    exit_of = np.zeros((len(pieces) + 1, 5), dtype=np.int64)
    offsets: list[int] = []
    counts: list[int] = []
    mirrors: list[int] = []
    orders: list[list[int]] = []
    chunks: list[np.ndarray] = []
    position = 0
    placed: dict[str, int] = {}
    promotions: dict[int, str] = {0: "", KNIGHT: "N", BISHOP: "B", ROOK: "R", QUEEN: "Q"}
    for captured in range(-1, len(pieces)):
        for promotion, letter in promotions.items():
            if (captured == -1 and promotion == 0) or (captured >= 0 and pieces[captured] == "K"):
                continue
            if promotion and (pawn is None or pawn == captured):
                continue
            slots = [i for i in range(len(pieces)) if i != captured]
            kinds = {i: (letter if promotion and i == pawn else pieces[i]) for i in slots}
            white = [i for i in slots if i < split]
            black = [i for i in slots if i >= split]
            sub = Material("".join(kinds[i] for i in _ordered(white, kinds)),
                           "".join(kinds[i] for i in _ordered(black, kinds)))
            exit_of[captured + 1, promotion] = len(offsets)
            canonical, mirror = sub.canonical()
            if sub.drawn() or sub.pieces < 3:
                offsets.append(-1)
                counts.append(0)
                mirrors.append(0)
                orders.append([0] * retrograde.MAX_PIECES)
                continue
            if canonical.name not in placed:
                placed[canonical.name] = position
                chunks.append(built[canonical.name].values)
                position += built[canonical.name].values.shape[0]
            white_slots = _ordered(white, kinds)
            black_slots = _ordered(black, kinds)
            order = black_slots + white_slots if mirror else white_slots + black_slots
            offsets.append(placed[canonical.name])
            counts.append(len(order))
            mirrors.append(1 if mirror else 0)
            orders.append(order + [0] * (retrograde.MAX_PIECES - len(order)))
    subs = np.concatenate(chunks) if chunks else np.zeros(1, dtype=np.int16)
    return (exit_of, np.array(offsets, dtype=np.int64), np.array(counts, dtype=np.int64),
            np.array(mirrors, dtype=np.int64), np.array(orders, dtype=np.int64), subs)


def _ordered(slots: list[int], kinds: dict[int, str]) -> list[int]:
    """Slots of one side in table order: the king, then strongest first."""
    return sorted(slots, key=lambda i: ORDER.index(kinds[i]))


def build_table(material: Material, built: dict[str, Table]) -> Table:
    """Build one (canonical) table; its sub-tables must be in ``built``."""
    start = time.perf_counter()
    kinds, colours = material.kinds_and_colours()
    count = material.pieces
    size = 2 * 64 ** count
    values = np.zeros(size, dtype=np.int16)
    counters = np.zeros(size, dtype=np.int8)
    exit_ranks = np.zeros(size, dtype=np.int32)
    exit_of, offsets, counts, mirrors, orders, subs = _exits(material, built)
    retrograde.initialise(count, kinds, colours, values, counters, exit_ranks, exit_of,
                          offsets, counts, mirrors, orders, subs)
    retrograde.propagate(count, kinds, colours, values, counters, exit_ranks)
    return Table(material, values, int(values.max()), time.perf_counter() - start)


def plan(names: Iterable[str]) -> list[list[Material]]:
    """The tables to build for ``names`` in levels: a table's sub-tables (its captures and
    promotions) are in earlier levels, and the tables of one level are independent of each
    other (units of work that may be built at once)."""
    level: dict[str, int] = {}
    tables: dict[str, Material] = {}

    def visit(material: Material) -> int:
        if material.name not in level:
            subs = [visit(sub) for sub in dependencies(material)]
            level[material.name] = 1 + max(subs, default=-1)
            tables[material.name] = material
        return level[material.name]

    for name in names:
        visit(parse_signature(name).canonical()[0])
    levels: list[list[Material]] = [[] for _ in range(1 + max(level.values(), default=-1))]
    for name, depth in level.items():  # first met first: the order of the request
        levels[depth].append(tables[name])
    return levels


def build_unit(name: str, sub_files: dict[str, bytes]) -> tuple[bytes, float]:
    """One unit of work: the table ``name`` built from its sub-tables' files (their bytes,
    so that the unit runs on any machine), as the bytes of its own file, and the CPU seconds
    it took (the unit's cost, whatever else the machine runs).

    The file holds nothing of where or when it was built: a table built here, on another
    process or on a cluster is the same, byte for byte."""
    start = time.process_time()
    built = {}
    for sub, data in sub_files.items():
        built[sub] = _table_of_bytes(data, f"{sub}{SUFFIX}")
    table = build_table(parse_signature(name), built)
    data = table_bytes(table)
    return data, time.process_time() - start


MapUnits = Callable[[Callable[..., Any], list[tuple[Any, ...]]], Iterable[Any]]


def build(names: Iterable[str], output: Path, *,
          progress: Callable[[str], None] | None = None,
          map_units: MapUnits | None = None) -> list[Path]:
    """Build the named tables (and those they need) into ``output``; tables already there
    and sound are kept, not rebuilt. Returns the files of the named tables.

    The tables are built level by level (``plan``), each level's as independent units
    (``build_unit``) through ``map_units(function, jobs)`` (one after another here unless
    given, e.g. local processes or a Ray cluster); each file is written atomically as it
    comes back, so an interrupted build resumes with the tables it has."""
    say = progress or (lambda _text: None)
    names = list(names)
    wanted = [parse_signature(name).canonical()[0] for name in names]
    levels = plan(names)
    run = map_units or (lambda function, jobs: (function(*job) for job in jobs))
    output.mkdir(parents=True, exist_ok=True)
    for number, level in enumerate(levels):
        todo = [material for material in level if not _sound(output, material, say)]
        for material in list(todo):
            missing = [sub.name for sub in dependencies(material)
                       if not (output / f"{sub.name}{SUFFIX}").exists()]
            if missing:  # a sub-table whose unit failed (and was skipped)
                say(f"{material.name}: not built (it needs {' '.join(missing)})")
                todo.remove(material)
        if not todo:
            continue
        say(f"level {number}: {len(todo)} table(s) to build: "
            f"{' '.join(m.name for m in todo)}")
        jobs = [(material.name, {sub.name: read_capped(output / f"{sub.name}{SUFFIX}",
                                                       MAX_TABLE_BYTES)
                                 for sub in dependencies(material)}) for material in todo]
        for material, result in zip(todo, run(build_unit, jobs), strict=True):
            if not isinstance(result, tuple):  # a unit that failed, skipped by the runner
                say(f"{material.name}: not built ({getattr(result, 'error', result)})")
                continue
            data, seconds = result
            path = output / f"{material.name}{SUFFIX}"
            write_atomically(path, data)
            table = _table_of_bytes(data, path.name)
            say(f"{material.name}: {table.values.shape[0]:,} positions, longest mate "
                f"{(table.longest_mate_plies + 1) // 2} moves, {seconds:.1f} CPU-s, "
                f"{len(data):,} bytes")
    return [output / f"{material.name}{SUFFIX}" for material in wanted]


def _sound(output: Path, material: Material, say: Callable[[str], None]) -> bool:
    """Whether the table's file is there and whole (a damaged one is said, and rebuilt)."""
    path = output / f"{material.name}{SUFFIX}"
    if not path.exists():
        return False
    try:
        load_table(path)
    except DamagedTableError as error:
        say(f"{material.name}: {error}; building it again")
        return False
    return True


# -- files --------------------------------------------------------------------------------------
def table_bytes(table: Table) -> bytes:
    """The file of a table: nothing in it depends on where or when it was built."""
    header = {"signature": table.material.name, "white": table.material.white,
              "black": table.material.black, "pieces": table.material.pieces,
              "entries": int(table.values.shape[0]),
              "longest_mate_plies": table.longest_mate_plies}
    payload = zlib.compress(table.values.astype("<i2").tobytes(), 6)
    body = MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + payload
    digest = hashlib.sha256(body).hexdigest().encode()
    return body + b"\nsha256 " + digest + b"\n"


def save_table(table: Table, path: Path) -> None:
    write_atomically(path, table_bytes(table))


def load_table(path: Path) -> Table:
    """A table file, checked whole (checksum, header, size); DamagedTableError if not."""
    try:
        data = read_capped(path, MAX_TABLE_BYTES)
    except FileRefusedError as error:
        raise DamagedTableError(str(error)) from None
    return _table_of_bytes(data, Path(path).name)


def _table_of_bytes(data: bytes, name: str) -> Table:
    trailer = data.rfind(b"\nsha256 ")
    if not data.startswith(MAGIC) or trailer < 0:
        raise DamagedTableError(f"{name}: not a yipan table file")
    body, digest = data[:trailer], data[trailer + 8:].strip()
    if hashlib.sha256(body).hexdigest().encode() != digest:
        raise DamagedTableError(f"{name}: checksum mismatch: the table is damaged or altered")
    line_end = body.find(b"\n", len(MAGIC))
    try:
        header = json.loads(body[len(MAGIC):line_end])
        material = parse_signature(header["signature"])
        entries = int(header["entries"])
        # unpacked no further than the table can be: a small file may not unpack to gigabytes
        size = min(2 * 2 * 64 ** material.pieces, MAX_TABLE_BYTES)
        values = np.frombuffer(zlib.decompressobj().decompress(body[line_end + 1:], size + 2),
                               dtype="<i2")
    except (ValueError, KeyError, TypeError, zlib.error, TablebaseError) as error:
        raise DamagedTableError(f"{name}: bad header or data ({str(error)[:60]})") from None
    if material.name != header["signature"] or entries != 2 * 64 ** material.pieces \
            or values.shape[0] != entries or name != f"{material.name}{SUFFIX}":
        raise DamagedTableError(f"{name}: the header does not match the data")
    return Table(material, values.astype(np.int16), int(header.get("longest_mate_plies", 0)))


def default_folder() -> Path:
    folder = os.environ.get(ENVIRONMENT)
    return Path(folder) if folder else Path.home() / ".cache" / "yipan" / "tablebases"


# -- probing ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Verdict:
    """A table's word on a position, for the side to move."""

    table: str
    value: int  # retrograde layout: d > 0 mate in d plies, -(d+1) mated in d, 0 draw
    # (ILLEGAL never: a position of a game is legal)

    @property
    def outcome(self) -> int:
        return (self.value > 0) - (self.value < 0)

    @property
    def plies(self) -> int | None:
        if self.value > 0:
            return self.value
        if self.value < 0:
            return -self.value - 1
        return None


@dataclass(frozen=True, slots=True)
class Packed:
    """Tables packed for the search kernel (``retrograde.probe``: the layout is drawn in
    retrograde's docstring); ``names`` the tables packed."""

    values: np.ndarray
    lookup: np.ndarray
    info: np.ndarray
    names: tuple[str, ...]


def empty_pack() -> Packed:
    return Packed(np.zeros(1, dtype=np.int16),
                  np.full(retrograde.MATERIAL_KEYS, -1, dtype=np.int64),
                  np.zeros((0, retrograde.INFO_SIZE), dtype=np.int64), ())


def pack(tables: list[Table]) -> Packed:
    """The tables, one after another in one array, each registered for its material and,
    when not the same, the colours swapped (probed mirrored)."""
    if not tables:
        return empty_pack()
    values = np.concatenate([table.values for table in tables])
    lookup = np.full(retrograde.MATERIAL_KEYS, -1, dtype=np.int64)
    rows: list[list[int]] = []
    offset = 0
    for table in tables:
        material = table.material
        kinds, colours = material.kinds_and_colours()
        for mirror in (0, 1):
            seen = material.mirrored() if mirror else material
            key = retrograde.material_key_of(seen.white, seen.black)
            if lookup[key] >= 0:
                continue  # symmetric material (KQKQ): one registration
            row = [0] * retrograde.INFO_SIZE
            row[retrograde.INFO_OFFSET] = offset
            row[retrograde.INFO_PIECES] = material.pieces
            row[retrograde.INFO_MIRROR] = mirror
            for slot in range(material.pieces):
                row[retrograde.INFO_KINDS + slot] = int(kinds[slot])
                row[retrograde.INFO_COLOURS + slot] = int(colours[slot]) ^ mirror
            lookup[key] = len(rows)
            rows.append(row)
        offset += table.values.shape[0]
    return Packed(values, lookup, np.array(rows, dtype=np.int64),
                  tuple(table.material.name for table in tables))


DEFAULT_PACK_MB = 512  # tables the search probes at most: every 3-piece one, seven 4-piece


class Tablebase:
    """The tables of one folder, loaded when first needed."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = default_folder() if folder is None else Path(folder)
        self._tables: dict[str, Table | None] = {}
        self._packed: Packed | None = None

    def packed(self, megabytes: int = DEFAULT_PACK_MB) -> Packed:
        """The folder's tables for the search kernel (loaded and packed once): the smaller
        first, up to ``megabytes`` (a 3-piece table takes 1 MB, a 4-piece one 64 MB). The
        tables loaded become views of the packed array, so memory is not held twice."""
        if self._packed is not None:
            return self._packed
        names = []
        if self.folder.is_dir():
            for path in self.folder.glob(f"*{SUFFIX}"):
                try:
                    material = parse_signature(path.stem)
                except TablebaseError:
                    continue
                if material.canonical()[0].name == path.stem == material.name:
                    names.append((material.pieces, material.name))
        chosen: list[Table] = []
        budget = megabytes * (1 << 20)
        for _, name in sorted(names):
            size = 2 * 2 * 64 ** parse_signature(name).pieces
            table = self.table(name) if size <= budget else None
            if table is not None:
                chosen.append(table)
                budget -= size
        packed = pack(chosen)
        offset = 0
        for table in chosen:  # the loaded tables become views of the packed array
            size = table.values.shape[0]
            self._tables[table.material.name] = Table(
                table.material, packed.values[offset:offset + size], table.longest_mate_plies,
                table.seconds)
            offset += size
        self._packed = packed
        return packed

    def table(self, name: str) -> Table | None:
        if name not in self._tables:
            path = self.folder / f"{name}{SUFFIX}"
            self._tables[name] = load_table(path) if path.exists() else None
        return self._tables[name]

    def probe(self, state: Position) -> Verdict | None:
        """The verdict for the side to move, when a table covers the position (no castling
        rights, no en-passant square)."""
        if state.castling or state.ep < 64:
            return None
        material = material_of(state)
        if material.pieces > retrograde.MAX_PIECES or material.pieces < 2:
            return None
        if material.drawn():
            return Verdict(material.name, 0)
        canonical, mirror = material.canonical()
        table = self.table(canonical.name)
        if table is None:
            return None
        squares = []
        for side, letters in ((1, canonical.white), (0, canonical.black)) if mirror else \
                ((0, canonical.white), (1, canonical.black)):
            colour = state.white if side == 0 else state.black
            taken = 0
            for letter in letters:
                bits = bitboard(state, LETTERS[letter]) & colour & ~taken
                square = (bits & -bits).bit_length() - 1
                taken |= 1 << square
                squares.append(square ^ 56 if mirror else square)
        side = 1 - state.turn if mirror else state.turn
        return Verdict(canonical.name, table.value(side, squares))


def rank(value: int) -> int:
    """A table value ordered for the side to move: faster wins, then draws, slower losses."""
    if value > 0:
        return 100_000 - value
    if value < 0:
        return -100_000 - value  # mated in d = -value - 1: later is better
    return 0


def best_move(state: Position, tables: Tablebase) -> tuple[int, int, dict[int, int]] | None:
    """The table's best move: (move, the position's value, each move's value), all for the
    side to move in the table layout; None when a table is missing for some move."""
    from .rules import legal_moves_of, play_move

    values: dict[int, int] = {}
    for move in legal_moves_of(state):
        child = play_move(state, move)
        verdict = tables.probe(child)
        if verdict is None:
            return None
        reply = verdict.value  # the opponent's, one ply later
        # the opponent mated in d = -reply - 1: we mate in d + 1; it mates in reply: we
        # are mated in reply + 1, written -(reply + 2)
        values[move] = -reply if reply < 0 else -(reply + 2) if reply > 0 else 0
    if not values:
        return None
    move = max(values, key=lambda m: rank(values[m]))
    return move, values[move], values


def main_line(state: Position, tables: Tablebase, max_plies: int = 60) -> list[int]:
    """The table's main line from a position: best moves for both sides (the winner mates
    fastest, the loser resists longest), until the end or ``max_plies``."""
    from .rules import legal_moves_of, play_move

    line: list[Any] = []
    while len(line) < max_plies and legal_moves_of(state):
        found = best_move(state, tables)
        if found is None:
            break
        line.append(found[0])
        state = play_move(state, found[0])
    return line


@lru_cache(maxsize=4)
def tablebase(folder: str | None = None) -> Tablebase:
    """The tablebase of a folder (default: ``default_folder()``), shared in a process."""
    return Tablebase(None if folder is None else Path(folder))
