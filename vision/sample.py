"""Measurements taken on a located board: each cell's colour (sampled away from the centre, where
crowns and X marks sit) and the amount of dark ink on each line between two neighbouring cells
(thin cell line or thick region border).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.locate import Lattice

# Where a cell's colour is sampled, as fractions of its light span from the centre: near the
# corners, outside the crown (about 55% of the cell), the locked-queen disc (70%) and the border.
COLOUR_POINTS = np.array(
    [(sx * a, sy * b) for sx in (-1, 1) for sy in (-1, 1) for a, b in ((0.33, 0.33), (0.38, 0.22), (0.22, 0.38))]
)
# How far into each cell a border profile reaches, as a fraction of the light span: past any
# border, short of any crown.
PROFILE_REACH = 0.34
ALONG = (-0.25, 0.0, 0.25)  # positions along a boundary where it is measured (median of them)


@dataclass(frozen=True)
class BoardSamples:
    """Per cell colour (RGB and Lab) and per boundary ink width, in pixels of black line."""

    rgb: np.ndarray  # (n, n, 3) float
    lab: np.ndarray  # (n, n, 3) float
    ink_right: np.ndarray  # (n, n-1): ink between (r, c) and (r, c+1)
    ink_down: np.ndarray  # (n-1, n): ink between (r, c) and (r+1, c)
    line_level: float  # gray level of the lines (what full ink looks like)


def cell_colours(rgb: np.ndarray, lattice: Lattice) -> np.ndarray:
    """Median colour of each cell's sample points, on a lightly blurred image (JPEG noise)."""
    span_x = (lattice.right - lattice.left)[None, :, None]
    span_y = (lattice.bottom - lattice.top)[:, None, None]
    px = lattice.xs[None, :, None] + COLOUR_POINTS[None, None, :, 0] * span_x
    py = lattice.ys[:, None, None] + COLOUR_POINTS[None, None, :, 1] * span_y
    h, w = rgb.shape[:2]
    px, py = np.broadcast_arrays(px, py)
    xi = np.clip(np.rint(px).astype(int), 1, w - 2)
    yi = np.clip(np.rint(py).astype(int), 1, h - 2)
    # 3x3 mean around each point without blurring the whole image
    acc = np.zeros(xi.shape + (3,), np.float64)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            acc += rgb[yi + dy, xi + dx]
    return np.median(acc / 9.0, axis=2)


def to_lab(colours: np.ndarray) -> np.ndarray:
    """CIE Lab of RGB colours (any leading shape), so distances match what people see."""
    flat = (colours.reshape(-1, 1, 3) / 255.0).astype(np.float32)
    return cv2.cvtColor(flat, cv2.COLOR_RGB2Lab).reshape(colours.shape).astype(np.float64)


def _profiles(gray: np.ndarray, starts: np.ndarray, ends: np.ndarray, fixed: np.ndarray, vertical: bool):
    """Gray values along profiles from `starts` to `ends` (one pixel apart), at `fixed` on the
    other axis; returns the values and a mask of which samples lie inside each profile."""
    length = int(np.ceil(np.max(ends - starts))) + 1
    steps = np.arange(length)[None, :]
    pos = np.rint(starts)[:, None] + steps
    valid = pos <= ends[:, None]
    h, w = gray.shape
    if vertical:  # profile runs along x
        values = gray[np.clip(np.rint(fixed), 0, h - 1).astype(int)[:, None], np.clip(pos, 0, w - 1).astype(int)]
    else:
        values = gray[np.clip(pos, 0, h - 1).astype(int), np.clip(np.rint(fixed), 0, w - 1).astype(int)[:, None]]
    return values.astype(np.float64), valid


def _ink(values: np.ndarray, valid: np.ndarray, ref: np.ndarray, line_level: float) -> np.ndarray:
    """Width in pixels of full-dark line the profile holds: anti-aliased pixels count in part."""
    depth = np.maximum(ref[:, None] - line_level, 1.0)
    share = np.clip((ref[:, None] - values) / depth, 0.0, 1.0)
    return (share * valid).sum(axis=1)


def boundary_ink(gray: np.ndarray, lattice: Lattice, cell_gray: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Ink across every boundary between horizontally and vertically adjacent cells."""
    n = lattice.n
    xs, ys = lattice.xs, lattice.ys
    span_x, span_y = lattice.right - lattice.left, lattice.bottom - lattice.top
    along = np.array(ALONG)
    # vertical boundaries: between column c and c+1, profiles along x at rows r, offsets `along`
    r, c, a = np.meshgrid(np.arange(n), np.arange(n - 1), along, indexing="ij")
    v_start = xs[c] + PROFILE_REACH * span_x[c]
    v_end = xs[c + 1] - PROFILE_REACH * span_x[c + 1]
    v_fixed = ys[r] + a * span_y[r]
    v_vals, v_valid = _profiles(gray, v_start.ravel(), v_end.ravel(), v_fixed.ravel(), vertical=True)
    v_ref = np.minimum(cell_gray[r, c], cell_gray[r, c + 1]).ravel()
    r2, c2, a2 = np.meshgrid(np.arange(n - 1), np.arange(n), along, indexing="ij")
    h_start = ys[r2] + PROFILE_REACH * span_y[r2]
    h_end = ys[r2 + 1] - PROFILE_REACH * span_y[r2 + 1]
    h_fixed = xs[c2] + a2 * span_x[c2]
    h_vals, h_valid = _profiles(gray, h_start.ravel(), h_end.ravel(), h_fixed.ravel(), vertical=False)
    h_ref = np.minimum(cell_gray[r2, c2], cell_gray[r2 + 1, c2]).ravel()
    # the lines' own gray: the darkest the thick borders get (they are wide enough to reach it)
    minima = np.concatenate([
        np.where(v_valid, v_vals, 255).min(axis=1), np.where(h_valid, h_vals, 255).min(axis=1)
    ])
    line_level = float(np.percentile(minima, 10))
    ink_right = np.median(_ink(v_vals, v_valid, v_ref, line_level).reshape(n, n - 1, len(along)), axis=2)
    ink_down = np.median(_ink(h_vals, h_valid, h_ref, line_level).reshape(n - 1, n, len(along)), axis=2)
    return ink_right, ink_down, line_level


def sample_board(rgb: np.ndarray, gray: np.ndarray, lattice: Lattice) -> BoardSamples:
    """All measurements the region and state readers need."""
    colours = cell_colours(rgb, lattice)
    cell_gray = colours @ np.array([0.299, 0.587, 0.114])
    ink_right, ink_down, line_level = boundary_ink(gray, lattice, cell_gray)
    return BoardSamples(colours, to_lab(colours), ink_right, ink_down, line_level)
