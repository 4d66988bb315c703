"""Explain a search: the tree an algorithm actually explored, for any game (``yipan explain``).

``explain(game, state, algorithm, depth=, iterations=)`` runs the real search with a recorder
on its trace hook (``search.tree.TreeRecorder``), so the tree holds the nodes the search
counted, in the order it searched them, and ``nodes`` is the search's own count (what
``yipan solve`` reports for the same search):

- ``minimax``: every node, MAX and MIN, nothing pruned;
- ``alphabeta`` (plain: no table, no ordering, no null windows, as ``solve --algorithm
  alphabeta``) and ``alphabeta-tt`` (the table, symmetry, move ordering, principal-variation
  search): each node's window on entry, its cut-off and the moves it pruned, table hits;
- ``mcts`` / ``mcts-solver``: the tree the iterations grew, each node's visits, mean and UCB1
  score (``nodes`` counts iterations, as MCTS reports them), and each iteration's path through
  it with its result (``iterations``), so the growth can be replayed one iteration at a time;
- ``expectimax``: chance nodes with the probability of each draw;
- ``grundy``: the Sprague-Grundy computation of an impartial game, each position's options'
  values and their mex (``nodes``: the positions valued; an option met again is ``known``).

Values are from MAX's side (the side to move at the root), as the trace printer shows them;
Grundy values are the positions' own. The recorded tree is capped (``max_nodes``); a cut tree
says so (``truncated``) and ``nodes`` stays the search's true count. ``stop``, polled at every
node (every iteration of MCTS), ends a search early with ``SearchStopped``. ``to_json``, ``to_dot``
(Graphviz) and ``to_text`` (an indented tree) write it out.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from .core import CHANCE, CapabilityError, Game, Limit, YipanError, describe_value
from .impartial import grundy
from .search import PLAIN, Options, alphabeta, minimax
from .search.expectimax import expectimax
from .search.mcts import DEFAULT_EXPLORATION, Tree, mcts
from .search.trace import TraceEvent
from .search.tree import DEFAULT_MAX_NODES, FollowUp, TreeNode, TreeRecorder, mcts_tree

ALGORITHMS = ("minimax", "alphabeta", "alphabeta-tt", "mcts", "mcts-solver", "expectimax",
              "grundy")
DEPTH_ALGORITHMS = ("minimax", "alphabeta", "alphabeta-tt", "expectimax")
ITERATION_ALGORITHMS = ("mcts", "mcts-solver")
REFINEMENTS = ("table", "symmetry", "ordering", "pvs", "bounds")  # fields of search.Options


class SearchStopped(YipanError):  # noqa: N818 - a condition
    """The caller's ``stop`` asked the search to end before it finished."""


@dataclass(frozen=True, slots=True)
class Iteration:
    """One MCTS iteration: the nodes it went through, as their places in the order
    ``TreeNode.walk`` visits the recorded tree (root first; nodes past the cap left out), and
    the result it backed up, from MAX's side."""

    path: tuple[int, ...]
    result: float


@dataclass(frozen=True)
class Explanation:
    """A search's result and the tree it explored (values from MAX's side; module doc)."""

    algorithm: str
    value: float | None  # the search's value for the side to move (a Grundy value for grundy)
    move: Hashable | None  # the move the search chose (None: grundy, or the game is over)
    nodes: int  # the search's own count (MCTS: iterations; grundy: positions valued)
    root: TreeNode
    recorded: int  # nodes kept in the tree (and in follow_ups)
    truncated: bool  # the tree was cut at max_nodes
    follow_ups: tuple[FollowUp, ...] = ()  # alpha-beta's searches after the main one
    exact: bool = True
    scale: str = "minimax"
    iterations: tuple[Iteration, ...] = ()  # MCTS: each iteration, in the order run


