"""Measurements taken on a located board: each cell's colour (sampled away from the centre, where
crowns and X marks sit) and the amount of dark ink on each line between two neighbouring cells
(thin cell line or thick region border).

Ink is measured in luma, in pixels of full-dark line: a thin line holds about one, a region
border three or more.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from queens_autosolve.vision.lattice import Lattice
from queens_autosolve.vision.shades import STRIPE_MAX_GREEN_BLUE, STRIPE_MIN_RED, STRIPE_REDNESS, Shades
from queens_autosolve.vision.stats import median, percentile

# Where a cell's colour is sampled, as fractions of its light span from the centre: near the
# corners, outside the crown (about 55% of the cell), the locked-queen disc (70%) and the border.
COLOUR_POINTS = np.array([
    (sx * a, sy * b)
    for sx in (-1, 1)
    for sy in (-1, 1)
    for a, b in ((0.33, 0.33), (0.38, 0.22), (0.22, 0.38), (0.40, 0.30), (0.30, 0.40), (0.28, 0.28))
])
# How far into each cell a border profile reaches, as a fraction of the light span: past any
# border, short of any crown.
PROFILE_REACH = 0.38
ALONG = (-0.25, 0.0, 0.25)  # positions along a boundary where it is measured (median of them)
# Colour sample points on red stripes that make a cell a stripe candidate: one, as at some
# scales the stripes' phase leaves a single point of the 24 on them; `vision.read` then counts
# the cell's stripe pixels, which nothing else on a board imitates.
STRIPED_POINTS = 1


@dataclass(frozen=True)
class BoardSamples:
    """Per cell colour (RGB and Lab) and per boundary ink width, in pixels of black line."""

    rgb: np.ndarray  # (n, n, 3) float
    lab: np.ndarray  # (n, n, 3) float
    ink_right: np.ndarray  # (n, n-1): ink between (r, c) and (r, c+1)
    ink_down: np.ndarray  # (n-1, n): ink between (r, c) and (r+1, c)
    line_level: float  # luma of the lines (what full ink looks like)
    stripe_points: np.ndarray  # (n, n): colour sample points that fell on red conflict stripes

    def striped(self) -> list[tuple[int, int]]:
        """Cells that may be under red conflict stripes: some colour samples hit stripe colours
        (`vision.read` confirms them on the pixels)."""
        return [(int(r), int(c)) for r, c in np.argwhere(self.stripe_points >= STRIPED_POINTS)]


def point_pixels(
    lattice: Lattice, fractions: np.ndarray, shape: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pixels of points placed in every cell at `fractions` ((points, 2): x and y as shares
    of the cell's light span, from its centre) in an image of `shape`: x and y, (n, n, points)
    ints, the nearest pixel (the nearest edge pixel for points outside); and which of the points
    lie inside the image, (n, n, points) bool."""
    span_x = (lattice.right - lattice.left)[None, :, None]
    span_y = (lattice.bottom - lattice.top)[:, None, None]
    px = lattice.xs[None, :, None] + fractions[None, None, :, 0] * span_x
    py = lattice.ys[:, None, None] + fractions[None, None, :, 1] * span_y
    px, py = np.broadcast_arrays(px, py)
    h, w = shape[:2]
    inside = (px >= 0) & (px <= w - 1) & (py >= 0) & (py <= h - 1)
    return np.clip(np.rint(px).astype(int), 0, w - 1), np.clip(np.rint(py).astype(int), 0, h - 1), inside


