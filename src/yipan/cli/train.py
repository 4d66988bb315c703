"""``yipan train GAME``: fit a policy-value network (``yipan.learning.pipeline``), with a
progress bar; run the same command again to resume an interrupted run.

``yipan train chess --nnue`` (or xiangqi: ``nnue_games.NNUE_GAMES``): an efficiently updatable
evaluation network from the engine's own games (``yipan.games.nnue_training``), with progress
lines; resumable the same way."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..cluster import make_runner
from ..core import CapabilityError
from ..games import nnue_training as pipeline_nnue
from ..games.nnue_games import NNUE_GAMES
from ..learning import pipeline
from .common import (
    UsageError,
    count,
    input_file,
    output_file,
    say_on_stderr,
    start_game_command,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train", help="train a network for PUCT (needs the [train] extra)", add_help=False,
        description="yipan train GAME [--from-solver N] [--selfplay GAMES] [--epochs E] "
                    "--output FILE; or, for an evaluation network (NNUE) from the engine's "
                    f"own games ({', '.join(NNUE_GAMES)}): yipan train chess --nnue [--games G] "
                    "[--depth D] [--steps S] --output FILE (yipan train chess --nnue --help)")
    parser.add_argument("argv", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def hidden_sizes(text: str) -> tuple[int, ...]:
    parse = count(1, 4096)
    try:
        sizes = tuple(parse(part) for part in text.split(",") if part.strip())
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"hidden layer sizes: {error}") from None
    if not 1 <= len(sizes) <= 8:
        raise argparse.ArgumentTypeError("give 1 to 8 layer sizes, such as 256,256")
    return sizes


def rate(text: str) -> float:
    """An argparse type: a finite number from 0 to 1."""
    try:
        value = float(text) if text.isascii() and len(text) <= 32 else math.nan
    except ValueError:
        value = math.nan
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1, got {text!r}")
    return value


def add_train_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--output", type=output_file, required=True,
                        help="the network file to write")
    parser.add_argument("--from-solver", type=count(0, 10_000_000), default=0, metavar="N",
                        help="label N positions by the game's solver (Gomoku: by its engine) "
                             "and learn from them")
    parser.add_argument("--selfplay", type=count(0, 1_000_000), default=0, metavar="GAMES",
                        help="then play GAMES games of self-play (PUCT) and learn from them")
    parser.add_argument("--epochs", type=count(1, 10_000), default=10,
                        help="passes over the solver's positions (default 10)")
    parser.add_argument("--hidden", type=hidden_sizes, default=(256, 256),
                        help="hidden layer sizes (default 256,256)")
    parser.add_argument("--conv", type=hidden_sizes, default=(), metavar="FILTERS",
                        help="3x3 convolution layers before the dense ones, their filters "
                             "(such as 32,32,32; default none: an MLP)")
    parser.add_argument("--simulations", type=count(2, 100_000), default=100,
                        help="PUCT simulations a move in self-play (default 100)")
    parser.add_argument("--rounds", type=count(0, 10_000), default=0,
                        help="self-play rounds (train and gate after each; default: one "
                             "per 20 games)")
    parser.add_argument("--gate-games", type=count(2, 10_000), default=10,
                        help="games of a new network against the best (default 10)")
    parser.add_argument("--learning-rate", type=rate, default=1e-3,
                        help="Adam's step size (default 0.001)")
    parser.add_argument("--schedule", choices=("cosine", "constant"), default="cosine",
                        help="the solver stage's step size: from --learning-rate down to 0 "
                             "along a cosine over its passes (default), or constant")
    parser.add_argument("--weight-decay", type=rate, default=1e-2,
                        help="AdamW's weight decay (default 0.01)")
    parser.add_argument("--start", type=input_file, default=None,
                        help="start from this network instead of fresh weights")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random choice")
    parser.add_argument("--workers", type=count(1, 1024), default=1,
                        help="chunks of labelling (500 positions) and self-play games done at "
                             "once on local processes (or the CPUs of a local Ray cluster); the "
                             "network is the same")
    parser.add_argument("--ray", nargs="?", const="auto", default=None, metavar="ADDRESS",
                        help="label and self-play on a Ray cluster: auto, local or host:port (pip "
                             "install -e '.[cluster]')")
    parser.add_argument("--restart", action="store_true",
                        help="discard the checkpoint of an earlier run with this output")


class RichReporter:
    """Progress bars on stderr (stdout stays free), one per stage."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.task: TaskID | None = None

    def stage(self, name: str, total: int) -> None:
        if self.task is not None:
            self.progress.update(self.task, visible=True)
        self.task = self.progress.add_task(name, total=total, note="")

    def advance(self, done: int, note: str = "") -> None:
        if self.task is not None:
            self.progress.update(self.task, completed=done, note=note)

    def say(self, line: str) -> None:
        self.progress.console.print(line, highlight=False)