def explain(game: Game, state: Any, algorithm: str, *, depth: int | None = None,
            iterations: int | None = None, rng: random.Random | None = None,
            max_nodes: int = DEFAULT_MAX_NODES, without: tuple[str, ...] = (),
            stop: Callable[[], bool] | None = None) -> Explanation:
    """Run ``algorithm`` on ``state`` and record the tree it explored (module doc).

    ``without`` names refinements of ``alphabeta-tt`` to turn off (``REFINEMENTS``: the
    table, symmetry, move ordering, principal-variation search, proven bounds), to see what
    each one saves."""
    check(game, state, algorithm, depth, iterations)
    if without and algorithm != "alphabeta-tt":
        raise CapabilityError("refinements are turned off in alphabeta-tt (alphabeta has none)")
    unknown = [name for name in without if name not in REFINEMENTS]
    if unknown:
        raise CapabilityError(f"unknown refinement {unknown[0]!r}; refinements: "
                              f"{', '.join(REFINEMENTS)}")
    if algorithm in ITERATION_ALGORITHMS:
        assert iterations is not None
        return _mcts(game, state, algorithm, iterations, rng or random.Random(), max_nodes,
                     stop)
    if algorithm == "grundy":
        return _grundy(game, state, max_nodes, stop)
    assert depth is not None
    recorder = TreeRecorder(max_nodes)
    hook: Callable[[TraceEvent], None] = recorder
    if stop is not None:
        def hook(event: TraceEvent) -> None:
            if event.kind == "node" and stop():
                raise SearchStopped("the search was stopped before it finished")
            recorder(event)
    if algorithm == "minimax":
        result = minimax(game, state, depth=depth, trace=hook)
    elif algorithm == "expectimax":
        result = expectimax(game, state, depth=depth, trace=hook)
    else:
        options = PLAIN if algorithm == "alphabeta" else Options(
            **{name: False for name in without})
        result = alphabeta(game, state, depth=depth, trace=hook, options=options)
    assert recorder.root is not None
    return Explanation(algorithm, result.value, result.move, result.stats.nodes, recorder.root,
                       recorder.kept, recorder.truncated, tuple(recorder.follow_ups),
                       result.exact, result.scale)


def check(game: Game, state: Any, algorithm: str, depth: int | None,
          iterations: int | None) -> None:
    """Refuse, with a clear CapabilityError, what ``explain`` cannot do (before searching)."""
    if algorithm not in ALGORITHMS:
        raise CapabilityError(f"unknown algorithm {algorithm!r}; algorithms: "
                              f"{', '.join(ALGORITHMS)}")
    if algorithm in DEPTH_ALGORITHMS and depth is None:
        raise CapabilityError(f"{algorithm} is explained to a depth: give --depth D")
    if algorithm in ITERATION_ALGORITHMS and iterations is None:
        raise CapabilityError(f"{algorithm} is explained for a number of iterations: give "
                              "--iterations N")
    if algorithm in ITERATION_ALGORITHMS and depth is not None:
        raise CapabilityError(f"{algorithm} counts iterations, not depth: give --iterations N")
    if algorithm in DEPTH_ALGORITHMS and iterations is not None:
        raise CapabilityError(f"{algorithm} searches to a depth: give --depth D, "
                              "not --iterations")
    if algorithm == "expectimax" and game.outcome(state) is None \
            and game.to_move(state) == CHANCE:
        raise CapabilityError("expectimax starts at a player's move; this position waits for "
                              "chance (play its outcome first)")
    if algorithm == "grundy" and not game.info.impartial:
        raise CapabilityError(f"Grundy values are for impartial games (both players have the "
                              f"same moves); {game.info.name} is not one")


def _mcts(game: Game, state: Any, algorithm: str, iterations: int, rng: random.Random,
          max_nodes: int, stop: Callable[[], bool] | None) -> Explanation:
    tree = Tree()
    tree.iterations = []
    result = mcts(game, state, limit=Limit(nodes=iterations, stop=stop), rng=rng,
                  solver=algorithm == "mcts-solver", tree=tree)
    if stop is not None and stop():
        raise SearchStopped("the search was stopped before it finished")
    assert tree.root is not None
    root_player = game.to_move(state)
    index: dict[int, int] = {}
    root, size = mcts_tree(tree.root, root_player, DEFAULT_EXPLORATION, max_nodes, index)
    kept = root.size()
    sign = 1 if root_player == 0 else -1  # the results are player 0's
    paths = tuple(Iteration(tuple(index[id(node)] for node in path if id(node) in index),
                            sign * result_for_0) for path, result_for_0 in tree.iterations)
    return Explanation(algorithm, result.value, result.move, result.stats.nodes, root, kept,
                       kept < size, (), result.exact, result.scale, paths)


