"""The AI of the games of hidden information: it plays an equilibrium strategy computed by CFR+,
and its hooks (``make_ai``, ``analyze``, ``solve``, ``prepare``) shared by Kuhn poker, Leduc
hold'em and Liar's Dice.

The player looks only at its information state (``Game.information_state``): it is handed the
whole state, as every player is, but draws its move from the strategy at what it knows, so it
cannot cheat. Its levels: ``perfect`` plays the equilibrium (CFR+ run until it is close: the
game's ``SOLVE_ITERATIONS``), ``medium`` the average of a few iterations of vanilla CFR,
``easy`` uniformly at random.

A strategy is solved once per process and kept; a large one (Liar's Dice: 24,576 information
states) is also kept on disk, in ``$YIPAN_CACHE`` (default ``~/.cache/yipan``), as a checksummed
strategy file (``yipan.search.cfr.save_strategy``): a damaged file is solved again.
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
from collections.abc import Hashable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ..core import (
    Analysis,
    AnalysisRequest,
    Choice,
    CommandOption,
    Game,
    GameHooks,
    check_level,
)
from ..core.files import FileRefusedError, OutputFile
from ..search import cfr

SOLVE_ITERATIONS = {"kuhn": 2000, "leduc": 2000, "liars-dice": 400}
"""CFR+ iterations of the perfect level: enough to bring each game's exploitability under a
thousandth of a chip (``benchmarks/cfr.py`` prints it)."""
MEDIUM_ITERATIONS = 8  # vanilla CFR: a player with visible leaks
CACHED_ON_DISK = 2_000  # information states from which a strategy is kept on disk

_lock = threading.Lock()
_trees: dict[tuple, cfr.GameTree] = {}
_strategies: dict[tuple, cfr.Strategy] = {}


def game_key(game: Game) -> tuple:
    """What identifies a game and its options (Liar's Dice: dice and faces)."""
    return (game.info.name, getattr(game, "dice", None), getattr(game, "faces", None))


def tree_of(game: Game) -> cfr.GameTree:
    key = game_key(game)
    with _lock:
        if key not in _trees:
            _trees[key] = cfr.GameTree(game)
        return _trees[key]


def cache_folder() -> Path:
    return Path(os.environ.get("YIPAN_CACHE") or Path.home() / ".cache" / "yipan") / "strategies"


def _cache_path(game: Game, algorithm: str, iterations: int) -> Path:
    name = "-".join(str(part) for part in game_key(game) if part is not None)
    return cache_folder() / f"{name}-{algorithm}-{iterations}.strategy"


def strategy_for(game: Game, level: str = "perfect") -> cfr.Strategy:
    """The strategy the AI plays at ``level`` (solved once, then kept)."""
    check_level(level)
    if level == "easy":
        return cfr.Strategy(game.info.name, {})  # every state uniform
    algorithm, iterations = ("cfr+", SOLVE_ITERATIONS.get(game.info.name, 1000)) \
        if level == "perfect" else ("cfr", MEDIUM_ITERATIONS)
    key = (*game_key(game), algorithm, iterations)
    with _lock:
        known = _strategies.get(key)
    if known is not None:
        return known
    tree = tree_of(game)
    path = _cache_path(game, algorithm, iterations)
    strategy = None
    if len(tree.infosets) >= CACHED_ON_DISK and path.is_file():
        try:
            strategy, _ = cfr.load_strategy(path, game)
        except (OSError, cfr.CorruptStrategyError):
            strategy = None
    if strategy is None:
        solver = cfr.TabularCFR(tree, algorithm)
        solver.run(iterations)
        strategy = solver.average_strategy()
        if len(tree.infosets) >= CACHED_ON_DISK:
            # a cache not written (a read-only home, a refused path) is solved again next time
            with contextlib.suppress(OSError, FileRefusedError):
                path.parent.mkdir(parents=True, exist_ok=True)  # yipan's own cache folder
                cfr.save_strategy(path, game, strategy, _options(game),
                                  {"algorithm": algorithm, "iterations": iterations})
    with _lock:
        _strategies[key] = strategy
    return strategy


def _options(game: Game) -> dict[str, Any]:
    return {name: value for name, value in (("dice", getattr(game, "dice", None)),
                                            ("faces", getattr(game, "faces", None)))
            if value is not None}


class EquilibriumPlayer:
    """Draws each move from a strategy at the information state of the side to move."""

    def __init__(self, strategy: cfr.Strategy, rng: random.Random, name: str) -> None:
        self.strategy = strategy
        self.rng = rng
        self.name = name

    def choose(self, game: Game, state: Any) -> Choice:
        return Choice(self.strategy.sample(game, state, self.rng))

    def appraise(self, game: Game, state: Any, move: Hashable) -> Analysis:
        """The move chosen, with the equilibrium's expected value of the position (in chips,
        for the side to move) and of each move: what a front end shows as the AI's value."""
        known = analyze(game, state, AnalysisRequest())
        return replace(known, move=move, pv=(move,), engine=self.name)


def make_ai(game: Game, level: str, rng: random.Random, time: float | None) -> EquilibriumPlayer:
    """The game's AI at ``level`` (the module docstring); ``time`` is not needed."""
    names = {"perfect": "CFR+ equilibrium", "medium": "CFR (8 iterations)", "easy": "uniform"}
    return EquilibriumPlayer(strategy_for(game, level), rng, names[check_level(level)])


def information_values(game: Game, strategy: cfr.Strategy, key: Hashable
                       ) -> tuple[float | None, dict[Hashable, float]]:
    """The expected value for its player of the information state ``key`` when both play
    ``strategy``, and of each move there: the mean over the state's nodes weighted by how
    likely each is (None where the strategy never reaches it)."""
    tree = tree_of(game)
    number = tree.index.get(key)
    if number is None:
        return None, {}
    reach = np.empty(tree.nodes)
    value = np.empty(tree.nodes)
    from ..search import cfr_kernel

    cfr_kernel.profile_values(*tree.arrays(), tree.offset, tree.policy(strategy), reach, value)
    members = np.flatnonzero(tree.infoset == number)
    weight = reach[members].sum()
    if weight <= 0.0:
        return None, {}
    infoset = tree.infosets[number]
    sign = 1.0 if infoset.player == 0 else -1.0
    mean = sign * float((reach[members] * value[members]).sum() / weight)
    moves = {}
    for a, move in enumerate(infoset.moves):
        children = tree.first_child[members] + a
        moves[move] = sign * float((reach[members] * value[children]).sum() / weight)
    return mean, moves


def analyze(game: Game, state: Any, request: AnalysisRequest) -> Analysis:
    """The equilibrium at the information state of the side to move: the move it plays most,
    each move's probability (``extra.strategy``) and expected value (``move_values``), and
    the state's value, in chips, for the side to move (``scale`` "payoff")."""
    strategy = strategy_for(game, "perfect")
    mover = game.to_move(state)
    key = game.information_state(state, mover)
    probabilities = strategy.probabilities(game, state)
    value, move_values = information_values(game, strategy, key)
    best = max(probabilities, key=lambda m: probabilities[m])
    return Analysis(move=best, value=value, pv=(best,), move_values=move_values,
                    scale="payoff", engine="CFR+ equilibrium",
                    extra={"strategy": probabilities, "information_state": str(key)})


def solve(game: Game, state: Any, request: AnalysisRequest) -> Analysis:
    """``yipan solve GAME``: the game solved by CFR+ from the deal, as many iterations as the
    perfect level (the one JSON schema: ``value`` is the first player's, ``extra`` has
    exploitability, iterations, algorithm)."""
    return solve_with(game, state, "cfr+", None, request)


def solve_with(game: Game, state: Any, algorithm: str, iterations: int | None,
               request: AnalysisRequest, rng: random.Random | None = None) -> Analysis:
    """Solve from the deal with ``algorithm`` (``yipan.search.cfr.solve_analysis``), on the
    tree this process keeps; ``--save FILE`` (``request.options["save"]``) writes the
    strategy."""
    return cfr.solve_analysis(game, state, algorithm,
                              iterations or SOLVE_ITERATIONS.get(game.info.name, 1000),
                              progress=request.progress, rng=rng, tree=tree_of(game),
                              save_to=(request.options or {}).get("save"), limit=request.limit)


def prepare(game: object = None) -> None:
    """Everything a first move needs, for every game these hooks serve (the one prepared
    stands for all): the CFR kernels, and Kuhn's, Leduc's and Liar's Dice's strategies (and
    ``game``'s, at its options) solved at the perfect and medium levels, or loaded from disk
    where a solve was kept there."""
    from .kuhn import KuhnPoker
    from .leduc import LeducHoldem
    from .liarsdice import LiarsDice

    games: list[Any] = [KuhnPoker(), LeducHoldem(), LiarsDice()]
    if isinstance(game, (KuhnPoker, LeducHoldem, LiarsDice)) \
            and game_key(game) not in {game_key(each) for each in games}:
        games.append(game)
    for each in games:
        strategy = strategy_for(each, "perfect")
        strategy_for(each, "medium")
        tree = tree_of(each)
        if len(tree.infosets) < CACHED_ON_DISK:
            cfr.exploitability(tree, strategy)
        information_values(each, strategy, tree.infosets[0].key)


HOOKS = GameHooks(make_ai=make_ai, analyze=analyze, solve=solve, prepare=prepare, options=(
    CommandOption("save", "write the solved strategy to this file", commands=("solve",),
                  kind=OutputFile),))
