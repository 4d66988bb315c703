"""The engines a user can name: one registry for the CLI, the web app and the library.

Each engine is an ``EngineSpec``, registered once (``register_engine``): its name, the games
it serves, what it does in words, and the jobs it can do. Every front end looks engines up
here: ``yipan analyze --ai NAME``, ``yipan solve --algorithm NAME``, ``yipan watch --ai NAME``,
the web page's engine menu and its searches; so a new engine is one ``register_engine`` call
and every one of them offers it. The jobs:

    think(asked)     the engine at work: an ``Analysis`` each time its answer improves, the last
                     one the answer; once ``limit.stop()`` is true it ends soon with its best so
                     far (the web page streams these and its "Move now" sets the stop)
    analyze(asked)   the best move and each move's value (``yipan analyze``); without one of
                     its own, the last of ``think``; without ``think``, ``think`` is this alone
    solve(asked)     the position's proven value (``yipan solve --algorithm``)
    player(game, how) a ``Player`` that plays with it (``yipan watch``, ``yipan play``)

The engines:

    auto        the game's own analysis (its hooks) if it has one, else the strongest generic
                engine that fits the game: alpha-beta, expectimax (chance), MCTS
    alphabeta   alpha-beta, every root move valued (iterative deepening under a limit)
    mcts        Monte Carlo tree search (UCT)
    expectimax  expectimax / expectiminimax through chance nodes, to a depth
    player      the move the game's AI would play (``yipan play``'s opponent), and why
                (also ``ai``, the web page's first name for it)
    puct        PUCT guided by the game's network (the shipped one, or ``network=FILE``);
                games without one: uniform priors and random playouts
    net         the network alone: its most likely move, its policy and its value
    random      a uniformly random legal move

``puct`` and ``net`` put the network's view in ``extra``: ``policy`` (each move's prior),
``network_value`` (for the side to move, in [-1, 1]), and for ``puct`` the root's ``visits``;
with ``truth=True`` the game's own analysis (a solver) beside it, in ``truth`` (each move's
outcome in words) and ``truth_value``, when it answers within ``TRUTH_SECONDS``.

The proving searches, for ``solve`` (to compare them on one position): ``auto`` (the game's
own solver, else alphabeta-tt), ``minimax`` (nothing pruned), ``alphabeta``
(plain), ``alphabeta-tt`` (table, symmetry, ordering, PVS), ``iterative`` (iterative
deepening), ``mcts``, ``mcts-solver``; and for games where a player does not see everything
(poker), solved from the deal by counterfactual regret minimisation: ``cfr``, ``cfr+``,
``linear-cfr``, ``dcfr``, ``mccfr-external``, ``mccfr-outcome`` (``yipan.search.cfr``;
``auto`` is the game's own, else ``cfr+``). Their value is the first player's, ``extra``
holds the exploitability, iterations and algorithm.

An iterative-deepening search stopped before its first depth finished answers with a one-ply
search (``yipan.search.iterative.iterate_or_one_ply``), wherever it runs.
"""

from __future__ import annotations

import random
import time as clock
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from types import MappingProxyType
from typing import Any

from .core import (
    CHANCE,
    Analysis,
    AnalysisRequest,
    Budget,
    CapabilityError,
    Choice,
    Game,
    GameHooks,
    Limit,
    SearchAborted,
    YipanError,
    game_over_analysis,
    game_spec,
)
from .core.analysis import OUTCOME_WORDS
from .core.player import Player
from .learning import network as nets
from .learning.evaluate import NetworkEvaluator, NetworkPlayer
from .learning.network import Network
from .players import make_ai
from .search import PLAIN, Options, alphabeta, cfr, minimax
from .search.alphabeta import search_to_depth
from .search.expectimax import expectimax
from .search.iterative import iterate_or_one_ply
from .search.mcts import MCTSPlayer, Tree, mcts
from .search.players import RandomPlayer, SearchPlayer
from .search.puct import PUCT, Evaluator, PUCTPlayer, puct, rollout_evaluator, visits_of

DEFAULT_CFR_ITERATIONS = 1000
DEFAULT_MCTS_ITERATIONS = 20_000
DEFAULT_SOLVER_ITERATIONS = 200_000  # the MCTS-solver stops once the root is proven
DEFAULT_EXPECTIMAX_DEPTH = 3
DEFAULT_ANALYZE_SECONDS = 10.0  # alpha-beta analysis when no limit is given
DEFAULT_SOLVE_SECONDS = 300.0  # anytime solves (alphabeta-tt, iterative) when none is given
DEFAULT_PUCT_SIMULATIONS = 800
DEFAULT_PLAYER_ITERATIONS = 300  # an MCTS player's iterations a move when none are given
TRUTH_SECONDS = 10.0  # the game's own analysis beside a network's, when it is this quick
THINK_EVERY = 0.25  # seconds between the reports of a search that has no steps of its own (MCTS)


