"""The file of an efficiently updatable network (``nnue.py``): its quantised integer arrays,
read with numpy alone (playing needs no training library).

A numpy ``.npz`` (no pickles) holding::

    ft_weights (F, H) int16       ft_bias (H,) int16
    l1_weights (S * D, 2H) int16  l1_bias (S * D,) int32
    out_weights (S * D,) int32    out_bias (S,) int32
    header     uint8          a JSON object: format, version, game, features (F),
                              accumulator (H), hidden (D), sha256, notes; from version 2
                              output_buckets (S)

A network of one output bucket is written as version 1, which every reader of the format
reads; version 2 adds the buckets (``nnue.py`` draws them).

``sha256`` is of every array in name order (name, dtype, shape, bytes). A file whose header,
arrays or checksum do not match, or one made for another game, is refused in one line
(``NetworkFileError``). Files are written atomically.

``BUILTIN`` (``builtin``) names the network the package ships for a game (``yipan/data/
GAME.nnue``), wherever a file is asked for (``--eval-file builtin``, ``EvalFile builtin``);
``HAND`` (``hand``) asks for the hand-set evaluation instead; files of those names are
``./builtin`` and ``./hand``. The players, analyses and engine protocols of both games
evaluate with the shipped network unless told otherwise: each wins at equal time against
the hand-set evaluation.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..core import YipanError
from ..core.files import FileRefusedError, read_capped, unpack_npz, write_atomically

FORMAT = "yipan-nnue"
VERSION = 2
VERSIONS = (1, 2)  # read; one output bucket is written as 1
MAX_OUTPUT_BUCKETS = 16
MAX_FILE = 64 << 20
MAX_HEADER = 1 << 16
MAX_WIDTH = 4096
MAX_FEATURES = 1 << 16
BUILTIN = "builtin"
HAND = "hand"
ARRAY_TYPES = {"ft_weights": np.int16, "ft_bias": np.int16, "l1_weights": np.int16,
               "l1_bias": np.int32, "out_weights": np.int32, "out_bias": np.int32}


class NetworkFileError(YipanError, ValueError):
    """A network file that is damaged, altered, or made for another game."""


@dataclass(frozen=True)
class NetworkFile:
    """A network's quantised arrays and what it was made for."""

    game: str
    arrays: Mapping[str, np.ndarray]
    notes: Mapping[str, Any] = field(default_factory=dict)

    @property
    def features(self) -> int:
        return int(self.arrays["ft_weights"].shape[0])

    @property
    def accumulator(self) -> int:
        return int(self.arrays["ft_weights"].shape[1])

    @property
    def output_buckets(self) -> int:
        return int(self.arrays["out_bias"].shape[0])

    @property
    def hidden(self) -> int:
        """Hidden units of one output bucket."""
        return int(self.arrays["l1_weights"].shape[0]) // self.output_buckets

    @property
    def shape(self) -> str:
        """How a person reads the layers: 128x2-16-1, with buckets 128x2-(16-1)x8."""
        if self.output_buckets == 1:
            return f"{self.accumulator}x2-{self.hidden}-1"
        return f"{self.accumulator}x2-({self.hidden}-1)x{self.output_buckets}"


def shapes(features: int, accumulator: int, hidden: int,
           output_buckets: int = 1) -> dict[str, tuple[int, ...]]:
    return {"ft_weights": (features, accumulator), "ft_bias": (accumulator,),
            "l1_weights": (output_buckets * hidden, 2 * accumulator),
            "l1_bias": (output_buckets * hidden,),
            "out_weights": (output_buckets * hidden,), "out_bias": (output_buckets,)}