def points_at(rgb: np.ndarray, lattice: Lattice, fractions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The colour at points placed in every cell at `fractions` (see `point_pixels`): (n, n,
    points, 3) float; and which of the points lie inside the image, (n, n, points) bool (the
    others take the nearest edge pixel)."""
    xi, yi, inside = point_pixels(lattice, fractions, rgb.shape)
    return rgb[yi, xi].astype(np.float64), inside


def cell_points(rgb: np.ndarray, lattice: Lattice) -> np.ndarray:
    """The colour at each cell's sample points, (n, n, points, 3) float."""
    return points_at(rgb, lattice, COLOUR_POINTS)[0]


def stripe_points(points: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """How many of each cell's sample points lie on a red conflict stripe: stripe-coloured, far
    from the cell's colour, and keeping (almost) its red, which no line or mark does."""
    red, green, blue = points[..., 0], points[..., 1], points[..., 2]
    green_blue = np.maximum(green, blue)
    on_stripe = (
        (red >= STRIPE_MIN_RED)
        & (green_blue <= STRIPE_MAX_GREEN_BLUE)
        & (red - green_blue >= STRIPE_REDNESS)
        & (red >= 0.85 * colours[:, :, None, 0])
        & (np.linalg.norm(points - colours[:, :, None, :], axis=-1) > 30)
    )
    return np.asarray(on_stripe.sum(axis=2))


# sRGB (D65) to CIE XYZ, rows X, Y, Z; and the D65 white, which Lab is taken relative to.
RGB_TO_XYZ = np.array([
    [0.412453, 0.357580, 0.180423],
    [0.212671, 0.715160, 0.072169],
    [0.019334, 0.119193, 0.950227],
], np.float32)
D65_WHITE = np.array([0.950456, 1.0, 1.088754], np.float32)
LAB_EPSILON = np.float32(216 / 24389)  # below this (relative) luminance Lab's cube root turns linear
LAB_KAPPA = np.float32(24389 / 27)


def to_lab(colours: np.ndarray) -> np.ndarray:
    """CIE Lab (D65, L 0..100) of 0..255 sRGB colours (any leading shape), so distances match what
    people see.

    Plain numpy with OpenCV's constants, within 0.5 delta E of its float RGB2Lab (which
    approximates the curves by tables): OpenCV builds those tables on its first Lab conversion
    in a process, 150-250 ms, which would dominate a one-shot run converting a few hundred
    colours."""
    srgb = np.asarray(colours, np.float32) / np.float32(255.0)
    linear = np.where(
        srgb <= np.float32(0.04045),
        srgb / np.float32(12.92),
        ((srgb + np.float32(0.055)) / np.float32(1.055)) ** np.float32(2.4),
    )
    relative = (linear @ RGB_TO_XYZ.T) / D65_WHITE
    f = np.where(
        relative > LAB_EPSILON,
        np.cbrt(relative),
        (LAB_KAPPA * relative + np.float32(16.0)) / np.float32(116.0),
    )
    fx, fy, fz = f[..., 0], f[..., 1], f[..., 2]
    lab = np.stack([116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)], axis=-1)
    return lab.astype(np.float64)


def _profiles(
    channel: np.ndarray, starts: np.ndarray, ends: np.ndarray, fixed: np.ndarray, vertical: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Values along profiles from `starts` to `ends` (one pixel apart), at `fixed` on the other
    axis; returns the values and a mask of which samples lie inside each profile."""
    length = int(np.ceil(np.max(ends - starts))) + 1
    steps = np.arange(length)[None, :]
    pos = np.rint(starts)[:, None] + steps
    valid = pos <= ends[:, None]
    h, w = channel.shape
    fixed_i = np.clip(np.rint(fixed), 0, (h if vertical else w) - 1).astype(int)[:, None]
    if vertical:  # profile runs along x
        values = channel[fixed_i, np.clip(pos, 0, w - 1).astype(int)]
    else:
        values = channel[np.clip(pos, 0, h - 1).astype(int), fixed_i]
    return values.astype(np.float64), valid


def _shares(values: np.ndarray, valid: np.ndarray, ref: np.ndarray) -> tuple[np.ndarray, float]:
    """Per profile pixel, how far it is from the cells' level towards the lines' own level (the
    darkest the thick borders get, being wide enough to reach it), 0..1; and that line level."""
    minima = np.where(valid, values, 255).min(axis=1)
    line_level = float(percentile(minima, 10))
    depth = np.maximum(ref[:, None] - line_level, 1.0)
    return np.clip((ref[:, None] - values) / depth, 0.0, 1.0) * valid, line_level


# One side's cells of many boundaries: their row indices and column indices.
CellIndices = tuple[np.ndarray, np.ndarray]


def _boundary_profiles(
    lattice: Lattice, vertical: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, CellIndices, CellIndices]:
    """Where each boundary is measured: start, end, fixed coordinate, and the two cells' indices."""
    n = lattice.n
    along = np.array(ALONG)
    if vertical:  # between column c and c+1, profiles along x at rows r
        r, c, a = np.meshgrid(np.arange(n), np.arange(n - 1), along, indexing="ij")
        span_x, span_y = lattice.right - lattice.left, lattice.bottom - lattice.top
        start = lattice.xs[c] + PROFILE_REACH * span_x[c]
        end = lattice.xs[c + 1] - PROFILE_REACH * span_x[c + 1]
        fixed = lattice.ys[r] + a * span_y[r]
        return start.ravel(), end.ravel(), fixed.ravel(), (r, c), (r, c + 1)
    r, c, a = np.meshgrid(np.arange(n - 1), np.arange(n), along, indexing="ij")
    span_x, span_y = lattice.right - lattice.left, lattice.bottom - lattice.top
    start = lattice.ys[r] + PROFILE_REACH * span_y[r]
    end = lattice.ys[r + 1] - PROFILE_REACH * span_y[r + 1]
    fixed = lattice.xs[c] + a * span_x[c]
    return start.ravel(), end.ravel(), fixed.ravel(), (r, c), (r + 1, c)


def boundary_ink(
    shades: Shades, lattice: Lattice, colours: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float]:
    """Ink across every boundary between horizontally and vertically adjacent cells: the pixels of
    full dark line it holds, in luma (anti-aliased pixels count in part)."""
    n = lattice.n
    cell_luma = colours @ np.array([0.299, 0.587, 0.114])
    inks = []
    line_level = 0.0
    for vertical in (True, False):
        start, end, fixed, a, b = _boundary_profiles(lattice, vertical)
        ref = np.minimum(cell_luma[a], cell_luma[b]).ravel()
        values, valid = _profiles(shades.gray, start, end, fixed, vertical)
        shares, level = _shares(values, valid, ref)
        line_level = max(line_level, level)
        shape = (n, n - 1) if vertical else (n - 1, n)
        inks.append(median(shares.sum(axis=1).reshape(*shape, len(ALONG)), axis=2))
    return inks[0], inks[1], line_level


def sample_board(rgb: np.ndarray, shades: Shades, lattice: Lattice) -> BoardSamples:
    """All measurements the region and state readers need."""
    points = cell_points(rgb, lattice)
    # the median: robust to JPEG noise and to red stripes (under a quarter of the points)
    colours = median(points, axis=2)
    ink_right, ink_down, line_level = boundary_ink(shades, lattice, colours)
    return BoardSamples(
        colours, to_lab(colours), ink_right, ink_down, line_level, stripe_points(points, colours)
    )
