"""The engines a user can name, one grammar for the CLI and the web app.

``yipan analyze GAME --ai NAME`` and the web page's engine choice both come here, and so does
``yipan solve GAME --algorithm NAME``; each answer is an ``Analysis`` (``yipan.core.analysis``)
that the front end formats.

Engines for ``analyze`` (the best move and each move's value in a position):

    auto        the game's own analysis (its hooks) if it has one, else the strongest generic
                engine that fits the game: alpha-beta, expectimax (chance), MCTS
    alphabeta   alpha-beta, every root move valued (iterative deepening under a limit)
    mcts        Monte Carlo tree search (UCT)
    expectimax  expectimax / expectiminimax through chance nodes, to a depth
    player      the move the game's AI would play (``yipan play``'s opponent), and why
    puct        PUCT guided by the game's network (the shipped one, or ``network=FILE``);
                games without one: uniform priors and random playouts
    net         the network alone: its most likely move, its policy and its value
    random      a uniformly random legal move

``puct`` and ``net`` put the network's view in ``extra``: ``policy`` (each move's prior),
``network_value`` (for the side to move, in [-1, 1]), and for ``puct`` the root's ``visits``;
with ``truth=True`` the game's own analysis (a solver) beside it, in ``truth`` (each move's
outcome in words) and ``truth_value``, when it answers within ``TRUTH_SECONDS``.

Algorithms for ``solve`` (the position's proven value), for comparing them on one position:
``auto`` (the game's own solver, else alphabeta-tt), ``minimax`` (the seed's, nothing
pruned), ``alphabeta`` (plain), ``alphabeta-tt`` (table, symmetry, ordering, PVS),
``iterative`` (iterative deepening), ``mcts``, ``mcts-solver``; and for games where a player
does not see everything (poker), solved from the deal by counterfactual regret minimisation:
``cfr``, ``cfr+``, ``linear-cfr``, ``dcfr``, ``mccfr-external``, ``mccfr-outcome``
(``yipan.search.cfr``; ``auto`` is the game's own, else ``cfr+``). Their value is the first
player's, ``extra`` holds the exploitability, iterations and algorithm.

``think`` is ``analyze`` aloud, for a front end that shows an engine at work (the web page):
an ``Analysis`` each time the answer improves, the last one the answer.
"""

from __future__ import annotations

import random
import time as clock
from collections.abc import Iterator, Mapping
from dataclasses import replace
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
    SearchResult,
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
from .search import PLAIN, Options, alphabeta, cfr, iterate, minimax
from .search.alphabeta import search_to_depth
from .search.expectimax import expectimax
from .search.mcts import Tree, mcts
from .search.players import SearchPlayer
from .search.puct import PUCT, Evaluator, PUCTPlayer, puct, rollout_evaluator, visits_of

ANALYZE_ENGINES = ("auto", "alphabeta", "mcts", "expectimax", "player", "puct", "net", "random")
SOLVE_ALGORITHMS = ("auto", "minimax", "alphabeta", "alphabeta-tt", "iterative", "mcts",
                    "mcts-solver", *cfr.ALGORITHMS)
DEFAULT_CFR_ITERATIONS = 1000
DEFAULT_MCTS_ITERATIONS = 20_000
DEFAULT_SOLVER_ITERATIONS = 200_000  # the MCTS-solver stops once the root is proven
DEFAULT_EXPECTIMAX_DEPTH = 3
DEFAULT_ANALYZE_SECONDS = 10.0  # alpha-beta analysis when no limit is given
DEFAULT_SOLVE_SECONDS = 300.0  # anytime solves (alphabeta-tt, iterative) when none is given
DEFAULT_PUCT_SIMULATIONS = 800
TRUTH_SECONDS = 10.0  # the game's own analysis beside a network's, when it is this quick
THINK_EVERY = 0.25  # seconds between the reports of a search that has no steps of its own (MCTS)


class UnknownEngineError(YipanError, LookupError):
    """An engine or algorithm name that does not exist."""


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
    names = ["auto"]
    if is_two_player_search_game(game):
        names.append("alphabeta")
    hidden = not game.info.perfect_information  # a search would see the hidden cards
    if game.info.players in (1, 2) and (game.info.players == 1 or game.info.zero_sum) \
            and not hidden:
        names.append("mcts")
    if game.info.chance and not hidden:
        names.append("expectimax")
    if hooks_of(game).make_ai is not None or is_two_player_search_game(game):
        names.append("player")
    if is_two_player_search_game(game) and game.info.perfect_information:
        names.append("puct")
        if has_network(game):
            names.append("net")
    names.append("random")
    return names


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