class UnknownEngineError(YipanError, LookupError):
    """An engine or algorithm name that does not exist."""


# -- what an engine is asked ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Asked:
    """One job for an engine: the position, the caller's request (limit, options, trace), the
    random generator, the AI's level; ``every_move``: value each root move (the CLI's report,
    the web page's values) or only find the best (the web page's opponent, quicker);
    ``iterations``: ``solve``'s MCTS or CFR iterations."""

    game: Game
    state: Any
    request: AnalysisRequest
    rng: random.Random
    level: str = "perfect"
    every_move: bool = True
    iterations: int | None = None

    @property
    def limit(self) -> Limit | None:
        return self.request.limit


@dataclass(frozen=True, slots=True)
class PlayerRequest:
    """How a ``Player`` made from an engine plays: its level, its generator, its seconds or
    iterations a move (None: the engine's own), and a network file for ``puct``/``net``."""

    level: str = "perfect"
    rng: random.Random = field(default_factory=random.Random)
    time: float | None = None
    nodes: int | None = None
    network: str | None = None


Think = Callable[[Asked], Iterator[Analysis]]
Analyze = Callable[[Asked], Analysis]
MakePlayer = Callable[[Game, PlayerRequest], Player]


def every_game(game: Game) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """One engine (module docstring): its name, what it does in words (``help``: for the CLI's
    help and the web page), the games it serves (``serves``: whatever the position), and its
    jobs; ``label``: its name on the web page in a few words; ``on_page``: whether the web page
    offers it for a game it serves (an engine that only repeats another there is left out);
    ``plays``: whether the page may play against you with it (else it only values moves);
    ``aliases``: other names accepted for it; ``solve_help``: what its ``solve`` does, where
    that differs from ``help``."""

    name: str
    help: str
    serves: Callable[[Game], bool] = every_game
    think: Think | None = None
    analyze: Analyze | None = None
    solve: Analyze | None = None
    player: MakePlayer | None = None
    label: str = ""
    on_page: Callable[[Game], bool] = every_game
    plays: bool = True
    aliases: tuple[str, ...] = ()
    solve_help: str = ""

    @property
    def analyses(self) -> bool:
        """Whether it analyses a position (``think`` or ``analyze``)."""
        return self.think is not None or self.analyze is not None

    def thoughts(self, asked: Asked) -> Iterator[Analysis]:
        if self.think is not None:
            yield from self.think(asked)
        else:
            assert self.analyze is not None
            yield self.analyze(asked)

    def answer(self, asked: Asked) -> Analysis:
        if self.analyze is not None:
            return self.analyze(asked)
        last = None
        for last in self.thoughts(asked):  # noqa: B007 - the last is the answer
            pass
        assert last is not None  # an engine always ends on an answer
        return last


_ENGINES: dict[str, EngineSpec] = {}
_NAMES: dict[str, str] = {}  # every name and alias -> the engine's name


def register_engine(spec: EngineSpec) -> EngineSpec:
    """Add an engine to every front end (or replace the one of that name)."""
    for name in (spec.name, *spec.aliases):
        if _NAMES.get(name, spec.name) != spec.name:  # checked before the old one goes
            raise ValueError(f"the engine name {name!r} is taken by {_NAMES[name]!r}")
    if spec.name in _ENGINES:
        unregister_engine(spec.name)
    _ENGINES[spec.name] = spec
    for name in (spec.name, *spec.aliases):
        _NAMES[name] = spec.name
    return spec


def unregister_engine(name: str) -> None:
    spec = _ENGINES.pop(name)
    for alias in (spec.name, *spec.aliases):
        _NAMES.pop(alias, None)


def all_engines() -> list[EngineSpec]:
    """The registered engines, in the order they were registered."""
    return list(_ENGINES.values())


def analyze_engines() -> tuple[str, ...]:
    """The names ``analyze --ai`` takes."""
    return tuple(spec.name for spec in all_engines() if spec.analyses)


def solve_algorithms() -> tuple[str, ...]:
    """The names ``solve --algorithm`` takes: the proving searches."""
    return tuple(spec.name for spec in all_engines() if spec.solve is not None)


def player_engines() -> tuple[str, ...]:
    """The names ``watch --ai`` takes: engines that make a player."""
    return tuple(spec.name for spec in all_engines() if spec.player is not None)


