"""``yipan train``: supervised learning from a solver's labels, then the AlphaZero loop, with a
checkpoint folder so that an interrupted run goes on where it stopped.

Stages, each optional:

1. *solver*: ``from_solver`` positions labelled by the game's solver (its ``label`` hook), made
   in chunks of ``CHUNK`` saved one by one (``solver-0000.npz`` ...; chunk i drawn from
   ``random.Random(f"{seed}:{i}")``), then ``epochs`` passes over them, the network saved
   after each (the last 1/20 of the chunks held out to measure it: positions of one game are
   alike, so positions are not held out one by one);
2. *self-play*: ``selfplay`` games in ``rounds``: each round the best network plays itself
   (``selfplay.self_play``, in units of a few games that may run on other processes or
   machines), the examples join a replay buffer, a candidate is trained from the best on the
   buffer, and it replaces the best only if it scores ``GATE`` or more against it
   (``selfplay.match``).

The checkpoint folder (``OUTPUT.checkpoint``) holds ``state.json`` (the settings and what is
done), the chunks, ``network.npz`` and ``replay.npz``; a run with other settings refuses to
resume from it (``--restart`` starts over, keeping the labelled chunks, which depend only on
the seed and their number, so a run asking for more positions labels only the new ones).
The solver stage also keeps AdamW's state (``optimizer.npz``) and draws each pass's batches
from the seed and the pass's number, so a resumed stage trains as an uninterrupted one would.
"""

from __future__ import annotations

import io
import json
import math
import random
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..core import CapabilityError, Game, YipanError
from ..core.files import read_capped, write_atomically
from . import network as nets
from .data import Dataset
from .selfplay import UNIT_GAMES, ReplayBuffer, SelfPlay, match, self_play_unit
from .train import Settings, fit, measure

CHUNK = 500
GATE = 0.55
REPLAY = 50_000  # examples kept for self-play training
MAX_STATE_BYTES = 16 << 20  # a checkpoint's state.json: settings and a short log


class CheckpointMismatch(YipanError, ValueError):
    """A checkpoint made with other settings."""


class Reporter(Protocol):
    """Where the pipeline says how it goes (the CLI draws progress bars)."""

    def stage(self, name: str, total: int) -> None: ...

    def advance(self, done: int, note: str = "") -> None: ...

    def say(self, line: str) -> None: ...


@dataclass(frozen=True)
class Plan:
    game: str
    from_solver: int = 0
    selfplay: int = 0
    epochs: int = 10
    hidden: tuple[int, ...] = (256, 256)
    conv: tuple[int, ...] = ()
    seed: int = 0
    rounds: int = 0  # 0: one round per 20 games
    simulations: int = 100
    selfplay_epochs: int = 2
    gate_games: int = 10
    learning_rate: float = 1e-3
    weight_decay: float = 1e-2
    start: str | None = None  # a network file to start from
    schedule: str = "cosine"  # the solver stage's step size: cosine decay to 0 over its
    # passes (one run on 120,000 Connect Four positions: 83.5% optimal top moves held out,
    # against 82.2% at a constant step size), or "constant"

    def fingerprint(self) -> dict[str, Any]:
        return json.loads(json.dumps(asdict(self)))

    @property
    def round_count(self) -> int:
        if not self.selfplay:
            return 0
        return self.rounds or max(1, math.ceil(self.selfplay / 20))


class Checkpoint:
    def __init__(self, folder: Path, plan: Plan) -> None:
        self.folder = folder
        self.state_path = folder / "state.json"
        folder.mkdir(exist_ok=True)  # beside the output, in a folder that exists
        if self.state_path.is_file():
            state = json.loads(read_capped(self.state_path, MAX_STATE_BYTES).decode())
            if state.get("plan") != plan.fingerprint():
                raise CheckpointMismatch(
                    f"{folder} holds a run with other settings; give the same settings to "
                    "resume it, or --restart")
            self.state = state
        else:
            self.state = {"plan": plan.fingerprint(), "solver_epochs": 0, "rounds": 0,
                          "seconds": 0.0, "log": []}

    def save(self) -> None:
        write_atomically(self.state_path, json.dumps(self.state, indent=1))

    def path(self, name: str) -> Path:
        return self.folder / name