def add_nnue_arguments(parser: argparse.ArgumentParser) -> None:
    defaults = pipeline_nnue.NnuePlan(game="chess")
    parser.add_argument("--nnue", action="store_true", required=True,
                        help="train an efficiently updatable evaluation network ("
                             + ", ".join(NNUE_GAMES) + ")")
    parser.add_argument("--output", type=output_file, required=True,
                        help="the network file to write")
    parser.add_argument("--games", type=count(1, 10_000_000), default=defaults.games,
                        help=f"self-play games to learn from (default {defaults.games})")
    parser.add_argument("--games-per-unit", type=count(1, 10_000),
                        default=defaults.games_per_unit,
                        help="games in one unit of work (default %(default)s)")
    parser.add_argument("--random-plies", type=count(0, 100), default=defaults.random_plies,
                        help="random moves at most at the start of a game, half of it at "
                             "least (default %(default)s)")
    parser.add_argument("--depth", type=count(1, 30), default=defaults.depth,
                        help="the search depth that plays and labels (default %(default)s)")
    parser.add_argument("--nodes", type=count(0, 100_000_000), default=0,
                        help="label at this node budget instead of a depth")
    parser.add_argument("--labeller", type=input_file, default=None, metavar="NETWORK",
                        help="the engine that plays and labels evaluates with this network "
                             "(the next round)")
    parser.add_argument("--accumulator", type=count(8, 1024), default=defaults.accumulator,
                        help="first-layer width per side (default %(default)s)")
    parser.add_argument("--hidden", type=count(1, 256), default=defaults.hidden,
                        help="hidden layer width (default %(default)s)")
    parser.add_argument("--king-buckets", type=count(1, 64), default=defaults.king_buckets,
                        metavar="N", help="first-layer rows per bucket of the own king's square "
                        "(chess: 1 or 8; default %(default)s)")
    parser.add_argument("--bucket-rate", type=rate, default=defaults.bucket_rate,
                        help="the king buckets' own rows learn at this fraction of the rate "
                        "(default %(default)s)")
    parser.add_argument("--output-buckets", type=count(1, 16), default=defaults.output_buckets,
                        metavar="N", help="the layers after the first, one set per bucket of "
                        "the number of pieces on the board (default %(default)s)")
    parser.add_argument("--steps", type=count(1, 10_000_000), default=defaults.steps,
                        help="training steps (default %(default)s)")
    parser.add_argument("--batch", type=count(1, 1 << 16), default=defaults.batch,
                        help="positions a step (default %(default)s)")
    parser.add_argument("--learning-rate", type=rate, default=defaults.learning_rate,
                        help="Adam's step size (default %(default)s)")
    parser.add_argument("--final-steps", type=count(0, 10_000_000), default=0, metavar="N",
                        help="the last N of --steps at --final-learning-rate (default 0)")
    parser.add_argument("--final-learning-rate", type=rate,
                        default=defaults.final_learning_rate,
                        help="the rate of the last --final-steps (default %(default)s)")
    parser.add_argument("--data-from", action="append", default=[],
                        metavar="FOLDER",
                        help="also train on an earlier round's positions: its checkpoint "
                             "folder (OUTPUT.checkpoint of that run); may be repeated")
    parser.add_argument("--start", type=input_file, default=None, metavar="NETWORK",
                        help="start the training from this network's weights instead of "
                             "fresh ones (the next round goes on from the last; a narrower first "
                             "layer is grown to --accumulator)")
    parser.add_argument("--blend", type=rate, default=defaults.blend,
                        help="weight of the game's result in the target, the rest the "
                             "search's score (default %(default)s)")
    parser.add_argument("--positions", type=count(0, 1 << 40), default=0, metavar="N",
                        help="train on at most N positions, the first games' (default 0: "
                             "all)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random choice")
    parser.add_argument("--workers", type=count(1, 1024), default=1,
                        help="units of games played at once on local processes")
    parser.add_argument("--ray", nargs="?", const="auto", default=None, metavar="ADDRESS",
                        help="play the games on a Ray cluster: auto, local or host:port")
    parser.add_argument("--restart", action="store_true",
                        help="discard the checkpoint of an earlier run with this output")