def engine_spec(name: str, job: str = "analyze") -> EngineSpec:
    """The engine called ``name`` (or an alias) that can do ``job`` (``analyze``, ``solve``,
    ``play``); an UnknownEngineError names those there are."""
    spec = _ENGINES.get(_NAMES.get(name, ""))
    able = {"analyze": analyze_engines, "solve": solve_algorithms, "play": player_engines}[job]
    if spec is None or spec.name not in able():
        word = "algorithm" if job == "solve" else "engine"
        raise UnknownEngineError(f"unknown {word} {name!r}; {word}s: {', '.join(able())}")
    return spec


def engine_help(names: tuple[str, ...] | list[str], job: str = "analyze") -> str:
    """``name: what it does; ...``: a help line for a command's choices (``job``: ``solve``
    says what each proving search does)."""
    return "; ".join(
        f"{name}: {(job == 'solve' and _ENGINES[name].solve_help) or _ENGINES[name].help}"
        for name in names)


# -- what a game offers ---------------------------------------------------------------------------
def hooks_of(game: Game) -> GameHooks:
    return game_spec(game.info.name).load_hooks()


def is_two_player_search_game(game: Game) -> bool:
    info = game.info
    return info.players == 2 and info.zero_sum and not info.chance


def generic_engine(game: Game) -> str:
    """The generic engine ``auto`` means for a game without an analysis of its own."""
    if is_two_player_search_game(game):
        return "alphabeta"
    if game.info.chance and game.info.heuristic:
        return "expectimax"
    return "mcts"


def engines_for(game: Game) -> list[str]:
    """The engines that can analyse this game (whatever the position)."""
    return [spec.name for spec in all_engines() if spec.analyses and spec.serves(game)]


def page_engines(game: Game) -> list[str]:
    """The engines the web page offers for this game: those that play first."""
    offered = [spec for spec in all_engines()
               if spec.analyses and spec.serves(game) and spec.on_page(game)]
    return [spec.name for spec in offered if spec.plays] + \
        [spec.name for spec in offered if not spec.plays]


def has_network(game: Game) -> bool:
    """Whether the package ships a network for this game (``yipan.learning.network``)."""
    return game.info.encoding is not None and nets.shipped_path(game).is_file()


def load_network(game: Game, path: str | None = None) -> Network | None:
    """The network named by ``path``, else the one the package ships for the game (None when
    there is none)."""
    if path is not None:
        return nets.load(path, game)
    if game.info.encoding is None:
        return None
    return _shipped_network(game)


_SHIPPED: dict[str, Network | None] = {}


def _shipped_network(game: Game) -> Network | None:
    key = str(nets.shipped_path(game))
    if key not in _SHIPPED:
        _SHIPPED[key] = nets.shipped(game)
    return _SHIPPED[key]


def evaluator_for(game: Game, rng: random.Random, network: str | None = None
                  ) -> tuple[Evaluator, NetworkEvaluator | None]:
    """PUCT's evaluator: the network's when there is one, else uniform priors and playouts."""
    net = load_network(game, network)
    if net is None:
        return rollout_evaluator(game, rng), None
    evaluator = NetworkEvaluator(game, net)
    return evaluator, evaluator


def _no_network(game: Game) -> CapabilityError:
    return CapabilityError(f"no network for {game.info.title}: give --network FILE "
                           f"(made by yipan train {game.info.name})")


# -- the front ends' entry points -----------------------------------------------------------------
def make_player(game: Game, ai: str, level: str, rng: random.Random, time: float | None,
                network: str | None = None, nodes: int | None = None) -> Player:
    """The player ``yipan play --ai`` and ``yipan watch --ai`` name (``auto``: the game's
    own AI), with ``time`` seconds (or ``nodes`` iterations) a move."""
    spec = engine_spec(ai, "play")
    if not spec.serves(game):
        raise CapabilityError(f"--ai {ai} cannot play {game.info.title}")
    assert spec.player is not None
    return spec.player(game, PlayerRequest(level=level, rng=rng, time=time, nodes=nodes,
                                           network=network))


def _check_position(game: Game, state: Any) -> Analysis | None:
    if game.outcome(state) is not None:
        return game_over_analysis(game, state)
    if game.to_move(state) == CHANCE:
        draw = game.format_move(game.chance_outcomes(state)[0][0])
        raise CapabilityError(f"the next move is a chance draw, not a choice to analyse; give "
                              f"the draw as the next move (such as {draw})")
    return None