def make_player(game: Game, ai: str, level: str, rng: random.Random, time: float | None,
                network: str | None = None) -> Player:
    """The AI ``yipan play --ai`` names: ``auto`` the game's own, ``puct`` PUCT with the
    network (``time`` seconds a move, else ``DEFAULT_PUCT_SIMULATIONS``), ``net`` the
    network's most likely move."""
    if ai == "auto":
        return make_ai(game, level, rng, time)
    if "puct" not in engines_for(game) or ai not in ("puct", "net"):
        raise CapabilityError(f"--ai {ai} cannot play {game.info.title}")
    evaluator, net = evaluator_for(game, rng, network)
    if ai == "net":
        if net is None:
            raise CapabilityError(f"no network for {game.info.title}: give --network FILE "
                                  f"(made by yipan train {game.info.name})")
        return NetworkPlayer(net)
    limit = Limit(time=time) if time is not None else Limit(nodes=DEFAULT_PUCT_SIMULATIONS)
    return PUCTPlayer(evaluator, limit, name="puct+network" if net is not None else "puct")


def _check_position(game: Game, state: Any) -> Analysis | None:
    if game.outcome(state) is not None:
        return game_over_analysis(game, state)
    if game.to_move(state) == CHANCE:
        draw = game.format_move(game.chance_outcomes(state)[0][0])
        raise CapabilityError(f"the next move is a chance draw, not a choice to analyse; give "
                              f"the draw as the next move (such as {draw})")
    return None


def check_analysis(game: Game, state: Any, engine: str = "auto",
                   options: Mapping[str, Any] | None = None) -> None:
    """Raise what ``analyze`` would refuse, before anything is prepared or searched (the CLI
    checks a command line here before numba compiles the engine). ``options``: the request's
    (a network named there makes ``net`` an engine of any game with ``puct``)."""
    if engine not in ANALYZE_ENGINES:
        raise UnknownEngineError(
            f"unknown engine {engine!r}; engines: {', '.join(ANALYZE_ENGINES)}")
    network = (options or {}).get("network")
    given_network = engine == "net" and bool(network)
    if engine not in engines_for(game) and not (given_network and "puct" in engines_for(game)):
        raise CapabilityError(f"{engine} cannot analyse {game.info.title}; engines for it: "
                              f"{', '.join(engines_for(game))}")
    if network:
        load_network(game, network)  # a missing or damaged file, refused here
    _check_position(game, state)


def analyze(game: Game, state: Any, engine: str = "auto", *,
            request: AnalysisRequest | None = None, rng: random.Random | None = None,
            level: str = "perfect") -> Analysis:
    """The analysis of ``state`` by the named engine (module docstring)."""
    request = request or AnalysisRequest()
    check_analysis(game, state, engine, request.options)
    over = _check_position(game, state)
    if over is not None:
        return over
    rng = rng or random.Random()
    limit = request.limit
    hooks = hooks_of(game)
    if engine == "auto":
        if hooks.analyze is not None:
            return hooks.analyze(game, state, request)
        engine = generic_engine(game)
    if engine == "alphabeta":
        limit = limit or Limit(time=DEFAULT_ANALYZE_SECONDS)
        return Analysis.from_search(_alphabeta(game, state, limit, request), "alpha-beta")
    if engine == "mcts":
        mcts_limit = limit if limit is not None and (limit.nodes or limit.time) else \
            Limit(nodes=DEFAULT_MCTS_ITERATIONS)
        return Analysis.from_search(mcts(game, state, limit=mcts_limit, rng=rng), "mcts")
    if engine == "expectimax":
        depth = limit.depth if limit is not None and limit.depth else DEFAULT_EXPECTIMAX_DEPTH
        return Analysis.from_search(expectimax(game, state, depth=depth), "expectimax")
    if engine == "player":
        last = None
        for last in _player_thoughts(game, state, limit, rng, level):  # noqa: B007
            pass
        assert last is not None  # a player always ends on a move
        return last
    if engine in ("puct", "net"):
        return _network_analysis(game, state, engine, request, rng)
    move = rng.choice(list(game.legal_moves(state)))
    return Analysis(move=move, value=None, pv=(move,), engine="random")


