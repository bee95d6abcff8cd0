"""What each cell shows: nothing, an X mark, a crown (black: the player's; gold: the page shows the
board solved) or a locked pre-placed queen (a near-black disc with a light crown inside).

Every cell is resampled to a small fixed square (area averaging, so thin strokes fade instead of
vanishing) and its centre compared with the cell's own background colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from solver.puzzle import cell_name
from vision.locate import Lattice
from vision.reading import CellState
from vision.shades import STRIPE_REDNESS

SIDE = 20  # resampled cell size in pixels
CORE = slice(4, 16)  # the central 60% of a cell: crowns (55%) and the locked disc (70%) fill it
CENTRE = slice(6, 14)  # the central 40%: X marks (30%) sit wholly inside, so noise counts little
# Ink: mean share of the centre that differs from the background (0 = clean, 1 = all covered);
# differences under INK_FLOOR are JPEG noise and ringing, not marks. Empty cells <= 0.01
# (renders, JPEG), X marks >= 0.067 (real screens).
INK_FLOOR = 25.0
X_INK = 0.03
# Off-diagonal ink: the share of the centre away from its two diagonals that is inked. An X
# mark lies on the diagonals (real screens <= 0.01, renders after JPEG <= 0.07); a crown covers
# the middle (>= 0.19, the smallest gold crowns on real screens).
CROWN_SHAPE = 0.15
SHAPE_DOUBT = 0.04
GOLD_QUEEN = 0.04  # share of a crown's core in crown gold: the page shows the board solved
# Share of the ring at 54% of the cell that is dark: the locked disc (70%) covers all of it,
# a crown at most 0.4 of it.
LOCKED_RING = 0.65
INK_DOUBT = 0.3  # ink within this share of X_INK is unsure


def _off_diagonal() -> np.ndarray:
    """Centre pixels at least two pixels from both diagonals."""
    yy, xx = np.mgrid[0:SIDE, 0:SIDE] - (SIDE - 1) / 2
    return (np.abs(np.abs(xx) - np.abs(yy)) >= 2) & (np.abs(xx) < 5) & (np.abs(yy) < 5)


OFF_DIAGONAL = _off_diagonal()


@dataclass(frozen=True)
class StateReading:
    """Every cell's state, whether the crowns are gold (the page shows the board solved), doubts."""

    states: tuple[tuple[CellState, ...], ...]
    solved_look: bool
    doubts: tuple[str, ...]


@dataclass(frozen=True)
class CellFeatures:
    """Per cell: ink in the centre (any mark), off the diagonals (crown, not X), gold share of the
    core, dark share of the ring (locked disc)."""

    ink: np.ndarray
    off: np.ndarray
    gold: np.ndarray
    ring: np.ndarray


def resample_cells(rgb: np.ndarray, lattice: Lattice) -> np.ndarray:
    """Every cell as a SIDE x SIDE patch, (n, n, SIDE, SIDE, channels) float, following the
    lattice (a one-channel image gives one channel)."""
    n = lattice.n
    pitch = lattice.pitch
    x0, y0 = lattice.xs[0] - pitch / 2, lattice.ys[0] - pitch / 2
    x1, y1 = lattice.xs[-1] + pitch / 2, lattice.ys[-1] + pitch / 2
    h, w = rgb.shape[:2]
    ix0, iy0, ix1, iy1 = (int(round(v)) for v in (x0, y0, x1, y1))
    crop = rgb[max(0, iy0) : min(h, iy1), max(0, ix0) : min(w, ix1)]
    cut = (max(0, -iy0), max(0, iy1 - h), max(0, -ix0), max(0, ix1 - w))
    if any(cut):  # a tight crop cut the outer cells: extend them with their own edge pixels
        crop = cv2.copyMakeBorder(crop, *cut, cv2.BORDER_REPLICATE)
    side = n * SIDE
    factor = min(crop.shape[0], crop.shape[1]) // side
    if factor >= 2:
        # whole-number area reduction first: several times faster than one fractional one (the
        # at most factor - 1 pixels cut off the far edges shift the last cells by <= 5% of a cell)
        h, w = crop.shape[0] // factor, crop.shape[1] // factor
        crop = cv2.resize(crop[: h * factor, : w * factor], (w, h), interpolation=cv2.INTER_AREA)
    out = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA).reshape(side, side, -1)
    return out.reshape(n, SIDE, n, SIDE, -1).transpose(0, 2, 1, 3, 4).astype(np.float32)