def checksum(arrays: Mapping[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}\0{array.dtype.str}\0{array.shape}\0".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def to_bytes(network: NetworkFile) -> bytes:
    arrays = {name: np.asarray(network.arrays[name], np.dtype(kind).newbyteorder("<"))
              for name, kind in ARRAY_TYPES.items()}
    header = {"format": FORMAT, "version": 1, "game": network.game,
              "features": network.features, "accumulator": network.accumulator,
              "hidden": network.hidden, "sha256": checksum(arrays),
              "notes": dict(network.notes)}
    if network.output_buckets > 1:
        header.update(version=VERSION, output_buckets=network.output_buckets)
    buffer = io.BytesIO()
    savez: Any = np.savez  # numpy's stub reads ** as its allow_pickle flag
    savez(buffer, header=np.frombuffer(json.dumps(header).encode(), np.uint8), **arrays)
    return buffer.getvalue()


def save(network: NetworkFile, path: str | Path) -> None:
    """Write ``network`` to ``path`` atomically."""
    write_atomically(path, to_bytes(network))


def shipped(game: str) -> Path:
    """Where the package keeps ``game``'s network (the file may not exist)."""
    return Path(str(resources.files("yipan") / "data" / f"{game}.nnue"))


def choose(name: str, game: str) -> NetworkFile | None:
    """The network ``name`` asks for (``HAND``: None, the hand-set evaluation; ``BUILTIN``:
    the shipped one; otherwise a file), refused in one line when damaged."""
    return None if name == HAND else load(name, game)


def load(path: str | Path, game: str | None = None) -> NetworkFile:
    """Read and check a network file (made for ``game`` when given; ``BUILTIN``: the one
    the package ships for it)."""
    if isinstance(path, str) and path == BUILTIN and game is not None:
        path = shipped(game)
        if not path.is_file():
            raise NetworkFileError(f"no network ships for {game}: give a file made by yipan "
                                   f"train {game} --nnue")
    try:
        data = read_capped(Path(path), MAX_FILE, "network")
    except FileRefusedError as error:
        raise NetworkFileError(f"cannot read {error}") from None
    return from_bytes(data, str(path), game)


def from_bytes(data: bytes, name: str = "network", game: str | None = None) -> NetworkFile:
    try:
        arrays = unpack_npz(data, MAX_FILE)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as error:
        raise NetworkFileError(f"{name} is not a yipan network file (or it is damaged: "
                               f"{str(error)[:80]})") from None
    try:
        header = _checked_header(arrays.pop("header", None))
    except (ValueError, TypeError, RecursionError) as error:
        raise NetworkFileError(f"{name}: the network's header is damaged "
                               f"({str(error)[:100]})") from None
    expected = shapes(header["features"], header["accumulator"], header["hidden"],
                      header.get("output_buckets", 1))
    if set(arrays) != set(expected):
        raise NetworkFileError(f"{name}: the arrays do not match the header's layers")
    for key, shape in expected.items():
        if arrays[key].shape != shape or arrays[key].dtype != np.dtype(ARRAY_TYPES[key]):
            raise NetworkFileError(f"{name}: {key} has shape {arrays[key].shape} "
                                   f"({arrays[key].dtype}), the header says {shape}")
    if checksum(arrays) != header["sha256"]:
        raise NetworkFileError(f"{name}: checksum mismatch, the network is damaged or altered")
    if game is not None and header["game"] != game:
        raise NetworkFileError(f"{name} is a network for {header['game']}, not for {game}")
    return NetworkFile(header["game"], arrays, header["notes"])


def _checked_header(raw: np.ndarray | None) -> dict[str, Any]:
    if raw is None or raw.dtype != np.uint8 or raw.ndim != 1 or raw.size > MAX_HEADER:
        raise ValueError("no header")
    header = json.loads(raw.tobytes())
    fields = {"format", "version", "game", "features", "accumulator", "hidden", "sha256",
              "notes"}
    if not isinstance(header, dict):
        raise ValueError("the header is not an object")
    version = header.get("version")
    if header.get("format") != FORMAT or type(version) is not int or version not in VERSIONS:
        raise ValueError(f"not format {FORMAT} version {' or '.join(map(str, VERSIONS))}")
    if version >= 2:
        fields.add("output_buckets")
    if set(header) != fields:
        raise ValueError(f"expected the fields {', '.join(sorted(fields))}")
    sizes = (header["features"], header["accumulator"], header["hidden"],
             header.get("output_buckets", 1))
    limits = (MAX_FEATURES, MAX_WIDTH, MAX_WIDTH, MAX_OUTPUT_BUCKETS)
    if not all(type(n) is int and 0 < n <= limit for n, limit in zip(sizes, limits, strict=True)):
        raise ValueError("features, accumulator, hidden and output buckets must be small "
                         "positive whole numbers")
    if not isinstance(header["game"], str) or not isinstance(header["sha256"], str) \
            or not isinstance(header["notes"], dict):
        raise ValueError("game and sha256 must be text, notes an object")
    return header
