"""The Puzzle model: construction, validation, geometry masks and rule checking."""

from __future__ import annotations

import random

import pytest

from queens_autosolve.solver.errors import PuzzleFormatError
from queens_autosolve.solver.puzzle import (
    Puzzle,
    Solution,
    cell_name,
    cells_of,
    geometry,
    is_solution,
    mask_of,
    violations,
)
from queens_autosolve.solver.regions import grow_regions, random_regions

# A 5x5 board and one of its answers (found by benchmarks/baseline.py).
BOARD_5 = ["AABBB", "AACCB", "DDCCE", "DDDEE", "DDDEE"]
ANSWER_5 = [(0, 1), (1, 4), (2, 2), (3, 0), (4, 3)]


def test_regions_are_numbered_in_reading_order_and_keep_their_labels():
    puzzle = Puzzle.from_rows(["xyy", "xzy", "zzy"])
    assert puzzle.regions == ((0, 1, 1), (0, 2, 1), (2, 2, 1))
    assert puzzle.labels == ("x", "y", "z")
    assert puzzle.label_rows() == [["x", "y", "y"], ["x", "z", "y"], ["z", "z", "y"]]


def test_touch_geometry_marks_the_eight_neighbours_only():
    g = geometry(4, "touch")
    assert sorted(cells_of(g.neighbours[5], 4)) == [
        (0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)
    ]
    assert sorted(cells_of(g.neighbours[0], 4)) == [(0, 1), (1, 0), (1, 1)]


def test_diagonal_geometry_adds_whole_diagonals():
    g = geometry(4, "diagonal")
    assert (3, 3) in cells_of(g.neighbours[0], 4)
    assert (2, 0) not in cells_of(g.neighbours[0], 4)  # same column: a unit's job, not a neighbour


def test_units_are_rows_then_columns_then_regions():
    puzzle = Puzzle.from_rows(BOARD_5)
    assert len(puzzle.units) == 15
    assert puzzle.unit_name(0) == "row 1"
    assert puzzle.unit_name(6) == "column 2"
    assert puzzle.unit_name(12) == "region C"
    assert mask_of(cells_of(puzzle.units[12], 5), 5) == puzzle.region_masks[2]


def test_a_valid_answer_has_no_violations():
    puzzle = Puzzle.from_rows(BOARD_5)
    assert violations(puzzle, ANSWER_5) == []
    assert is_solution(puzzle, ANSWER_5)


def test_an_answer_that_misses_a_region_is_named():
    puzzle = Puzzle.from_rows(BOARD_5)
    queens = [(0, 0), (1, 2), (2, 4), (3, 1), (4, 3)]
    assert violations(puzzle, queens) == [
        "region B has 0 queen(s), needs 1",
        "region E has 2 queen(s), needs 1",
    ]
    assert not is_solution(puzzle, queens)


def test_violations_name_touching_queens_and_full_units():
    puzzle = Puzzle.from_rows(BOARD_5)
    problems = violations(puzzle, [(0, 0), (1, 1)], complete=False)
    assert "queens r1c1 and r2c2 touch" in problems
    assert "region A has 2 queen(s), needs 1" in problems
    assert violations(puzzle, [(0, 0)], complete=False) == []


def test_diagonal_rule_forbids_distant_diagonals():
    puzzle = Puzzle.from_rows(["AAAA", "BBBB", "CCCC", "DDDD"], rule="diagonal")
    problems = violations(puzzle, [(0, 0), (2, 2)], complete=False)
    assert problems == ["queens r1c1 and r3c3 share a diagonal"]


def test_is_solution_requires_the_given_queens():
    assert is_solution(Puzzle.from_rows(BOARD_5, given=[(0, 1)]), ANSWER_5)
    assert not is_solution(Puzzle.from_rows(BOARD_5, given=[(0, 0)]), ANSWER_5)


@pytest.mark.parametrize(
    ("rows", "kwargs", "message"),
    [
        (["AB", "BA", "AB"], {}, "must be square"),
        (["AAB", "AAB", "AAB"], {}, "has 2 regions; it needs exactly 3"),
        (["ABCD", "ABCD", "ABCD", "ABCD"], {"k": 5}, "impossible"),
        (["AAAB", "AAAB", "CCCC", "CCCC"], {}, "has 3 regions; it needs exactly 4"),
        ([], {}, "empty"),
        (["ABCD", "ABCD", "ABCD", "ABCD"], {"given": [(0, 0), (1, 1)]}, "touch"),
        (["ABCD", "ABCD", "ABCD", "ABCD"], {"given": [(4, 0)]}, "outside"),
    ],
)
def test_validate_names_the_problem(rows, kwargs, message):
    with pytest.raises(PuzzleFormatError, match=message):
        Puzzle.from_rows(rows, **kwargs).validate()


def test_region_too_small_for_k_is_refused():
    rows = ["ABBBBB", "CCCCCC", "DDDDDD", "EEEEEE", "FFFFFF", "FFFFFF"]
    with pytest.raises(PuzzleFormatError, match="region A has 1 cell"):
        Puzzle.from_rows(rows, k=2).validate()


def test_solution_grid_and_order():
    solution = Solution.of([(1, 0), (0, 1)])
    assert solution.queens == ((0, 1), (1, 0))
    assert solution.grid(2) == [".Q", "Q."]
    assert cell_name((0, 0)) == "r1c1"


@pytest.mark.parametrize("n", [4, 5, 8, 13, 30])
def test_random_regions_are_n_connected_regions(n):
    grid = random_regions(n, random.Random(n))
    puzzle = Puzzle.from_region_grid(grid)
    puzzle.validate()
    for region in range(n):
        cells = {(r, c) for r in range(n) for c in range(n) if grid[r][c] == region}
        start = next(iter(cells))
        seen, stack = {start}, [start]
        while stack:
            r, c = stack.pop()
            for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if step in cells and step not in seen:
                    seen.add(step)
                    stack.append(step)
        assert seen == cells


def test_grow_regions_is_deterministic_for_a_seed():
    seeds = [(0, 0), (2, 3), (4, 1), (1, 4), (3, 0)]
    assert grow_regions(5, seeds, random.Random(7)) == grow_regions(5, seeds, random.Random(7))
    with pytest.raises(ValueError, match="two seeds on cell"):
        grow_regions(5, [(0, 0), (0, 0)], random.Random(1))