def _grundy(game: Game, state: Any, max_nodes: int,
            stop: Callable[[], bool] | None = None) -> Explanation:
    """The Sprague-Grundy computation through ``impartial.grundy``'s own hook: each position
    valued becomes a node whose children are its options, in the order listed; an option
    valued elsewhere in the tree first appears as a ``known`` leaf."""
    moves_of: dict[Hashable, list[Hashable]] = {}
    memo: dict[Hashable, int] = {}
    built: dict[Hashable, TreeNode] = {}  # subtrees valued and not yet hung under a parent

    def options(position: Any) -> list[Any]:
        if stop is not None and stop():
            raise SearchStopped("the search was stopped before it finished")
        moves = list(game.legal_moves(position))
        if not moves:
            outcome = game.outcome(position)
            if outcome is None or outcome.winner != 1 - game.to_move(position):
                raise CapabilityError(
                    "Grundy values describe normal play, where the player who cannot move "
                    f"loses; {game.info.name} ends otherwise here (misère play?)")
        moves_of[position] = moves
        return [game.play(position, move) for move in moves]

    def observe(position: Hashable, children: list, value: int) -> None:
        node = TreeNode(None, value=value, options=tuple(memo[child] for child in children))
        for move, child in zip(moves_of.pop(position), children, strict=True):
            below = built.pop(child, None)
            if below is None:  # valued under an earlier option (or met twice here)
                node.children.append(TreeNode(move, value=memo[child], known=True))
            else:
                below.move = move
                node.children.append(below)
        built[position] = node

    if game.to_move(state) == CHANCE:
        raise CapabilityError("Grundy values are for positions where a player moves")
    value = grundy(state, options, memo, observe)
    root = built.get(state) or TreeNode(None, value=value)
    size = root.size()
    kept = cut(root, max_nodes)
    return Explanation("grundy", value, None, len(memo), root, kept, kept < size)


def cut(root: TreeNode, max_nodes: int) -> int:
    """Keep the first ``max_nodes`` nodes of the tree in the order searched (their ancestors
    come before them, so what is kept hangs together); returns how many are kept."""
    first = [node for node, _ in zip(root.walk(), range(max_nodes), strict=False)]
    kept = {id(node) for node in first}
    for node in first:
        node.children[:] = [child for child in node.children if id(child) in kept]
    return len(first)


# -- writing it out ------------------------------------------------------------------------------
def _number(value: float | None) -> float | int | None:
    """A value for JSON: an integer where it is one, None for an unbounded window."""
    if value is None or not math.isfinite(value):
        return None
    return int(value) if float(value).is_integer() else round(value, 6)


def move_text(game: Game, move: Hashable) -> str:
    """A move (or chance draw) in the game's notation, or as Python writes it."""
    try:
        return game.format_move(move)
    except Exception:  # noqa: BLE001 - a user's format_move that cannot write a chance draw
        return str(move)


def node_json(game: Game, node: TreeNode, algorithm: str) -> dict[str, Any]:
    """One node and its subtree as JSON-ready data (the fields of the algorithm only)."""
    data: dict[str, Any] = {"move": None if node.move is None else move_text(game, node.move),
                            "value": _number(node.value)}
    if algorithm != "grundy":
        data["side"] = "chance" if node.chance else "MAX" if node.maximizing else "MIN"
    if node.bound:
        data["bound"] = node.bound
    if node.source:
        data["source"] = node.source
    if algorithm.startswith("alphabeta"):
        data["alpha"] = _number(node.alpha)
        data["beta"] = _number(node.beta)
        data["cutoff"] = node.cutoff
        if node.cutoff:
            data["pruned"] = [move_text(game, move) for move in node.pruned]
        if node.window:
            data["window"] = node.window
    if node.probability is not None:
        data["probability"] = round(node.probability, 9)
    if algorithm.startswith("mcts"):
        data["visits"] = node.visits
        data["mean"] = None if node.mean is None else round(node.mean, 6)
        data["ucb"] = None if node.ucb is None else round(node.ucb, 6)
        if node.proven:
            data["proven"] = True
    if algorithm == "grundy":
        if node.known:
            data["known"] = True
        else:
            data["options"] = list(node.options or ())
    data["children"] = [node_json(game, child, algorithm) for child in node.children]
    return data


def to_json(game: Game, explanation: Explanation, moves: list[str] | None = None,
            depth: int | None = None, iterations: int | None = None) -> dict[str, Any]:
    """The explanation as one JSON-ready object (the CLI's ``--json``)."""
    data: dict[str, Any] = {
        "game": game.info.name, "moves": list(moves or []), "algorithm": explanation.algorithm,
        "depth": depth, "iterations": iterations,
        "value": _number(explanation.value),
        "move": None if explanation.move is None else move_text(game, explanation.move),
        "nodes": explanation.nodes, "recorded": explanation.recorded,
        "truncated": explanation.truncated,
        "root": node_json(game, explanation.root, explanation.algorithm),
    }
    if explanation.algorithm in ITERATION_ALGORITHMS:
        data["iteration_paths"] = [{"path": list(step.path), "result": _number(step.result)}
                                  for step in explanation.iterations]
    if explanation.follow_ups:
        data["follow_ups"] = [
            {"origin": [move_text(game, m) for m in follow.origin],
             "root": node_json(game, follow.root, explanation.algorithm)}
            for follow in explanation.follow_ups]
    return data


def _signed(value: float | None) -> str:
    if value is None:
        return "?"
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    return f"{int(value):+d}" if float(value).is_integer() else f"{value:+.3f}"


