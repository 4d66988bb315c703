"""``yipan train GAME --nnue``: the engine's own games labelled by its own search
(``nnue_selfplay``), a float network fitted to them (``nnue_fit``), exported quantised
(``yipan.chess_family.nnue_file``), resumable at every stage. What a game gives (its features,
its self-play engine, its openings) is its entry in ``nnue_games``.

The checkpoint folder (``OUTPUT.checkpoint``) holds ``state.json`` (the settings), the units of
positions (``data-0000.npz`` ...: unit i is a pure function of the data settings and i, so a
run asking for more games plays only the new ones, on ``map_units``'s processes), and
``train.npz`` (the float weights, Adam's state and the step reached, saved every
``SAVE_EVERY`` steps). A run whose data settings differ from the folder's is refused (or,
with ``restart``, the folder's units are discarded); other training settings start the
training over from fresh weights, keeping the data. Batches are drawn from
``numpy.random.default_rng((seed, step))``, so a resumed run trains as an uninterrupted one.

A next round trains on its own units and on an earlier round's (``data_from``: other
checkpoint folders of the same game, their units first, read as they are); its last
``final_steps`` steps may run at a lower rate (``final_learning_rate``), which settles the
weights the first rate leaves hovering.

Held out: the positions of the last unit in ``HOLD_OUT`` of each folder (positions of one
game are alike, so whole units are held out), measured at each progress line. Counting within
each folder holds out of an earlier round's units the ones that round held out itself, so a
network fine-tuned from that round's is measured on positions it never trained on.
"""

from __future__ import annotations

import io
import json
import math
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..chess_family.nnue import OUTPUT_SCALE
from ..chess_family.nnue_file import NetworkFile, save
from ..core import YipanError
from ..core.files import read_capped, write_atomically
from .nnue_games import nnue_game
from .nnue_selfplay import Positions, play_unit

SAVE_EVERY = 200  # steps between two checkpoints of the training
REPORT_EVERY = 50  # steps between two progress lines
HOLD_OUT = 20  # one unit in this many is held out (at least one when there are two)
MAX_UNIT_BYTES = 64 << 20
MAX_STATE_BYTES = 1 << 20

Say = Callable[[str], None]
MapUnits = Callable[[Callable[..., Any], list[tuple[Any, ...]]], Iterator[Any]]


class NnueCheckpointMismatch(YipanError, ValueError):
    """A checkpoint folder whose positions were made with other settings."""


@dataclass(frozen=True)
class NnuePlan:
    """What to make: the data's settings, then the network's and the training's."""

    game: str
    games: int = 400
    games_per_unit: int = 8
    random_plies: int = 12
    depth: int = 6
    nodes: int = 0  # > 0: label with this node budget instead of ``depth``
    labeller: str | None = None  # a network file the labelling engine evaluates with
    seed: int = 0
    accumulator: int = 128
    hidden: int = 16
    king_buckets: int = 1  # > 1: the first layer's rows per bucket of the own king's square
    # the bucket rows' steps as a fraction of the others': Adam moves a row that a batch
    # touches a full step whatever its gradient, and a bucket's rows are touched by few
    # positions, so at the full rate they learn the positions by heart (the held-out losses
    # of the rates tried: docs/performance.md, round eight)
    bucket_rate: float = 0.03
    # > 1: the layers after the first, one set per bucket of the number of pieces on the board
    output_buckets: int = 1
    steps: int = 2_000
    batch: int = 2_048
    learning_rate: float = 1e-3
    # weight of the game's result in the target: 0, the search's score alone, because a
    # result blended in costs strength here (chess, the same 130k positions, at equal
    # nodes against the hand-set evaluation: blend 0.3 -363 Elo, 0.0 -139; see
    # docs/performance.md); the results of self-play from random openings are noisy
    blend: float = 0.0
    positions: int = 0  # > 0: train on at most this many positions (the first units')
    final_steps: int = 0  # the last steps of ``steps`` at ``final_learning_rate``
    final_learning_rate: float = 1e-4
    data_from: tuple[str, ...] = ()  # earlier rounds' checkpoint folders: their positions too
    start: str | None = None  # a network file whose weights the training starts from

    @property
    def units(self) -> int:
        return math.ceil(self.games / self.games_per_unit)

    def data_settings(self) -> dict[str, Any]:
        keys = ("game", "games_per_unit", "random_plies", "depth", "nodes", "labeller", "seed")
        return {key: asdict(self)[key] for key in keys}

    def train_settings(self) -> dict[str, Any]:
        keys = ("accumulator", "hidden", "steps", "batch", "learning_rate", "blend",
                "positions", "seed")
        settings = {key: asdict(self)[key] for key in keys}
        if self.king_buckets != 1:  # (absent when unused: older checkpoints still resume)
            settings.update(king_buckets=self.king_buckets, bucket_rate=self.bucket_rate)
        if self.output_buckets != 1:
            settings.update(output_buckets=self.output_buckets)
        if self.final_steps:  # (absent when unused: older checkpoints still resume)
            settings.update(final_steps=self.final_steps,
                            final_learning_rate=self.final_learning_rate)
        if self.data_from:
            settings["data_from"] = [str(Path(folder).resolve()) for folder in self.data_from]
        if self.start is not None:
            settings["start"] = str(Path(self.start).resolve())
        return settings


