"""Boards whose thin lines the browser dropped: light areas spanning whole cells (merged cells)
split back into cells by a likely cell size (`Unit`), found from grids of clean cells or from
strips one cell across. `vision.locate.fit_board` tries this when the clean cells alone do not
make one whole board."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from queens_autosolve.vision.lattice import Blobs, Lattice
from queens_autosolve.vision.outlines import Outlines
from queens_autosolve.vision.sizes import MAX_N
from queens_autosolve.vision.stats import list_median
from queens_autosolve.vision.stats import median as array_median

MERGE_TOLERANCE = 0.12  # of the pitch: a merged area's sides lie this close to whole cells
FILLED = 0.9  # of its box: a merged area's outline (marks' holes aside) fills it, as a rectangle
MIN_STRIPS = 4  # light areas one cell across that agree on the cell size before it is believed
MAX_STRIP_UNITS = 3  # cell sizes tried from the most common short sides of rectangles


@dataclass(frozen=True)
class Unit:
    """One cell's light size and the pitch."""

    size: float
    pitch: float

    @property
    def gap(self) -> float:
        return self.pitch - self.size

    def cells_across(self, lengths: np.ndarray) -> np.ndarray:
        """Per light span length (px, int array), how many cells side by side it is (0: not a
        whole number). All lengths at once: a fit tries every light area with every likely unit,
        and a call per area cost 5-7% of a board search (profiled on the test images)."""
        count = np.rint((lengths + self.gap) / self.pitch)
        off = np.abs(lengths - (count * self.pitch - self.gap))
        whole = (count >= 1) & (count <= MAX_N) & (off <= max(2.0, MERGE_TOLERANCE * self.pitch))
        return np.where(whole, count, 0).astype(np.int64)


@dataclass(frozen=True)
class Areas:
    """Light areas: per area its outline, its bounding box (x, y, w, h), the smaller side of its
    largest hole (0 for none: a mark makes a small hole, a board inside a card a large one, and
    `split_merged` leaves areas with large holes whole) and whether it is a filled rectangle
    (where `units_of_strips` looks for strips)."""

    outlines: list[np.ndarray]
    boxes: np.ndarray  # int (K, 4)
    holes: np.ndarray  # int (K,)
    filled: np.ndarray  # bool (K,): the outline fills its box as a rectangle does


def areas_among(outlines: Outlines, min_cell: int) -> Areas:
    """The light areas at least `min_cell` across among a mask's outlines (`outlines_of`)."""
    sides = outlines.boxes[:, 2:].min(axis=1)
    inner = outlines.parents >= 0
    holes = np.zeros(len(sides), np.int64)
    np.maximum.at(holes, outlines.parents[inner], sides[inner])
    kept = np.flatnonzero(~inner & (sides >= min_cell))
    outlines_kept = [outlines.contours[i] for i in kept.tolist()]
    boxes = outlines.boxes[kept].reshape(-1, 4)
    filled = [
        cv2.contourArea(contour) >= FILLED * w * h
        for contour, (_, _, w, h) in zip(outlines_kept, boxes.tolist())
    ]
    return Areas(outlines_kept, boxes, holes[kept], np.array(filled, bool))


def units_of_strips(areas: Areas) -> list[Unit]:
    """Cell sizes and pitches from strips: where a browser dropped every line one way (Firefox
    at 50% zoom draws no vertical cell line at all), the cells of a row merge into strips one
    cell high. A short side that many rectangles share is a cell (the most common few are
    tried: a page's example boards share theirs too); rectangles one above the other (or side
    by side) a cell apart start a pitch apart."""
    rectangles = areas.boxes[areas.filled]
    short = np.minimum(rectangles[:, 2], rectangles[:, 3])
    values = sorted(set(short.tolist()))  # (np.unique imports numpy.ma: 25-40 ms at start-up)
    near = [np.count_nonzero(np.abs(short - v) <= 1) for v in values]
    units: list[Unit] = []
    for count, value in sorted(zip(near, values), reverse=True):
        if count < MIN_STRIPS or len(units) == MAX_STRIP_UNITS:
            break
        if any(abs(unit.size - value) <= 2 for unit in units):
            continue
        strips = rectangles[np.abs(short - value) <= 1]
        size = float(array_median(np.minimum(strips[:, 2], strips[:, 3]).astype(float)))
        steps = _steps_between(strips, size)
        if steps:
            units.append(Unit(size, float(list_median(steps))))
    return units