def check_analysis(game: Game, state: Any, engine: str = "auto",
                   options: Mapping[str, Any] | None = None) -> EngineSpec:
    """The engine, or raise what ``analyze`` would refuse, before anything is prepared or
    searched (the CLI checks a command line here before numba compiles the engine).
    ``options``: the request's (a network file named there is opened here)."""
    spec = engine_spec(engine)
    network = (options or {}).get("network")
    if not spec.serves(game):
        raise CapabilityError(f"{engine} cannot analyse {game.info.title}; engines for it: "
                              f"{', '.join(engines_for(game))}")
    if network:
        load_network(game, network)  # a missing or damaged file, refused here
    _check_position(game, state)
    return spec


def analyze(game: Game, state: Any, engine: str = "auto", *,
            request: AnalysisRequest | None = None, rng: random.Random | None = None,
            level: str = "perfect") -> Analysis:
    """The analysis of ``state`` by the named engine (module docstring)."""
    request = request or AnalysisRequest()
    spec = check_analysis(game, state, engine, request.options)
    over = _check_position(game, state)
    if over is not None:
        return over
    return spec.answer(Asked(game, state, request, rng or random.Random(), level))


def think(game: Game, state: Any, engine: str = "auto", *,
          request: AnalysisRequest | None = None, rng: random.Random | None = None,
          level: str = "perfect", every_move: bool = True) -> Iterator[Analysis]:
    """``analyze`` aloud: an Analysis each time the engine's answer improves, the last one the
    answer. A ``request.limit`` whose ``stop`` turns true ends it soon, on the best answer so
    far."""
    request = request or AnalysisRequest()
    spec = check_analysis(game, state, engine, request.options)
    over = _check_position(game, state)
    if over is not None:
        yield over
        return
    yield from spec.thoughts(Asked(game, state, request, rng or random.Random(), level,
                                   every_move=every_move))


def check_solve(game: Game, state: Any, algorithm: str = "auto",
                request: AnalysisRequest | None = None) -> EngineSpec:
    """The algorithm, or raise what ``solve`` would refuse of its arguments, before anything
    is prepared or searched (the CLI checks a command line here before numba compiles)."""
    spec = engine_spec(algorithm, "solve")
    if not spec.serves(game):
        able = [name for name in solve_algorithms() if _ENGINES[name].serves(game)]
        raise CapabilityError(f"{algorithm} cannot solve {game.info.title}; algorithms for it: "
                              f"{', '.join(able)}")
    if _by_regrets(game, spec.name):
        return spec
    _check_position(game, state)
    limit = request.limit if request is not None else None
    if spec.name.startswith("mcts") and request is not None and request.trace is not None:
        raise CapabilityError("a trace follows minimax and alpha-beta searches, not MCTS")
    if limit is not None and limit.time is not None and spec.name in ("minimax", "alphabeta"):
        raise CapabilityError(f"a time limit needs an anytime search (iterative, "
                              f"alphabeta-tt, mcts), not {spec.name}")
    return spec


def solve(game: Game, state: Any, algorithm: str = "auto", *,
          request: AnalysisRequest | None = None, rng: random.Random | None = None,
          iterations: int | None = None) -> Analysis:
    """The proven value of ``state`` by the named algorithm (module docstring)."""
    request = request or AnalysisRequest()
    spec = check_solve(game, state, algorithm, request)
    assert spec.solve is not None
    asked = Asked(game, state, request, rng or random.Random(), iterations=iterations)
    if not _by_regrets(game, spec.name):  # CFR starts from the deal, a chance node
        over = _check_position(game, state)
        if over is not None:
            return over
    return spec.solve(asked)


# -- auto -----------------------------------------------------------------------------------------
def _auto_thoughts(asked: Asked) -> Iterator[Analysis]:
    analyze_hook = hooks_of(asked.game).analyze
    if analyze_hook is not None:
        yield analyze_hook(asked.game, asked.state, asked.request)
    else:
        yield from _ENGINES[generic_engine(asked.game)].thoughts(asked)


def _auto_analysis(asked: Asked) -> Analysis:
    analyze_hook = hooks_of(asked.game).analyze
    if analyze_hook is not None:
        return analyze_hook(asked.game, asked.state, asked.request)
    return _ENGINES[generic_engine(asked.game)].answer(asked)


def _auto_solve(asked: Asked) -> Analysis:
    if _by_regrets(asked.game, "auto"):
        return _solve_by_regrets(asked, "auto")
    solve_hook = hooks_of(asked.game).solve
    if solve_hook is not None:
        return solve_hook(asked.game, asked.state, asked.request)
    return _solve_by_alphabeta_tt(asked)


