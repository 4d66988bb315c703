"""The shared grid: bit layout, runs and lines, ``a1`` coordinates, the text board, the view."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yipan.core import InvalidMoveError
from yipan.games.grid import (
    Grid,
    byte_tables,
    grid_view,
    permute,
    render_board,
    set_bits,
)


def stones(grid: Grid, *cells: str) -> int:
    """A bitboard of the cells written ``a1``."""
    return sum(1 << grid.bit(*grid.parse(cell)) for cell in cells)


def test_the_layout_drawn_in_the_docstring():
    grid = Grid.of(3, 4)
    assert grid.stride == 5
    assert grid.cells == (0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13)
    assert grid.full == sum(1 << bit for bit in grid.cells)
    assert grid.directions == (1, 5, 6, 4)
    assert grid.bit(2, 1) == 11 and grid.coordinates(11) == (2, 1)
    assert grid.letters == "abcd"


@pytest.mark.parametrize(("cells", "length", "found"), [
    (("a1", "b1", "c1"), 3, True),  # across
    (("b1", "b2", "b3"), 3, True),  # down
    (("a1", "b2", "c3"), 3, True),  # down-right
    (("d1", "c2", "b3"), 3, True),  # down-left
    (("c1", "d1", "a2"), 3, False),  # consecutive bits, but across the right edge
    (("d1", "a2"), 2, False),  # the sentinel between the rows
    (("a1", "d2"), 2, False),  # down-left from the left edge lands on a sentinel
    (("d1", "a3"), 2, False),  # down-right from the right edge lands on a sentinel
    (("a1", "b1", "d1"), 3, False),  # a gap
])
def test_runs_never_cross_an_edge(cells, length, found):
    grid = Grid.of(3, 4)
    assert grid.has_run(stones(grid, *cells), length) is found
    assert grid.run_cells(stones(grid, *cells), length) == (stones(grid, *cells) if found else 0)


def test_runs_start_where_the_run_begins_and_spread_back_over_it():
    grid = Grid.of(5, 5)
    row = stones(grid, "a3", "b3", "c3", "d3", "e3")
    assert set_bits(grid.runs(row, 5, 1)) == [grid.bit(2, 0)]
    assert set_bits(grid.runs(row, 4, 1)) == [grid.bit(2, 0), grid.bit(2, 1)]
    assert grid.spread(grid.runs(row, 4, 1), 4, 1) == row
    assert grid.runs(row, 6, 1) == 0 and not grid.has_run(row, 6)
    # a longer run holds every shorter one: its cells are all of the run
    assert grid.run_cells(row | stones(grid, "a1"), 3) == row


def lines_by_formula(rows: int, cols: int, k: int) -> int:
    if k == 1:
        return rows * cols
    across = rows * max(0, cols - k + 1)
    down = cols * max(0, rows - k + 1)
    return across + down + 2 * max(0, rows - k + 1) * max(0, cols - k + 1)


@given(st.integers(1, 9), st.integers(1, 9), st.data())
def test_lines_are_every_set_of_k_cells_in_a_row_once(rows, cols, data):
    k = data.draw(st.integers(1, max(rows, cols)))
    grid = Grid.of(rows, cols)
    lines = grid.lines(k)
    assert len(lines) == len(set(lines)) == lines_by_formula(rows, cols, k)
    for line in lines:
        assert line.bit_count() == k and line & ~grid.full == 0
        assert grid.has_run(line, k)


@pytest.mark.parametrize(("rows", "cols", "count"), [(3, 3, 8), (3, 5, 4), (4, 4, 8), (1, 1, 8)])
def test_symmetries_permute_the_cells_and_keep_lines(rows, cols, count):
    grid = Grid.of(rows, cols)
    images = grid.symmetries()
    assert len(images) == count
    assert images[0] == {bit: bit for bit in grid.cells}
    lines = set(grid.lines(min(rows, cols)))
    for image in images:
        assert sorted(image.values()) == sorted(grid.cells)
        tables = byte_tables(image)
        assert {permute(tables, line) for line in lines} == lines


@given(st.sets(st.integers(0, 60)), st.integers(0, 1 << 61))
def test_byte_tables_move_each_bit_as_the_image_says(sources, mask):
    image = {bit: (bit * 7 + 3) % 64 for bit in sources}
    expected = sum(1 << image[bit] for bit in set_bits(mask) if bit in image)
    assert permute(byte_tables(image), mask) == expected


def test_coordinates_count_rows_from_the_top_by_default():
    grid = Grid.of(15, 15)
    assert grid.format(0, 0) == "a1" and grid.format(7, 7) == "h8"
    assert grid.format(14, 14) == "o15"
    assert grid.parse("h8") == (7, 7) and grid.parse(" H8 ") == (7, 7)


def test_go_coordinates_skip_i_and_count_rows_from_the_bottom():
    grid = Grid.of(19, 19, skip_i=True, rows_from_top=False)
    assert grid.format(18, 0) == "a1"  # the bottom-left point
    assert grid.format(0, 18) == "t19"
    assert grid.format(15, 8) == "j4"  # the ninth column is j
    assert grid.parse("D4") == (15, 3)
    with pytest.raises(InvalidMoveError, match="no column i"):
        grid.parse("i4")


@given(st.integers(1, 25), st.integers(1, 25), st.booleans(), st.booleans(), st.data())
def test_format_and_parse_round_trip(rows, cols, skip_i, from_top, data):
    grid = Grid.of(rows, cols, skip_i=skip_i, rows_from_top=from_top)
    row, col = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1))
    assert grid.parse(grid.format(row, col)) == (row, col)


@pytest.mark.parametrize("text", [
    "", "a", "1", "1a", "a-1", "a+1", "a 1", "a1.", "a0", "d1", "a4", "aa1",
    "a²",  # "²".isdigit() is True
    "a١",  # an Arabic-Indic one
    "\u212a1",  # the Kelvin sign, whose lower case is k
    "ａ1",  # a full-width a
    "a" + "1" * 5000,  # int() of it would raise
])
def test_parsing_is_strict(text):
    with pytest.raises(InvalidMoveError) as error:
        Grid.of(3, 3).parse(text)
    assert len(str(error.value)) < 100  # a long text is quoted cut short


def test_parse_errors_say_how_to_write_a_cell():
    grid = Grid.of(3, 3)
    with pytest.raises(InvalidMoveError, match=r"write a square as a1\.\.c3 or 1\.\.9"):
        grid.parse("xyz", noun="square", also=" or 1..9")
    with pytest.raises(InvalidMoveError, match=r"c4 is off the board \(a1\.\.c3\)"):
        grid.parse("c4")


def test_a_grid_needs_letters_for_its_columns():
    assert Grid.of(1, 26).letters[-1] == "z"
    for rows, cols, skip_i in ((0, 3, False), (3, 0, False), (3, 27, False), (3, 26, True)):
        with pytest.raises(ValueError):
            Grid.of(rows, cols, skip_i=skip_i)


def test_the_text_board():
    grid = Grid.of(2, 3)
    owners = grid.owners(stones(grid, "a1", "c2"), stones(grid, "b1"))
    assert owners == [[0, 1, None], [None, None, 0]]
    assert render_board(grid, owners) == "    a b c\n  1 X O .\n  2 . . X"
    go = Grid.of(2, 2, skip_i=True, rows_from_top=False)
    assert render_board(go, [[0, None], [None, 1]], "BW") == "    a b\n  2 B .\n  1 . W"


def test_the_web_view():
    grid = Grid.of(2, 3)
    owners = grid.owners(stones(grid, "a1"), stones(grid, "b2"))
    view = grid_view(grid, owners, playable=stones(grid, "b1", "c2"), pieces="stones",
                     highlight=stones(grid, "c2", "a1"))
    assert view == {
        "kind": "grid", "rows": 2, "cols": 3, "pieces": "stones",
        "cells": [[0, None, None], [None, 1, None]],
        "move_at": [[None, "b1", None], [None, None, "c2"]],
        "highlight": [[0, 0], [1, 2]],  # in reading order
        "col_labels": ["a", "b", "c"], "row_labels": ["1", "2"],
    }
    json.dumps(view)
    with pytest.raises(ValueError, match="pieces"):
        grid_view(grid, owners, playable=0, pieces="beads")
