"""Perft: count the leaves of the game tree to a fixed depth, a test and a benchmark in one.

As in chess (python-chess's ``perft.py``, Stockfish's ``go perft``, OpenSpiel's
``perft``): ``perft(game, s, d)`` is the number of move sequences of exactly ``d`` plies
that can be played from ``s``. The count checks the rules (a changed move generator changes
it) and its speed measures them (nodes per second).

The contract, over the Game protocol alone::

    perft(s, 0) = 1
    perft(s, d) = sum(perft(play(s, m), d - 1) for m in legal_moves(s))        d >= 1
                = sum(perft(play(s, o), d - 1) for o, _ in chance_outcomes(s)) at a chance node

- A finished game has no legal moves (the protocol's contract), so it is a leaf where it ends
  and adds nothing deeper: a tic-tac-toe game won on ply 5 counts in ``perft(5)`` and not in
  ``perft(6)``, as a checkmate at ply 3 adds nothing to a chess ``perft(4)``.
- At a chance node (``to_move(s) == CHANCE``) every chance outcome is a branch and a ply,
  whatever its probability: from the empty 2048 board ``perft(1) == 32`` (a 2 or a 4 on each
  of 16 cells) and ``perft(2) == 32 * 30``.
- The last ply is counted in bulk (``len(legal_moves(s))``, as Stockfish and python-chess
  do), so ``perft(s, d)`` plays the moves of the first ``d - 1`` plies only.

``divide`` splits the count by the first move, to find which move a wrong count hides under
(compare two move generators line by line).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core import CHANCE, Game


def perft(game: Game, state: Any, depth: int) -> int:
    """The number of leaves of the game tree ``depth`` plies below ``state``."""
    _check_depth(depth)
    return _counter(game)(state, depth)


def divide(game: Game, state: Any, depth: int) -> dict[Any, int]:
    """``perft`` of each move's child, by move, in ``legal_moves`` order (or by chance outcome
    at a chance node): ``sum(divide(g, s, d).values()) == perft(g, s, d)`` for ``d >= 1``.

    Empty at depth 0 (no move is played) and at a finished game.
    """
    _check_depth(depth)
    if depth == 0:
        return {}
    count = _counter(game)
    return {move: count(game.play(state, move), depth - 1) for move in branches(game, state)}


def branches(game: Game, state: Any) -> list[Any]:
    """The edges perft follows from ``state``: the legal moves, or the chance outcomes at a
    chance node (empty when the game is over)."""
    if game.info.chance and game.to_move(state) == CHANCE:
        return [outcome for outcome, _ in game.chance_outcomes(state)]
    return list(game.legal_moves(state))


def _check_depth(depth: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"perft needs a whole depth of at least 0, got {depth!r}")


def _counter(game: Game) -> Any:
    """The counting function for this game: the chance test only where chance is declared."""
    play = game.play
    legal_moves = game.legal_moves

    def count(state: Any, depth: int) -> int:
        if depth == 0:
            return 1
        moves = legal_moves(state)
        if depth == 1:
            return len(moves)
        return sum(count(play(state, move), depth - 1) for move in moves)

    if not game.info.chance:
        return count

    to_move = game.to_move
    chance_outcomes = game.chance_outcomes

    def count_with_chance(state: Any, depth: int) -> int:
        if depth == 0:
            return 1
        edges: Sequence[Any]
        if to_move(state) == CHANCE:
            edges = [outcome for outcome, _ in chance_outcomes(state)]
        else:
            edges = legal_moves(state)
        if depth == 1:
            return len(edges)
        return sum(count_with_chance(play(state, edge), depth - 1) for edge in edges)

    return count_with_chance