def _has_own_analysis(game: Game) -> bool:
    return hooks_of(game).analyze is not None


def _ai_player(game: Game, how: PlayerRequest) -> Player:
    return make_ai(game, how.level, how.rng, how.time)


# -- alpha-beta -----------------------------------------------------------------------------------
def _alphabeta_thoughts(asked: Asked) -> Iterator[Analysis]:
    limit = asked.limit or Limit(time=DEFAULT_ANALYZE_SECONDS)
    for result in iterate_or_one_ply(asked.game, asked.state, limit=limit,
                                     analysis=asked.every_move, trace=asked.request.trace):
        yield Analysis.from_search(result, "alpha-beta")


def _plain_alphabeta_solve(asked: Asked) -> Analysis:
    result = alphabeta(asked.game, asked.state, trace=asked.request.trace, options=PLAIN)
    return _root_value(Analysis.from_search(result, "alphabeta"))


def _search_player(game: Game, how: PlayerRequest) -> Player:
    return SearchPlayer(how.level, how.rng, how.time)


# -- MCTS -----------------------------------------------------------------------------------------
def _mcts_analysis(asked: Asked) -> Analysis:
    limit = asked.limit
    mcts_limit = limit if limit is not None and (limit.nodes or limit.time) else \
        Limit(nodes=DEFAULT_MCTS_ITERATIONS)
    return Analysis.from_search(mcts(asked.game, asked.state, limit=mcts_limit, rng=asked.rng),
                                "mcts")


def _mcts_thoughts(asked: Asked) -> Iterator[Analysis]:
    """MCTS in slices of ``THINK_EVERY`` seconds on one tree, a report after each slice (its
    figures counted from the start); the limit's iterations and seconds bound the whole."""
    limit = asked.limit
    if limit is None or not (limit.nodes or limit.time):
        limit = Limit(nodes=DEFAULT_MCTS_ITERATIONS, stop=None if limit is None else limit.stop)
    start = clock.perf_counter()
    tree = Tree()
    done = 0
    while True:
        left = None if limit.time is None else limit.time - (clock.perf_counter() - start)
        slice_time = THINK_EVERY if left is None else min(THINK_EVERY, max(left, 0.01))
        slice_nodes = None if limit.nodes is None else max(limit.nodes - done, 1)
        result = mcts(asked.game, asked.state, rng=asked.rng, tree=tree,
                      limit=Limit(nodes=slice_nodes, time=slice_time, stop=limit.stop))
        done += result.stats.nodes
        stats = replace(result.stats, nodes=done, elapsed=clock.perf_counter() - start)
        yield Analysis.from_search(replace(result, stats=stats), "mcts")
        if result.exact or limit.stopped() or (left is not None and left <= THINK_EVERY) \
                or (limit.nodes is not None and done >= limit.nodes):
            return


def _mcts_solve(asked: Asked, solver: bool) -> Analysis:
    limit = asked.limit
    default = DEFAULT_SOLVER_ITERATIONS if solver else DEFAULT_MCTS_ITERATIONS
    nodes = asked.iterations if asked.iterations is not None else (
        None if limit is not None and limit.time is not None else default)
    mcts_limit = Limit(nodes=nodes, time=limit.time if limit is not None else None)
    result = mcts(asked.game, asked.state, limit=mcts_limit, rng=asked.rng, solver=solver)
    return Analysis.from_search(result, "mcts-solver" if solver else "mcts")


def _mcts_player(game: Game, how: PlayerRequest) -> Player:
    limit = Limit(time=how.time) if how.time is not None and how.nodes is None else \
        Limit(nodes=how.nodes or DEFAULT_PLAYER_ITERATIONS)
    return MCTSPlayer(limit, how.rng)


def _serves_mcts(game: Game) -> bool:
    info = game.info
    hidden = not info.perfect_information  # a search would see the hidden cards
    return info.players in (1, 2) and (info.players == 1 or info.zero_sum) and not hidden


# -- expectimax -----------------------------------------------------------------------------------
def _expectimax_analysis(asked: Asked) -> Analysis:
    limit = asked.limit
    depth = limit.depth if limit is not None and limit.depth else DEFAULT_EXPECTIMAX_DEPTH
    return Analysis.from_search(expectimax(asked.game, asked.state, depth=depth), "expectimax")


