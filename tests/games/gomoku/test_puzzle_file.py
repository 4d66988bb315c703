"""The reader of the VCF puzzle file: the reference file read whole and consistent with the
rules, and a malformed file refused with its name and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from yipan.games.gomoku import Gomoku
from yipan.games.gomoku.puzzles import Puzzle, read_puzzles

# the file's comment lines and one well-formed puzzle (P027 of the reference data)
HEADER = "# puzzles\n# id | VCF | ...\n\n"
GOOD = ("P027 | VCF | rule=freestyle size=15 | to_move=white | len=3 attacker moves | "
        "moves=9,9 8,7 8,5 7,8 9,6 10,7 7,6 9,7 7,7 8,8 9,5 9,8 6,8 8,6 8,9 | "
        "answers=10,8 11,7 12,7 | line=10,8 11,8 7,5 6,4 11,9 | verified=python-VCF:five | "
        "rapfi=10,8 +M5 (in answers)")


@pytest.fixture(scope="module")
def puzzles(shared_data: Path) -> list[Puzzle]:
    return read_puzzles(shared_data / "gomoku" / "vcf_puzzles.txt")


def test_the_reference_file_is_read_whole(shared_data: Path, puzzles: list[Puzzle]) -> None:
    text = (shared_data / "gomoku" / "vcf_puzzles.txt").read_text()
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert len(puzzles) == len(lines) >= 20
    assert len({puzzle.id for puzzle in puzzles}) == len(puzzles)


def test_every_puzzle_is_a_legal_position_with_the_side_to_move_it_names(
        puzzles: list[Puzzle]) -> None:
    for puzzle in puzzles:
        assert len(set(puzzle.moves)) == len(puzzle.moves), puzzle.id  # distinct stones
        game = Gomoku(puzzle.size, puzzle.rule)
        state = game.initial_state()
        for x, y in puzzle.moves:
            state = game.play_checked(state, game.point(x, y))
        assert game.outcome(state) is None, puzzle.id
        assert puzzle.to_move == ("black", "white")[game.to_move(state)], puzzle.id
        assert puzzle.answers, puzzle.id
        assert all(game.is_legal(state, game.point(x, y)) for x, y in puzzle.answers), puzzle.id
        # the shortest line: attacker and defender alternate, starting with a listed answer
        assert len(puzzle.line) == 2 * puzzle.attacker_moves - 1, puzzle.id
        assert puzzle.line[0] in puzzle.answers, puzzle.id
        assert puzzle.points() == [game.point(x, y) for x, y in puzzle.moves]


def test_a_well_formed_line(tmp_path: Path) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_text(HEADER + GOOD + "\n")
    [puzzle] = read_puzzles(path)
    assert (puzzle.id, puzzle.rule, puzzle.size, puzzle.to_move) == \
        ("P027", "freestyle", 15, "white")
    assert puzzle.attacker_moves == 3
    assert len(puzzle.moves) == 15
    assert puzzle.moves[:2] == ((9, 9), (8, 7)) and puzzle.moves[-1] == (8, 9)
    assert puzzle.answers == {(10, 8), (11, 7), (12, 7)}
    assert puzzle.line == ((10, 8), (11, 8), (7, 5), (6, 4), (11, 9))
    assert puzzle.points()[:2] == [9 * 15 + 9, 7 * 15 + 8]


@pytest.mark.parametrize(("bad", "message"), [
    (GOOD.replace(" | ", " ; "), "fields separated by '|'"),
    (GOOD.replace("size=15", "size=fifteen"), "size 'fifteen' is not a whole number"),
    (GOOD.replace("rule=freestyle", "rule=pente"), "unknown rule 'pente'"),
    (GOOD.replace("to_move=white", "to_move=red"), "not 'to_move=black'"),
    (GOOD.replace("moves=9,9 8,7", "moves=9,9 8;7"), "moves: '8;7' is not an x,y pair"),
    (GOOD.replace("moves=9,9", "moves=9,15"), "moves: 9,15 is off the 15x15 board"),
    (GOOD.replace("answers=10,8 11,7 12,7", "answers="), "no answers"),
    (GOOD.replace("answers=", "replies="), "no answers= field"),
])
def test_a_malformed_line_is_refused_with_the_file_and_line(
        tmp_path: Path, bad: str, message: str) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_text(HEADER + GOOD + "\n" + bad + "\n")
    with pytest.raises(ValueError, match="line 5") as caught:
        read_puzzles(path)
    assert str(path) in str(caught.value)
    assert message in str(caught.value)


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such file"):
        read_puzzles(tmp_path / "absent.txt")