def _save_arrays(path: Path, **arrays: np.ndarray) -> None:
    buffer = io.BytesIO()
    savez: Any = np.savez
    savez(buffer, **arrays)
    write_atomically(path, buffer.getvalue())


def _load_arrays(path: Path) -> dict[str, np.ndarray]:
    data = read_capped(path, MAX_UNIT_BYTES, "checkpoint file")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as archive:
            return {key: archive[key] for key in archive.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise YipanError(f"{path} is damaged ({str(error)[:80]}); delete it to make it "
                         "again") from None


def _unit_path(folder: Path, unit: int) -> Path:
    return folder / f"data-{unit:04d}.npz"


def run(plan: NnuePlan, output: Path, say: Say, map_units: MapUnits | None = None,
        restart: bool = False) -> NetworkFile:
    """Make (or go on making) the positions, train, export to ``output``; returns it."""
    check_layout(plan)
    folder = output.with_name(output.name + ".checkpoint")
    folder.mkdir(exist_ok=True)
    state_path = folder / "state.json"
    state: dict[str, Any] = {}
    if state_path.is_file():
        state = json.loads(read_capped(state_path, MAX_STATE_BYTES).decode())
        if state.get("data") != plan.data_settings():
            if not restart:
                raise NnueCheckpointMismatch(
                    f"{folder} holds positions made with other settings; give the same "
                    "settings to resume, or --restart")
            for old in folder.glob("data-*.npz"):
                old.unlink()
            state = {}
    if restart or state.get("train") != plan.train_settings():
        (folder / "train.npz").unlink(missing_ok=True)
    state.update(data=plan.data_settings(), train=plan.train_settings())
    write_atomically(state_path, json.dumps(state, indent=1))

    folders = [earlier_positions(plan, other) for other in plan.data_from]
    folders.append(make_positions(plan, folder, say, map_units))
    params = train(plan, folders, folder, say)
    return export(plan, params, folders, output, say)


def make_positions(plan: NnuePlan, folder: Path, say: Say,
                   map_units: MapUnits | None) -> list[Positions]:
    """Every unit's positions, playing the missing units (in order, or on ``map_units``)."""
    missing = [unit for unit in range(plan.units) if not _unit_path(folder, unit).is_file()]
    jobs = [(plan.game, plan.seed, unit, plan.games_per_unit, plan.random_plies, plan.depth,
             plan.nodes, plan.labeller) for unit in missing]
    if jobs:
        say(f"positions: playing {len(jobs)} units of {plan.games_per_unit} games "
            f"({plan.units - len(jobs)} already made), labels at "
            + (f"{plan.nodes} nodes" if plan.nodes > 0 else f"depth {plan.depth}"))
        start = time.perf_counter()
        made = 0
        results = (map_units(play_unit, jobs) if map_units is not None
                   else (play_unit(*job) for job in jobs))
        for done, (unit, found) in enumerate(zip(missing, results, strict=True), 1):
            _save_arrays(_unit_path(folder, unit), rows=found.rows, scores=found.scores,
                         results=found.results)
            made += len(found)
            elapsed = time.perf_counter() - start
            say(f"positions: unit {done}/{len(jobs)}, {made:,} positions, "
                f"{made / max(elapsed, 1e-9):.0f} positions/s")
    parts = []
    for unit in range(plan.units):
        arrays = _load_arrays(_unit_path(folder, unit))
        parts.append(Positions(arrays["rows"], arrays["scores"], arrays["results"]))
    return parts


def earlier_positions(plan: NnuePlan, folder: str | Path) -> list[Positions]:
    """The units of another checkpoint folder of the same game (an earlier round's)."""
    folder = Path(folder)
    state_path = folder / "state.json"
    if not state_path.is_file():
        raise YipanError(f"{folder} is not a checkpoint folder of yipan train --nnue (no "
                         "state.json)")
    try:
        state = json.loads(read_capped(state_path, MAX_STATE_BYTES).decode())
        game = state["data"]["game"]
    except (ValueError, KeyError, TypeError) as error:
        raise YipanError(f"{state_path} is damaged ({str(error)[:80]})") from None
    if game != plan.game:
        raise YipanError(f"{folder} holds positions of {game}, not of {plan.game}")
    units = sorted(folder.glob("data-*.npz"))
    if not units:
        raise YipanError(f"{folder} holds no positions")
    parts = []
    for path in units:
        arrays = _load_arrays(path)
        parts.append(Positions(arrays["rows"], arrays["scores"], arrays["results"]))
    return parts


def _partition(folders: list[list[Positions]]) -> tuple[list[Positions], list[Positions]]:
    """The units trained on and those held out: each folder's units counted on their own, so
    every folder holds out the units its own round held out."""
    train_parts: list[Positions] = []
    test_parts: list[Positions] = []
    for parts in folders:
        count = len(parts)
        for i, part in enumerate(parts):
            held = count >= 2 and (i % HOLD_OUT == HOLD_OUT - 1
                                   or (count < HOLD_OUT and i == count - 1))
            (test_parts if held else train_parts).append(part)
    return train_parts, test_parts


def _split(folders: list[list[Positions]]) -> tuple[Positions, Positions]:
    """``_partition``'s units joined: the positions trained on and those held out."""
    train_parts, test_parts = _partition(folders)
    every = train_parts + test_parts
    row_size = every[0].rows.shape[1] if every else 1
    return Positions.join(train_parts, row_size), Positions.join(test_parts, row_size)


def _features(plan: NnuePlan, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return nnue_game(plan.game).active_features(rows, plan.king_buckets)


def mirrored(plan: NnuePlan, features: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The features of the positions chosen by ``rows`` seen in the game's mirror (the same
    value: training sees each position both ways)."""
    return nnue_game(plan.game).mirrored(features, rows, plan.king_buckets)


def check_layout(plan: NnuePlan) -> None:
    """Refuse king buckets the game's networks cannot have, in one line."""
    layouts = nnue_game(plan.game).layouts
    if plan.king_buckets not in layouts:
        raise YipanError(f"a {plan.game} network has {' or '.join(map(str, layouts))} king "
                         f"buckets, not {plan.king_buckets}")


def train(plan: NnuePlan, folders: list[list[Positions]], folder: Path, say: Say
          ) -> dict[str, np.ndarray]:
    """The float network after ``plan.steps`` steps (resumed from ``train.npz``), trained
    on the units of ``folders`` (earlier rounds' first, this run's last)."""
    from .nnue_fit import Batch, Trainer, initial_params, targets

    train_set, test_set = _split(folders)
    if 0 < plan.positions < len(train_set):
        train_set = Positions(train_set.rows[:plan.positions],
                              train_set.scores[:plan.positions],
                              train_set.results[:plan.positions])
    if len(train_set) == 0:
        raise YipanError("no positions to train on: play more games (--games)")
    mine, theirs = _features(plan, train_set.rows)
    target = targets(train_set.scores, train_set.results, plan.blend)
    test_batch = None
    if len(test_set):
        test_mine, test_theirs = _features(plan, test_set.rows)
        test_batch = Batch(test_mine, test_theirs,
                           targets(test_set.scores, test_set.results, plan.blend))
    checkpoint = folder / "train.npz"
    step = 0
    optimizer_state = None
    if checkpoint.is_file():
        saved = _load_arrays(checkpoint)
        step = int(saved.pop("step")[0])
        count = int(saved.pop("optimizer_leaves")[0])
        optimizer_state = [saved.pop(f"optimizer.{i}") for i in range(count)]
        params = saved
    elif plan.start is not None:
        params = start_params(plan)
    else:
        params = initial_params(nnue_game(plan.game).features, plan.accumulator, plan.hidden,
                                np.random.default_rng((plan.seed, 1 << 20)),
                                plan.king_buckets, plan.output_buckets)
    trainer = Trainer(params, plan.learning_rate, optimizer_state,
                      final=(plan.steps - plan.final_steps, plan.final_learning_rate)
                      if plan.final_steps else None,
                      slower={"ft_weights": plan.bucket_rate} if "ft_factor" in params else None)
    say(f"training: {len(train_set):,} positions ({len(test_set):,} held out), "
        f"steps {step}/{plan.steps}, batches of {plan.batch}")
    start = time.process_time()
    first_step = step
    losses: list[float] = []
    while step < plan.steps:
        rng = np.random.default_rng((plan.seed, step))
        pick = rng.integers(0, len(train_set), min(plan.batch, len(train_set)))
        flip = rng.random(len(pick)) < 0.5
        losses.append(trainer.step(Batch(mirrored(plan, mine[pick], flip),
                                         mirrored(plan, theirs[pick], flip),
                                         target[pick])))
        step += 1
        if step % REPORT_EVERY == 0 or step == plan.steps:
            held = f", held out {trainer.loss(test_batch):.5f}" if test_batch else ""
            rate = (step - first_step) / max(time.process_time() - start, 1e-9)
            say(f"training: step {step}/{plan.steps}, loss {np.mean(losses):.5f}{held}, "
                f"{rate:.1f} steps/s (CPU)")
            losses = []
        if step % SAVE_EVERY == 0 or step == plan.steps:
            leaves = trainer.numpy_state()
            _save_arrays(checkpoint, step=np.array([step]),
                         optimizer_leaves=np.array([len(leaves)]),
                         **trainer.numpy_params(),
                         **{f"optimizer.{i}": leaf for i, leaf in enumerate(leaves)})
    return trainer.numpy_params()


def start_network(plan: NnuePlan) -> NetworkFile:
    """``plan.start``'s network, refused unless it has the hidden layer asked, a first
    layer no wider than asked (a narrower one is grown: ``start_params``), and no king
    buckets or the ones asked, no output buckets or the ones asked."""
    from ..chess_family.nnue_file import load

    assert plan.start is not None
    network = load(plan.start, plan.game)
    base = nnue_game(plan.game).features
    if network.hidden != plan.hidden or network.accumulator > plan.accumulator:
        raise YipanError(f"{plan.start} is {network.shape}, not the "
                         f"{plan.accumulator}x2-{plan.hidden}-1 asked (--accumulator, "
                         "--hidden; a narrower first layer is grown)")
    if network.output_buckets not in (1, plan.output_buckets):
        raise YipanError(f"{plan.start} has {network.output_buckets} output buckets, not the "
                         f"{plan.output_buckets} asked (--output-buckets)")
    if network.features not in (base, base * plan.king_buckets):
        raise YipanError(f"{plan.start} has {network.features // base} king buckets, not the "
                         f"{plan.king_buckets} asked (--king-buckets)")
    return network


def start_params(plan: NnuePlan) -> dict[str, np.ndarray]:
    """The float weights of ``plan.start``'s network (its integers over their scales): a
    round that goes on from the last network keeps what it learned rather than starting
    from noise. A narrower network is widened to ``plan.accumulator``, and one without king
    buckets is given them (``bucketed``), each computing the same output, so a bigger
    network can start where the smaller one got to; so is one without output buckets
    (``with_output_buckets``). One with king buckets is split into a factor again
    (``refactorised``), so its buckets' own rows go on learning at the bucket rate."""
    from .nnue_fit import bucketed, dequantise, refactorised, widened, with_output_buckets

    rng = np.random.default_rng((plan.seed, 1 << 20))
    params = widened(dequantise(start_network(plan).arrays), plan.accumulator, rng)
    if plan.king_buckets > 1:
        params = (bucketed(params, plan.king_buckets)
                  if params["ft_weights"].shape[0] == nnue_game(plan.game).features
                  else refactorised(params, plan.king_buckets))
    if plan.output_buckets > 1 and params["out_bias"].shape[0] == 1:
        params = with_output_buckets(params, plan.output_buckets)
    return params


def export(plan: NnuePlan, params: dict[str, np.ndarray], folders: list[list[Positions]],
           output: Path, say: Say) -> NetworkFile:
    """The quantised network written to ``output``, with how it was made in its notes, and
    how far its integer values stray from the float network's (on held-out positions)."""
    from .nnue_fit import float_output, merged, quantise

    arrays = quantise(merged(params))
    train_parts, test_parts = _partition(folders)  # only a sample is read: nothing joined
    sample = next((part for part in [*test_parts, *train_parts] if len(part)), None)
    rows = sample.rows[:200] if sample is not None else np.zeros((0, 1))
    drift = 0.0
    if len(rows):
        mine, theirs = _features(plan, rows)
        floats = float_output(params, mine, theirs) * OUTPUT_SCALE
        integers = np.array([nnue_game(plan.game).evaluate_with(arrays, row) for row in rows])
        drift = float(np.mean(np.abs(floats - integers)))
    notes = {"trained": "yipan train --nnue", **asdict(plan),
             "positions": sum(len(part) for part in [*train_parts, *test_parts]),
             "quantisation_drift_cp": round(drift, 2)}
    network = NetworkFile(plan.game, arrays, notes)
    save(network, output)
    say(f"network: {output} ({network.shape}, quantised values "
        f"within {drift:.1f} cp of the float network's on average)")
    return network
