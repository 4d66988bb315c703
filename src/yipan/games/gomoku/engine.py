"""The Gomoku engine: a board kept in numba arrays, threat-space search, then alpha-beta.

``Engine.think`` chooses a move in this order, each step bounded in nodes and time:

1. the empty board: the centre;
2. a VCF (victory by continuous fours) of the side to move, shortest first;
3. the block of the opponent's five, when there is one (no search can do otherwise);
4. a VCT (victory by fours and threes);
5. iterative deepening alpha-beta (``search.negamax``) until the move's time is spent; but
   when the opponent has a VCF, a move after which it has none (if the search's is not one);
6. with a clock, a check of the search's move: if the opponent is found a VCF or VCT after
   it, the first of the best candidates after which none is found ("stops VCT").

Under renju the kernels keep black off the points the board marks forbidden (``L_FORBIDDEN``,
counted on line shapes), and black's own moves are checked by the rules themselves
(``Gomoku.forbidden``, exact and recursive): a threat line with a forbidden black move in it is
no win, and a chosen move the rules forbid is replaced by the best allowed candidate.

``Engine.iterate`` is that last step as a generator of ``SearchResult``s, one per depth, as
the foundation's ``iterate``. ``reference_search`` is the same depth-limited search in plain
Python, slow and readable, that reports every node to a ``trace`` (a numba kernel cannot call
back into Python); the tests check that both find the same value (with the kernel's late move
reductions switched off: ``context.stats[LMR] = 0``).

Moves outside this module are points ``y * size + x``; inside, padded cell indices
(see ``board``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ...core import WIN, SearchResult, SearchStats, describe_value
from ...search.trace import TraceEvent
from .board import (
    EMPTY,
    L_FIVE,
    L_FORBIDDEN,
    L_FOUR,
    L_FOUR_THREE,
    L_OPEN_FOUR,
    PAD,
    WIDTH,
    Board,
    evaluate,
    find_level,
    new_board,
    place,
    remove,
)
from .context import (
    ABORTED,
    BEST_MOVE,
    BEST_VALUE,
    CUTOFFS,
    FOUR_PLIES,
    LINE_LENGTH,
    MAX_NODES,
    MAX_PLY,
    NODES,
    THREAT_MAX_NODES,
    THREAT_NODES,
    TT_HITS,
    Context,
    new_context,
    start_budget,
)
from .rules import Gomoku, Stones
from .search import INFINITY, entry_parts, generate, generate_fours, negamax
from .threats import attack

DEFAULT_MEMORY = 64 << 20
Trace = Callable[[TraceEvent], None]


@dataclass(frozen=True, slots=True)
class ThreatWin:
    """A forced win found by threat-space search: its kind, its line (points: attacker,
    defender, attacker, ...), and the plies until the five is on the board. The line ends
    with the five, or with an open four, whose five comes two plies later (the defender
    blocks one end, the attacker plays the other)."""

    kind: str  # "VCF" or "VCT"
    line: tuple[int, ...]
    nodes: int
    plies: int = 0


@dataclass(frozen=True, slots=True)
class Decision:
    """What ``Engine.think`` chose and why (``reason``: centre, five, VCF, block, VCT,
    stops VCF, search, stops VCT; allowed: renju's rules forbade the engine's choice to
    black, and this is the best candidate they allow)."""

    move: int
    reason: str
    result: SearchResult
    threat: ThreatWin | None = None


class Engine:
    """One board and its search memory; play and take back moves, then ``think``."""

    def __init__(self, size: int = 15, rule: str = "freestyle",
                 memory_bytes: int = DEFAULT_MEMORY) -> None:
        self.game = Gomoku(size, rule)
        self.size = size
        self.board: Board = new_board(size, rule)
        self.width = int(self.board.meta[WIDTH])
        self.context: Context = new_context(memory_bytes, self.board.cells.size)
        self.moves: list[int] = []
        self.side: int | None = None  # set when stones were not placed alternately
        self.vcf_depth = 16
        self.vct_depth = 6

    # -- the position --------------------------------------------------------------------------
    def cell(self, point: int) -> int:
        y, x = divmod(point, self.size)
        return (y + PAD) * self.width + x + PAD

    def point(self, cell: int) -> int:
        y, x = divmod(int(cell), self.width)
        return (y - PAD) * self.size + (x - PAD)

    @property
    def to_move(self) -> int:
        """The colour to move: by the count of stones, unless ``side`` says otherwise."""
        return len(self.moves) % 2 if self.side is None else self.side

    def is_empty(self, point: int) -> bool:
        return self.board.cells[self.cell(point)] == EMPTY

    def play(self, point: int, colour: int | None = None) -> None:
        """Put a stone (of the side to move, unless ``colour`` is given) on ``point``."""
        place(self.board, self.cell(point), self.to_move if colour is None else colour)
        self.moves.append(point)

    def undo(self) -> int:
        point = self.moves.pop()
        remove(self.board, self.cell(point))
        return point

    def take_back(self, point: int) -> None:
        """Remove the stone on ``point``, whenever it was played."""
        remove(self.board, self.cell(point))
        self.moves.remove(point)

    def reset(self, moves: Sequence[int] = ()) -> None:
        while self.moves:
            self.undo()
        for point in moves:
            self.play(point)

    def set_state(self, state: Stones) -> None:
        """Load a Game state (black and white stones; move order is not needed)."""
        self.reset()
        game = self.game
        for colour, stones in enumerate((state.black, state.white)):
            for point in range(self.size * self.size):
                if stones >> game.bit(point) & 1:
                    place(self.board, self.cell(point), colour)
                    self.moves.append(point)

    def winner(self) -> int | None:
        """The colour that has five on the board (by the rule), else None."""
        state = self.game.initial_state()
        for point in self.moves:
            state = self._with(state, point, int(self.board.cells[self.cell(point)]) - 1)
        outcome = self.game.outcome(state)
        return None if outcome is None else outcome.winner

    def _with(self, state: Stones, point: int, colour: int) -> Stones:
        bit = 1 << self.game.bit(point)
        return Stones(state.black | bit, state.white) if colour == 0 else Stones(
            state.black, state.white | bit)

    def evaluation(self) -> int:
        return int(evaluate(self.board, self.to_move))

    # -- threat-space search ----------------------------------------------------------------------
    def threat_win(self, colour: int, *, threes: bool, max_depth: int, nodes: int,
                   seconds: float | None) -> ThreatWin | None:
        """A VCF (``threes=False``) or VCT of ``colour`` moving now, shortest depth first."""
        context = self.context
        start_budget(context, THREAT_NODES, THREAT_MAX_NODES, nodes, seconds)
        context.fail_key[:] = 0  # (its entries are only valid for one attacker)
        for depth in range(1, max_depth + 1):
            if attack(self.board, context, colour, depth, threes):
                length = int(context.stats[LINE_LENGTH])
                line = tuple(self.point(c) for c in context.line[:length] if c >= 0)
                if not self.line_allowed(line, colour):
                    return None  # (the search would find the same line again)
                return ThreatWin("VCT" if threes else "VCF", line,
                                 int(context.stats[THREAT_NODES]),
                                 self._plies_to_five(line, colour))
            if context.stats[ABORTED]:
                break
        return None

    def state(self) -> Stones:
        """The stones on the board as a Game state."""
        state = self.game.initial_state()
        for point in self.moves:
            state = self._with(state, point, int(self.board.cells[self.cell(point)]) - 1)
        return state

    def allowed(self, point: int, colour: int | None = None) -> bool:
        """Whether the rules let ``colour`` (the side to move) play the empty ``point``:
        under renju, black's forbidden points, checked exactly."""
        colour = self.to_move if colour is None else colour
        if not self.game.renju or colour != 0:
            return True
        state = self.state()
        if not self.game.renju_suspects(state) >> self.game.bit(point) & 1:
            return True
        return self.game.renju_board(state).forbidden(*self.game.xy(point)) is None

    def line_allowed(self, line: tuple[int, ...], colour: int) -> bool:
        """Whether every black move of a threat line (attacker ``colour`` first) is allowed
        by the rules, each in the position the line has reached."""
        if not self.game.renju:
            return True
        board = self.game.renju_board(self.state())
        played = []
        ok = True
        for index, point in enumerate(line):
            mover = colour if index % 2 == 0 else 1 - colour
            cell = board.index(*self.game.xy(point))
            if mover == 0 and board.forbidden_at(cell) is not None:
                ok = False
                break
            board.cells[cell] = 1 + mover
            played.append(cell)
        return ok

    def _plies_to_five(self, line: tuple[int, ...], colour: int) -> int:
        """``len(line)`` when the line's last move makes five, else two more (an open four)."""
        state = self.game.initial_state()
        for point in self.moves:
            state = self._with(state, point, int(self.board.cells[self.cell(point)]) - 1)
        for index, point in enumerate(line):
            state = self._with(state, point, colour if index % 2 == 0 else 1 - colour)
        outcome = self.game.outcome(state)
        return len(line) if outcome is not None and outcome.winner == colour \
            else len(line) + 2

    # -- alpha-beta ------------------------------------------------------------------------------
    def iterate(self, *, max_depth: int = 64, nodes: int | None = None,
                seconds: float | None = None) -> Iterator[SearchResult]:
        """Iterative deepening: one SearchResult per completed depth (from the side to move),
        and one for a depth cut short by the limits if it proved a different move better
        (its ``depth`` is that depth, its value that move's)."""
        context = self.context
        board = self.board
        me = self.to_move
        start = time.perf_counter()
        start_budget(context, NODES, MAX_NODES, nodes, seconds)
        context.killers[:] = -1
        context.history[:] //= 8
        total_nodes = 0
        previous = -1
        for depth in range(1, min(max_depth, MAX_PLY - 8) + 1):
            context.stats[BEST_MOVE] = -1
            value = int(negamax(board, context, depth, 0, -INFINITY, INFINITY, me))
            best = int(context.stats[BEST_MOVE])
            partial = bool(context.stats[ABORTED])
            # a depth cut short still counts once a root move was searched to its end: the
            # previous best is searched first, so a different move here has proved better
            if partial and (depth == 1 or best < 0 or best == previous):
                return
            if partial:
                value = int(context.stats[BEST_VALUE])
            total_nodes = int(context.stats[NODES])
            previous = best
            place(board, best, me)
            line = self._table_line(1 - me, depth + 7)
            remove(board, best)
            pv = (self.point(best), *(self.point(c) for c in line))
            elapsed = time.perf_counter() - start
            # a win or loss found through pruned candidate lists is likely, not proven:
            # ``exact`` stays False. A win ends the deepening; a loss does not, since a deeper
            # search may find the defence a pruned list left out (and else the longest loss)
            decided = value > WIN - MAX_PLY * 2
            yield SearchResult(
                move=pv[0], value=value, pv=pv,
                move_values=MappingProxyType({pv[0]: value}), depth=depth, exact=False,
                stats=SearchStats(nodes=total_nodes, tt_hits=int(context.stats[TT_HITS]),
                                  cutoffs=int(context.stats[CUTOFFS]), elapsed=elapsed))
            if decided or partial:
                return

    def _table_line(self, me: int, length: int) -> list[int]:
        """The principal variation: the table's moves followed from the position, ``me`` to
        move, at most ``length`` (the board is restored). In Python: a few moves a search,
        and one kernel less for numba to compile on a machine's first run."""
        board, tt = self.board, self.context.tt
        slots = tt.shape[0]
        line: list[int] = []
        colour = me
        while len(line) < length:
            key = board.hash.view(np.int64)[0]  # (the table keeps the hash's bits as int64)
            slot = int(board.hash[0]) & (slots - 1)
            move = int(entry_parts(tt[slot, 1])[3])
            if tt[slot, 0] != key or move < 0 or board.cells[move] != EMPTY:
                break
            line.append(move)
            place(board, move, colour)
            colour = 1 - colour
        for move in reversed(line):
            remove(board, move)
        return line

    def search(self, *, max_depth: int = 64, nodes: int | None = None,
               seconds: float | None = None, trace: Trace | None = None) -> SearchResult | None:
        """The last result ``iterate`` gives within the limits (None if not even one).

        With a ``trace``, the plain ``reference_search`` to ``max_depth`` runs instead and
        reports every node (a numba kernel cannot call back into Python).
        """
        if trace is not None:
            return reference_search(self, max_depth, trace)
        last = None
        start = time.perf_counter()
        for result in self.iterate(max_depth=max_depth, nodes=nodes, seconds=seconds):
            last = result
            # the next depth costs several times this one: do not start what cannot finish
            if seconds is not None and time.perf_counter() - start > seconds * 0.4:
                break
        return last

    # -- the whole decision ----------------------------------------------------------------------
    def think(self, *, seconds: float | None = 1.0, max_depth: int = 64,
              nodes: int | None = None, threats: bool = True) -> Decision:
        """Choose a move for the side to move (steps in the module doc)."""
        last = None
        for last in self.thoughts(seconds=seconds, max_depth=max_depth,  # noqa: B007
                                  nodes=nodes, threats=threats):
            pass
        assert last is not None  # every way through ends on a decision
        return last

    def thoughts(self, *, seconds: float | None = 1.0, max_depth: int = 64,
                 nodes: int | None = None, threats: bool = True,
                 stop: Callable[[], bool] | None = None) -> Iterator[Decision]:
        """``think`` aloud: during the search a Decision after each completed depth, and the
        choice last. ``stop`` is asked between the steps and the depths (a numba kernel runs
        its step out): once it says True, the best so far is the choice.

        Under renju every black move shown is allowed by the rules: a thought whose move is
        forbidden is not shown, and a forbidden choice gives way to the best allowed
        candidate (then the reason says ``allowed``)."""
        last = None
        for last in self._thoughts(seconds=seconds, max_depth=max_depth, nodes=nodes,
                                   threats=threats, stop=stop):
            if self.allowed(last.move):
                yield last
        assert last is not None
        if not self.allowed(last.move):
            yield self._allowed_instead(last)

    def _allowed_instead(self, forbidden: Decision) -> Decision:
        """The best-ordered candidate the rules allow (any allowed point if none is), with the
        value the engine gave the position (a block it may not play: a loss)."""
        count = generate(self.board, self.context, self.to_move, 0, -1)
        points = [self.point(c) for c in self.context.moves[0, :count]]
        points += [p for p in range(self.size * self.size) if self.is_empty(p)]
        move = next((p for p in points if self.is_empty(p) and self.allowed(p)),
                    forbidden.move)  # (no allowed point: the game is over)
        result = SearchResult(move=move, value=forbidden.result.value, pv=(move,), depth=0,
                              exact=False, stats=forbidden.result.stats)
        return Decision(move, "allowed", result)

    def _thoughts(self, *, seconds: float | None, max_depth: int, nodes: int | None,
                  threats: bool, stop: Callable[[], bool] | None) -> Iterator[Decision]:
        start = time.perf_counter()
        me, them = self.to_move, 1 - self.to_move
        board = self.board
        counts = board.level_count

        def remaining(share: float) -> float | None:
            return None if seconds is None else max(0.0, seconds * share
                                                    - (time.perf_counter() - start))

        def stopped() -> bool:
            return stop is not None and stop()

        def decided(point: int, reason: str, value: float, threat: ThreatWin | None = None,
                    pv: tuple = ()) -> Decision:
            stats = SearchStats(nodes=threat.nodes if threat else 0,
                                elapsed=time.perf_counter() - start)
            result = SearchResult(move=point, value=value, pv=pv or (point,),
                                  depth=len(pv), exact=threat is not None, stats=stats)
            return Decision(point, reason, result, threat)

        if not self.moves:
            centre = (self.size // 2) * self.size + self.size // 2
            yield decided(centre, "centre", 0)
            return
        if counts[me, L_FIVE] > 0:
            point = self.point(find_level(board, me, L_FIVE))
            yield decided(point, "five", WIN - 1)
            return
        if threats and not stopped():  # (the VCF blocks the opponent's four itself)
            win = self.threat_win(me, threes=False, max_depth=self.vcf_depth, nodes=200_000,
                                  seconds=remaining(0.3))
            if win is not None:
                yield decided(win.line[0], "VCF", WIN - win.plies, win, win.line)
                return
        if counts[them, L_FIVE] > 0:
            block_cell = find_level(board, them, L_FIVE)
            block = self.point(block_cell)
            lost = counts[them, L_FIVE] >= 2 or board.level[me, block_cell] == L_FORBIDDEN
            yield decided(block, "block", -(WIN - 2) if lost else 0)
            return
        if threats and counts[them, L_OPEN_FOUR] == 0 and not stopped():
            win = self.threat_win(me, threes=True, max_depth=self.vct_depth, nodes=100_000,
                                  seconds=remaining(0.5))
            if win is not None:
                yield decided(win.line[0], "VCT", WIN - win.plies, win, win.line)
                return
        safe = None
        if threats and counts[them, L_OPEN_FOUR] == 0 and not stopped():
            danger = self.threat_win(them, threes=False, max_depth=self.vcf_depth,
                                     nodes=50_000, seconds=remaining(0.55))
            if danger is not None:
                safe = self.moves_stopping_vcf(me, seconds=remaining(0.7))
        result = None
        # after the search, a check that its move leaves no threat sequence (with a clock
        # only: a node-limited think stays within its nodes); it gets a fifth of the time
        checking = threats and seconds is not None and not safe \
            and counts[them, L_OPEN_FOUR] == 0
        if not stopped():
            budget = remaining(0.8 if checking else 1.0)
            searching = time.perf_counter()
            for depth_result in self.iterate(max_depth=max_depth, nodes=nodes, seconds=budget):
                result = depth_result
                if not safe or result.move in safe:
                    assert isinstance(result.move, int)
                    yield Decision(result.move, "search", result)
                # the next depth costs several times this one: start it while it may at least
                # search its first moves (a depth cut short still gives a move)
                if (budget is not None and time.perf_counter() - searching > budget * 0.6) \
                        or stopped():
                    break
        if safe and (result is None or result.move not in safe):
            yield decided(safe[0], "stops VCF", 0)
            return
        if result is None:  # not even depth 1 finished: the best-ordered candidate
            count = generate(board, self.context, me, 0, -1)
            fallback = self.point(self.context.moves[0, 0]) if count else self.any_empty()
            yield decided(fallback, "search", 0)
            return
        assert isinstance(result.move, int)  # a completed search of an unfinished game
        if checking and not stopped():
            # the search's horizon may hide a threat sequence of the opponent: if the chosen
            # move leaves a VCT, the next candidate that leaves none is played instead
            safer = self.move_stopping_vct(result.move, me, seconds=remaining(1.0))
            if safer is not None and safer != result.move:
                yield decided(safer, "stops VCT", result.value)
                return
        yield Decision(result.move, "search", result)

    def move_stopping_vct(self, first: int, me: int, seconds: float | None,
                          tries: int = 12, nodes: int = 20_000) -> int | None:
        """``first`` (the search's move) unless the opponent is found a VCF or VCT after it;
        then the first of our best ``tries`` candidates after which none is found. None when
        the check on ``first`` or every candidate runs out of nodes or time (the search's
        choice stands then)."""
        start = time.perf_counter()
        board, context = self.board, self.context
        count = generate(board, context, me, 0, self.cell(first))
        candidates = [self.cell(first)] + [int(c) for c in context.moves[0, :count]]
        for index, cell in enumerate(list(dict.fromkeys(candidates))[:tries + 1]):
            danger, aborted = self._threat_after(self.point(cell), me, nodes, seconds, start)
            if aborted and index == 0:
                return None  # not known to lose: keep the search's move
            if danger is None and not aborted:
                return self.point(cell)
        return None

    def _threat_after(self, point: int, me: int, nodes: int, seconds: float | None,
                      start: float, threes: bool = True) -> tuple[ThreatWin | None, bool]:
        """The opponent's VCF, or VCT when ``threes``, after our ``point`` (played on the
        board and in the move list, so renju's exact rules see it), and whether a search ran
        out first; ``seconds`` count from ``start``."""
        def left() -> float | None:
            return None if seconds is None else max(0.0, seconds - (time.perf_counter() - start))

        self.play(point, me)
        try:
            danger = self.threat_win(1 - me, threes=False, max_depth=self.vcf_depth,
                                     nodes=nodes, seconds=left())
            aborted = bool(self.context.stats[ABORTED])
            if threes and danger is None and not aborted:
                danger = self.threat_win(1 - me, threes=True, max_depth=self.vct_depth,
                                         nodes=nodes, seconds=left())
                aborted = bool(self.context.stats[ABORTED])
        finally:
            self.undo()
        return danger, aborted and danger is None

    def moves_stopping_vcf(self, me: int, seconds: float | None) -> list[int]:
        """The opponent has a VCF: our candidates (and fours) after which it has none, best
        first. Empty when none is found in time (the search's move is played then)."""
        start = time.perf_counter()
        board, context = self.board, self.context
        count = generate(board, context, me, 0, -1)
        candidates = [int(c) for c in context.moves[0, :count]]
        fours = [int(c) for c in board.points
                 if board.cells[c] == EMPTY and L_FOUR <= board.level[me, c] <= L_FIVE]
        safe = []
        for cell in dict.fromkeys(candidates + fours):
            if seconds is not None and time.perf_counter() - start >= seconds:
                break
            danger, _ = self._threat_after(self.point(cell), me, 20_000, seconds, start,
                                           threes=False)
            if danger is None:
                safe.append(self.point(cell))
        return safe

    @classmethod
    def prepared(cls, size: int = 15, rule: str = "freestyle",
                 memory_bytes: int = DEFAULT_MEMORY) -> Engine:
        """A new engine with every kernel loaded before any clock runs (``warm_up``)."""
        Gomoku(size, rule)  # (a size or rule it refuses, refused before any compiling)
        engine = cls(size, rule, memory_bytes)
        engine.warm_up()
        return engine

    def warm_up(self) -> None:
        """Think once on a small position, so that every kernel is loaded (from numba's
        cache, or compiled: a machine's first run) before a clock runs; the board is left
        empty."""
        self._small_position()
        # nodes, not seconds: every kernel runs once however long compiling takes
        self.think(seconds=None, nodes=2_000, max_depth=2)
        self.reset()
        self.context.tt[:] = 0
        self.context.history[:] = 0

    def _small_position(self) -> None:
        self.reset()
        centre = (self.size // 2) * self.size + self.size // 2
        self.play(centre)
        self.play(centre + 1)

    def any_empty(self) -> int:
        return next(p for p in range(self.size * self.size) if self.is_empty(p))

    def describe(self, decision: Decision) -> str:
        """One line for people: the move, why, and the value or the forced line."""
        fmt = self.game.format_move
        text = f"{fmt(decision.move)} ({decision.reason}"
        if decision.threat is not None:
            line = " ".join(fmt(p) for p in decision.threat.line)
            text += f": {decision.threat.kind} {line}"
        else:
            text += f", {describe_value(decision.result.value, decision.result.exact)}"
            if decision.result.depth:
                text += f", depth {decision.result.depth}"
        return text + ")"


# -- the depth-limited search in plain Python, with a trace --------------------------------------


def reference_search(engine: Engine, depth: int, trace: Trace | None = None) -> SearchResult:
    """``minimax_with_heuristic``: plain negamax to ``depth`` over the engine's candidates and
    threat rules, each node reported to ``trace``. No pruning, no table: the baseline."""
    board, context = engine.board, engine.context
    root = engine.to_move
    nodes = 0
    four_plies = int(context.stats[FOUR_PLIES])
    context.killers[:] = -1
    context.history[:] = 0

    def value_of(me: int, remaining: int, ply: int, path: tuple) -> tuple[int, tuple]:
        nonlocal nodes
        nodes += 1
        maximizing = me == root
        if trace:
            trace(TraceEvent("node", ply, path, maximizing))
        them = 1 - me
        counts = board.level_count
        leaf: int | None = None
        forced = -1
        if counts[me, L_FIVE] > 0:
            leaf = WIN - ply - 1
        elif counts[them, L_FIVE] >= 2:
            leaf = -(WIN - ply - 2)
        elif counts[them, L_FIVE] == 1:
            forced = find_level(board, them, L_FIVE)
        elif counts[me, L_OPEN_FOUR] > 0:
            leaf = WIN - ply - 3
        horizon = leaf is None and forced < 0 and remaining <= 0
        if leaf is None and (ply >= MAX_PLY - 1 or horizon and (
                remaining <= -four_plies
                or counts[me, L_FOUR] + counts[me, L_FOUR_THREE] == 0)):
            leaf = int(evaluate(board, me))
            if trace:
                trace(TraceEvent("value", ply, path, maximizing, leaf, horizon=True))
            return leaf, ()
        if leaf is not None:
            if trace:
                trace(TraceEvent("value", ply, path, maximizing, leaf, terminal=True))
            return leaf, ()
        best, best_line = -INFINITY, ()
        if forced >= 0:
            moves = [forced]
            child_remaining = remaining
        elif horizon:  # past the horizon: stand pat, or play one of my fours
            best = int(evaluate(board, me))
            count = generate_fours(board, context, me, ply, -1)
            moves = [int(m) for m in context.moves[ply, :count]]
            child_remaining = remaining - 1
        else:
            count = generate(board, context, me, ply, -1)
            moves = [int(m) for m in context.moves[ply, :count]]
            child_remaining = remaining - 1
            if not moves:
                return int(evaluate(board, me)), ()
        for move in moves:
            place(board, move, me)
            child, line = value_of(them, child_remaining, ply + 1,
                                   (*path, engine.point(move)) if trace else path)
            remove(board, move)
            if -child > best:
                best, best_line = -child, (engine.point(move), *line)
        if trace:
            trace(TraceEvent("value", ply, path, maximizing, best))
        return best, best_line

    start = time.perf_counter()
    value, pv = value_of(root, depth, 0, ())
    return SearchResult(move=pv[0] if pv else None, value=value, pv=pv, depth=depth,
                        exact=False, stats=SearchStats(nodes=nodes,
                                                       elapsed=time.perf_counter() - start))


__all__ = ["Decision", "Engine", "ThreatWin", "reference_search"]