def _network_analysis(game: Game, state: Any, engine: str, request: AnalysisRequest,
                      rng: random.Random) -> Analysis:
    options = request.options or {}
    evaluator, net = evaluator_for(game, rng, options.get("network"))
    if engine == "net" and net is None:
        raise CapabilityError(f"no network for {game.info.title}: give --network FILE "
                              f"(made by yipan train {game.info.name})")
    fmt = game.format_move
    extra: dict[str, Any] = {}
    priors: dict[Any, float] = {}
    value = 0.0
    if net is not None:
        priors, value = net.policy_value(state)
        extra = {"policy": {fmt(m): round(p, 4) for m, p in priors.items()},
                 "network_value": round(value, 4)}
    if engine == "net":
        move = max(priors, key=priors.__getitem__)
        analysis = Analysis(move=move, value=value, pv=(move,), scale="mean", engine="net",
                            nodes=1)
    else:
        limit = request.limit
        puct_limit = limit if limit is not None and (limit.nodes or limit.time) else \
            Limit(nodes=DEFAULT_PUCT_SIMULATIONS)
        result = puct(game, state, evaluator, limit=puct_limit)
        extra["visits"] = {fmt(m): n for m, n in visits_of(result).items()}
        analysis = Analysis.from_search(result, "puct" if net is None else "puct+network")
    if options.get("truth"):
        extra.update(_truth(game, state))
    return replace(analysis, extra=MappingProxyType({**analysis.extra, **extra}))


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


def think(game: Game, state: Any, engine: str = "auto", *,
          request: AnalysisRequest | None = None, rng: random.Random | None = None,
          level: str = "perfect") -> Iterator[Analysis]:
    """``analyze`` aloud: an Analysis each time the engine's answer improves (alpha-beta:
    each completed depth; MCTS: every ``THINK_EVERY`` seconds; the game's AI: as its hooks'
    ``make_thinker`` player reports), the last one the answer. A ``request.limit`` whose
    ``stop`` turns true ends it soon, on the best answer so far."""
    request = request or AnalysisRequest()
    rng = rng or random.Random()
    limit = request.limit
    if engine not in ("player", "alphabeta", "mcts", "puct") \
            or game.outcome(state) is not None or engine not in engines_for(game):
        yield analyze(game, state, engine, request=request, rng=rng, level=level)
        return
    _check_position(game, state)
    if engine == "player":
        yield from _player_thoughts(game, state, limit, rng, level)
    elif engine == "alphabeta":
        found = False
        for result in iterate(game, state, limit=limit or Limit(time=DEFAULT_ANALYZE_SECONDS),
                              analysis=True, trace=request.trace):
            found = True
            yield Analysis.from_search(result, "alpha-beta")
        if not found:  # not even one ply in time: a one-ply search always answers
            yield Analysis.from_search(alphabeta(game, state, depth=1, analysis=True),
                                       "alpha-beta")
    elif engine == "puct":
        yield from _puct_thoughts(game, state, request, rng)
    else:
        yield from _mcts_thoughts(game, state, limit, rng)


def _puct_thoughts(game: Game, state: Any, request: AnalysisRequest,
                   rng: random.Random) -> Iterator[Analysis]:
    """PUCT in slices of ``THINK_EVERY`` seconds on one tree, a report (with the network's
    policy and value) after each; the limit's simulations and seconds bound the whole."""
    limit = request.limit
    if limit is None or not (limit.nodes or limit.time):
        limit = Limit(nodes=DEFAULT_PUCT_SIMULATIONS,
                      stop=None if limit is None else limit.stop)
    evaluator, net = evaluator_for(game, rng, (request.options or {}).get("network"))
    search = PUCT(game, evaluator)
    extra: dict[str, Any] = {}
    if net is not None:
        priors, value = net.policy_value(state)
        extra = {"policy": {game.format_move(m): round(p, 4) for m, p in priors.items()},
                 "network_value": round(value, 4)}
    start = clock.perf_counter()
    done = 0
    while True:
        left = None if limit.time is None else limit.time - (clock.perf_counter() - start)
        slice_time = THINK_EVERY if left is None else min(THINK_EVERY, max(left, 0.01))
        slice_nodes = None if limit.nodes is None else max(limit.nodes - done, 1)
        result = search.run(state, Limit(nodes=slice_nodes, time=slice_time, stop=limit.stop))
        done += result.stats.nodes
        stats = replace(result.stats, nodes=done, elapsed=clock.perf_counter() - start)
        analysis = Analysis.from_search(replace(result, stats=stats),
                                        "puct" if net is None else "puct+network")
        visits = {game.format_move(m): n for m, n in visits_of(result).items()}
        yield replace(analysis, extra=MappingProxyType({**analysis.extra, **extra,
                                                        "visits": visits}))
        if limit.stopped() or (left is not None and left <= THINK_EVERY) \
                or (limit.nodes is not None and done >= limit.nodes):
            return


