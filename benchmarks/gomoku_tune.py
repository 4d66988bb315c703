"""Tune the Gomoku evaluation's worths on positions from yipan's own games.

    PYTHONPATH=src python benchmarks/gomoku_tune.py [--games 600] [--seconds 0.03]
        [--workers 2] [--seed 2026] [--save FILE.npz | --load FILE.npz ...]
        [--combinations [--min-count 50] [--write src/yipan/games/gomoku/worths.py]]
        [--sides] [--result-weight 1]

1. Self-play: the engine against itself at ``--seconds`` a move from openings of three random
   stones near the centre (drawn from ``--seed``), one game a unit of work on ``--workers``
   processes. Each position before a move gives the side to move's features and, once the
   game ends, its result (1 win, 0 loss, 1/2 draw).
2. Features, as ``board.evaluate`` counts them: per shape (two, open three, ...) the number of
   (empty cell, direction) pairs with that shape, and per level the number of empty cells, for
   the side to move minus 9/10 of the opponent's. Positions where either side can make a five
   or an open four at once are left out: their value is tactics, not worth.
3. A logistic fit of the result on ``worth . features / scale`` (Texel's method), started
   from the current ``SHAPE_WORTH`` and ``LEVEL_BONUS``, gently held to them; prints the log
   loss of the current and the fitted worths on held-out games (every fifth game), and the
   fitted arrays scaled to the current ones' size, ready for ``board.py``.
4. With ``--combinations``, the same fit of a worth per combination of a cell's four shapes
   (as a set: 715 of them), from the hand-set reckoning (``board.formula_worth``); those seen
   in fewer than ``--min-count`` positions, or holding a decisive shape, stay as they are.
   ``--write`` writes the fitted ones as the module ``board.worth_table`` reads
   (``worths.py``), atomically. The engine evaluates with that table, so the shape and level
   arrays of step 3 describe it only where no combination is fitted.
5. With ``--sides``, two such tables: a combination's worth to the side to move, and to the
   side waiting (one table weighs that at 9/10 of the first); ``--write`` writes both.
6. With ``--result-weight W`` below 1, the target is W x the
   result + (1 - W) x the value the game's own search gave the position, as a probability: a
   deeper look than the evaluation's, and far less noisy than one game's outcome. Held-out
   losses are still against the results.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
import zipfile
from itertools import combinations_with_replacement, product
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from yipan.cluster import make_runner, run_match  # noqa: E402
from yipan.core.files import write_atomically  # noqa: E402
from yipan.games.gomoku import worths  # noqa: E402
from yipan.games.gomoku.board import (  # noqa: E402
    EMPTY,
    L_DOUBLE_THREE,
    L_FIVE,
    L_FORBIDDEN,
    L_FOUR,
    L_FOUR_THREE,
    L_OPEN_FOUR,
    LEVEL_BONUS,
    LEVELS,
    SHAPE_WORTH,
    SHAPES,
    formula_worth,
)
from yipan.games.gomoku.engine import Engine  # noqa: E402
from yipan.games.gomoku.patterns import OPEN_FOUR, SHAPE_NAMES  # noqa: E402

# a cell's four shapes as a set (sorted), numbered: the fitted worths' keys
COMBINATIONS = list(combinations_with_replacement(range(SHAPES), 4))
NUMBER = {combination: k for k, combination in enumerate(COMBINATIONS)}
COMBINATION_OF = np.array([NUMBER[tuple(sorted(shapes))]
                           for shapes in product(range(SHAPES), repeat=4)])
# held where they are: no shape at all (worth nothing), and any combination with a decisive
# shape (five, open four, four-four, overline: tactics the search decides first)
FIXED_COMBINATIONS = np.array([k for k, c in enumerate(COMBINATIONS)
                               if c == (0, 0, 0, 0) or max(c) >= OPEN_FOUR])


def combination_features(engine: Engine, me: int) -> np.ndarray:
    """Per shape combination, the side to move's count of empty cells with it (forbidden
    points left out: worth nothing), then the opponent's (``weighed`` takes them as
    ``board.evaluate`` weighs their worths)."""
    board = engine.board
    empty = np.flatnonzero(board.cells == EMPTY)
    rows = []
    for colour in (me, 1 - me):
        cells = empty[board.level[colour][empty] != L_FORBIDDEN]
        shapes = board.shapes[colour][cells].astype(np.int64)
        index = ((shapes[:, 0] * SHAPES + shapes[:, 1]) * SHAPES + shapes[:, 2]) * SHAPES \
            + shapes[:, 3]
        rows.append(np.bincount(COMBINATION_OF[index], minlength=len(COMBINATIONS)))
    return np.concatenate(rows).astype(np.float32)


def weighed(c: np.ndarray) -> np.ndarray:
    """The side to move's combination counts minus 9/10 of the opponent's (a file that
    holds one row of 715 a position holds that difference already)."""
    n = len(COMBINATIONS)
    return c[:, :n] - 0.9 * c[:, n:] if c.shape[1] == 2 * n else c


def features(engine: Engine, me: int) -> np.ndarray:
    """The side to move's counts minus 9/10 of the opponent's: shapes, then levels."""
    board = engine.board
    empty = np.flatnonzero(board.cells == EMPTY)
    rows = []
    for colour in (me, 1 - me):
        shapes = np.bincount(board.shapes[colour][empty].ravel(), minlength=SHAPES)[:SHAPES]
        levels = np.bincount(board.level[colour][empty], minlength=LEVELS)[:LEVELS]
        rows.append(np.concatenate([shapes, levels]).astype(np.float64))
    return rows[0] - 0.9 * rows[1]


def self_play(opening: list[int], seconds: float
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One game: features of each quiet position (shapes and levels; shape combinations),
    the result for its side to move, and the value the engine's search gave it for that side
    (NaN where no search valued it: a VCF or VCT found, a forced block). Quiet: neither side
    can make a five or an open four at once, and the side to move has no four-three or double
    three to play against an opponent without a four (``evaluate``'s tempo: a race, not
    worth)."""
    engine = Engine(15, memory_bytes=1 << 24)
    engine.reset(opening)
    rows, combination_rows, movers, values = [], [], [], []
    winner = None
    while len(engine.moves) < 225:
        me = engine.to_move
        counts = engine.board.level_count
        tempo = counts[me, L_FOUR_THREE] + counts[me, L_DOUBLE_THREE] > 0 and \
            counts[1 - me, L_FOUR] + counts[1 - me, L_FOUR_THREE] == 0
        quiet = not counts[:, L_OPEN_FOUR:L_FIVE + 1].any() and not tempo
        if quiet:
            rows.append(features(engine, me))
            combination_rows.append(combination_features(engine, me))
            movers.append(me)
        decision = engine.think(seconds=seconds)
        if quiet:
            searched = decision.reason == "search" and not decision.result.exact
            values.append(float(decision.result.value) if searched else np.nan)
        if decision.reason == "five":
            winner = me
            break
        engine.play(decision.move)
    results = np.array([0.5 if winner is None else float(m == winner) for m in movers])
    return (np.array(rows).reshape(-1, SHAPES + LEVELS),
            np.array(combination_rows, dtype=np.float32).reshape(-1, 2 * len(COMBINATIONS)),
            results, np.array(values))


