"""The first player's strategy book: one proved winning move for every position the first
player can face, whatever the second player replies, up to ``depth`` plies.

The first player wins Connect Four on 7x6 by playing the centre. Proving *a* winning move needs
only a win/loss solve (a null window at +1), far cheaper than the exact score, and the
strategy need not cover positions the first player never lets happen: after its move only the
second player branches. So the book holds, at plies 0, 2, ..., ``depth``, every position
reached by following the book against every reply, each with a move proved to keep the win;
beyond ``depth`` the player's own solve is fast. Built by
``python -m yipan.games.connect4.strategy OUTPUT --depth 12`` (first move: the centre, whose
win the opening book's exact scores prove).

File layout (little-endian), checked like the opening book's::

    b"YIPANC4S" | header length (uint32) | header (JSON: game, width, height, depth, count)
               | keys (int64 x n, sorted, mirror-folded) | moves (int8 x n) | sha256 (32 bytes)

A move is stored for the key's orientation: when a position's own ``current + mask`` is the
mirror image of its key, the column read is mirrored back.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from ...books.book import CorruptBookError
from ...core.files import FileRefusedError, read_capped, write_atomically
from .rules import ConnectFour, Position, check_size
from .solver import Solver

MAGIC = b"YIPANC4S"
MAX_HEADER = 1024
MAX_STRATEGY_BYTES = 4 << 30  # nine bytes a position


@dataclass(frozen=True)
class StrategyBook:
    """A proved winning move for the first player in every position of its strategy."""

    width: int
    height: int
    depth: int
    keys: np.ndarray  # int64, sorted mirror-folded keys
    moves: np.ndarray  # int8, the column for the key's orientation

    def __len__(self) -> int:
        return len(self.keys)

    def move(self, game: ConnectFour, position: Position) -> int | None:
        """The proved winning column at ``position``, or None if the book does not cover it."""
        if position.moves > self.depth or (self.depth - position.moves) % 2:
            return None  # not a ply the book's player moves at
        own = position.current + position.mask
        key = game.key(position)
        i = int(np.searchsorted(self.keys, key))
        if i >= len(self.keys) or self.keys[i] != key:
            return None
        col = int(self.moves[i])
        return col if own == key else game.width - 1 - col


def write_strategy(book: StrategyBook, path: str | Path) -> None:
    header = json.dumps({"game": "connect4", "width": book.width, "height": book.height,
                         "depth": book.depth, "count": len(book)}).encode()
    data = (MAGIC + len(header).to_bytes(4, "little") + header
            + book.keys.astype("<i8").tobytes() + book.moves.astype("i1").tobytes())
    write_atomically(path, data + hashlib.sha256(data).digest())


def read_strategy(path: str | Path) -> StrategyBook:
    """Load and verify a strategy book; CorruptBookError (one line) when it is damaged."""
    name = str(path)
    try:
        data = read_capped(path, MAX_STRATEGY_BYTES, "strategy book")
    except FileRefusedError as error:  # "book PATH: no such file", "... is a folder"
        raise CorruptBookError(f"cannot read {error}") from None
    start = len(MAGIC) + 4
    if not data.startswith(MAGIC) or len(data) < start + 32:
        raise CorruptBookError(f"{name} is not a yipan Connect Four strategy book")
    body, digest = data[:-32], data[-32:]
    if hashlib.sha256(body).digest() != digest:
        raise CorruptBookError(f"{name}: checksum mismatch, the book is damaged or altered")
    length = int.from_bytes(data[len(MAGIC):start], "little")
    if length > MAX_HEADER or start + length > len(body):
        raise CorruptBookError(f"{name}: the header is damaged")
    try:
        header = json.loads(body[start:start + length])
        fields = ("game", "width", "height", "depth", "count")
        if not isinstance(header, dict) or set(header) != set(fields) \
                or header["game"] != "connect4" \
                or not all(type(header[f]) is int for f in fields[1:]):
            raise ValueError("unexpected fields")
        width, height, depth, count = (header[f] for f in fields[1:])
        check_size(width, height)
        if not 0 <= depth <= width * height or count < 0:
            raise ValueError("depth or count out of range")
    except (ValueError, RecursionError) as error:
        raise CorruptBookError(f"{name}: the header is damaged ({str(error)[:60]})") from None
    payload = body[start + length:]
    if len(payload) != 9 * count:
        raise CorruptBookError(f"{name}: expected {count} entries, the file is cut or padded")
    keys = np.frombuffer(payload[:8 * count], "<i8").astype(np.int64)
    moves = np.frombuffer(payload[8 * count:], "i1").astype(np.int8)
    if count and not (np.diff(keys) > 0).all():
        raise CorruptBookError(f"{name}: keys are not sorted")
    if count and not ((moves >= 0) & (moves < width)).all():
        raise CorruptBookError(f"{name}: a move is off the board")
    return StrategyBook(width, height, depth, keys, moves)


def shipped_strategy_path(width: int = 7, height: int = 6) -> Path:
    return Path(str(resources.files("yipan") / "data" / f"connect4-{width}x{height}.strategy"))


_SHIPPED: dict[tuple[int, int], StrategyBook | None] = {}


def shipped_strategy(width: int = 7, height: int = 6) -> StrategyBook | None:
    """The strategy book shipped for this board size, if any (loaded once, verified)."""
    if (width, height) not in _SHIPPED:
        path = shipped_strategy_path(width, height)
        _SHIPPED[(width, height)] = read_strategy(path) if path.is_file() else None
    return _SHIPPED[(width, height)]


# -- building -------------------------------------------------------------------------------
def winning_move(solver: Solver, position: Position) -> int | None:
    """A column proved to win (a null window at +1 after it), centre first; None if none."""
    game = solver.game
    for col in game.order_moves(position, game.legal_moves(position)):
        if solver.achieves(position, col, 1):
            return col
    return None


def build_strategy(game: ConnectFour, depth: int, *, root: Position | None = None,
                   solver: Solver | None = None, first_move: int | None = None,
                   extend: StrategyBook | None = None,
                   save: Callable[[StrategyBook], None] | None = None,
                   progress: Callable[[str], None] | None = None) -> StrategyBook:
    """Follow a proved winning move from ``root`` (default: the start, which the first player
    wins on 7x6) against every reply, up to ``depth`` plies from the start.

    ``first_move`` skips the one proof that costs most (the empty board's, known from the
    opening book's exact scores); ``extend`` takes the moves of a shallower book as they are
    (a deeper build goes on from it); ``save`` receives the book after each finished ply, so
    a long build leaves a shallower book behind if stopped.
    """
    say = progress or (lambda _text: None)
    solver = solver or Solver(game, table_bits=24)
    start = time.perf_counter()
    root = root or game.initial_state()
    frontier = {game.key(root): root}
    known: dict[int, int] = {}
    book = StrategyBook(game.width, game.height, -2, np.zeros(0, np.int64), np.zeros(0, np.int8))
    for ply in range(root.moves, depth + 1, 2):
        following: dict[int, Position] = {}
        for count, (key, position) in enumerate(frontier.items(), 1):
            col = extend.move(game, position) if extend is not None else None
            if col is None:
                col = first_move if ply == root.moves and first_move is not None else \
                    winning_move(solver, position)
            if col is None:
                raise ValueError(f"no winning move at a position of ply {ply}: the strategy "
                                 "fails (is this board a first-player win?)")
            own = position.current + position.mask
            known[key] = col if own == key else game.width - 1 - col
            if game.is_winning_move(position, col):
                continue
            child = game.play(position, col)
            for reply in game.legal_moves(child):
                grand = game.play(child, reply)
                if grand.moves < game.cells and not game.is_winning_move(child, reply):
                    following.setdefault(game.key(grand), grand)
            if count % 50 == 0:
                say(f"ply {ply}: {count}/{len(frontier)}, {time.perf_counter() - start:.0f} s")
        keys = np.array(sorted(known), np.int64)
        book = StrategyBook(game.width, game.height, ply, keys,
                            np.array([known[k] for k in keys.tolist()], np.int8))
        say(f"ply {ply} done: {len(frontier)} positions, {len(known)} in the book, "
            f"{time.perf_counter() - start:.0f} s")
        if save is not None:
            save(book)
        frontier = following
    return book


def main(argv: list[str] | None = None) -> int:
    """``python -m yipan.games.connect4.strategy OUTPUT --depth 12 [--extend BOOK]``: build
    (or deepen) the 7x6 strategy book, saving it after every ply."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("output")
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--extend", help="a shallower book whose moves are kept")
    args = parser.parse_args(argv)
    game = ConnectFour()
    start = time.process_time()

    def save(book: StrategyBook) -> None:
        write_strategy(book, args.output)
        print(f"depth {book.depth}: {len(book)} positions, "
              f"{time.process_time() - start:.0f} CPU s", flush=True)

    build_strategy(game, args.depth, first_move=3, save=save,
                   extend=read_strategy(args.extend) if args.extend else None,
                   progress=lambda text: print(text, flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