# -- the game's AI --------------------------------------------------------------------------------
def _player_thoughts(asked: Asked) -> Iterator[Analysis]:
    """The game's AI (``make_ai``) choosing, aloud where its hooks offer ``make_thinker``."""
    game, state, limit, rng, level = asked.game, asked.state, asked.limit, asked.rng, asked.level
    time = limit.time if limit is not None else None
    hooks = hooks_of(game)
    if hooks.think is not None:  # the game's AI reports analyses of its own (Go's MCTS)
        yield from hooks.think(game, state, AnalysisRequest(limit=limit))
    elif hooks.make_thinker is not None:
        thinker = hooks.make_thinker(game, level, rng, time)
        for choice in thinker.think(game, state, limit or Limit()):
            yield _appraised(_choice_analysis(choice, thinker.name), thinker, game, state)
    elif hooks.make_ai is not None:  # a player that cannot think aloud: its answer alone
        player = make_ai(game, level, rng, time)
        yield _appraised(_choice_analysis(player.choose(game, state), player.name), player,
                         game, state)
    else:
        searcher = SearchPlayer(level, rng, time)
        for choice in searcher.think(game, state, limit or Limit()):
            yield _choice_analysis(choice, searcher.name)


def _serves_player(game: Game) -> bool:
    return hooks_of(game).make_ai is not None or is_two_player_search_game(game)


def _appraised(analysis: Analysis, player: object, game: Game, state: Any) -> Analysis:
    """A choice with no value behind it (no search: theory, an equilibrium), valued by the
    player's own ``appraise(game, state, move)`` where it has one (the heap games' theory
    knows who wins, the card games' equilibrium the expected payoff)."""
    appraise = getattr(player, "appraise", None)
    if appraise is None or analysis.value is not None or analysis.outcome is not None:
        return analysis
    appraisal: Analysis = appraise(game, state, analysis.move)
    return appraisal


def _choice_analysis(choice: Choice, name: str) -> Analysis:
    if choice.result is not None:
        return _with_move(Analysis.from_search(choice.result, name), choice.move)
    return Analysis(move=choice.move, value=None, pv=(choice.move,), engine=name)


def _with_move(analysis: Analysis, move: Any) -> Analysis:
    """The analysis with the move the player actually chose (a tie broken, a level's slip)."""
    if analysis.move == move:
        return analysis
    value = analysis.move_values.get(move, analysis.value)
    return replace(analysis, move=move, value=value, pv=(move,),
                   outcome=analysis.move_outcomes.get(move))


# -- the network ----------------------------------------------------------------------------------
def _serves_puct(game: Game) -> bool:
    return is_two_player_search_game(game) and game.info.perfect_information


def _network_view(asked: Asked) -> tuple[Evaluator, NetworkEvaluator | None, dict[str, Any]]:
    """PUCT's evaluator, the network (if any), and its view of the position for ``extra``."""
    evaluator, net = evaluator_for(asked.game, asked.rng,
                                   (asked.request.options or {}).get("network"))
    extra: dict[str, Any] = {}
    if net is not None:
        priors, value = net.policy_value(asked.state)
        extra = {"policy": {asked.game.format_move(m): round(p, 4) for m, p in priors.items()},
                 "network_value": round(value, 4)}
    return evaluator, net, extra


def _with_truth(asked: Asked, analysis: Analysis, extra: dict[str, Any]) -> Analysis:
    if (asked.request.options or {}).get("truth"):
        extra = {**extra, **_truth(asked.game, asked.state)}
    return replace(analysis, extra=MappingProxyType({**analysis.extra, **extra}))


def _net_analysis(asked: Asked) -> Analysis:
    _evaluator, net, extra = _network_view(asked)
    if net is None:
        raise _no_network(asked.game)
    priors, value = net.policy_value(asked.state)
    move = max(priors, key=priors.__getitem__)
    analysis = Analysis(move=move, value=value, pv=(move,), scale="mean", engine="net", nodes=1)
    return _with_truth(asked, analysis, extra)


def _puct_analysis(asked: Asked) -> Analysis:
    evaluator, net, extra = _network_view(asked)
    limit = asked.limit
    puct_limit = limit if limit is not None and (limit.nodes or limit.time) else \
        Limit(nodes=DEFAULT_PUCT_SIMULATIONS)
    result = puct(asked.game, asked.state, evaluator, limit=puct_limit)
    extra["visits"] = {asked.game.format_move(m): n for m, n in visits_of(result).items()}
    analysis = Analysis.from_search(result, "puct" if net is None else "puct+network")
    return _with_truth(asked, analysis, extra)