def log_loss(weights: np.ndarray, scale: float, x: np.ndarray, y: np.ndarray) -> float:
    p = 1 / (1 + np.exp(-np.clip(x @ weights / scale, -30, 30)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


# held where they are: "no shape" and "no level" are worth nothing by definition, and the
# decisive shapes and levels (open four, five, four-four, overline; open four, five,
# forbidden) are tactics that the search decides before any evaluation
FIXED = np.array([0, 6, 7, 8, 9, SHAPES, SHAPES + 5, SHAPES + 6, SHAPES + 7])


def fit(x: np.ndarray, y: np.ndarray, start: np.ndarray, steps: int = 4000,
        fixed: np.ndarray = FIXED) -> tuple[np.ndarray, float]:
    """Logistic regression from ``start`` (worths in eval units), a scale fitted first;
    an L2 pull toward ``start`` keeps features the games rarely show where they were, and
    the ``fixed`` ones do not move."""
    scales = [100.0 * 1.5 ** k for k in range(16)]
    scale = min(scales, key=lambda s: log_loss(start, s, x, y))
    w = start / scale  # fitted in logit units
    anchor = w.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    rate, pull = 0.002, 1e-3
    for step in range(1, steps + 1):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) / len(y) + pull * (w - anchor)
        grad[fixed] = 0.0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad ** 2
        w -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-9)
    return w * scale, scale


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=0.03)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--save", metavar="FILE.npz", help="keep the positions for --load")
    parser.add_argument("--load", metavar="FILE.npz", nargs="+",
                        help="fit saved positions (of one run or several), no self-play")
    parser.add_argument("--combinations", action="store_true",
                        help="fit a worth per shape combination instead (board.worth_table)")
    parser.add_argument("--min-count", type=int, default=50, metavar="N",
                        help="combinations seen in fewer positions keep their worth")
    parser.add_argument("--write", metavar="worths.py",
                        help="with --combinations or --sides: write the fitted worths as that "
                             "module")
    parser.add_argument("--result-weight", type=float, default=1.0, metavar="W",
                        help="fit to W x the game's result + (1 - W) x the search's value "
                             "as a probability (1: results only)")
    parser.add_argument("--sides", action="store_true",
                        help="fit a combination's worth to the side to move and to the "
                             "side waiting apart (both tables of board.worth_table)")
    args = parser.parse_args()
    if not 0 <= args.result_weight <= 1:
        parser.error("--result-weight is a share: from 0 to 1")
    if args.write and not (args.combinations or args.sides):
        parser.error("--write writes fitted combinations: give --combinations or --sides")
    if args.load:
        games = []
        for path in args.load:
            try:
                with np.load(path) as saved:
                    games += [(saved[f"x{i}"], saved[f"c{i}"], saved[f"y{i}"],
                               saved[f"v{i}"] if f"v{i}" in saved
                               else np.full(len(saved[f"y{i}"]), np.nan))
                              for i in range(int(saved["count"]))]
            except (OSError, KeyError, ValueError, zipfile.BadZipFile) as error:
                parser.error(f"{path}: not positions saved by --save ({error})")
        print(f"{len(games)} games loaded from {', '.join(args.load)}")
    else:
        rng = random.Random(args.seed)
        centre = [y * 15 + x for x in range(4, 11) for y in range(4, 11)]
        jobs = [(rng.sample(centre, 3), args.seconds) for _ in range(args.games)]
        start = time.perf_counter()
        games = list(run_match(self_play, jobs, runner=make_runner(None, args.workers)))
        print(f"{len(games)} games of self-play at {args.seconds:g} s a move in "
              f"{time.perf_counter() - start:.0f} s", flush=True)
    if args.save:
        arrays = {f"{k}{i}": g[j] for i, g in enumerate(games) for j, k in enumerate("xcyv")}
        packed = io.BytesIO()
        np.savez_compressed(packed, count=len(games), **arrays)
        write_atomically(args.save, packed.getvalue())
    train = [g for i, g in enumerate(games) if i % 5 and len(g[2])]
    test = [g for i, g in enumerate(games) if i % 5 == 0 and len(g[2])]
    x, c, y, v = (np.concatenate([g[k] for g in train]) for k in (0, 1, 2, 3))
    xt, ct, yt, vt = (np.concatenate([g[k] for g in test]) for k in (0, 1, 2, 3))
    print(f"positions: {len(y)} to fit, {len(yt)} held out; "
          f"{np.count_nonzero(~np.isnan(v))} of those to fit valued by a search")
    if args.result_weight < 1:
        y = blend(weighed(c), y, v, args.result_weight)
    if args.sides:
        return fit_sides(c, y, ct, yt, args.min_count, args.write)
    if args.combinations:
        return fit_combinations(weighed(c), y, weighed(ct), yt, args.min_count, args.write)
    current = np.concatenate([SHAPE_WORTH, LEVEL_BONUS]).astype(np.float64)
    fitted, scale = fit(x, y, current)
    shape_part = np.maximum(0, np.round(fitted[:SHAPES])).astype(np.int64)
    level_part = np.maximum(0, np.round(fitted[SHAPES:])).astype(np.int64)
    printed = np.concatenate([shape_part, level_part]).astype(np.float64)
    print(f"held-out log loss: current worths {log_loss(current, scale, xt, yt):.4f}, "
          f"fitted {log_loss(fitted, scale, xt, yt):.4f}, the arrays below (rounded, none "
          f"below 0) {log_loss(printed, scale, xt, yt):.4f} (a coin: {np.log(2):.4f})")
    print(f"SHAPE_WORTH = np.array({shape_part.tolist()}, dtype=np.int64)")
    print(f"LEVEL_BONUS = np.array({level_part.tolist()}, dtype=np.int64)")
    return 0