def _ring_points() -> tuple[np.ndarray, np.ndarray]:
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    radius = 0.27 * SIDE
    centre = (SIDE - 1) / 2
    return (
        np.rint(centre + radius * np.sin(angles)).astype(int),
        np.rint(centre + radius * np.cos(angles)).astype(int),
    )


RING_Y, RING_X = _ring_points()


def saturation(rgb: np.ndarray) -> np.ndarray:
    """HSV saturation, 0..1, of RGB values (any leading shape)."""
    top = rgb.max(axis=-1)
    return (top - rgb.min(axis=-1)) / np.maximum(top, 1.0)


def cell_features(
    patches: np.ndarray, background: np.ndarray, striped: np.ndarray | None = None
) -> CellFeatures:
    """Marks measured against each cell's own background colour (so hover does not count).

    Ink is any clear colour difference, plus crown gold (which may differ little from a yellow
    cell); in `striped` cells (n, n bool) what is left of red conflict stripes is not ink."""
    bg = background[:, :, None, None, :].astype(np.float32)
    distance = np.linalg.norm(patches - bg, axis=-1)
    r, g, b = patches[..., 0], patches[..., 1], patches[..., 2]
    # crown gold: a strong yellow-orange, more saturated than any pastel region or any blend of a
    # region with a gray mark (those are what a coral or yellow cell with an X mark shows)
    top = np.maximum(r, 1.0)
    golden = (r > 120) & (b < 0.32 * top) & (g > 0.5 * top) & (g < 0.9 * top) & (distance > 40)
    # ... and more saturated than the cell: an X mark's edge over a yellow cell (after JPEG) has
    # gold's hue, but a blend with gray is always less saturated than the cell itself
    golden &= saturation(patches) > saturation(bg) + 0.1
    differs = np.clip((distance - INK_FLOOR) / (120.0 - INK_FLOOR), 0, 1)
    if striped is not None and striped.any():
        green_blue = np.maximum(g, b)
        stripe = (r - green_blue >= STRIPE_REDNESS / 2) & (r >= 0.85 * bg[..., 0]) & striped[:, :, None, None]
        differs = differs * ~stripe
    inked = np.maximum(differs, golden)
    ink = inked[:, :, CENTRE, CENTRE].mean(axis=(2, 3))
    off = inked[:, :, OFF_DIAGONAL].mean(axis=2)
    weights = np.array([0.299, 0.587, 0.114], np.float32)
    luma, bg_luma = patches @ weights, (bg @ weights)[..., 0]
    ring_dark = (luma[:, :, RING_Y, RING_X] < 0.5 * bg_luma).mean(axis=2)
    return CellFeatures(ink, off, golden[:, :, CORE, CORE].mean(axis=(2, 3)), ring_dark)


def classify(features: CellFeatures) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """State per cell, and the cells whose measurements lie too near a threshold to be sure."""
    ink, off = features.ink, features.off
    mark = ink >= X_INK
    crown = mark & (off >= CROWN_SHAPE)
    states = np.full(ink.shape, CellState.EMPTY, dtype=object)
    states[mark] = CellState.X
    states[crown] = CellState.QUEEN
    states[crown & (features.ring >= LOCKED_RING)] = CellState.LOCKED
    near = np.abs(ink - X_INK) < INK_DOUBT * X_INK
    near |= mark & (np.abs(off - CROWN_SHAPE) < SHAPE_DOUBT)
    near |= crown & (np.abs(features.ring - LOCKED_RING) < 0.12)
    return states, [(int(r), int(c)) for r, c in np.argwhere(near)]


def read_states(
    rgb: np.ndarray, lattice: Lattice, background: np.ndarray, striped: list[tuple[int, int]] = ()
) -> StateReading:
    """States of all cells, whether the crowns are gold, and doubts; `striped` cells show red
    conflict stripes (what remains of them is not read as a mark)."""
    mask = np.zeros(background.shape[:2], bool)
    for r, c in striped:
        mask[r, c] = True
    features = cell_features(resample_cells(rgb, lattice), background, mask)
    states, unsure = classify(features)
    crowns = states == CellState.QUEEN
    solved_look = bool(crowns.any() and (features.gold[crowns] >= GOLD_QUEEN).mean() > 0.5)
    doubts = []
    if unsure:
        doubts.append("marks hard to read at " + ", ".join(cell_name(c) for c in unsure[:6]))
    return StateReading(tuple(tuple(row) for row in states.tolist()), solved_look, tuple(doubts))