MapUnits = Callable[[Callable[..., Any], list[tuple[Any, ...]]], Iterator[Any]]
"""Runs ``function(*job)`` for every job and yields the results in the jobs' order: local
processes or a Ray cluster (``yipan.cluster``, given by the front end), in order here when
none is given."""


def in_order(function: Callable[..., Any], jobs: list[tuple[Any, ...]]) -> Iterator[Any]:
    return (function(*job) for job in jobs)


class CpuClock:
    """The CPU seconds of a run: this process's, plus those units of work report from other
    processes or machines, which this process's clock does not see."""

    def __init__(self, earlier: float = 0.0) -> None:
        self._start = time.process_time() - earlier

    def add(self, seconds: float) -> None:
        self._start -= seconds

    def seconds(self) -> float:
        return time.process_time() - self._start


def timed_unit(function: Callable[..., Any], *job: Any) -> tuple[Any, float]:
    """``function(*job)`` and the CPU seconds it took where it ran."""
    start = time.process_time()
    result = function(*job)
    return result, time.process_time() - start


def map_timed(map_units: MapUnits, clock: CpuClock, function: Callable[..., Any],
              jobs: list[tuple[Any, ...]]) -> Iterator[Any]:
    """``map_units(function, jobs)``, with the CPU time of units run elsewhere on ``clock``."""
    if map_units is in_order:  # here: this process's clock counts them already
        yield from in_order(function, jobs)
        return
    for result, seconds in map_units(timed_unit, [(function, *job) for job in jobs]):
        clock.add(seconds)
        yield result


def run(game: Game, plan: Plan, output: Path, reporter: Reporter,
        label: Callable[..., Dataset] | None, restart: bool = False,
        map_units: MapUnits | None = None) -> nets.Network:
    """The whole pipeline (module docstring); the final network is written to ``output``.
    ``map_units`` runs the units of work, chunks of labelling and games of self-play (default:
    one after another here); the network is the same however they are run."""
    if game.info.encoding is None:
        raise CapabilityError(f"{game.info.name} has no encoding for networks")
    if plan.from_solver and label is None:
        raise CapabilityError(f"{game.info.name} has no solver to label positions "
                              "(try --selfplay)")
    folder = output.with_name(output.name + ".checkpoint")
    if restart and folder.is_dir():
        discard_training(folder)
    checkpoint = Checkpoint(folder, plan)
    clock = CpuClock(checkpoint.state["seconds"])
    network_path = checkpoint.path("network.npz")
    network: nets.Network | None = None
    if network_path.is_file():
        try:
            network = nets.load(network_path, game)
            reporter.say(f"resuming from {network_path}")
        except nets.CorruptNetworkError as error:  # (the game's encoding changed since, or
            # the file is damaged): the labelled chunks are the costly part, and they stay
            reporter.say(f"{error}: training again from the labelled positions")
            discard_training(folder)
            checkpoint = Checkpoint(folder, plan)
            clock = CpuClock()
    if network is None:  # nothing to resume: the given start, or fresh weights
        network = nets.load(plan.start, game) if plan.start is not None else \
            nets.network_for(game, plan.hidden, np.random.default_rng(plan.seed), plan.conv)

    def keep(net: nets.Network, **state: Any) -> None:
        checkpoint.state.update(state, seconds=clock.seconds())
        nets.save(net, network_path)
        checkpoint.save()

    notes: dict[str, Any] = {}
    if plan.from_solver:
        parts = solver_data(game, plan, checkpoint, reporter, label,  # type: ignore[arg-type]
                            map_units or in_order, clock)
        train_part, held_out = held_out_chunks(parts, plan.seed)
        done = checkpoint.state["solver_epochs"]
        if done < plan.epochs:
            steps_per_epoch = max(1, len(train_part) // 256)
            reporter.stage("training on the solver's labels",
                           (plan.epochs - done) * steps_per_epoch)
            settings = Settings(epochs=plan.epochs - done, learning_rate=plan.learning_rate,
                                weight_decay=plan.weight_decay,
                                decay_steps=plan.epochs * steps_per_epoch
                                if plan.schedule == "cosine" else None)

            def epoch_done(epoch: int, net: nets.Network, optimizer: list[np.ndarray]) -> None:
                keep(net, solver_epochs=done + epoch)
                save_arrays(optimizer_path, optimizer, done + epoch)

            optimizer_path = checkpoint.path("optimizer.npz")
            saved = load_arrays(optimizer_path, done) if done else None
            if done and saved is None:
                reporter.say("resuming with a fresh optimiser (its state was not saved with "
                             "this pass)")
            network, report = fit(network, train_part, settings,
                                  np.random.default_rng([plan.seed, done]),
                                  progress=lambda step, steps, loss: reporter.advance(
                                      step, f"loss {loss:.3f}"),
                                  on_epoch=epoch_done, optimizer_state=saved,
                                  epoch_seed=plan.seed, first_epoch=done)
        figures = measure(network, held_out)
        notes["solver"] = {"positions": plan.from_solver, "examples": len(train_part),
                           "held_out": len(held_out), "epochs": plan.epochs,
                           **{k: round(v, 4) for k, v in figures.items()}}
        reporter.say(f"held out ({len(held_out)} examples): top move optimal "
                     f"{figures['policy_top1']:.1%}, value sign right "
                     f"{figures['value_sign']:.1%}")
    if plan.selfplay:
        network = improve(game, network, plan, checkpoint, reporter, keep,
                          map_units or in_order, clock)
        notes["selfplay"] = {"games": plan.selfplay, "rounds": plan.round_count,
                             "simulations": plan.simulations,
                             "accepted": sum(1 for e in checkpoint.state["log"]
                                             if e.get("accepted"))}
    keep(network)
    seconds = checkpoint.state["seconds"]
    notes.update(cpu_seconds=round(seconds, 1), hidden=list(network.hidden), seed=plan.seed)
    final = nets.Network(network.game, network.encoding, network.actions, network.weights,
                         notes)
    nets.save(final, output)
    reporter.say(f"wrote {output} ({final.parameters()} weights, {seconds:.0f} CPU-s)")
    return final


def discard_training(folder: Path) -> None:
    """Everything of a checkpoint but its labelled chunks (which depend only on the seed and
    their number, and cost the most)."""
    for path in folder.iterdir():
        if not path.name.startswith("solver-"):
            path.unlink()


def save_arrays(path: Path, arrays: list[np.ndarray], epoch: int) -> None:
    """The optimiser's state after pass ``epoch``, atomically."""
    buffer = io.BytesIO()
    np.savez(buffer, *arrays, epoch=np.array(epoch))
    write_atomically(path, buffer.getvalue())


def load_arrays(path: Path, epoch: int) -> list[np.ndarray] | None:
    """The optimiser's state saved after pass ``epoch``; None when there is none for that
    pass (a run stopped between the two files, or a checkpoint from before the state was
    kept: the stage goes on with a fresh optimiser)."""
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as archive:
            if int(archive["epoch"]) != epoch:
                return None
            return [archive[f"arr_{i}"] for i in range(len(archive.files) - 1)]
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile):
        raise CheckpointMismatch(f"{path} is damaged: resume with --restart") from None


