"""The records of board location: candidate cells (blobs) and the fitted N x N grid (lattice)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from queens_autosolve.capture.geometry import Rect
from queens_autosolve.vision.stats import median as array_median


@dataclass(frozen=True)
class Blobs:
    """Candidate cells: bounding boxes (x0, y0, x1, y1 exclusive) and centres, one row each."""

    boxes: np.ndarray  # int (K, 4)
    centres: np.ndarray  # float (K, 2)

    @property
    def sizes(self) -> np.ndarray:
        return np.asarray((self.boxes[:, 2:] - self.boxes[:, :2]).mean(axis=1))


@dataclass(frozen=True)
class Lattice:
    """The board's grid: per column the light span [left, right), per row [top, bottom)."""

    n: int
    left: np.ndarray
    right: np.ndarray
    top: np.ndarray
    bottom: np.ndarray
    found: float  # share of the N*N cells seen as clean blobs
    # the image edge cuts the outer cells on every side by a sliver: a still cropped tightly to
    # the board (vision/tight.py), read as the whole board
    tight_crop: bool = False

    @property
    def xs(self) -> np.ndarray:
        return np.asarray((self.left + self.right) / 2)

    @property
    def ys(self) -> np.ndarray:
        return np.asarray((self.top + self.bottom) / 2)

    @property
    def pitch(self) -> float:
        if self.n < 2:
            return float(self.right[0] - self.left[0])
        return float((self.xs[-1] - self.xs[0] + self.ys[-1] - self.ys[0]) / (2 * (self.n - 1)))

    def box(self, shape: tuple[int, ...]) -> Rect:
        """The board box in pixels: the cells plus half a line gap around them, inside the image."""
        gap = max(1.0, self.pitch - float(array_median(self.right - self.left)))
        x0 = max(0, int(round(self.left[0] - gap)))
        y0 = max(0, int(round(self.top[0] - gap)))
        x1 = min(shape[1], int(round(self.right[-1] + gap)))
        y1 = min(shape[0], int(round(self.bottom[-1] + gap)))
        return Rect(x0, y0, x1 - x0, y1 - y0)

    def shifted(self, dx: float, dy: float) -> Lattice:
        return replace(
            self, left=self.left + dx, right=self.right + dx, top=self.top + dy, bottom=self.bottom + dy
        )