def blend(c: np.ndarray, y: np.ndarray, v: np.ndarray, result_weight: float) -> np.ndarray:
    """Targets mixing each position's game result with its search value as a probability,
    on the scale at which the hand-set worths best predict the results (a search value is
    in the evaluation's units); where no search valued a position, its result alone."""
    start = np.array([formula_worth(k) for k in COMBINATIONS], dtype=np.float64)
    scales = [100.0 * 1.5 ** k for k in range(16)]
    scale = min(scales, key=lambda s: log_loss(start, s, c.astype(np.float64), y))
    valued = ~np.isnan(v)
    searched = 1 / (1 + np.exp(-np.clip(np.nan_to_num(v) / scale, -30, 30)))
    agree = np.mean((searched[valued] > 0.5) == (y[valued] > 0.5))
    print(f"search values as probabilities at scale {scale:g}: on the winner's side in "
          f"{agree:.1%} of the valued positions; targets {result_weight:g} x result + "
          f"{1 - result_weight:g} x value")
    return np.where(valued, result_weight * y + (1 - result_weight) * searched, y)


def fit_sides(c: np.ndarray, y: np.ndarray, ct: np.ndarray, yt: np.ndarray,
              min_count: int, write: str | None) -> int:
    """Fit each combination's worth to the side to move and, apart, to the side waiting
    (one table weighs the waiting side's at 9/10); print the held-out loss of both ways and,
    with ``write``, write both tables as the module ``board.worth_table`` reads."""
    n = len(COMBINATIONS)
    if c.shape[1] != 2 * n:
        print("these positions keep the two sides' counts together: generate them again")
        return 2
    start = np.array([formula_worth(k) for k in COMBINATIONS], dtype=np.float64)
    seen = (weighed(c) != 0).sum(axis=0)
    fixed = np.union1d(FIXED_COMBINATIONS, np.flatnonzero(seen < min_count))
    print(f"combinations: {n}, fitted {n - len(fixed)} a side (seen in {min_count} positions "
          f"or more, no decisive shape)")
    one, one_scale = fit(weighed(c).astype(np.float64), y, start, fixed=fixed)
    signs = np.concatenate([np.ones(n), -np.ones(n)])
    x, xt = c.astype(np.float64) * signs, ct.astype(np.float64) * signs
    two, two_scale = fit(x, y, np.concatenate([start, 0.9 * start]),
                         fixed=np.concatenate([fixed, fixed + n]))
    moving = np.maximum(0, np.round(two[:n]))
    waiting = np.maximum(0, np.round(10 * two[n:]))  # in tenths
    rounded = np.concatenate([moving, waiting / 10])
    print(f"held-out log loss: hand-set {log_loss(start, one_scale, weighed(ct), yt):.4f}, "
          f"one table {log_loss(one, one_scale, weighed(ct), yt):.4f}, a table a side "
          f"{log_loss(two, two_scale, xt, yt):.4f}, rounded and none below 0 "
          f"{log_loss(rounded, two_scale, xt, yt):.4f} (a coin: {np.log(2):.4f})")
    for k in np.argsort(-seen)[:25]:
        names = " + ".join(SHAPE_NAMES[s] for s in COMBINATIONS[k] if s) or "nothing"
        print(f"  {names}: one table {one[k]:.0f}; to move {two[k]:.0f}, "
              f"waiting {two[k + n]:.0f} (in {seen[k]} positions)")
    if write:
        to_move = {COMBINATIONS[k]: int(moving[k]) for k in range(n)
                   if moving[k] != start[k]}
        waits = {COMBINATIONS[k]: int(waiting[k]) for k in range(n)
                 if waiting[k] != 9 * moving[k]}
        write_worths(write, to_move, waits)
    return 0