def solver_data(game: Game, plan: Plan, checkpoint: Checkpoint, reporter: Reporter,
                label: Callable[..., Dataset], map_units: MapUnits = in_order,
                clock: CpuClock | None = None) -> list[Dataset]:
    """Every chunk of labelled positions, those not saved yet labelled as units of work
    (``map_units``: here, or on worker processes or a cluster) and saved as they arrive."""
    chunks = math.ceil(plan.from_solver / CHUNK)
    sizes = [min(CHUNK, plan.from_solver - index * CHUNK) for index in range(chunks)]
    paths = [checkpoint.path(f"solver-{index:04d}.npz") for index in range(chunks)]
    parts: dict[int, Dataset] = {index: Dataset.load(path) for index, path in enumerate(paths)
                                 if path.is_file()}
    stale = [index for index, part in parts.items()
             if part.planes.shape[1:] != tuple(game.info.encoding or ())]
    if stale:  # saved before the game's encoding changed: their planes fit no network now
        reporter.say(f"{len(stale)} labelled chunks were encoded for another network input: "
                     "labelling them again")
        for index in stale:
            del parts[index]
    missing = [index for index in range(chunks) if index not in parts]
    reporter.stage("labelling positions by the solver", plan.from_solver)
    done = sum(sizes[index] for index in parts)
    reporter.advance(done)
    units: Iterator[Dataset]
    if map_units is in_order:  # here: the bar moves position by position (``done`` is read
        # when the label reports, before its chunk is counted below)
        units = (label(game, sizes[index], random.Random(f"{plan.seed}:{index}"),
                       lambda labelled: reporter.advance(done + labelled))
                 for index in missing)
    else:
        jobs = [(label, game, sizes[index], f"{plan.seed}:{index}") for index in missing]
        units = map_timed(map_units, clock or CpuClock(), label_unit, jobs)
    for index, part in zip(missing, units, strict=True):
        part.save(paths[index])
        parts[index] = part
        done += sizes[index]
        reporter.advance(done)
    return [parts[index] for index in range(chunks)]


