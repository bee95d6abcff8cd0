"""A picture of what was read, drawn over the image: board box, cell grid, region labels and cell
states, so a person can check a reading at a glance (`queens-autosolve detect --debug OUT.png`)."""

from __future__ import annotations

import cv2
import numpy as np

from queens_autosolve.solver.position import CellState
from queens_autosolve.solver.puzzle import default_label
from queens_autosolve.vision.reading import BoardReading

BOX = (0, 200, 255)
GRID = (255, 0, 200)
STATE_COLOUR = {CellState.X: (200, 0, 0), CellState.QUEEN: (0, 140, 0), CellState.LOCKED: (0, 0, 220)}


def draw_reading(image: np.ndarray, reading: BoardReading) -> np.ndarray:
    """An RGB copy of `image` with the reading drawn over it."""
    out = np.ascontiguousarray(image[:, :, :3]).copy()
    x, y, w, h = reading.box.as_tuple()
    cv2.rectangle(out, (x, y), (x + w - 1, y + h - 1), BOX, 2)
    n = reading.n
    xs = [reading.centres[0][c][0] for c in range(n)]
    pitch = (xs[-1] - xs[0]) / max(1, n - 1) if n > 1 else float(w)
    font_scale = max(0.3, pitch / 80)
    for r in range(n):
        for c in range(n):
            cx, cy = reading.centres[r][c]
            half = pitch / 2
            cv2.rectangle(out, (int(cx - half), int(cy - half)), (int(cx + half), int(cy + half)), GRID, 1)
            label = default_label(reading.regions[r][c])
            corner = (int(cx - half + 3), int(cy - half + 3 + 14 * font_scale * 1.4))
            _text(out, label, corner, font_scale, (0, 0, 0))
            state = reading.states[r][c]
            if state is not CellState.EMPTY:
                _text(out, state.value, (int(cx - 6 * font_scale * 1.5), int(cy + 8 * font_scale * 1.5)),
                      font_scale * 1.5, STATE_COLOUR[state])
    verdict = f"{n}x{n} confidence {reading.confidence:.2f}" + (" solved" if reading.solved_look else "")
    _text(out, verdict, (x + 4, max(16, y - 6)), 0.6, BOX)
    return np.asarray(out)


def _text(
    out: np.ndarray, text: str, at: tuple[int, int], scale: float, colour: tuple[int, int, int]
) -> None:
    """Text with a white halo so it shows on any background."""
    thickness = max(1, int(round(scale * 1.5)))
    cv2.putText(out, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), thickness + 2, cv2.LINE_AA)
    cv2.putText(out, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
