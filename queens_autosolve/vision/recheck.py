"""Reading a known board again, cell by cell, where it was: which cells still show, and what.

After clicking, the page may cover the board (a win dialog, a tooltip) or replace it (a results
card). A full reading then finds no board, or an uncertain one, and cannot say whether the cells
it can still see are right. Here the board's geometry and region colours come from the reading
made before the clicks (the window has not moved: the pipeline checks it), so each cell is
judged on its own: it is *visible* when its background still has its region's colour all round
its rim, where no mark reaches, and then its mark is read; otherwise it is *covered*.

The rim, not the colour sample points: those lie on the diagonals, where an X mark's strokes run,
and at 50% zoom Firefox draws an X (and a crown) large enough to reach them. Judged there, the X
marks that dropped clicks leave on solution cells read as covered cells, were skipped as unseen,
and the board passed for a win screen (found live: "solved (the page shows its win screen)" on
a page showing no win screen and X marks where queens belonged).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from queens_autosolve.solver.position import CellState, Position
from queens_autosolve.solver.puzzle import Cell
from queens_autosolve.vision.lattice import Lattice
from queens_autosolve.vision.reading import BoardReading
from queens_autosolve.vision.sample import cell_points, points_at, to_lab
from queens_autosolve.vision.states import RIM_POINTS, sides_within_region, states_only
from queens_autosolve.vision.stats import median

# A cell whose background is farther than this (CIE delta E 1976) from its region's colour at any
# sample point does not show its region: something covers it. Tight, because a screen grab is
# exact (no JPEG) and the pointer is moved off the board before reading: a white dialog over
# LinkedIn's light grey region is only 11 away. (Hover would darken a cell by 5-8.)
COVERED_DELTA_E = 7.0
# On the sides of a cell that face another region, the region border (black, on LinkedIn and the
# practice page) reaches into the rim, blended with the cell's colour: there a point is covered
# when it is farther than this (RGB) from every blend of black and the region's colour. Without
# it, the edge of LinkedIn's win dialog through a row of a big board left cells whose only side
# facing their own region showed, and the dialog's edge in them read as queens.
COVER_OFF_BLEND = 40.0
COVER_POINTS = 2  # points that far: a cover's edge runs along a side; a big crown's tip reaches one
LIGHT_SPAN = 0.85  # the light part of a cell, as a share of the pitch (lines take the rest)


@dataclass(frozen=True)
class Recheck:
    """Each cell's state where it shows, None where something covers it; `hidden` marks the
    cells covered at every sample point (the others are partly covered)."""

    states: tuple[tuple[CellState | None, ...], ...]
    hidden: frozenset[Cell] = frozenset()

    @property
    def covered(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r, row in enumerate(self.states) for c, s in enumerate(row) if s is None)

    def looks_overlaid(self) -> bool:
        """Whether what covers the board looks like something laid over it (a dialog, a card):
        two neighbouring cells wholly hidden at least, and every partly covered cell next to a
        hidden one (the cover's edge).
        Red conflict stripes, which a wrong queen brings, cover cells only in part."""
        if not any((r + 1, c) in self.hidden or (r, c + 1) in self.hidden for r, c in self.hidden):
            return False  # a cover is larger than one cell: lone hidden cells are something else
        return all(
            any((r + dr, c + dc) in self.hidden for dr in (-1, 0, 1) for dc in (-1, 0, 1))
            for r, c in self.covered
        )

    @property
    def position(self) -> Position:
        return Position(self.states)

    @property
    def visible(self) -> int:
        return sum(s is not None for row in self.states for s in row)

    def queens(self) -> set[Cell]:
        """Visible cells holding a queen (player's, gold or locked)."""
        return {
            (r, c) for r, row in enumerate(self.states) for c, s in enumerate(row)
            if s is not None and s.is_queen
        }


def lattice_at(reading: BoardReading, dx: float = 0.0, dy: float = 0.0, scale: float = 1.0) -> Lattice:
    """The reading's cell grid in another image: pixel p there is (p_old + (dx, dy)) * scale."""
    xs = (np.array([x for x, _ in reading.centres[0]]) + dx) * scale
    ys = (np.array([row[0][1] for row in reading.centres]) + dy) * scale
    # (vision.stats: numpy's own median imports numpy.ma, 25-40 ms of the verify stage)
    pitch = float(median(np.diff(xs))) if len(xs) > 1 else float(reading.box.width * scale)
    half = LIGHT_SPAN * pitch / 2
    return Lattice(reading.n, xs - half, xs + half, ys - half, ys + half, 1.0)


def recheck_board(rgb: np.ndarray, reading: BoardReading, lattice: Lattice) -> Recheck:
    """Judge every cell of `reading`'s board in image `rgb`, where `lattice` puts its cells."""
    n = reading.n
    h, w = rgb.shape[:2]
    columns_in = (lattice.left >= 0) & (lattice.right <= w)
    rows_in = (lattice.top >= 0) & (lattice.bottom <= h)
    inside = rows_in[:, None] & columns_in[None, :]
    expected = np.array([[reading.region_colours[reading.regions[r][c]] for c in range(n)] for r in range(n)])
    off_somewhere, off_everywhere = _off_colour(rgb, lattice, reading.regions, expected)
    shows = inside & ~off_somewhere
    hidden = ~inside | off_everywhere
    states = states_only(np.ascontiguousarray(rgb), lattice, expected.astype(np.float64))
    return Recheck(
        tuple(tuple(states[r][c] if shows[r, c] else None for c in range(n)) for r in range(n)),
        frozenset((int(r), int(c)) for r, c in np.argwhere(hidden)),
    )


def _off_colour(
    rgb: np.ndarray, lattice: Lattice, regions: tuple[tuple[int, ...], ...], expected: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, whether its background differs from its region's colour at some and at every
    point looked at: its rim on the sides facing its own region (a region border may reach into
    a cell from the other sides), or, for a cell whose every side faces another region, the
    colour sample points (a one-cell region: its mark may reach those)."""
    rim, rim_inside = points_at(rgb, lattice, RIM_POINTS)
    counted = rim_inside & sides_within_region(regions, lattice.n)
    rim_off = _far(rim, expected)
    colour_off = _far(cell_points(rgb, lattice), expected)
    has_rim = counted.any(axis=2)
    somewhere = np.where(has_rim, (rim_off & counted).any(axis=2), colour_off.any(axis=2))
    somewhere |= (_off_border_blend(rim, expected) & rim_inside & ~counted).sum(axis=2) >= COVER_POINTS
    everywhere = np.where(has_rim, (rim_off | ~counted).all(axis=2), colour_off.all(axis=2))
    return somewhere, everywhere


def _off_border_blend(colours: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """(n, n, points) bool: farther than COVER_OFF_BLEND from every blend k * colour (k in 0..1)
    of black (a region border) and the cell's expected colour."""
    colour = expected.astype(np.float64)[:, :, None, :]
    k = (colours * colour).sum(axis=3) / np.maximum((colour * colour).sum(axis=3), 1.0)
    blend = np.clip(k, 0.0, 1.0)[..., None] * colour
    return np.asarray(np.linalg.norm(colours - blend, axis=3) > COVER_OFF_BLEND)


def _far(colours: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """(n, n, points) bool: farther than COVERED_DELTA_E from the cell's expected colour."""
    distance = np.linalg.norm(to_lab(colours) - to_lab(expected)[:, :, None, :], axis=3)
    return np.asarray(distance > COVERED_DELTA_E)
