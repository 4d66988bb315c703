"""A small network with a policy head and a value head, evaluated in numpy (no training library).

The network reads a game's ``encode(state)`` planes through ``len(conv)`` 3x3 convolutions
(zero-padded, so the board keeps its size; none: a plain MLP), flattened, then a trunk of
fully connected ReLU layers; two heads read the trunk's last layer::

    planes (C x H x W) -> [conv 3x3, conv[i] filters, + ReLU] x len(conv) (H x W x F)
        -> flatten (D) -> [dense + ReLU] x len(hidden) -> h
        policy: dense(h) -> A logits (one per move index, ``Game.move_index``)
        value:  tanh(dense(h)) -> one number in [-1, 1] for the side to move

File format: a numpy ``.npz`` (no pickles) holding the weights as float32 arrays named
``conv.<i>.w`` (3, 3, in, out) / ``conv.<i>.b``, ``trunk.<i>.w``/``trunk.<i>.b``,
``policy.w``/``policy.b``, ``value.w``/``value.b``, and ``header``: a JSON object as bytes
(uint8) with ``format``, ``version``, ``game``, ``encoding``, ``actions``, ``conv``,
``hidden``, ``sha256`` (of every weight array, in name order: name, shape and bytes) and free
``notes`` (how it was trained). A file whose header, names,
shapes, values or checksum do not match is refused (``CorruptNetworkError``, one line).
Files are written atomically (``yipan.core.files``).
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..core import YipanError
from ..core.files import FileRefusedError, read_capped, unpack_npz, write_atomically

FORMAT = "yipan-network"
VERSION = 1
MAX_HEADER = 1 << 16  # bytes
MAX_FILE = 256 << 20  # bytes of a network file, and of its arrays unpacked: ours are a few MiB
MAX_WIDTH = 1 << 14  # units in one layer: no file of ours is near it


class CorruptNetworkError(YipanError, ValueError):
    """A network file that is damaged, altered or made for another game."""


@dataclass(frozen=True)
class Network:
    """Weights of the policy-value MLP (module docstring) and what it was made for."""

    game: str
    encoding: tuple[int, int, int]
    actions: int
    weights: Mapping[str, np.ndarray]
    notes: Mapping[str, Any] = field(default_factory=dict)

    @property
    def hidden(self) -> tuple[int, ...]:
        return tuple(int(self.weights[f"trunk.{i}.w"].shape[1]) for i in range(self.depth))

    @property
    def conv(self) -> tuple[int, ...]:
        return tuple(int(self.weights[f"conv.{i}.w"].shape[3])
                     for i in range(self.conv_depth))

    @property
    def depth(self) -> int:
        return sum(1 for name in self.weights if name.endswith(".w") and name.startswith("trunk"))

    @property
    def conv_depth(self) -> int:
        return sum(1 for name in self.weights if name.endswith(".w") and name.startswith("conv"))

    def forward(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Policy logits ``(B, actions)`` and values ``(B,)`` of a batch of encoded states
        ``(B, C, H, W)`` (or one state ``(C, H, W)``: a batch of one)."""
        w = self.weights
        planes_, rows, cols = self.encoding
        x: np.ndarray = np.asarray(planes, np.float32).reshape(-1, planes_, rows, cols)
        if self.conv_depth:
            x = x.transpose(0, 2, 3, 1)  # (B, H, W, C)
            for i in range(self.conv_depth):
                x = np.maximum(conv3x3(x, w[f"conv.{i}.w"]) + w[f"conv.{i}.b"], 0.0)
        x = x.reshape(x.shape[0], -1)
        for i in range(self.depth):
            x = np.maximum(x @ w[f"trunk.{i}.w"] + w[f"trunk.{i}.b"], 0.0)
        logits = x @ w["policy.w"] + w["policy.b"]
        value = np.tanh(x @ w["value.w"] + w["value.b"])[:, 0]
        return logits, value

    def parameters(self) -> int:
        return sum(int(a.size) for a in self.weights.values())