def write_worths(path: str, to_move: dict[tuple[int, ...], int],
                 waiting: dict[tuple[int, ...], int]) -> None:
    """The module ``board.worth_table`` reads, written atomically."""
    def table(name: str, entries: dict[tuple[int, ...], int]) -> str:
        rows = "".join(f"    {k}: {v},\n" for k, v in sorted(entries.items()))
        return f"{name}: dict[tuple[int, ...], int] = {{\n{rows}}}\n"
    module = (Path(worths.__file__).read_text().split("\nFITTED_WORTH:")[0] + "\n"
              + table("FITTED_WORTH", to_move) + "\n" + table("FITTED_WAITING_WORTH", waiting))
    write_atomically(path, module)
    print(f"{len(to_move)} worths to move and {len(waiting)} waiting written to {path}")


def fit_combinations(c: np.ndarray, y: np.ndarray, ct: np.ndarray, yt: np.ndarray,
                     min_count: int, write: str | None) -> int:
    """Fit a worth per shape combination from the hand-set ones; print held-out log losses
    and, with ``write``, write the module ``board.worth_table`` reads."""
    start = np.array([formula_worth(k) for k in COMBINATIONS], dtype=np.float64)
    seen = (c != 0).sum(axis=0)
    fixed = np.union1d(FIXED_COMBINATIONS, np.flatnonzero(seen < min_count))
    print(f"combinations: {len(COMBINATIONS)}, fitted {len(COMBINATIONS) - len(fixed)} "
          f"(seen in {min_count} positions or more, no decisive shape)")
    x, xt = c.astype(np.float64), ct.astype(np.float64)
    fitted, scale = fit(x, y, start, fixed=fixed)
    rounded = np.maximum(0, np.round(fitted))
    print(f"held-out log loss: hand-set worths {log_loss(start, scale, xt, yt):.4f}, fitted "
          f"{log_loss(fitted, scale, xt, yt):.4f}, rounded and none below 0 "
          f"{log_loss(rounded, scale, xt, yt):.4f} (a coin: {np.log(2):.4f}); scale {scale:g}")
    changed = {COMBINATIONS[k]: int(rounded[k]) for k in range(len(COMBINATIONS))
               if rounded[k] != start[k]}
    for combination, worth in sorted(changed.items(),
                                     key=lambda item: -seen[NUMBER[item[0]]])[:20]:
        names = " + ".join(SHAPE_NAMES[s] for s in combination if s)
        print(f"  {names or 'nothing'}: {formula_worth(combination)} -> {worth} "
              f"(in {seen[NUMBER[combination]]} positions)")
    if write:
        write_worths(write, changed, {})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