def node_label(game: Game, node: TreeNode, algorithm: str) -> str:
    """What one line of the text tree (or one box of the drawing) says about a node."""
    name = "root" if node.move is None else move_text(game, node.move)
    if algorithm == "grundy":
        if node.known:
            return f"{name}  G={node.value} (known)"
        values = ",".join(str(v) for v in sorted(set(node.options or ())))
        return f"{name}  G={node.value} = mex{{{values}}}"
    side = "chance" if node.chance else "MAX" if node.maximizing else "MIN"
    relation = ">= " if node.bound == "lower" else "<= " if node.bound == "upper" else "= "
    parts = [f"{name}  {side}  {relation}{_signed(node.value)}"]
    if node.probability is not None:
        parts.append(f"p={node.probability:.4g}")
    if node.source:
        parts.append(f"({node.source})")
    if node.window:
        parts.append(f"({node.window})")
    if node.alpha is not None or node.beta is not None:
        parts.append(f"window [{_signed(node.alpha)}, {_signed(node.beta)}]")
    if node.visits is not None:
        parts.append(f"visits {node.visits}")
        if node.mean is not None:
            parts.append(f"mean {node.mean:+.3f}")
        if node.ucb is not None:
            parts.append(f"ucb {node.ucb:.3f}")
        if node.proven:
            parts.append("proven")
    if node.cutoff:
        pruned = " ".join(move_text(game, move) for move in node.pruned)
        parts.append(f"cut-off, pruned: {pruned}" if pruned else "cut-off")
    return "  ".join(parts)


def to_text(game: Game, explanation: Explanation) -> str:
    """A readable indented tree, one node a line, with a header and the cap's note."""
    lines = [_header(game, explanation)]
    trees = [((), explanation.root)] + [(f.origin, f.root) for f in explanation.follow_ups]
    for origin, root in trees:
        if origin:
            moves = " ".join(move_text(game, m) for m in origin)
            lines.append(f"then, to complete the principal variation, from [{moves}] (a "
                         "search of its own: plies counted from there):")
        stack: list[tuple[TreeNode, int]] = [(root, 0)]
        while stack:
            node, level = stack.pop()
            lines.append("  " * level + node_label(game, node, explanation.algorithm))
            stack.extend((child, level + 1) for child in reversed(node.children))
    if explanation.truncated:
        lines.append(f"(the tree was cut at {explanation.recorded:,} of its nodes; "
                     "--max-nodes keeps more)")
    return "\n".join(lines)


def _header(game: Game, explanation: Explanation) -> str:
    if explanation.algorithm == "grundy":
        value = explanation.value
        verdict = "the side to move wins" if value else "the side to move loses"
        return (f"{game.info.name}: Grundy value {value} ({verdict}); "
                f"{explanation.nodes:,} positions valued")
    value = explanation.value
    words = "" if value is None else describe_value(value, explanation.exact, explanation.scale)
    move = "" if explanation.move is None else f", best move {move_text(game, explanation.move)}"
    unit = "iterations" if explanation.algorithm.startswith("mcts") else "nodes"
    return (f"{game.info.name}, {explanation.algorithm}: value {_signed(value)} ({words})"
            f"{move}; {explanation.nodes:,} {unit}")


def _quote(text: str) -> str:
    """A Graphviz string: quotes, backslashes and line breaks escaped."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n") + '"'


def to_dot(game: Game, explanation: Explanation) -> str:
    """The tree for Graphviz (``dot -Tsvg``): a box a node, its move on the first line; a
    cut-off's box shaded, the moves it pruned as grey dashed boxes below it."""
    lines = ["digraph explain {", '  node [shape=box, fontname="monospace"];',
             f"  label={_quote(_header(game, explanation))};"]
    counter = 0
    trees = [explanation.root] + [f.root for f in explanation.follow_ups]
    for root in trees:
        stack: list[tuple[TreeNode, str | None]] = [(root, None)]
        while stack:
            node, parent = stack.pop()
            name = f"n{counter}"
            counter += 1
            label = node_label(game, node, explanation.algorithm).replace("  ", "\n", 2)
            style = ', style=filled, fillcolor="#eeeeee"' if node.cutoff else ""
            lines.append(f"  {name} [label={_quote(label)}{style}];")
            if parent is not None:
                lines.append(f"  {parent} -> {name};")
            for index, move in enumerate(node.pruned):
                pruned = f"{name}_p{index}"
                lines.append(f"  {pruned} [label={_quote(move_text(game, move))}, "
                             "style=dashed, color=grey, fontcolor=grey];")
                lines.append(f"  {name} -> {pruned} [style=dashed, color=grey];")
            stack.extend((child, name) for child in reversed(node.children))
    lines.append("}")
    return "\n".join(lines)
