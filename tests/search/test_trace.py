"""The printed trace: every score from MAX's side, bounds marked, PVS's two tries labelled."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import pytest

import yipan
from yipan.core import replay
from yipan.search import PLAIN, Options, TracePrinter, alphabeta, minimax
from yipan.search.trace import NULL_WINDOW, RE_SEARCH

TICTACTOE = yipan.get_game("tictactoe")

# "  MIN d1 [c1 a3] (null window)  proven bounds <= -999996": a node, with its value if a leaf
NODE = re.compile(r"^(?P<indent> *)(?P<side>MAX|MIN) d(?P<ply>\d+) \[(?P<path>[^\]]*)\]"
                  r"(?: \((?P<label>[^)]+)\))?(?:  (?P<note>.*?) (?P<relation>[<>]= )?"
                  r"(?P<score>[+-][\d.e+]+))?$")
# "  <= -999996 [c1] (null window)": the value of a node whose children were printed
CLOSE = re.compile(r"^(?P<indent> *)(?P<relation>=|<=|>=) (?P<score>[+-][\d.e+]+) "
                   r"\[(?P<path>[^\]]*)\](?: \((?P<label>[^)]+)\))?$")
# "    cut-off at [c1]: -999996 <= alpha +0, 4 move(s) pruned"
CUTOFF = re.compile(r"^ *cut-off at \[(?P<path>[^\]]*)\]: (?P<score>[+-][\d.e+]+) "
                    r"(?P<test><= alpha|>= beta) (?P<limit>[+-][\d.e+]+), \d+ move\(s\) pruned$")


@dataclass
class Line:
    """One printed line: a node entered, a node's value, or a cut-off."""

    kind: str  # "node", "close" or "cutoff"
    path: str
    label: str | None = None
    note: str | None = None
    relation: str = ""  # "", ">=" or "<="
    score: float | None = None  # from MAX's side
    side: str | None = None
    test: str | None = None


def parse(text: str) -> list[Line]:
    lines = []
    for raw in text.splitlines():
        if match := NODE.match(raw):
            score = match["score"]
            lines.append(Line("node", match["path"], match["label"], match["note"],
                              (match["relation"] or "").strip(),
                              float(score) if score else None, match["side"]))
        elif match := CLOSE.match(raw):
            relation = "" if match["relation"] == "=" else match["relation"]
            lines.append(Line("close", match["path"], match["label"], relation=relation,
                              score=float(match["score"])))
        elif match := CUTOFF.match(raw):
            lines.append(Line("cutoff", match["path"], score=float(match["score"]),
                              test=match["test"]))
        else:
            raise AssertionError(f"unexpected trace line: {raw!r}")
    return lines


def trace(moves: list[str], max_depth: int, search=alphabeta, **options) -> tuple[str, object]:
    state = replay(TICTACTOE, moves)[-1]
    out = io.StringIO()
    result = search(TICTACTOE, state, trace=TracePrinter(TICTACTOE, max_depth, out=out),
                    **options)
    return out.getvalue(), result


def valued(lines: list[Line]) -> list[Line]:
    """The lines that carry a node's value: leaves printed with it, and closing lines."""
    return [line for line in lines if line.score is not None and line.kind != "cutoff"]


@pytest.mark.parametrize("moves", [["c1", "c3"], ["c1", "c3", "b2"], ["a1", "b2", "c3"]])
@pytest.mark.parametrize("search", [alphabeta, minimax])
def test_each_root_move_prints_its_value_from_the_root_side(moves, search):
    """In analysis every root move's value is exact: the printed score of each MIN node one
    ply down is that move's value for MAX, losses negative, whoever is to move there."""
    options = {"analysis": True} if search is alphabeta else {}
    text, result = trace(moves, 1, search, **options)
    printed = {line.path: line.score for line in valued(parse(text)) if line.path.count(" ") == 0
               and line.path}
    expected = {TICTACTOE.format_move(m): v for m, v in result.move_values.items()}
    assert printed == expected
    assert text.splitlines()[-1] == f"= {result.value:+g} []"