def conv3x3(x: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """A 3x3 convolution, zero-padded ("same"): ``x`` (B, H, W, C), ``kernel`` (3, 3, C, F)
    -> (B, H, W, F), as one matrix product over the 3x3 windows (im2col)."""
    batch, rows, cols, channels = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))
    # windows: (B, H, W, C, 3, 3) -> (B*H*W, 3*3*C) in the kernel's (ky, kx, c) order
    columns = windows.transpose(0, 1, 2, 4, 5, 3).reshape(batch * rows * cols, 9 * channels)
    out = columns @ kernel.reshape(9 * channels, -1)
    return out.reshape(batch, rows, cols, -1)


def layer_shapes(encoding: Sequence[int], conv: Sequence[int], hidden: Sequence[int],
                 actions: int) -> dict[str, tuple[int, ...]]:
    """The name and shape of every weight array of a network of this size."""
    shapes: dict[str, tuple[int, ...]] = {}
    channels, rows, cols = encoding
    for i, filters in enumerate(conv):
        shapes[f"conv.{i}.w"] = (3, 3, channels, filters)
        shapes[f"conv.{i}.b"] = (filters,)
        channels = filters
    width = channels * rows * cols
    for i, units in enumerate(hidden):
        shapes[f"trunk.{i}.w"] = (width, units)
        shapes[f"trunk.{i}.b"] = (units,)
        width = units
    shapes.update({"policy.w": (width, actions), "policy.b": (actions,),
                   "value.w": (width, 1), "value.b": (1,)})
    return shapes


def initial_network(game: str, encoding: tuple[int, int, int], actions: int,
                    hidden: Sequence[int], rng: np.random.Generator,
                    conv: Sequence[int] = ()) -> Network:
    """Fresh weights (He-scaled normal, zero biases; small heads so the first policy is
    nearly uniform and the first value nearly 0)."""
    weights: dict[str, np.ndarray] = {}
    for name, shape in layer_shapes(encoding, conv, hidden, actions).items():
        if name.endswith(".b"):
            weights[name] = np.zeros(shape, np.float32)
        else:
            fan_in = int(np.prod(shape[:-1]))
            head = name.startswith(("policy", "value"))
            scale = np.sqrt(2.0 / fan_in) * (0.1 if head else 1.0)
            weights[name] = (rng.standard_normal(shape) * scale).astype(np.float32)
    return Network(game, tuple(encoding), actions, weights)  # type: ignore[arg-type]


def network_for(game: Any, hidden: Sequence[int], rng: np.random.Generator,
                conv: Sequence[int] = ()) -> Network:
    """Fresh weights for a game that declares an encoding."""
    from ..core import CapabilityError

    info = game.info
    if info.encoding is None or info.actions is None:
        raise CapabilityError(f"{info.name} has no encoding for networks")
    return initial_network(info.name, info.encoding, info.actions, hidden, rng, conv)


