"""A picture enlarged by repeating pixels (nearest-neighbour scaling: a zoomed-in screenshot saved
as seen, a board blown up to share): every pixel of the board as drawn is a k x k block. Read at
that size (one pixel in k each way) it is the board as drawn, found in a fraction of the time and
memory; the reading's coordinates are then scaled back. Read as it is, its k-pixel lines and
huge cells once gave "cut off ... (642 px)" or "two boards found".
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from queens_autosolve.capture.geometry import Rect
from queens_autosolve.vision.reading import BoardReading

MAX_FACTOR = 64  # the largest enlargement looked for
SAMPLE = 32  # rows (and columns) compared, spread over the image
MIN_CHANGES = 8  # colour changes along the sampled rows needed to tell the block size


@dataclass(frozen=True)
class Enlargement:
    """Blocks of `factor` x `factor` equal pixels, the first whole block starting at (x, y)."""

    factor: int
    x: int
    y: int

    def reduced(self, rgb: np.ndarray) -> np.ndarray:
        """One pixel of each block: the picture at the size it was drawn."""
        return np.ascontiguousarray(rgb[self.y :: self.factor, self.x :: self.factor])

    def scaled_back(self, reading: BoardReading) -> BoardReading:
        """A reading of the reduced picture in the enlarged picture's pixels."""
        k = self.factor
        centres = tuple(
            tuple((self.x + k * cx, self.y + k * cy) for cx, cy in row) for row in reading.centres
        )
        box = reading.box
        return replace(reading, centres=centres,
                       box=Rect(self.x + k * box.left, self.y + k * box.top, k * box.width, k * box.height))


def enlargement(rgb: np.ndarray) -> Enlargement | None:
    """The pixel repetition of `rgb`, when its columns and its rows both come in runs of one
    length k >= 2 (looked at on SAMPLE rows and columns); else None. Rows first, as they are
    cheap to take: nearly every picture shows two different neighbours there and stops it."""
    h, w = rgb.shape[:2]
    across = _runs(rgb[np.linspace(0, h - 1, min(h, SAMPLE)).astype(int)])
    if across is None:
        return None
    columns = rgb[:, np.linspace(0, w - 1, min(w, SAMPLE)).astype(int)].transpose(1, 0, 2)
    down = _runs(columns)
    if down is None or across[0] != down[0]:
        return None
    return Enlargement(across[0], across[1], down[1])


def _runs(lines: np.ndarray) -> tuple[int, int] | None:
    """(k, offset) when the colours along `lines` (S x L x 3 pixels) change only at positions
    offset + a multiple of k, for one k in 2..MAX_FACTOR; else None."""
    changes = np.flatnonzero(_changed(lines)) + 1
    if len(changes) < MIN_CHANGES:
        return None
    factor = int(np.gcd.reduce(np.diff(changes)))
    if not 2 <= factor <= MAX_FACTOR:
        return None
    return factor, int(changes[0] % factor)


def _changed(lines: np.ndarray) -> np.ndarray:
    """Per position along S x L x 3 `lines` after the first, whether the colour changes there on
    any line: the bytes compared as they are (packing each colour into an int first took longer
    than the comparison)."""
    count, length = lines.shape[:2]
    differs = (lines[:, 1:] != lines[:, :-1]).reshape(count, -1).any(axis=0)
    return np.asarray(differs.reshape(length - 1, -1).any(axis=1))