def test_terminal_leaves_say_who_won_from_the_root_side():
    # X: a1 b1, O: a2 b2; X to move wins at once with c1 (the node below is MIN's, lost)
    text, result = trace(["a1", "a2", "b1", "b2"], 1, options=PLAIN)
    assert "  MIN d1 [c1]  terminal: win in 1 for MAX +999999" in text.splitlines()
    # O to move cannot stop both of X's threats: a leaf at MAX's node, lost for MAX
    text, _ = trace(["a1", "b1", "c1", "a2", "b2"], 2, options=PLAIN)
    assert "    MAX d2 [a3 c3]  terminal: loss in 2 for MAX -999998" in text.splitlines()
    for line in parse(text):
        if line.note and line.note.startswith("terminal"):
            assert ("win" in line.note) == (line.score > 0)


def test_a_re_searched_move_is_labelled_and_its_null_window_try_is_a_bound():
    text, _ = trace(["c1", "c3"], 2)
    lines = parse(text)
    re_searched = [i for i, line in enumerate(lines)
                   if line.kind == "node" and line.label == RE_SEARCH]
    assert re_searched, text
    for index in re_searched:
        node = lines[index]
        # the same move was tried before with a null window, and that try failed high for
        # the side choosing it: a bound, from MAX's side >= under MAX and <= under MIN
        first = [line for line in lines[:index] if line.path == node.path]
        assert first[0].kind == "node" and first[0].label == NULL_WINDOW
        tried = [line for line in first if line.score is not None and line.kind != "cutoff"]
        assert tried[-1].label == NULL_WINDOW
        assert tried[-1].relation == (">=" if node.side == "MIN" else "<=")
        # the re-search's own value carries its label too
        second = [line for line in lines[index:] if line.path == node.path
                  and line.score is not None and line.kind != "cutoff"]
        assert second[0].label == RE_SEARCH


def test_fail_soft_values_print_as_bounds_after_a_cut_off():
    text, _ = trace(["c1", "c3"], 2)
    lines = parse(text)
    cutoffs = [i for i, line in enumerate(lines) if line.kind == "cutoff"]
    assert {lines[i].test for i in cutoffs} == {"<= alpha", ">= beta"}, text
    for index in cutoffs:
        cut = lines[index]
        closing = next(line for line in lines[index:] if line.kind == "close"
                       and line.path == cut.path)
        # MAX cut off: it has at least this much; MIN cut off: MAX gets at most this much
        assert closing.relation == (">=" if cut.test == ">= beta" else "<=")
        assert closing.score == cut.score


def test_table_hits_proven_bounds_and_mate_distance_say_so():
    text, _ = trace(["a1", "b2", "c3"], 2)
    notes = {line.note for line in parse(text) if line.note}
    assert "from the table" in notes and "proven bounds" in notes
    text, _ = trace(["a1", "b1", "c1", "a2"], 2, options=Options(table=False, bounds=False))
    mate = [line for line in parse(text) if line.note == "mate distance"]
    assert mate and all(line.relation for line in mate)  # a cut-off is only ever a bound


def test_trace_events_carry_the_labels_and_bounds():
    state = replay(TICTACTOE, ["c1", "c3"])[-1]
    events = []
    alphabeta(TICTACTOE, state, trace=events.append)
    for index, event in enumerate(events):
        if event.kind == "node" and event.window == NULL_WINDOW:
            assert event.beta - event.alpha == 1
        if event.kind == "node" and event.window == RE_SEARCH:
            tried = [e for e in events[:index] if e.path == event.path and e.kind == "value"]
            # the child failed low for itself: its parent's move was better than alpha
            assert tried[-1].window == NULL_WINDOW and tried[-1].upper
        assert not (event.lower and event.upper)