# -- file format ------------------------------------------------------------------------------
def checksum(weights: Mapping[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in sorted(weights):
        array = np.ascontiguousarray(weights[name], dtype="<f4")
        digest.update(name.encode() + b"\0" + repr(array.shape).encode() + b"\0")
        digest.update(array.tobytes())
    return digest.hexdigest()


def to_bytes(network: Network) -> bytes:
    header = {"format": FORMAT, "version": VERSION, "game": network.game,
              "encoding": list(network.encoding), "actions": network.actions,
              "conv": list(network.conv), "hidden": list(network.hidden),
              "sha256": checksum(network.weights), "notes": dict(network.notes)}
    buffer = io.BytesIO()
    arrays = {name: np.asarray(a, "<f4") for name, a in network.weights.items()}
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    savez: Any = np.savez  # numpy's stub reads ** as its allow_pickle flag
    savez(buffer, **arrays)
    return buffer.getvalue()


def save(network: Network, path: str | Path) -> None:
    """Write ``network`` to ``path`` atomically (a reader sees the old file or the new)."""
    write_atomically(path, to_bytes(network))


def load(path: str | Path, game: Any = None) -> Network:
    """Read and check a network file (for ``game`` when given: its name and encoding)."""
    path = Path(path)
    try:
        data = read_capped(path, MAX_FILE, "network")
    except FileRefusedError as error:  # "network PATH: no such file", "... is a device"
        raise CorruptNetworkError(f"cannot read {error}") from None
    return from_bytes(data, str(path), game)


def from_bytes(data: bytes, name: str = "network", game: Any = None) -> Network:
    try:
        arrays = unpack_npz(data, MAX_FILE)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as error:
        raise CorruptNetworkError(f"{name} is not a yipan network file (or it is damaged: "
                                  f"{str(error)[:80]})") from None
    try:
        header = _checked_header(arrays.pop("header", None))
    except (ValueError, TypeError, RecursionError) as error:
        raise CorruptNetworkError(f"{name}: the network's header is damaged "
                                  f"({str(error)[:100]})") from None
    planes, rows, cols = header["encoding"]
    expected = layer_shapes(header["encoding"], header["conv"], header["hidden"],
                            header["actions"])
    if set(arrays) != set(expected):
        raise CorruptNetworkError(f"{name}: the weights do not match the header's layers")
    for key, shape in expected.items():
        array = arrays[key]
        if array.shape != shape or array.dtype != np.float32:
            raise CorruptNetworkError(f"{name}: {key} has shape {array.shape} "
                                      f"({array.dtype}), the header says {shape} (float32)")
        if not np.isfinite(array).all():
            raise CorruptNetworkError(f"{name}: {key} holds values that are not finite")
    if checksum(arrays) != header["sha256"]:
        raise CorruptNetworkError(f"{name}: checksum mismatch, the weights are damaged or "
                                  "altered")
    network = Network(header["game"], (planes, rows, cols), header["actions"], arrays,
                      header["notes"])
    if game is not None:
        check_fits(network, game, name)
    return network


def check_fits(network: Network, game: Any, name: str = "the network") -> None:
    info = game.info
    if network.game != info.name or info.encoding is None \
            or tuple(info.encoding) != network.encoding or info.actions != network.actions:
        raise CorruptNetworkError(
            f"{name} is for {network.game} with planes {network.encoding} and "
            f"{network.actions} moves, not for {info.title}"
            f" ({'no encoding' if info.encoding is None else info.encoding})")


def _checked_header(raw: np.ndarray | None) -> dict[str, Any]:
    if raw is None or raw.dtype != np.uint8 or raw.ndim != 1 or raw.size > MAX_HEADER:
        raise ValueError("no header")
    header = json.loads(raw.tobytes())
    fields = {"format", "version", "game", "encoding", "actions", "conv", "hidden", "sha256",
              "notes"}
    if not isinstance(header, dict) or set(header) != fields:
        raise ValueError(f"expected the fields {', '.join(sorted(fields))}")
    if header["format"] != FORMAT or header["version"] != VERSION:
        raise ValueError(f"not format {FORMAT} version {VERSION}")
    encoding, conv, hidden = header["encoding"], header["conv"], header["hidden"]
    lists = all(isinstance(item, list) for item in (encoding, conv, hidden))
    numbers = [*encoding, header["actions"], *conv, *hidden] if lists else None
    if numbers is None or len(encoding) != 3 or len(hidden) > 16 or len(conv) > 16 \
            or not all(type(n) is int and 0 < n <= MAX_WIDTH for n in numbers):
        raise ValueError("encoding, actions, conv and hidden must be small positive whole "
                         "numbers")
    if not isinstance(header["game"], str) or not isinstance(header["sha256"], str) \
            or not isinstance(header["notes"], dict):
        raise ValueError("game and sha256 must be text, notes an object")
    return header


# -- the shipped networks ---------------------------------------------------------------------
def shipped_path(game: Any) -> Path:
    """Where the package keeps its network for ``game`` (it may not have one)."""
    info = game.info
    shape = f"{info.encoding[2]}x{info.encoding[1]}" if info.encoding else "none"  # cols x rows
    return Path(str(resources.files("yipan") / "data" / f"{info.name}-{shape}.net.npz"))


def shipped(game: Any) -> Network | None:
    """The package's network for ``game``, or None when it ships none."""
    path = shipped_path(game)
    return load(path, game) if path.is_file() else None
