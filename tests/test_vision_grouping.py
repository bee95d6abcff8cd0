"""The vectorised pieces of board location: a unit's whole-cell counts of light spans, and the
grouping of blobs into grids (connected components of side-by-side blobs of about one size)."""

from __future__ import annotations

import numpy as np

from queens_autosolve.vision.lattice import Blobs
from queens_autosolve.vision.locate import _components, group_boards
from queens_autosolve.vision.merged import Unit


def test_cells_across_counts_whole_cells_only():
    unit = Unit(size=40.0, pitch=44.0)  # a 4 px line between cells
    lengths = np.array([40, 84, 128, 60, 0, 3, 86, 83, 30 * 44 - 4, 31 * 44 - 4])
    assert unit.cells_across(lengths).tolist() == [1, 2, 3, 0, 0, 0, 2, 2, 30, 0]  # MAX_N = 30


def test_components_label_each_node_with_the_smallest_of_its_component():
    edges = [(0, 3), (3, 5), (1, 2), (6, 4)]
    a = np.array([i for i, j in edges] + [j for i, j in edges])
    b = np.array([j for i, j in edges] + [i for i, j in edges])
    assert _components(8, a, b).tolist() == [0, 1, 1, 0, 4, 0, 4, 7]


def test_group_boards_finds_two_grids_and_leaves_a_stray_blob_out():
    def grid(x0: int, y0: int, n: int, cell: int, pitch: int) -> list[tuple[int, int, int, int]]:
        return [(x0 + c * pitch, y0 + r * pitch, x0 + c * pitch + cell, y0 + r * pitch + cell)
                for r in range(n) for c in range(n)]

    boxes = np.array([*grid(0, 0, 4, 20, 22), (500, 500, 520, 520), *grid(300, 0, 3, 30, 33)], np.int64)
    groups = group_boards(Blobs(boxes, (boxes[:, :2] + boxes[:, 2:]) / 2.0))
    assert [g.tolist() for g in groups] == [list(range(16)), list(range(17, 26))]