def run_nnue(argv: list[str]) -> int:
    args, game, _ = start_game_command("train", argv, "Train an evaluation network.",
                                       add_nnue_arguments)
    if game.info.name not in NNUE_GAMES:
        raise CapabilityError(f"{game.info.title} has no evaluation network to train (games "
                              f"that have one: {', '.join(NNUE_GAMES)})")
    if args.labeller is not None:  # refused in one line now, not after the first games
        from ..chess_family.nnue_file import load

        load(args.labeller, game.info.name)
    plan = pipeline_nnue.NnuePlan(
        game=game.info.name, games=args.games, games_per_unit=args.games_per_unit,
        random_plies=args.random_plies, depth=args.depth, nodes=args.nodes,
        labeller=None if args.labeller is None else str(args.labeller), seed=args.seed,
        accumulator=args.accumulator, hidden=args.hidden, king_buckets=args.king_buckets,
        output_buckets=args.output_buckets,
        bucket_rate=args.bucket_rate,
        steps=args.steps,
        batch=args.batch, learning_rate=args.learning_rate, blend=args.blend,
        positions=args.positions, final_steps=args.final_steps,
        final_learning_rate=args.final_learning_rate,
        data_from=tuple(str(folder) for folder in args.data_from),
        start=None if args.start is None else str(args.start))
    if plan.final_steps >= plan.steps:
        raise UsageError("--final-steps must be fewer than --steps")
    pipeline_nnue.check_layout(plan)
    for folder in plan.data_from:  # refused in one line now, not after the games
        pipeline_nnue.earlier_positions(plan, folder)
    if plan.start is not None:
        pipeline_nnue.start_network(plan)
    map_units = None
    if args.ray is not None or args.workers > 1:
        map_units = make_runner(args.ray, args.workers).map_units
    pipeline_nnue.run(plan, Path(args.output), say_on_stderr, map_units, args.restart)
    return 0


def run(args: argparse.Namespace) -> int:
    if "--nnue" in args.argv:
        return run_nnue(args.argv)
    args, game, hooks = start_game_command("train", args.argv, "Train a network.",
                                           add_train_arguments)
    if not (args.from_solver or args.selfplay):
        raise UsageError("yipan train: say what to learn from: --from-solver N and/or "
                         "--selfplay GAMES")
    if game.info.encoding is None:
        raise CapabilityError(f"{game.info.title} has no encoding for networks (games that "
                              "have one: connect4, gomoku, tictactoe)")
    # the title names the board and the rule: a checkpoint of another variant is not resumed
    plan = pipeline.Plan(game=game.info.title, from_solver=args.from_solver,
                         selfplay=args.selfplay, epochs=args.epochs, hidden=args.hidden,
                         conv=args.conv,
                         seed=args.seed, rounds=args.rounds, simulations=args.simulations,
                         gate_games=args.gate_games, learning_rate=args.learning_rate,
                         weight_decay=args.weight_decay, schedule=args.schedule,
                         start=None if args.start is None else str(args.start))
    map_units = None
    if args.ray is not None or args.workers > 1:  # labelling's and self-play's units elsewhere
        runner = make_runner(args.ray, args.workers)
        map_units = runner.map_units
    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), TextColumn("{task.fields[note]}"),
                  console=console, transient=False, disable=not sys.stderr.isatty()) as bar:
        pipeline.run(game, plan, Path(args.output), RichReporter(bar), hooks.label,
                     restart=args.restart, map_units=map_units)
    return 0