def _truth(game: Game, state: Any) -> dict[str, Any]:
    """The game's own analysis (a solver; else alpha-beta) of each move in words, when it
    proves them within ``TRUTH_SECONDS``."""
    try:
        truth = analyze(game, state, "auto",
                        request=AnalysisRequest(limit=Limit(time=TRUTH_SECONDS)))
    except YipanError:
        return {}
    words = {game.format_move(m): OUTCOME_WORDS.get(o, "unknown")
             for m, o in truth.move_outcomes.items()}
    if not words:
        return {}
    return {"truth": words, "truth_value": truth.description}


def _puct_thoughts(asked: Asked) -> Iterator[Analysis]:
    """PUCT in slices of ``THINK_EVERY`` seconds on one tree, a report (with the network's
    policy and value) after each; the limit's simulations and seconds bound the whole."""
    limit = asked.limit
    if limit is None or not (limit.nodes or limit.time):
        limit = Limit(nodes=DEFAULT_PUCT_SIMULATIONS,
                      stop=None if limit is None else limit.stop)
    evaluator, net, extra = _network_view(asked)
    search = PUCT(asked.game, evaluator)
    start = clock.perf_counter()
    done = 0
    while True:
        left = None if limit.time is None else limit.time - (clock.perf_counter() - start)
        slice_time = THINK_EVERY if left is None else min(THINK_EVERY, max(left, 0.01))
        slice_nodes = None if limit.nodes is None else max(limit.nodes - done, 1)
        result = search.run(asked.state,
                            Limit(nodes=slice_nodes, time=slice_time, stop=limit.stop))
        done += result.stats.nodes
        stats = replace(result.stats, nodes=done, elapsed=clock.perf_counter() - start)
        analysis = Analysis.from_search(replace(result, stats=stats),
                                        "puct" if net is None else "puct+network")
        visits = {asked.game.format_move(m): n for m, n in visits_of(result).items()}
        yield replace(analysis, extra=MappingProxyType({**analysis.extra, **extra,
                                                        "visits": visits}))
        if limit.stopped() or (left is not None and left <= THINK_EVERY) \
                or (limit.nodes is not None and done >= limit.nodes):
            return


def _puct_player(game: Game, how: PlayerRequest) -> Player:
    evaluator, net = evaluator_for(game, how.rng, how.network)
    limit = Limit(time=how.time) if how.time is not None else \
        Limit(nodes=how.nodes or DEFAULT_PUCT_SIMULATIONS)
    return PUCTPlayer(evaluator, limit, name="puct+network" if net is not None else "puct")


def _net_player(game: Game, how: PlayerRequest) -> Player:
    _evaluator, net = evaluator_for(game, how.rng, how.network)
    if net is None:
        raise _no_network(game)
    return NetworkPlayer(net)


# -- random ---------------------------------------------------------------------------------------
def _random_analysis(asked: Asked) -> Analysis:
    move = asked.rng.choice(list(asked.game.legal_moves(asked.state)))
    return Analysis(move=move, value=None, pv=(move,), engine="random")


def _random_player(game: Game, how: PlayerRequest) -> Player:
    return RandomPlayer(how.rng)


# -- the proving searches -------------------------------------------------------------------------
def _root_value(analysis: Analysis) -> Analysis:
    """A solve values the root, not each move (``analyze`` does that)."""
    return replace(analysis, move_values={}, move_outcomes={})


def _minimax_solve(asked: Asked) -> Analysis:
    return Analysis.from_search(minimax(asked.game, asked.state, trace=asked.request.trace),
                                "minimax")


def _solve_by_alphabeta_tt(asked: Asked) -> Analysis:
    """To the end, unless it outlasts the limit (the default: ``DEFAULT_SOLVE_SECONDS``)."""
    limit, trace = asked.limit, asked.request.trace
    if limit is not None:
        result = alphabeta(asked.game, asked.state, trace=trace, options=Options(), limit=limit)
    else:
        budget = Budget(Limit(time=DEFAULT_SOLVE_SECONDS))
        try:
            result = search_to_depth(asked.game, asked.state, None, tt=None, trace=trace,
                                     analysis=False, options=Options(), budget=budget)
        except SearchAborted:
            raise SearchAborted(f"not solved within {DEFAULT_SOLVE_SECONDS:g} s (--time sets "
                                "another limit: iterative deepening, reporting the deepest "
                                "search that finished)") from None
    return _root_value(Analysis.from_search(result, "alphabeta-tt"))


def _iterative_solve(asked: Asked) -> Analysis:
    last = None
    for last in iterate_or_one_ply(  # noqa: B007 - the deepest is kept
            asked.game, asked.state, trace=asked.request.trace,
            limit=asked.limit or Limit(time=DEFAULT_SOLVE_SECONDS)):
        pass
    assert last is not None  # one ply always answers
    return _root_value(Analysis.from_search(last, "iterative"))


