"""Record seeded random games of every registered game, so that a change of rules shows as a diff.

Recipe::

    python tests/playthroughs/record.py              # every registered game
    python tests/playthroughs/record.py nim 2048     # only these (names as in `yipan games`)

writes ``tests/playthroughs/<game>.txt`` for each game: a few random games under its default
options (seeds ``DEFAULT_SEEDS``) and one under each option set of its ``GameSpec.examples``
(seed ``EXAMPLE_SEED``), each cut at ``MAX_PLIES`` plies (2048 games run far longer). The test
beside this script (``test_playthroughs.py``) plays the same games again in memory and fails
with a diff where the text differs, or naming this command where a recording is missing.

After a change of rules or notation that is meant, record the game again and commit the new
file: the diff in review is the change. After one that is not meant, fix the game.

A recording, game by game::

    == tictactoe {"k": "3", "size": "4x4"} seed 1
      0         start    16 moves     4/4/4/4
      1  p0     b1       15 moves     1x2/4/4/4
      2  p1     c3       14 moves     1x2/4/2o1/4
      ...
      6  p1     b3       0 moves      1x2/x3/1ooo/3x
    result: winner p1

One line per ply: its number, who moved (``p0``, ``p1``, or ``chance``), the move in the
game's notation, the number of legal moves in the position it leaves (``outcomes`` at a
chance node), and that position. The position is a compact line drawn from the game's
``view``: a grid row by row from the top, ``x`` for player 0, ``o`` for player 1, a digit for
a run of empty cells (as in chess FEN), rows split by ``/``; heaps as their sizes; 2048's
tiles row by row and the score; a view with a ``fen`` (chess) as that FEN; any other view
as its JSON. The game's own ``figures``
follow the result.

How moves are drawn, so that a recording depends on the rules and not on incidental order: a
player's move is ``rng.choice`` over the legal moves sorted by their text; a chance outcome is
``rng.choices`` over the outcomes sorted by their text, weighted by their probabilities; one
``random.Random(seed)`` draws both.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if __name__ == "__main__":  # run as a script: this tree's yipan, not one installed elsewhere
    sys.path.insert(0, str(HERE.parents[1] / "src"))

from yipan.core import (  # noqa: E402
    CHANCE,
    Game,
    YipanError,
    game_spec,
    get_game,
    list_games,
)

DEFAULT_SEEDS = (1, 2, 3)
EXAMPLE_SEED = 1
MAX_PLIES = 60
COMMAND = "python tests/playthroughs/record.py"


def recording_path(name: str) -> Path:
    return HERE / f"{name}.txt"


def option_sets(name: str) -> list[dict[str, Any]]:
    """The default options ({}) and each of the game's examples."""
    return [{}, *game_spec(name).examples]


def recording(name: str) -> str:
    """The whole text of ``<name>.txt``."""
    lines = [f"# Random games of {name}, recorded by: {COMMAND} {name}",
             "# (how to read them: the docstring of tests/playthroughs/record.py)"]
    for options in option_sets(name):
        seeds = DEFAULT_SEEDS if not options else (EXAMPLE_SEED,)
        for seed in seeds:
            lines.append("")
            lines.extend(playthrough(name, options, seed))
    return "\n".join(lines) + "\n"


def playthrough(name: str, options: dict[str, Any], seed: int) -> list[str]:
    """The lines of one seeded random game of ``name`` under ``options``."""
    game = get_game(name, **options)
    rng = random.Random(seed)
    state = game.initial_state()
    lines = [f"== {name} {json.dumps(options, sort_keys=True)} seed {seed}",
             ply_line(0, "", "start", position_line(game, state), choices(game, state))]
    for ply in range(1, MAX_PLIES + 1):
        if game.outcome(state) is not None:
            break
        mover = game.to_move(state)
        if mover == CHANCE:
            outcomes = sorted(game.chance_outcomes(state), key=lambda o: game.format_move(o[0]))
            move = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            move = rng.choice(sorted(game.legal_moves(state), key=game.format_move))
        state = game.play(state, move)
        who = "chance" if mover == CHANCE else f"p{mover}"
        lines.append(ply_line(ply, who, game.format_move(move), position_line(game, state),
                              choices(game, state)))
    lines.append(result_line(game, state))
    figures = game.figures(state)
    if figures:
        lines.append("figures: " + ", ".join(f"{key} {value}"
                                             for key, value in sorted(figures.items())))
    return lines


def ply_line(ply: int, who: str, move: str, position: str, count: str) -> str:
    return f"{ply:>3}  {who:<6} {move:<8} {count:<12} {position}"


def choices(game: Game, state: Any) -> str:
    """How many moves the position offers (``outcomes`` at a chance node)."""
    if game.outcome(state) is None and game.to_move(state) == CHANCE:
        return _plural(len(game.chance_outcomes(state)), "outcome")
    return _plural(len(game.legal_moves(state)), "move")


def _plural(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def result_line(game: Game, state: Any) -> str:
    outcome = game.outcome(state)
    if outcome is None:
        return f"result: unfinished after {MAX_PLIES} plies"
    return "result: no winner" if outcome.winner is None else f"result: winner p{outcome.winner}"


def position_line(game: Game, state: Any) -> str:
    """The position on one line, from the game's ``view`` (the module docstring)."""
    view = game.view(state)
    kind = view.get("kind")
    if kind == "grid":
        marks = {0: "x", 1: "o"}
        return "/".join(_runs(marks.get(cell, "?") if cell is not None else None
                              for cell in row) for row in view["cells"])
    if kind == "go":  # a grid of stones (and, at the end, the result)
        marks = {0: "x", 1: "o"}
        rows = "/".join(_runs(marks.get(cell) if cell is not None else None
                              for cell in row) for row in view["cells"])
        return rows + (f" {view['result']}" if view.get("result") else "")
    if kind == "heaps":
        return "heaps " + " ".join(map(str, view["heaps"]))
    if kind == "tiles":
        rows = "/".join(" ".join(str(value) if value else "." for value in row)
                        for row in view["cells"])
        return f"{rows} score {view['score']}"
    if kind == "text":
        return " | ".join(view["text"].splitlines())
    if "fen" in view:
        return view["fen"]
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def _runs(cells: Any) -> str:
    """A row of marks with each run of empty cells (None) written as its length."""
    out: list[str] = []
    empty = 0
    for mark in cells:
        if mark is None:
            empty += 1
            continue
        if empty:
            out.append(str(empty))
            empty = 0
        out.append(mark)
    if empty:
        out.append(str(empty))
    return "".join(out)


def main(argv: list[str]) -> int:
    try:
        names = [game_spec(name).name for name in argv] or list_games()
    except YipanError as error:
        print(f"record.py: {error}", file=sys.stderr)
        return 2
    for name in dict.fromkeys(names):
        path = recording_path(name)
        text = recording(name)
        before = path.read_text(encoding="utf-8") if path.exists() else None
        path.write_text(text, encoding="utf-8")
        state = "new" if before is None else ("unchanged" if before == text else "changed")
        print(f"{path.relative_to(HERE.parents[1])}: {text.count(chr(10))} lines, {state}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