def label_unit(label: Callable[..., Dataset], game: Game, size: int, seed: str) -> Dataset:
    """One chunk of labelled positions as a unit of work: the same chunk wherever it runs."""
    return label(game, size, random.Random(seed))


def held_out_chunks(parts: list[Dataset], seed: int, share: int = 20
                    ) -> tuple[Dataset, Dataset]:
    """1/share of the chunks held out (at least one, when there are two or more): positions
    of one game are alike, and a chunk's games are its own, so nothing held out was seen in
    a near copy. With one chunk, 1/share of its positions (``split``)."""
    if len(parts) < 2:
        return split(Dataset.join(parts), seed)
    held = max(1, len(parts) // share)
    return Dataset.join(parts[:-held]), Dataset.join(parts[-held:])


IMAGES = 8  # examples a labelled position may be stored as, one after another (Connect
# Four: it and its mirror image; Gomoku: its eight symmetries): held out together


def split(data: Dataset, seed: int, share: int = 20) -> tuple[Dataset, Dataset]:
    """1/share of the examples held out, in runs of ``IMAGES`` examples (so never one image
    of a position held out and another trained on)."""
    groups = len(data) // IMAGES
    if groups < 2:  # too few to hold whole runs out: every other example
        mask = np.arange(len(data)) % 2 == 1
        return data.take(~mask), data.take(mask)
    order = np.random.default_rng(seed).permutation(groups)
    held = order[: max(1, groups // share)]
    mask = np.zeros(len(data), bool)
    for offset in range(IMAGES):
        mask[IMAGES * held + offset] = True
    return data.take(~mask), data.take(mask)


def improve(game: Game, best: nets.Network, plan: Plan, checkpoint: Checkpoint,
            reporter: Reporter, keep: Callable[..., None], map_units: MapUnits = in_order,
            clock: CpuClock | None = None) -> nets.Network:
    rounds = plan.round_count
    per_round = math.ceil(plan.selfplay / rounds)
    buffer = ReplayBuffer(REPLAY)
    replay_path = checkpoint.path("replay.npz")
    if replay_path.is_file():
        buffer.data = Dataset.load(replay_path)
    settings = SelfPlay(simulations=plan.simulations)
    for number in range(checkpoint.state["rounds"], rounds):
        rng = random.Random(f"{plan.seed}:selfplay:{number}")
        noise = np.random.default_rng([plan.seed, 1, number])
        reporter.stage(f"self-play round {number + 1}/{rounds}", per_round)
        jobs = [(game, best, min(UNIT_GAMES, per_round - first), settings,
                 f"{plan.seed}:selfplay:{number}:{first}")
                for first in range(0, per_round, UNIT_GAMES)]
        parts = []
        for part in map_timed(map_units, clock or CpuClock(), self_play_unit, jobs):
            parts.append(part)
            reporter.advance(min(per_round, len(parts) * UNIT_GAMES))
        examples = Dataset.join(parts)
        buffer.add(examples)
        assert buffer.data is not None
        buffer.data.save(replay_path)
        candidate, report = fit(best, buffer.data,
                                Settings(epochs=plan.selfplay_epochs,
                                         learning_rate=plan.learning_rate / 2,
                                         weight_decay=plan.weight_decay), noise)
        score = match(game, candidate, best, plan.gate_games, plan.simulations, rng)
        accepted = score >= GATE
        if accepted:
            best = candidate
        entry = {"round": number + 1, "examples": len(examples), "buffer": len(buffer.data),
                 "gate": round(score, 3), "accepted": accepted}
        reporter.say(f"round {number + 1}: {len(examples)} examples, new network scored "
                     f"{score:.0%} against the best: {'kept' if accepted else 'dropped'}")
        keep(best, rounds=number + 1, log=[*checkpoint.state["log"], entry])
    return best
