"""A still cropped tightly to its board: the user's crop box took the outer frame away and a sliver
of the outer cells on every side. It is the most common way a board is kept and shared, and has
a signature a board clipped by a window or screen edge lacks:

- all four sides end at the image edge, each cutting at most TIGHT_CUT of the outer cells (or
  leaving a sliver of the frame), so the outer cells show at nearly the full pitch and the lattice
  is whole; a window or screen edge clips one, two or three sides, or by a larger part of a cell;
- the puzzle is a whole level's: at least TIGHT_MIN_N cells a side, exactly N regions on the
  N x N cells (vision/region_reading.py refuses any other count) and exactly one solution
  (`unique_or_refused`).

That is not proof: a board clipped on two sides, or all round a whole cell and a sliver deep,
shows the same pixels as a tight crop of a smaller board, and its piece can pass the puzzle test
too. So the reading says it is a tight crop and stays below the click threshold (TIGHT_SCORE).

Only stills (image files) are read so; a live window or screen never is (`read_board(still=)`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import count_solutions
from queens_autosolve.vision.frame import MIN_FRAME, Beyond, Side, cut_off
from queens_autosolve.vision.lattice import Lattice
from queens_autosolve.vision.reading import BoardCutOff, Margin
from queens_autosolve.vision.stats import median as array_median

TIGHT_CUT = 0.25  # of a cell: the most a tight crop may cut off the outer cells on a side
# of a cell: room for measuring the cut (a blurred, JPEG or scaled edge moves a cell's end by a few px)
MEASURE_SLACK = 0.05
# The smallest tight crop read: LinkedIn's levels are 7x7 and up (community ones 6x6); a smaller
# square of cells cut on every side is more likely a corner of a board that two edges clip, and
# such corners are often puzzles with one solution of their own (the clip sweep found 4x4s, 5x5s).
TIGHT_MIN_N = 6
# A tight crop's reading is never certain: pieces of real levels, cut out by a window on two sides
# or a clip all round, are often puzzles of their own with one solution and as many regions as
# rows (the clip sweep on the shared screenshots: 65 such pieces, 4x4 to 8x8), and the pixels of a
# piece and of a tight crop are the same. Read, said, and left for the user to confirm.
TIGHT_SCORE = 0.85
TIGHT_REASON = (
    "the picture cuts the board's frame on all four sides (a tight crop): read as the whole board, "
    "but a piece of a larger board looks the same; crop wider to be sure"
)
FRAME_SLIVER = 0.04  # of the pitch (and MIN_FRAME px): what may be left of the frame beyond the cells


def edge_gaps(lattice: Lattice, shape: tuple[int, ...]) -> dict[str, float]:
    """Per side, px from the outer cells' light edge to the image edge (negative: cut into them)."""
    h, w = shape[:2]
    return {
        "left": float(lattice.left[0]),
        "right": float(w - lattice.right[-1]),
        "top": float(lattice.top[0]),
        "bottom": float(h - lattice.bottom[-1]),
    }


def is_tight_crop(sides: list[Side], lattice: Lattice, shape: tuple[int, ...]) -> bool:
    """True when every side ends at the image edge (cut, or the frame right at it), at least one
    is cut, and each cuts the outer cells by at most TIGHT_CUT of a cell, or leaves no more than a
    sliver of the frame: the outer cells show at nearly their full width, the lattice is whole."""
    if any(side.kind is Beyond.PAGE for side in sides) or all(side.kind is Beyond.EDGE for side in sides):
        return False
    cell = float(array_median(lattice.right - lattice.left))
    sliver = max(MIN_FRAME, FRAME_SLIVER * lattice.pitch) + 1
    gaps = edge_gaps(lattice, shape)
    for side in sides:
        gap = gaps[side.name]
        if side.kind is Beyond.CUT and not -((TIGHT_CUT + MEASURE_SLACK) * cell + 1) <= gap <= sliver:
            return False
    return True


def tight_crop_lattice(mask: np.ndarray, lattice: Lattice, sides: list[Side]) -> Lattice | None:
    """`lattice` marked as read from a tight crop when `sides` show one (and it is large enough
    to be a level: TIGHT_MIN_N), else None."""
    if lattice.n < TIGHT_MIN_N or not is_tight_crop(sides, lattice, mask.shape):
        return None
    return replace(lattice, tight_crop=True)


def refusal(lattice: Lattice, shape: tuple[int, ...], why: str = "") -> BoardCutOff:
    """The refusal of a board cut on all four sides, as for any board the image edge cuts."""
    gaps = edge_gaps(lattice, shape)
    sides = [Side(name, Beyond.CUT, 0.0, max(1, int(round(-gap)))) for name, gap in gaps.items()]
    return cut_off(sides, why)


def tight_margin() -> Margin:
    """The witness that keeps a tight crop's reading below the click threshold, saying why."""
    return Margin("frame", TIGHT_SCORE, TIGHT_REASON)


def unique_or_refused(puzzle: Puzzle, lattice: Lattice, shape: tuple[int, ...]) -> None:
    """A tight crop's puzzle must have exactly one solution, as a whole level has; else the crop
    may be a piece of a larger board: BoardCutOff, saying so."""
    count = count_solutions(puzzle, limit=2)
    if count != 1:
        many = "no solution" if count == 0 else "more than one solution"
        raise refusal(lattice, shape, f"read as a tight crop of a whole board it would have {many}")