def _player_thoughts(game: Game, state: Any, limit: Limit | None, rng: random.Random,
                     level: str) -> Iterator[Analysis]:
    """The game's AI (``make_ai``) choosing, aloud where its hooks offer ``make_thinker``."""
    time = limit.time if limit is not None else None
    hooks = hooks_of(game)
    if hooks.think is not None:  # the game's AI reports analyses of its own (Go's MCTS)
        yield from hooks.think(game, state, AnalysisRequest(limit=limit))
    elif hooks.make_thinker is not None:
        thinker = hooks.make_thinker(game, level, rng, time)
        for choice in thinker.think(game, state, limit or Limit()):
            yield _choice_analysis(choice, thinker.name)
    elif hooks.make_ai is not None:  # a player that cannot think aloud: its answer alone
        player = make_ai(game, level, rng, time)
        yield _choice_analysis(player.choose(game, state), player.name)
    else:
        searcher = SearchPlayer(level, rng, time)
        for choice in searcher.think(game, state, limit or Limit()):
            yield _choice_analysis(choice, searcher.name)


def _choice_analysis(choice: Choice, name: str) -> Analysis:
    if choice.result is not None:
        return _with_move(Analysis.from_search(choice.result, name), choice.move)
    return Analysis(move=choice.move, value=None, pv=(choice.move,), engine=name)


def _mcts_thoughts(game: Game, state: Any, limit: Limit | None,
                   rng: random.Random) -> Iterator[Analysis]:
    """MCTS in slices of ``THINK_EVERY`` seconds on one tree, a report after each slice (its
    figures counted from the start); the limit's iterations and seconds bound the whole."""
    if limit is None or not (limit.nodes or limit.time):
        limit = Limit(nodes=DEFAULT_MCTS_ITERATIONS, stop=None if limit is None else limit.stop)
    start = clock.perf_counter()
    tree = Tree()
    done = 0
    while True:
        left = None if limit.time is None else limit.time - (clock.perf_counter() - start)
        slice_time = THINK_EVERY if left is None else min(THINK_EVERY, max(left, 0.01))
        slice_nodes = None if limit.nodes is None else max(limit.nodes - done, 1)
        result = mcts(game, state, rng=rng, tree=tree,
                      limit=Limit(nodes=slice_nodes, time=slice_time, stop=limit.stop))
        done += result.stats.nodes
        stats = replace(result.stats, nodes=done, elapsed=clock.perf_counter() - start)
        yield Analysis.from_search(replace(result, stats=stats), "mcts")
        if result.exact or limit.stopped() or (left is not None and left <= THINK_EVERY) \
                or (limit.nodes is not None and done >= limit.nodes):
            return


def _with_move(analysis: Analysis, move: Any) -> Analysis:
    """The analysis with the move the player actually chose (a tie broken, a level's slip)."""
    if analysis.move == move:
        return analysis
    value = analysis.move_values.get(move, analysis.value)
    return replace(analysis, move=move, value=value, pv=(move,),
                   outcome=analysis.move_outcomes.get(move))


def _alphabeta(game: Game, state: Any, limit: Limit | None,
               request: AnalysisRequest) -> SearchResult:
    if limit is not None and (limit.time is not None or limit.nodes is not None):
        try:
            return alphabeta(game, state, analysis=True, limit=limit, trace=request.trace)
        except SearchAborted:  # not even one ply finished: a one-ply search always answers
            return alphabeta(game, state, depth=1, analysis=True)
    return alphabeta(game, state, analysis=True, limit=limit, trace=request.trace)


def _by_regrets(game: Game, algorithm: str) -> bool:
    return algorithm in cfr.ALGORITHMS or (algorithm == "auto"
                                           and not game.info.perfect_information)


