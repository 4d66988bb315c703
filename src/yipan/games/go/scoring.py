"""Scoring a finished (or abandoned) game with dead stones removed, as GTP's ``final_score``
and ``final_status_list`` ask: Tromp-Taylor on the board without the stones the playouts
say are dead. The ownership comes from a search (``engine.ownership_of``, ``engine.final_score``
run one); this module only reads it.

A group is *dead* when, on average over its stones, the playouts from the position end with
its points in the opponent's area (``ownership`` below -``DEAD`` for black, above +``DEAD``
for white: +1 is black's at the end of every playout). A group is *seki* when it lives
without an eye of its own: it survives the playouts, and some empty point next to it belongs
to neither side. Everything else on the board is *alive*.
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import BLACK, Go, Position

DEAD = 0.5


def groups(game: Go, state: Position) -> list[tuple[int, int]]:
    """Every group on the board as (colour, bitboard)."""
    found = []
    for colour in (BLACK, 1 - BLACK):
        stones = game.stones(state, colour)
        while stones:
            low = stones & -stones
            group = game.flood(low, game.stones(state, colour))
            found.append((colour, group))
            stones &= ~group
    return found


def _mean(game: Go, group: int, ownership: Sequence[float]) -> float:
    points = [p for p, bit in enumerate(game.bits) if group >> bit & 1]
    return sum(ownership[p] for p in points) / len(points)


def dead_stones(game: Go, state: Position, ownership: Sequence[float]) -> int:
    """The bitboard of the stones of dead groups (module docstring)."""
    dead = 0
    for colour, group in groups(game, state):
        mean = _mean(game, group, ownership)
        if (colour == BLACK and mean < -DEAD) or (colour != BLACK and mean > DEAD):
            dead |= group
    return dead


def statuses(game: Go, state: Position, ownership: Sequence[float]) -> dict[str, list[int]]:
    """The points of the stones that are ``alive``, ``dead`` and in ``seki``."""
    dead = dead_stones(game, state, ownership)
    black, white = state.black & ~dead, state.white & ~dead
    black_area, white_area = game.areas(black, white)
    empty = game.full & ~(black | white)
    seki = 0
    for colour, group in groups(game, state):
        own_area = black_area if colour == BLACK else white_area
        liberties = game.dilate(group) & empty
        if not group & dead and liberties and not liberties & own_area:
            seki |= group
    stones = state.black | state.white

    def points(mask: int) -> list[int]:
        return [p for p, bit in enumerate(game.bits) if mask >> bit & 1]

    return {"alive": points(stones & ~dead & ~seki), "dead": points(dead),
            "seki": points(seki)}


def estimated_score(game: Go, state: Position, ownership: Sequence[float]) -> float:
    """Black's area less white's less komi, dead stones removed."""
    return game.score(state, dead_stones(game, state, ownership))
