"""The Go engine: the numba tree search (``search``) driven from Python under a clock, with the
tree kept between moves, resignation, and the ownership of each point as the playouts end.

``Engine.think(state, ...)`` searches a rules position (``rules.Position``) and returns a
``Decision``: the move (a rules move: a point or ``PASS``), the win rate for the side to move,
visits and win rates of the root moves, the principal variation, whether to resign, and the
ownership of every point (+1 black's at the end of every playout, -1 white's). The tree of the
previous search is reused when the new position follows it by a move or two (its moves found
in the tree); otherwise, or when the arrays are half full, the tree starts again.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ...native import seed_from
from . import board as kernel
from . import search
from .patterns import table
from .playout import heavy_playouts
from .rules import BLACK, PASS, Go, Position
from .scoring import estimated_score

DEFAULT_CAPACITY = 1 << 20  # tree rows: about 40 MB
EXPAND_VISITS = 8
RAVE_EQUIVALENCE = 3500.0
RESIGN_WIN_RATE = 0.08  # resign below this, once the search has seen enough
RESIGN_MIN_PLAYOUTS = 3000
PASS_VISITS = 20  # after the opponent's pass, pass back if it is this well tried...
PASS_MARGIN = 0.02  # ...and wins this nearly as often as the most visited move
CHUNK = 256  # playouts between looks at the clock
PATTERNS = table()
SCORING_PLAYOUTS = 3000  # playouts behind ownership_of and final_score


@dataclass(frozen=True)
class Decision:
    """What a search found (module docstring); win rates are for the side to move."""

    move: int
    win_rate: float
    playouts: int
    seconds: float
    visits: dict[int, int] = field(default_factory=dict)
    win_rates: dict[int, float] = field(default_factory=dict)
    pv: tuple[int, ...] = ()
    resign: bool = False
    ownership: tuple[float, ...] = ()  # per rules point, +1 black .. -1 white
    tree_size: int = 0


@dataclass(frozen=True)
class Candidate:
    """One root move as the analysis front ends show it: its playouts, its win rate for the
    side to move (the prior's while it has none), its share of the prior knowledge (the
    priors' win rates normalised to sum to 1 over the root moves: there is no policy
    network), and the line the tree expects after it (the move first)."""

    move: int
    visits: int
    win_rate: float
    prior: float
    pv: tuple[int, ...]


class Engine:
    """A search tree and the board it is rooted at, for one game (one size and komi)."""

    def __init__(self, game: Go, *, capacity: int = DEFAULT_CAPACITY,
                 rng: random.Random | None = None) -> None:
        self.game = game
        self.size = game.size
        self.width = game.size + 2
        self.capacity = capacity
        self.rng = rng or random.Random()
        self.links = np.zeros((capacity, search.LINK_FIELDS), np.int32)
        self.stats = np.zeros((capacity, search.STAT_FIELDS), np.float32)
        self.params = np.zeros(search.PARAMS, np.float64)
        self.params[search.P_KOMI] = game.komi
        self.params[search.P_EXPAND] = EXPAND_VISITS
        self.params[search.P_RAVE_EQUIVALENCE] = RAVE_EQUIVALENCE
        self.params[search.P_POLICY_WEIGHT] = 0.0
        self.params[search.P_MAX_MOVES] = 3 * self.size * self.size + 100
        self.rows = 0
        self.root = 0
        self.root_state: Position | None = None
        self.root_board = kernel.new_board(self.size)
        self.owner = np.zeros((self.width * self.width, 2), np.int64)
        self.owner_playouts = 0
        self.last_moves: tuple[int, ...] = ()  # the rules moves that led to root_state, if known

    # -- points ---------------------------------------------------------------------------------
    def padded(self, move: int) -> int:
        if move == PASS:
            return kernel.PASS
        row, col = divmod(move, self.size)
        return (row + 1) * self.width + col + 1

    def unpadded(self, point: int) -> int:
        if point == kernel.PASS:
            return PASS
        row, col = divmod(point, self.width)
        return (row - 1) * self.size + col - 1

    # -- boards -----------------------------------------------------------------------------------
    def board_of(self, state: Position, last: tuple[int, ...] = ()) -> np.ndarray:
        """The kernel board of a rules position (the last moves, when known, for the
        playouts' answers to them)."""
        b = kernel.new_board(self.size)
        game = self.game
        for point, bit in enumerate(game.bits):
            if state.black >> bit & 1:
                kernel.play(b, self.padded(point), kernel.BLACK)
            elif state.white >> bit & 1:
                kernel.play(b, self.padded(point), kernel.WHITE)
        meta = b[kernel.META]
        meta[kernel.M_TO_MOVE] = kernel.BLACK if state.to_move == BLACK else kernel.WHITE
        meta[kernel.M_KO] = 0
        meta[kernel.M_PASSES] = state.passes
        meta[kernel.M_MOVES] = 0
        meta[kernel.M_CAPTURED_BY_BLACK] = state.black_prisoners
        meta[kernel.M_CAPTURED_BY_WHITE] = state.white_prisoners
        points = [self.padded(m) for m in last[-2:]]
        meta[kernel.M_LAST] = points[-1] if points else kernel.PASS
        meta[kernel.M_LAST2] = points[-2] if len(points) > 1 else kernel.PASS
        return b

    # -- the tree ---------------------------------------------------------------------------------
    def reset(self) -> None:
        self.rows = 1
        self.root = 0
        self.links[0] = (kernel.PASS, -1, 0)
        self.stats[0] = 0.0
        self.root_state = None
        self.last_moves = ()

    def _child(self, node: int, move: int) -> int:
        first, count = self.links[node, search.FIRST], self.links[node, search.COUNT]
        point = self.padded(move)
        for child in range(first, first + count):
            if self.links[child, search.MOVE] == point:
                return child
        return -1

    def _moves_between(self, before: Position, after: Position) -> list[int] | None:
        """One or two moves that lead from ``before`` to ``after``, if there are such."""
        game = self.game
        if game.outcome(before) is not None:
            return None
        added = [p for p, bit in enumerate(game.bits)
                 if ((after.black | after.white) >> bit & 1)
                 and not ((before.black | before.white) >> bit & 1)]
        if len(added) > 2:
            return None
        for first in [*added, PASS]:
            if not game.is_legal(before, first):
                continue
            middle = game.play(before, first)
            if middle == after:
                return [first]
            if game.outcome(middle) is not None:
                continue
            for second in [*added, PASS]:
                if second != first and game.is_legal(middle, second) \
                        and game.play(middle, second) == after:
                    return [first, second]
        return None

    def set_root(self, state: Position, moves: tuple[int, ...] | None = None) -> bool:
        """Root the tree at ``state``, keeping the subtree when it follows the old root;
        returns whether the tree was kept."""
        kept = False
        if self.root_state is not None and self.rows < self.capacity // 2:
            if state == self.root_state:
                kept = True
            else:
                path = self._moves_between(self.root_state, state)
                node = self.root
                for move in path or ():
                    node = self._child(node, move) if node >= 0 else -1
                if path and node >= 0 and self.links[node, search.COUNT] > 0:
                    self.root = node
                    self.last_moves = (*self.last_moves, *path)[-2:]
                    kept = True
        if not kept:
            self.reset()
        if moves is not None:
            self.last_moves = tuple(moves[-2:])
        self.root_state = state
        self.root_board = self.board_of(state, self.last_moves)
        allowed = np.zeros(self.width * self.width, np.bool_)
        for move in self.game.legal_moves(state):
            allowed[self.padded(move)] = True
        self.rows, seed = search.expand_root(self.links, self.stats, self.rows, self.root,
                                             self.root_board, allowed, PATTERNS,
                                             seed_from(self.rng))
        return kept

    # -- thinking ---------------------------------------------------------------------------------
    def think(self, state: Position, *, playouts: int | None = None,
              seconds: float | None = None, stop: Callable[[], bool] | None = None,
              moves: tuple[int, ...] | None = None) -> Decision:
        """Search ``state`` (a game not over) for ``playouts`` or ``seconds`` or until
        ``stop()``, and decide (``begin`` then ``run``)."""
        self.begin(state, moves)
        return self.final_check(self.run(playouts=playouts, seconds=seconds, stop=stop), state)

    def begin(self, state: Position, moves: tuple[int, ...] | None = None) -> None:
        """Root the search at ``state`` (the tree kept when it follows the last root)."""
        self.set_root(state, moves)
        self.owner[:] = 0
        self.owner_playouts = 0
        self.started = time.perf_counter()

    def run(self, *, playouts: int | None = None, seconds: float | None = None,
            stop: Callable[[], bool] | None = None) -> Decision:
        """Go on searching from the root ``begin`` set, for ``playouts`` more or ``seconds``
        more or until ``stop()``; the decision so far (not yet checked by ``_final``)."""
        if playouts is None and seconds is None and stop is None:
            raise ValueError("a search needs a limit: playouts, seconds or stop")
        start = time.perf_counter()
        budget = playouts if playouts is not None else 1 << 62
        deadline = None if seconds is None else start + seconds
        seed = seed_from(self.rng)
        done = 0
        while done < budget:
            step = min(CHUNK, budget - done)
            self.rows, seed = search.search(self.links, self.stats, self.rows, self.root,
                                            self.root_board, self.params, PATTERNS,
                                            self.owner, step, seed)
            seed = np.uint64(seed)
            done += step
            self.owner_playouts += step
            now = time.perf_counter()
            if (deadline is not None and now >= deadline) or (stop is not None and stop()):
                break
            if deadline is not None and self._settled(done, deadline - now, now - start):
                break
        return self.decision(self.owner_playouts, time.perf_counter() - self.started)

    def _settled(self, done: int, left: float, spent: float) -> bool:
        """Whether the most visited move can no longer be overtaken in the time left."""
        visits = self._root_visits()
        if len(visits) < 2 or done < 4 * CHUNK:
            return len(visits) == 1
        first, second = sorted(visits, reverse=True)[:2]
        expected = done / max(spent, 1e-6) * left
        return first - second > expected

    def _root_visits(self) -> list[float]:
        first = self.links[self.root, search.FIRST]
        count = self.links[self.root, search.COUNT]
        return [float(self.stats[c, search.VISITS]) for c in range(first, first + count)
                if self.links[c, search.MOVE] != search.SKIPPED]

    def decision(self, playouts: int, seconds: float) -> Decision:
        """The search's state as a Decision (the most visited root move)."""
        links, stats = self.links, self.stats
        first = links[self.root, search.FIRST]
        count = links[self.root, search.COUNT]
        visits: dict[int, int] = {}
        rates: dict[int, float] = {}
        best, best_key = PASS, (-1.0, -1.0)
        for child in range(first, first + count):
            point = int(links[child, search.MOVE])
            if point == search.SKIPPED:
                continue
            move = self.unpadded(point)
            n = float(stats[child, search.VISITS])
            rate = float(stats[child, search.WINS]) / n if n > 0 else \
                float(stats[child, search.PRIOR_WINS] / stats[child, search.PRIOR_VISITS])
            visits[move] = int(n)
            rates[move] = rate
            if (n, rate) > best_key:
                best, best_key = move, (n, rate)
        if self.root_state is not None and self.root_state.passes == 1 \
                and visits.get(PASS, 0) >= PASS_VISITS and best != PASS \
                and rates[PASS] >= rates[best] - PASS_MARGIN:
            best = PASS  # the game can end now as well as by playing on: end it
        win_rate = rates.get(best, 0.5) if visits.get(best, 0) > 0 else 0.5
        resign = playouts >= RESIGN_MIN_PLAYOUTS and win_rate < RESIGN_WIN_RATE
        return Decision(best, win_rate, playouts, seconds, visits, rates, self._pv(),
                        resign, self.ownership(), self.rows)

    def candidates(self, longest: int = 12) -> list[Candidate]:
        """Every root move the rules allow, most visited first (ties: higher win rate)."""
        links, stats = self.links, self.stats
        first = int(links[self.root, search.FIRST])
        count = int(links[self.root, search.COUNT])
        rows = [c for c in range(first, first + count) if links[c, search.MOVE] != search.SKIPPED]
        prior_rates = {c: float(stats[c, search.PRIOR_WINS] / stats[c, search.PRIOR_VISITS])
                       for c in rows}
        total_prior = sum(prior_rates.values()) or 1.0
        found = []
        for child in rows:
            n = float(stats[child, search.VISITS])
            rate = float(stats[child, search.WINS]) / n if n > 0 else prior_rates[child]
            move = self.unpadded(int(links[child, search.MOVE]))
            found.append(Candidate(move, int(n), rate, prior_rates[child] / total_prior,
                                   (move, *self._pv(longest - 1, child))))
        found.sort(key=lambda c: (-c.visits, -c.win_rate))
        return found

    def root_visits(self) -> tuple[int, float]:
        """(playouts through the root, their win rate for the side to move), the tree kept
        from earlier searches included."""
        n = float(self.stats[self.root, search.VISITS])
        wins = float(self.stats[self.root, search.WINS])  # for the player who moved into it
        return int(n), (1.0 - wins / n) if n > 0 else 0.5

    def _pv(self, longest: int = 12, start: int | None = None) -> tuple[int, ...]:
        line: list[int] = []
        node = self.root if start is None else start
        while len(line) < longest and self.links[node, search.COUNT] > 0:
            first = self.links[node, search.FIRST]
            count = self.links[node, search.COUNT]
            children = [c for c in range(first, first + count)
                        if self.links[c, search.MOVE] != search.SKIPPED]
            if not children:
                break
            child = max(children, key=lambda c: self.stats[c, search.VISITS])
            if self.stats[child, search.VISITS] < 1:
                break
            line.append(self.unpadded(int(self.links[child, search.MOVE])))
            node = child
        return tuple(line)

    def ownership(self) -> tuple[float, ...]:
        """Per rules point: (playouts that ended with it black's - white's) / playouts, in
        [-1, 1], over the last search."""
        playouts = max(1, self.owner_playouts)
        return tuple((int(self.owner[p, 0]) - int(self.owner[p, 1])) / playouts
                     for p in map(self.padded, range(self.size * self.size)))

    def final_check(self, decision: Decision, state: Position) -> Decision:
        """No pass that would end the game lost by the dead stones the playouts see: answer
        the opponent's pass with the best other move then."""
        if decision.move != PASS or state.passes == 0 or len(decision.visits) < 2:
            return decision
        margin = estimated_score(self.game, state, decision.ownership)
        mine = margin if state.to_move == BLACK else -margin
        tromp_taylor = self.game.score(state)
        if mine > 0 and (tromp_taylor if state.to_move == BLACK else -tromp_taylor) > 0:
            return decision
        others = {m: v for m, v in decision.visits.items() if m != PASS}
        if not others:
            return decision
        move = max(others, key=lambda m: (others[m], decision.win_rates[m]))
        return Decision(move, decision.win_rates[move], decision.playouts, decision.seconds,
                        decision.visits, decision.win_rates, (move,), decision.resign,
                        decision.ownership, decision.tree_size)


def ownership_of(game: Go, state: Position, playouts: int = SCORING_PLAYOUTS,
                 rng: random.Random | None = None) -> tuple[float, ...]:
    """Who owns each point at the end of ``playouts`` games from ``state`` (a short search),
    +1 black to -1 white."""
    engine = Engine(game, capacity=max(1 << 16, 40 * playouts), rng=rng or random.Random())
    playing = state if state.passes < 2 else state._replace(passes=0)
    engine.think(playing, playouts=playouts)
    return engine.ownership()


def final_score(game: Go, state: Position, playouts: int = SCORING_PLAYOUTS,
                rng: random.Random | None = None) -> float:
    """The game's score with dead stones removed (positive: black leads)."""
    return estimated_score(game, state, ownership_of(game, state, playouts, rng))


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel the engine runs."""
    game = Go(5)
    engine = Engine(game, capacity=4096, rng=random.Random(0))
    engine.think(game.initial_state(), playouts=64)
    heavy_playouts(kernel.new_board(5), 0.5, PATTERNS, 2, 100, np.uint64(1))