def check_solve(game: Game, state: Any, algorithm: str = "auto",
                request: AnalysisRequest | None = None) -> None:
    """Raise what ``solve`` would refuse of its arguments, before anything is prepared or
    searched (the CLI checks a command line here before numba compiles the engine)."""
    if algorithm not in SOLVE_ALGORITHMS:
        raise UnknownEngineError(
            f"unknown algorithm {algorithm!r}; algorithms: {', '.join(SOLVE_ALGORITHMS)}")
    if _by_regrets(game, algorithm):
        return
    _check_position(game, state)
    limit = request.limit if request is not None else None
    if algorithm.startswith("mcts") and request is not None and request.trace is not None:
        raise CapabilityError("a trace follows minimax and alpha-beta searches, not MCTS")
    if limit is not None and limit.time is not None and algorithm in ("minimax", "alphabeta"):
        raise CapabilityError(f"a time limit needs an anytime search (iterative, "
                              f"alphabeta-tt, mcts), not {algorithm}")


def solve(game: Game, state: Any, algorithm: str = "auto", *,
          request: AnalysisRequest | None = None, rng: random.Random | None = None,
          iterations: int | None = None) -> Analysis:
    """The proven value of ``state`` by the named algorithm (module docstring)."""
    request = request or AnalysisRequest()
    check_solve(game, state, algorithm, request)
    hooks = hooks_of(game)
    if _by_regrets(game, algorithm):
        return _solve_by_regrets(game, state, algorithm, hooks, request, rng, iterations)
    over = _check_position(game, state)
    if over is not None:
        return over
    if algorithm == "auto":
        if hooks.solve is not None:
            return hooks.solve(game, state, request)
        algorithm = "alphabeta-tt"
    limit, trace = request.limit, request.trace
    if algorithm.startswith("mcts"):
        solver = algorithm == "mcts-solver"
        default = DEFAULT_SOLVER_ITERATIONS if solver else DEFAULT_MCTS_ITERATIONS
        nodes = iterations if iterations is not None else (
            None if limit is not None and limit.time is not None else default)
        mcts_limit = Limit(nodes=nodes, time=limit.time if limit is not None else None)
        result = mcts(game, state, limit=mcts_limit, rng=rng or random.Random(), solver=solver)
        return Analysis.from_search(result, algorithm)
    if algorithm == "minimax":
        result = minimax(game, state, trace=trace)
    elif algorithm == "alphabeta":
        result = alphabeta(game, state, trace=trace, options=PLAIN)
    elif algorithm == "alphabeta-tt" and limit is not None:
        result = alphabeta(game, state, trace=trace, options=Options(), limit=limit)
    elif algorithm == "alphabeta-tt":  # to the end, unless it outlasts the default time
        budget = Budget(Limit(time=DEFAULT_SOLVE_SECONDS))
        try:
            result = search_to_depth(game, state, None, tt=None, trace=trace, analysis=False,
                                     options=Options(), budget=budget)
        except SearchAborted:
            raise SearchAborted(f"not solved within {DEFAULT_SOLVE_SECONDS:g} s (--time sets "
                                "another limit: iterative deepening, reporting the deepest "
                                "search that finished)") from None
    else:
        last = None
        for last in iterate(game, state, trace=trace,  # noqa: B007 - the deepest is kept
                            limit=limit or Limit(time=DEFAULT_SOLVE_SECONDS)):
            pass
        if last is None:
            raise SearchAborted("no search depth finished within the time limit")
        result = last
    analysis = Analysis.from_search(result, algorithm)
    if algorithm != "minimax":  # a solve values the root, not each move (analyze does that)
        analysis = replace(analysis, move_values={}, move_outcomes={})
    return analysis


def _solve_by_regrets(game: Game, state: Any, algorithm: str, hooks: GameHooks,
                      request: AnalysisRequest, rng: random.Random | None,
                      iterations: int | None) -> Analysis:
    """CFR from the deal (a chance node is where these games start)."""
    if game.outcome(state) is not None:
        return game_over_analysis(game, state)
    if algorithm == "auto":
        if hooks.solve is not None:
            return hooks.solve(game, state, request)
        algorithm = "cfr+"
    if request.trace is not None:
        raise CapabilityError("a trace follows minimax and alpha-beta searches, not CFR")
    return cfr.solve_analysis(game, state, algorithm, iterations or DEFAULT_CFR_ITERATIONS,
                              progress=request.progress, rng=rng or random.Random(),
                              save_to=(request.options or {}).get("save"), limit=request.limit)
