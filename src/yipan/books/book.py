"""An opening book: the exact value of every position up to some ply, solved once, kept on disk.

The file format (text, UTF-8), written atomically (temporary file, fsync, rename)::

    yipan-book 3
    game tictactoe
    variant Tic-tac-toe
    options {"k": 3, "size": "3x3"}
    max-ply 9
    positions 765

    <key> <value>
    ...
    sha256 <hex digest of every byte of the file before this line>

``key`` is the position's table key as JSON (``game.canonical(state)`` for games with
symmetry, so symmetric positions are stored once); ``value`` is the exact value for the side
to move at that position, counted from it (``WIN - n`` is a win ``n`` plies on). The checksum
covers the header too. A book that fails any check (checksum, header fields and their
ranges, count, a line) is refused with ``CorruptBookError``, in one line; so is a book read
for a game it was not built for: another game, or the same game with other options (its
``variant`` is the title of the game it was built for, which names the board and the rule:
``Tic-tac-toe``, ``4,4,4-game``). A book of format 2 (no variant line) is read too, its
variant found from its options.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import WIN, Game, Limit, SearchAborted, YipanError, get_game
from ..core.files import read_capped, write_atomically
from ..core.text import quote, read_int
from ..search import TranspositionTable, alphabeta

MAGIC = "yipan-book 3"
EARLIER_MAGIC = "yipan-book 2"  # no variant line: the variant is the game its options make
MAX_PLY_IN_BOOK = 10_000
MAX_KEY_TEXT = 4_096  # characters of one key: no state of ours comes near
MAX_BOOK_BYTES = 1 << 30  # ten million positions of a hundred characters


class CorruptBookError(YipanError, ValueError):
    """A book file that is truncated, altered, or written for another game."""


class BookTooHardError(YipanError):
    """A position of the book could not be solved within the time given to each."""



@dataclass
class Book:
    """Exact values of positions, keyed like the search's table (``key_of``)."""

    game_name: str
    options: dict[str, Any]
    max_ply: int
    values: dict[Hashable, int] = field(default_factory=dict)
    variant: str = ""  # the title of the game the book was built for (``Game.info.title``)

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
               max_ply: int | None = None, options: dict[str, Any] | None = None,
               seconds_per_position: float | None = None) -> Book:
    """Solve every position up to ``max_ply`` (None: the whole game) and save it to ``path``.

    With ``seconds_per_position``, a position not solved in that time ends the build with a
    ``BookTooHardError`` (a book holds exact values only)."""
    table = TranspositionTable(1 << 20)
    book = Book(game.info.name, dict(options or {}), -1 if max_ply is None else max_ply,
                variant=game.info.title)
    limit = None if seconds_per_position is None else Limit(time=seconds_per_position)
    for key, state in positions(game, max_ply):
        try:
            result = alphabeta(game, state, tt=table, limit=limit)
        except SearchAborted:
            result = None
        if result is None or not result.exact:
            raise BookTooHardError(
                f"{game.info.title}: position {len(book.values) + 1} of the book was not "
                f"solved within {seconds_per_position} s; books hold exact values only (try "
                "a smaller depth, a smaller board, or more time per position)")
        book.values[key] = int(result.value)
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
    header = [
        MAGIC + "\n",
        f"game {book.game_name}\n",
        f"variant {book.variant}\n",
        f"options {json.dumps(book.options, sort_keys=True)}\n",
        f"max-ply {book.max_ply}\n",
        f"positions {len(body)}\n",
        "\n",
    ]
    text = "".join(header + body)
    digest = hashlib.sha256(text.encode()).hexdigest()
    write_atomically(Path(path), f"{text}sha256 {digest}\n")


def load_book(path: str | os.PathLike, game: Game | None = None) -> Book:
    """Read and verify a book; with ``game``, also check it was built for that game."""
    path = Path(path)
    try:
        text = read_capped(path, MAX_BOOK_BYTES, "book").decode("utf-8")
    except UnicodeDecodeError:
        raise CorruptBookError(f"{path}: not a yipan book (not text)") from None
    return parse_book(text, str(path), game)


def parse_book(text: str, name: str = "book", game: Game | None = None) -> Book:
    """A book from its text (format in the module docstring), every part checked."""
    content, _, last = text.rstrip("\n").rpartition("\n")
    earlier = text.startswith(EARLIER_MAGIC + "\n")
    if not last.startswith("sha256 ") or not (text.startswith(MAGIC + "\n") or earlier):
        raise CorruptBookError(f"{name}: not a yipan book (or cut short)")
    if hashlib.sha256((content + "\n").encode()).hexdigest() != last[7:].strip():
        raise CorruptBookError(f"{name}: checksum mismatch: the book is damaged or altered")
    head, separator, rest = (content + "\n").partition("\n\n")
    rest = rest.removesuffix("\n")
    lines = head.split("\n")
    if not separator or len(lines) != (5 if earlier else 6):
        raise CorruptBookError(f"{name}: not a yipan book (bad header)")
    try:
        fields = dict(line.split(" ", 1) for line in lines[1:])
        game_name = fields["game"]
        variant = fields.get("variant", "")
        if not earlier and not (variant.isprintable() and 0 < len(variant) <= 200):
            raise ValueError(f"variant {quote(variant[:40])}")
        options = _json(fields["options"])
        max_ply = read_int(fields["max-ply"], "max-ply")
        count = read_int(fields["positions"], "positions")
        if not (game_name.isascii() and game_name.replace("-", "").isalnum()):
            raise ValueError(f"game name {quote(game_name)}")
        if not isinstance(options, dict) or not all(
                isinstance(k, str) and isinstance(v, (str, int, float, bool, type(None)))
                for k, v in options.items()):
            raise ValueError("options must be a flat object")
        if not -1 <= max_ply <= MAX_PLY_IN_BOOK or count < 0:
            raise ValueError("max-ply or positions out of range")
    except (KeyError, ValueError) as error:
        raise CorruptBookError(f"{name}: bad header ({str(error)[:80]})") from None
    body = rest.split("\n") if rest else []
    if len(body) != count:
        raise CorruptBookError(f"{name}: {len(body)} positions, header says {count}")
    if game is not None and game.info.name != game_name:
        raise CorruptBookError(f"{name}: a book for {game_name}, not {game.info.name}")
    if earlier and game is not None:
        variant = _variant_of(game_name, options, name)
    if game is not None and variant != game.info.title:
        raise CorruptBookError(f"{name}: a book for {variant}, not for {game.info.title} "
                               "(built with other options)")
    values: dict[Hashable, int] = {}
    for number, line in enumerate(body, 1):
        key_text, _, value_text = line.rpartition(" ")
        try:
            if len(key_text) > MAX_KEY_TEXT:
                raise ValueError("key too long")
            value = read_int(value_text, "value")
            if abs(value) > WIN:
                raise ValueError("value out of range")
            values[_freeze(_json(key_text))] = value
        except ValueError:
            raise CorruptBookError(f"{name}: line {number} of the body is damaged") from None
    return Book(game_name, options, max_ply, values, variant)


def _variant_of(game_name: str, options: dict[str, Any], name: str) -> str:
    """The title of the game a book of format 2 was built for: the game its options make."""
    try:
        return get_game(game_name, **options).info.title
    except YipanError as error:
        raise CorruptBookError(f"{name}: its game and options make no game "
                               f"({str(error)[:80]})") from None


def _json(text: str) -> Any:
    """JSON from a book, where too deep a nesting is damage, not a crash."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
