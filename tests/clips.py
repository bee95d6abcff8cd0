"""Boards cut by the image edge or cropped into their outer cells, and the one verdict on what
vision made of each: shared by tests/test_vision_clip.py and the full sweep,
scripts/sweep_clips.py."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.vision import BoardNotFound, read_board
from queens_autosolve.vision.lattice import Lattice
from queens_autosolve.vision.locate import find_blobs, fit_lattice, light_mask, main_board
from queens_autosolve.vision.shades import shades_of

# The sides an image edge cuts: one side or a corner.
PLACES = (("left",), ("right",), ("top",), ("bottom",),
          ("left", "top"), ("right", "top"), ("left", "bottom"), ("right", "bottom"))
FRACTIONS = (0.0, 0.1, 0.3, 0.5, 0.9)  # of a cell, cut beyond whole cells
# Nothing is clicked on these: refused, read exactly, or a piece that looks like a whole board
# read below the click threshold and saying so.
SAFE = ("refused", "exact", "unsure-tight-crop")


@dataclass(frozen=True)
class ClipVerdict:
    """What vision made of a clipped board: `kind` (SAFE, or "wrong-unsure", "wrong-confident")
    and, when it read a board, what it read."""

    kind: str
    read: str = ""

    @property
    def safe(self) -> bool:
        return self.kind in SAFE

    def __str__(self) -> str:
        return f"{self.kind} ({self.read})" if self.read else self.kind


def clip_verdict(image: np.ndarray, n: int, partition: object, states: list[str] | None) -> ClipVerdict:
    """The verdict on `image`, a clip of an n x n board of regions `partition` (and cell `states`,
    when known), read as a still (an image file), where a tight crop may be taken as the whole
    board: the stricter case."""
    try:
        reading = read_board(image, still=True)
    except BoardNotFound:
        return ClipVerdict("refused")
    same = reading.n == n and Puzzle.from_region_grid(reading.regions).regions == partition
    if same and (states is None or reading.state_rows() == states):
        return ClipVerdict("exact")
    read = f"read {reading.n}x{reading.n}, confidence {reading.confidence:.2f}"
    if reading.tight_crop and not reading.is_certain:
        return ClipVerdict("unsure-tight-crop", read)
    return ClipVerdict("wrong-confident" if reading.is_certain else "wrong-unsure", read)


def fitted_lattice(image: np.ndarray) -> Lattice:
    """The lattice the cells lie on, without the whole-board checks (so also of a cut board)."""
    mask = light_mask(shades_of(image))
    blobs = find_blobs(mask)
    return fit_lattice(blobs, main_board(blobs), mask)


def crop_into_cells(image: np.ndarray, columns: tuple, rows: tuple, depths: dict[str, float]) -> np.ndarray:
    """The image cropped `depths[side]` px into the outer cells on each side (within the image:
    a screenshot already cropped tightly cannot be widened)."""
    (left, right), (top, bottom) = columns, rows
    h, w = image.shape[:2]
    x0 = max(0, int(round(left[0] + depths["left"])))
    x1 = min(w, int(round(right[-1] - depths["right"])))
    y0 = max(0, int(round(top[0] + depths["top"])))
    y1 = min(h, int(round(bottom[-1] - depths["bottom"])))
    return np.ascontiguousarray(image[y0:y1, x0:x1])
