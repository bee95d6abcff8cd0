"""Region shape statistics (solver/shapes.py)."""

from __future__ import annotations

import pytest

from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.shapes import compactness, region_shapes, shapes_of_grid, summarise


def test_compactness_is_one_for_squares_and_less_for_bars_and_ells():
    assert compactness({(0, 0)}) == 1
    assert compactness({(0, 0), (0, 1), (1, 0), (1, 1)}) == 1
    assert compactness({(0, 0), (0, 1), (0, 2)}) == pytest.approx(0.75)
    assert compactness({(0, 0), (0, 1), (1, 0)}) == pytest.approx(0.75)
    assert compactness({(0, c) for c in range(9)}) == pytest.approx(0.36)


def test_region_shapes_lists_sizes_smallest_first():
    puzzle = Puzzle.from_rows(["AABB", "ACBB", "ACCD", "CCDD"])
    shapes = region_shapes(puzzle)
    assert shapes.sizes == (3, 4, 4, 5)
    assert shapes.smallest == 3
    assert shapes.largest_per_n == pytest.approx(5 / 4)


def test_summary_counts_puzzles_with_a_one_cell_region():
    one = shapes_of_grid([[0, 1], [1, 1]])  # not a puzzle, just regions: sizes 1 and 3
    none = shapes_of_grid([[0, 0], [1, 1]])
    summary = summarise([one, none, none, none])
    assert summary.puzzles == 4
    assert summary.single_share == pytest.approx(0.25)
    assert summary.smallest_median == 2
    with pytest.raises(ValueError, match="no puzzles"):
        summarise([])
