"""An opening book: the exact value of every position up to some ply, solved once, kept on disk.

The file format (text, UTF-8), written atomically (temporary file, fsync, rename)::

    yipan-book 1
    game tictactoe
    options {"k": 3, "size": "3x3"}
    max-ply 9
    positions 765
    sha256 <hex digest of every line after the blank line, each ending in a newline>

    <key> <value>
    ...

``key`` is the position's table key as JSON (``game.canonical(state)`` for games with
symmetry, so symmetric positions are stored once); ``value`` is the exact value for the side
to move at that position, counted from it (``WIN - n`` is a win ``n`` plies on). A book that
fails any check (header, count, checksum, a line) is refused with ``CorruptBookError``.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import Game, YipanError
from ..core.files import write_atomically
from ..search import TranspositionTable, alphabeta

MAGIC = "yipan-book 1"


class CorruptBookError(YipanError, ValueError):
    """A book file that is truncated, altered, or written for another game."""


@dataclass
class Book:
    """Exact values of positions, keyed like the search's table (``key_of``)."""

    game_name: str
    options: dict[str, Any]
    max_ply: int
    values: dict[Hashable, int] = field(default_factory=dict)

    def probe(self, game: Game, state: Any) -> int | None:
        """The stored value of ``state`` for its side to move, or None when not in the book."""
        return self.values.get(key_of(game, state))

    def __len__(self) -> int:
        return len(self.values)


def key_of(game: Game, state: Any) -> Hashable:
    return game.canonical(state) if game.info.symmetry else state


def _freeze(value: Any) -> Hashable:
    """JSON lists back into tuples (a state's NamedTuple becomes a plain tuple: equal hash)."""
    return tuple(_freeze(v) for v in value) if isinstance(value, list) else value


def positions(game: Game, max_ply: int | None) -> Iterator[tuple[Hashable, Any]]:
    """Each position reachable within ``max_ply`` plies, once per table key (breadth first)."""
    start = game.initial_state()
    seen = {key_of(game, start)}
    layer = [start]
    ply = 0
    while layer:
        next_layer = []
        for state in layer:
            yield key_of(game, state), state
            if game.outcome(state) is not None or (max_ply is not None and ply >= max_ply):
                continue
            for move in game.legal_moves(state):
                child = game.play(state, move)
                key = key_of(game, child)
                if key not in seen:
                    seen.add(key)
                    next_layer.append(child)
        layer = next_layer
        ply += 1


def build_book(game: Game, path: str | os.PathLike | None = None, *,
               max_ply: int | None = None, options: dict[str, Any] | None = None) -> Book:
    """Solve every position up to ``max_ply`` (None: the whole game) and save it to ``path``."""
    table = TranspositionTable(1 << 20)
    book = Book(game.info.name, dict(options or {}), -1 if max_ply is None else max_ply)
    for key, state in positions(game, max_ply):
        book.values[key] = int(alphabeta(game, state, tt=table).value)
    if path is not None:
        save_book(book, path)
    return book


def _body(book: Book) -> list[str]:
    lines = [f"{json.dumps(key, separators=(',', ':'))} {value}\n"
             for key, value in book.values.items()]
    lines.sort()
    return lines


def save_book(book: Book, path: str | os.PathLike) -> None:
    """Write the book atomically: a reader sees the old file or the whole new one."""
    body = _body(book)
    digest = hashlib.sha256("".join(body).encode()).hexdigest()
    header = [
        MAGIC + "\n",
        f"game {book.game_name}\n",
        f"options {json.dumps(book.options, sort_keys=True)}\n",
        f"max-ply {book.max_ply}\n",
        f"positions {len(body)}\n",
        f"sha256 {digest}\n",
        "\n",
    ]
    write_atomically(Path(path), "".join(header + body))


def load_book(path: str | os.PathLike, game: Game | None = None) -> Book:
    """Read and verify a book; with ``game``, also check it was built for that game."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CorruptBookError(f"{path}: not a yipan book (not text)") from None
    head, separator, rest = text.partition("\n\n")
    lines = head.split("\n")
    if not separator or len(lines) != 6 or lines[0] != MAGIC:
        raise CorruptBookError(f"{path}: not a yipan book (bad header)")
    try:
        fields = dict(line.split(" ", 1) for line in lines[1:])
        game_name = fields["game"]
        options = json.loads(fields["options"])
        max_ply = int(fields["max-ply"])
        count = int(fields["positions"])
        digest = fields["sha256"]
    except (KeyError, ValueError) as error:
        raise CorruptBookError(f"{path}: bad header ({error})") from None
    if hashlib.sha256(rest.encode()).hexdigest() != digest:
        raise CorruptBookError(f"{path}: checksum mismatch: the book is damaged or altered")
    body = rest.splitlines()
    if len(body) != count:
        raise CorruptBookError(f"{path}: {len(body)} positions, header says {count}")
    if game is not None and game.info.name != game_name:
        raise CorruptBookError(f"{path}: a book for {game_name}, not {game.info.name}")
    values: dict[Hashable, int] = {}
    for number, line in enumerate(body, 1):
        key_text, _, value_text = line.rpartition(" ")
        try:
            values[_freeze(json.loads(key_text))] = int(value_text)
        except ValueError:
            raise CorruptBookError(f"{path}: line {number} of the body is damaged") from None
    return Book(game_name, options, max_ply, values)