def _steps_between(boxes: np.ndarray, size: float) -> list[float]:
    """How far apart strips start that lie one above the other (or side by side) a cell apart."""
    steps = []
    for start, lo, length in ((1, 0, 2), (0, 1, 3)):
        a = boxes[:, start].astype(float)
        step = a[None, :] - a[:, None]
        x_lo, x_hi = boxes[:, lo], boxes[:, lo] + boxes[:, length]
        overlap = np.minimum(x_hi[:, None], x_hi[None, :]) - np.maximum(x_lo[:, None], x_lo[None, :])
        steps.extend(step[(step > 0.5 * size) & (step < 1.5 * size) & (overlap > 0.5 * size)].tolist())
    return steps


def split_merged(areas: Areas, blobs: Blobs, unit: Unit) -> Blobs:
    """The blobs, with light areas whose box spans whole
    cells (2x1, 3x1, 2x2, an L of three, ... at the pitch) split into those cells: cells whose
    thin lines the browser did not draw.

    Firefox at 67% or 80% zoom draws a 1 px line 0.67 or 0.8 px wide and, by where it falls on
    the pixel grid, shows it or drops it (at 50% it drops every line one way): lines inside a
    region vanish, which merges its cells into one area and cuts the board into pieces that do
    not look like one board. An area splits only when both sides of its box are whole cells
    within a tolerance and it holds no hole a whole cell wide (a card or dialog around the board
    does: the board is its hole); a cell of it is one whose middle lies inside the area's
    outline. A smaller hole is a mark: a crown is 55-60% of a cell across (half a cell, the
    former limit, kept every area holding a crown whole, so Firefox at 50% could not read a board
    once queens were on it)."""
    split: set[tuple[int, int, int, int]] = set()
    boxes: list[tuple[int, int, int, int]] = []
    half = unit.size / 2
    across, down = unit.cells_across(areas.boxes[:, 2]), unit.cells_across(areas.boxes[:, 3])
    for i in np.flatnonzero((across * down >= 2) & (areas.holes < unit.size)).tolist():
        outline, (x, y, w, h) = areas.outlines[i], areas.boxes[i].tolist()
        split.add((x, y, x + w, y + h))
        for row in range(int(down[i])):
            for col in range(int(across[i])):
                x0, y0 = x + col * unit.pitch, y + row * unit.pitch
                if cv2.pointPolygonTest(outline, (x0 + half, y0 + half), False) > 0:
                    boxes.append((int(round(x0)), int(round(y0)),
                                  int(round(x0 + unit.size)), int(round(y0 + unit.size))))
    # every other blob stays: a second board beside this one is still seen (and refused)
    boxes += [box for box in map(tuple, blobs.boxes.tolist()) if box not in split]
    box_array = np.array(boxes, dtype=np.int64).reshape(-1, 4)
    return Blobs(box_array, (box_array[:, :2] + box_array[:, 2:]) / 2.0)


MIN_UNIT_SHARE = 0.25  # of a mended board's cells: clean cells or strips of the unit's size


def unit_share(blobs: Blobs, areas: Areas, unit: Unit, lattice: Lattice) -> float:
    """The share of the lattice's cells that show `unit`'s size themselves: a clean cell of that
    size, or a strip one such cell across (whose other side is whole cells) lies on them."""
    tolerance = max(2.0, MERGE_TOLERANCE * unit.pitch)
    centres = blobs.centres[np.abs(blobs.sizes - unit.size) < 0.25 * unit.size].tolist()
    rectangles = areas.boxes[areas.filled]
    across, down = unit.cells_across(rectangles[:, 2]), unit.cells_across(rectangles[:, 3])
    strips = (np.abs(rectangles[:, 2:].min(axis=1) - unit.size) <= tolerance) & (across > 0) & (down > 0)
    for (x, y, _, _), cols, rows in zip(*(a[strips].tolist() for a in (rectangles, across, down))):
        for row in range(rows):
            for col in range(cols):
                centres.append([x + col * unit.pitch + unit.size / 2, y + row * unit.pitch + unit.size / 2])
    cells = _lattice_cells_at(lattice, np.array(centres, np.float64).reshape(-1, 2))
    return len(cells) / (lattice.n * lattice.n)


def _lattice_cells_at(lattice: Lattice, points: np.ndarray) -> set[tuple[int, int]]:
    """The cells (row, col) of the lattice with one of the points (x, y) near their centre (within
    a quarter pitch both ways). All points at once: a loop over them was most of
    `_unit_share`'s cost (3% of a board search, profiled on the test images)."""
    xs, ys, near = lattice.xs, lattice.ys, 0.25 * lattice.pitch
    dx, dy = np.abs(xs[None, :] - points[:, :1]), np.abs(ys[None, :] - points[:, 1:])
    cols, rows = dx.argmin(axis=1), dy.argmin(axis=1)
    at = np.arange(len(points))
    seen = (dx[at, cols] < near) & (dy[at, rows] < near)
    return set(zip(rows[seen].tolist(), cols[seen].tolist()))