def _serves_regrets(game: Game) -> bool:
    return game.info.players == 2 and game.info.zero_sum


def _by_regrets(game: Game, algorithm: str) -> bool:
    return algorithm in cfr.ALGORITHMS or (algorithm == "auto"
                                           and not game.info.perfect_information)


def _solve_by_regrets(asked: Asked, algorithm: str) -> Analysis:
    """CFR from the deal (a chance node is where these games start)."""
    game, state, request = asked.game, asked.state, asked.request
    if game.outcome(state) is not None:
        return game_over_analysis(game, state)
    if algorithm == "auto":
        solve_hook = hooks_of(game).solve
        if solve_hook is not None:
            return solve_hook(game, state, request)
        algorithm = "cfr+"
    if request.trace is not None:
        raise CapabilityError("a trace follows minimax and alpha-beta searches, not CFR")
    return cfr.solve_analysis(game, state, algorithm,
                              asked.iterations or DEFAULT_CFR_ITERATIONS,
                              progress=request.progress, rng=asked.rng,
                              save_to=(request.options or {}).get("save"), limit=request.limit)


# -- the registry's contents ----------------------------------------------------------------------
for _spec in (
    EngineSpec("auto", "the game's own analysis (its solver, its theory) where it has one, "
               "else the generic search that fits the game",
               think=_auto_thoughts, analyze=_auto_analysis, solve=_auto_solve,
               player=_ai_player, label="the game's analysis", on_page=_has_own_analysis,
               plays=False, aliases=("analysis",),
               solve_help="the game's own solver, else alphabeta-tt (cfr+ where a player "
                          "does not see everything)"),
    EngineSpec("alphabeta", "alpha-beta: looks a few moves ahead, move by move, deeper each "
               "round", serves=is_two_player_search_game, think=_alphabeta_thoughts,
               solve=_plain_alphabeta_solve, player=_search_player, label="alpha-beta search",
               solve_help="plain alpha-beta to the end of the game"),
    EngineSpec("mcts", "Monte Carlo tree search: plays thousands of random games and keeps "
               "the moves that win most", serves=_serves_mcts, think=_mcts_thoughts,
               analyze=_mcts_analysis, solve=lambda asked: _mcts_solve(asked, solver=False),
               player=_mcts_player, label="Monte Carlo tree search",
               solve_help="MCTS for --iterations or --time (an estimate, not a proof)"),
    EngineSpec("expectimax", "expectimax: every move and every chance draw, to a few moves "
               "deep", serves=lambda game: game.info.chance and game.info.perfect_information,
               analyze=_expectimax_analysis, label="expectimax search",
               # on the page, 2048's own analysis is this search already
               on_page=lambda game: False),
    EngineSpec("player", "the game's own AI, its strongest player", serves=_serves_player,
               think=_player_thoughts, player=_ai_player, label="the game's AI",
               aliases=("ai",)),
    EngineSpec("puct", "tree search guided by a trained network (AlphaZero's PUCT): the "
               "network proposes moves and judges positions, the search checks them",
               serves=_serves_puct, think=_puct_thoughts, analyze=_puct_analysis,
               player=_puct_player, label="network-guided search (PUCT)",
               # without a network it is a slow MCTS: the page offers it where one guides it
               on_page=has_network),
    EngineSpec("net", "the trained network alone: its most likely move, no search",
               serves=_serves_puct, analyze=_net_analysis, player=_net_player,
               label="the network alone",
               # the CLI takes --network FILE for any game; the page has the shipped ones
               on_page=has_network),
    EngineSpec("random", "plays any legal move at random", analyze=_random_analysis,
               player=_random_player, label="random moves"),
    EngineSpec("minimax", "minimax, nothing pruned",
               serves=is_two_player_search_game, solve=_minimax_solve),
    EngineSpec("alphabeta-tt", "alpha-beta with a table, symmetry, ordering and PVS",
               serves=is_two_player_search_game, solve=_solve_by_alphabeta_tt),
    EngineSpec("iterative", "iterative deepening, the deepest search that finished",
               serves=is_two_player_search_game, solve=_iterative_solve),
    EngineSpec("mcts-solver", "MCTS that proves wins and losses as it goes",
               serves=_serves_mcts, solve=lambda asked: _mcts_solve(asked, solver=True)),
    *(EngineSpec(name, "counterfactual regret minimisation from the deal",
                 serves=_serves_regrets, solve=partial(_solve_by_regrets, algorithm=name))
      for name in cfr.ALGORITHMS),
):
    register_engine(_spec)
