"""What each cell shows: nothing, an X mark, a crown (black: the player's; gold: the page shows the
board solved) or a locked pre-placed queen (a near-black disc with a light crown inside).

Every cell is resampled to a small fixed square (area averaging, so thin strokes fade instead of
vanishing) and its centre compared with the cell's own background colour. Then each mark must
have its shape (a crown matches crown.svg's crown, an X an X), and nothing may reach a cell's
rim, where no mark does: anything else over the board (a tooltip, a pointer, a dialog) makes the
reading unsure, naming the cells, instead of becoming a queen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from queens_autosolve.solver.position import CellState
from queens_autosolve.solver.puzzle import cell_name
from queens_autosolve.vision.lattice import Lattice
from queens_autosolve.vision.reading import CONFIDENT, Margin, margin_score
from queens_autosolve.vision.sample import points_at
from queens_autosolve.vision.shades import STRIPE_REDNESS
from queens_autosolve.vision.stats import percentile

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
RING_DOUBT = 0.12
# Ink on the rim (86% of the cell, outside every mark): a tooltip, pointer or dialog edge.
RIM_AT = 0.43  # of the light span from the centre
RIM_INK = 50.0  # RGB distance from the background that counts as ink (JPEG noise stays under)
RIM_FULL, RIM_SURE, RIM_ZERO = 0.0, 0.12, 0.25
# Marks are dark on light cells (LinkedIn's and the practice page's colours: the darkest region
# colour has luma 151, 133 under the hover tint). A browser's forced dark mode turns some region
# colours dark and leaves the X marks dark, too near the cell's own luma to read (docs/notes.md).
# Dark cells (by their luma) make the reading unsure instead.
DARK_CELL_ZERO, DARK_CELL_SURE, DARK_CELL_FULL = 70.0, 100.0, 130.0
# Shape matches (correlation with a template after both are cut to their boxes, see `likeness`).
# Crowns: real black and gold ones score >= 0.82, rendered ones >= 0.78 (but for borders over a
# fifth of the cell wide; small gold ones after JPEG 0.4-0.8); pointers, tooltips and dialogs
# read as crowns <= 0.48. X marks: real >= 0.74, rendered >= 0.84; pointers read as X <= 0.15.
SHAPE_SIDE, TEMPLATE = 32, 16
X_REACH = 0.25  # of the pitch: the middle half of a cell, where X marks sit
DISC_INSIDE = 0.29  # of the pitch from the centre: inside a locked disc (0.35), around its crown
SHAPE_REACH = 0.42  # the shape patch's half side, in pitches: the crown (62% with its tips) fits
CROWN_MATCH_ZERO, CROWN_MATCH_SURE, CROWN_MATCH_FULL = 0.45, 0.56, 0.66
X_MATCH_ZERO, X_MATCH_SURE, X_MATCH_FULL = 0.3, 0.55, 0.7
CROWN_BODY = ((2.2, 7.4), (7.3, 11.6), (12, 4.6), (16.7, 11.6), (21.8, 7.4), (20.1, 17.5), (3.9, 17.5))
CROWN_BALLS = ((2.2, 6.6, 1.7), (12, 3.6, 1.7), (21.8, 6.6, 1.7))
CROWN_BAR = (3.9, 18.8, 20.1, 21.2)


def _off_diagonal() -> np.ndarray:
    """Centre pixels at least two pixels from both diagonals."""
    yy, xx = np.mgrid[0:SIDE, 0:SIDE] - (SIDE - 1) / 2
    return np.asarray((np.abs(np.abs(xx) - np.abs(yy)) >= 2) & (np.abs(xx) < 5) & (np.abs(yy) < 5))


OFF_DIAGONAL = _off_diagonal()


def _rim_points() -> np.ndarray:
    """Where a cell's rim is sampled, as fractions of its light span from the centre: a square
    ring at 86% of the cell, outside every mark (the locked disc: 70%) and inside the grid
    lines; not at the middle of a side, which a small locked disc's blur reaches."""
    along = np.delete(np.linspace(-RIM_AT, RIM_AT, 7), 3)
    edge = np.full_like(along, RIM_AT)
    return np.concatenate([
        np.stack([along, -edge], 1), np.stack([along, edge], 1),
        np.stack([-edge, along], 1)[1:-1], np.stack([edge, along], 1)[1:-1],
    ])


RIM_POINTS = _rim_points()
# which rim points lie on the top, bottom, left and right side (corners belong to two sides)
RIM_SIDES = (
    RIM_POINTS[:, 1] <= -RIM_AT + 1e-9, RIM_POINTS[:, 1] >= RIM_AT - 1e-9,
    RIM_POINTS[:, 0] <= -RIM_AT + 1e-9, RIM_POINTS[:, 0] >= RIM_AT - 1e-9,
)


@dataclass(frozen=True)
class StateReading:
    """Every cell's state, whether the crowns are gold (the page shows the board solved), and the
    margins of the state measures."""

    states: tuple[tuple[CellState, ...], ...]
    solved_look: bool
    margins: tuple[Margin, ...]


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
    return np.asarray(out.reshape(n, SIDE, n, SIDE, -1).transpose(0, 2, 1, 3, 4).astype(np.float32))


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
    """HSV saturation, 0..1, of RGB values (any leading shape). Channel by channel: numpy's
    reductions over a last axis of three are several times slower."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    top = np.maximum(np.maximum(r, g), b)
    return np.asarray((top - np.minimum(np.minimum(r, g), b)) / np.maximum(top, 1.0))


def ink_map(
    patches: np.ndarray, background: np.ndarray, striped: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel of each patch, 0..1: how clearly it is a mark (or anything else) and not the
    cell's background; and which pixels are crown gold. Any clear colour difference counts, plus
    crown gold (which may differ little from a yellow cell); in `striped` cells (n, n bool) what
    is left of red conflict stripes does not."""
    bg = background[:, :, None, None, :].astype(np.float32)
    squares = np.square(patches - bg)
    # summed channel by channel, in order: as einsum sums three values, and faster
    distance = np.sqrt(squares[..., 0] + squares[..., 1] + squares[..., 2])
    r, g, b = patches[..., 0], patches[..., 1], patches[..., 2]
    # crown gold: a strong yellow-orange, more saturated than any pastel region or any blend of a
    # region with a gray mark (those are what a coral or yellow cell with an X mark shows)
    top = np.maximum(r, 1.0)
    golden = (r > 120) & (b < 0.32 * top) & (g > 0.5 * top) & (g < 0.9 * top) & (distance > 40)
    # ... and more saturated than the cell: an X mark's edge over a yellow cell (after JPEG) has
    # gold's hue, but a blend with gray is always less saturated than the cell itself (measured
    # only on the few gold-coloured pixels)
    if golden.any():
        cell_saturation = np.broadcast_to(saturation(bg) + 0.1, golden.shape)
        golden[golden] = saturation(patches[golden]) > cell_saturation[golden]
    differs = np.clip((distance - INK_FLOOR) / (120.0 - INK_FLOOR), 0, 1)
    if striped is not None and striped.any():
        green_blue = np.maximum(g, b)
        stripe = (r - green_blue >= STRIPE_REDNESS / 2) & (r >= 0.85 * bg[..., 0]) & striped[:, :, None, None]
        differs = differs * ~stripe
    return np.maximum(differs, golden), golden


def cell_features(
    patches: np.ndarray, background: np.ndarray, striped: np.ndarray | None = None
) -> CellFeatures:
    """Marks measured against each cell's own background colour (so hover does not count)."""
    inked, golden = ink_map(patches, background, striped)
    bg = background[:, :, None, None, :].astype(np.float32)
    ink = inked[:, :, CENTRE, CENTRE].mean(axis=(2, 3))
    off = inked[:, :, OFF_DIAGONAL].mean(axis=2)
    weights = np.array([0.299, 0.587, 0.114], np.float32)
    luma, bg_luma = patches @ weights, (bg @ weights)[..., 0]
    ring_dark = (luma[:, :, RING_Y, RING_X] < 0.5 * bg_luma).mean(axis=2)
    return CellFeatures(
        ink, off, golden[:, :, CORE, CORE].mean(axis=(2, 3)), ring_dark,
    )


def _crown_template() -> tuple[np.ndarray, float]:
    """The crown of crown.svg (the practice page's; LinkedIn's has the same three tips and base
    bar) as a normalised shape, and its width over height."""
    scale = 8
    canvas = np.zeros((24 * scale, 24 * scale), np.uint8)
    cv2.fillPoly(canvas, [np.rint(np.array(CROWN_BODY) * scale).astype(np.int32)], 255, cv2.LINE_AA)
    for x, y, radius in CROWN_BALLS:
        cv2.circle(canvas, (round(x * scale), round(y * scale)), round(radius * scale), 255, -1, cv2.LINE_AA)
    x0, y0, x1, y1 = (round(v * scale) for v in CROWN_BAR)
    cv2.rectangle(canvas, (x0, y0), (x1, y1), 255, -1)
    template = normalised_shape(canvas / 255.0)
    assert template is not None
    return template


def normalised_shape(ink: np.ndarray, level: float = 0.5) -> tuple[np.ndarray, float] | None:
    """The inked part of a patch cut to its bounding box and resized to TEMPLATE x TEMPLATE (so
    the match ignores size and position), and that box's width over height; None when blank."""
    return normalised_shapes(ink[None], level)[0]


def normalised_shapes(inks: np.ndarray, level: float) -> list[tuple[np.ndarray, float] | None]:
    """`normalised_shape` of each of a stack of patches (k, S, S), their marks told from what
    touches the patch edge in one labelling of all of them (`_inside_patches`)."""
    inside = _inside_patches(inks >= level)
    rows, cols = np.asarray(inside.any(axis=2)), np.asarray(inside.any(axis=1))
    y0, x0 = rows.argmax(axis=1), cols.argmax(axis=1)
    y1, x1 = rows.shape[1] - rows[:, ::-1].argmax(axis=1), cols.shape[1] - cols[:, ::-1].argmax(axis=1)
    enough = np.count_nonzero(inside, axis=(1, 2)) >= 3
    boxes = zip(y0.tolist(), y1.tolist(), x0.tolist(), x1.tolist())
    return [_shape_in(ink, *box) if ok else None for ink, ok, box in zip(inks, enough.tolist(), boxes)]


def _shape_in(ink: np.ndarray, y0: int, y1: int, x0: int, x1: int) -> tuple[np.ndarray, float]:
    """The box [y0, y1) x [x0, x1) of a patch resized to TEMPLATE x TEMPLATE, and its width over
    height."""
    crop = np.ascontiguousarray(ink[y0:y1, x0:x1], np.float32)
    how = cv2.INTER_AREA if min(crop.shape) >= TEMPLATE else cv2.INTER_LINEAR
    return cv2.resize(crop, (TEMPLATE, TEMPLATE), interpolation=how), (x1 - x0) / (y1 - y0)


def _inside_patches(masks: np.ndarray) -> np.ndarray:
    """The parts of each of a stack of masks (k, S, S) that do not touch its patch's edge: a mark
    lies inside its cell, while a thick border reaching into the cell, or anything crossing it,
    runs off the patch. Labelled at once: stacked with a blank row after each, so that no area
    reaches from one into the next."""
    k, h, w = masks.shape
    stacked = np.zeros((k, h + 1, w), np.uint8)
    stacked[:, :h] = masks
    count, found = cv2.connectedComponents(stacked.reshape(k * (h + 1), w), connectivity=8)
    if count <= 1:
        return masks
    labels = found.reshape(k, h + 1, w)[:, :h]
    touching = np.zeros(count, bool)
    edges = (labels[:, 0], labels[:, -1], labels[:, :, 0], labels[:, :, -1])
    touching[np.concatenate([edge.ravel() for edge in edges])] = True
    touching[0] = False
    return np.asarray(masks & ~touching[labels])


def likeness(shape: tuple[np.ndarray, float] | None, template: tuple[np.ndarray, float]) -> float:
    """How alike two normalised shapes are: their correlation (1 the same, 0 unrelated, a filled
    box 0), less how far their proportions differ beyond a quarter."""
    return _likeness_to(shape, Centred.of(template))


@dataclass(frozen=True)
class Centred:
    """A normalised template shape less its mean, with its own product: what every `likeness`
    with it needs, computed once for many shapes."""

    values: np.ndarray
    square: np.floating
    ratio: float

    @classmethod
    def of(cls, template: tuple[np.ndarray, float]) -> Centred:
        values = template[0].ravel() - template[0].mean()
        return cls(values, values @ values, template[1])


def _likeness_to(shape: tuple[np.ndarray, float] | None, template: Centred) -> float:
    """`likeness` of a shape with a template already centred."""
    if shape is None:
        return 0.0
    a, b = shape[0].ravel() - shape[0].mean(), template.values
    correlation = float(a @ b / max(np.sqrt((a @ a) * template.square), 1e-6))
    return correlation - max(0.0, abs(float(np.log(shape[1] / template.ratio))) - 0.25)


CROWN = _crown_template()


def _x_template() -> tuple[np.ndarray, float]:
    """An X mark: two diagonal strokes a sixth of its size wide, corner to corner."""
    size, width = 64, 64 // 6
    canvas = np.zeros((size + 2 * width, size + 2 * width), np.uint8)  # shapes touching the edge are cut
    low, high = width, size + width
    cv2.line(canvas, (low, low), (high, high), 255, width, cv2.LINE_AA)
    cv2.line(canvas, (low, high), (high, low), 255, width, cv2.LINE_AA)
    template = normalised_shape(canvas / 255.0)
    assert template is not None
    return template


X_MARK = _x_template()
X_CENTRED = Centred.of(X_MARK)


def x_likenesses(
    rgb: np.ndarray, lattice: Lattice, cells: Sequence[tuple[int, int]], background: np.ndarray
) -> list[float]:
    """How much the mark in each of `cells` looks like an X (LinkedIn's are 15% of the cell, the
    practice page's 30%: the middle 40% of the cell is looked at, closely). One ink map for all
    the cells' patches: a board can hold hundreds of X marks."""
    xs, ys, half = lattice.xs, lattice.ys, X_REACH * lattice.pitch
    patches = [_patch_around(rgb, float(xs[c]), float(ys[r]), half) for r, c in cells]
    seen = [(i, patch) for i, patch in enumerate(patches) if patch is not None]
    matches = [0.0] * len(cells)
    if not seen:
        return matches
    rows = np.array([cells[i][0] for i, _ in seen])
    cols = np.array([cells[i][1] for i, _ in seen])
    stacked = np.stack([patch for _, patch in seen]).astype(np.float32)[None]
    inked, _ = ink_map(stacked, background[rows, cols][None])
    for (i, _), shape in zip(seen, normalised_shapes(inked[0], level=0.35)):
        matches[i] = _likeness_to(shape, X_CENTRED)
    return matches


def mark_patch(rgb: np.ndarray, lattice: Lattice, cell: tuple[int, int], reach: float) -> np.ndarray | None:
    """The square of `reach` pitches either side of a cell's centre, resampled to SHAPE_SIDE
    pixels (float RGB); None when the image holds too little of it."""
    r, c = cell
    patch = _patch_around(rgb, float(lattice.xs[c]), float(lattice.ys[r]), reach * lattice.pitch)
    return None if patch is None else patch.astype(np.float32)


def _patch_around(rgb: np.ndarray, cx: float, cy: float, half: float) -> np.ndarray | None:
    """The square of `half` pixels either side of (cx, cy), resampled to SHAPE_SIDE pixels (uint8
    RGB); None when the image holds too little of it."""
    h, w = rgb.shape[:2]
    x0, x1 = max(0, int(round(cx - half))), min(w, int(round(cx + half)))
    y0, y1 = max(0, int(round(cy - half))), min(h, int(round(cy + half)))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    crop = rgb[y0:y1, x0:x1]
    how = cv2.INTER_AREA if min(crop.shape[:2]) >= SHAPE_SIDE else cv2.INTER_LINEAR
    return np.asarray(cv2.resize(crop, (SHAPE_SIDE, SHAPE_SIDE), interpolation=how))


def _disc_patch() -> np.ndarray:
    """The pixels of a mark patch (`mark_patch` at SHAPE_REACH) inside a locked queen's disc."""
    yy, xx = np.mgrid[0:SHAPE_SIDE, 0:SHAPE_SIDE] - (SHAPE_SIDE - 1) / 2
    return np.asarray(np.hypot(xx, yy) < DISC_INSIDE / (2 * SHAPE_REACH) * SHAPE_SIDE)


DISC_PATCH = _disc_patch()  # once, not per crown


def crown_likeness(rgb: np.ndarray, lattice: Lattice, cell: tuple[int, int], background: np.ndarray) -> float:
    """How much the mark in a cell looks like a crown; a locked queen's disc counts by the light
    crown inside it."""
    r, c = cell
    patch = mark_patch(rgb, lattice, cell, SHAPE_REACH)
    if patch is None:
        return 0.0
    inked, _ = ink_map(patch[None, None], background[r : r + 1, c : c + 1])
    best = likeness(normalised_shape(inked[0, 0]), CROWN)
    # a locked queen: the crown is the light inside the dark disc
    luma = patch @ np.array([0.299, 0.587, 0.114], np.float32)
    dark = percentile(luma[DISC_PATCH], 10)
    if dark < 90:
        light = np.clip((luma - dark - 40) / 80, 0, 1) * DISC_PATCH
        best = max(best, likeness(normalised_shape(light), CROWN))
    return best


def rim_ink(
    rgb: np.ndarray, lattice: Lattice, background: np.ndarray,
    regions: Sequence[Sequence[int]] | np.ndarray | None = None,
) -> np.ndarray:
    """Per cell, the share of its rim points that clearly differ from its background: no mark
    reaches there, so ink there is something covering the cell (a tooltip, a pointer, the edge
    of a dialog). Sampled on the image at the lattice's light spans, which resampling would
    shift by up to a pixel in twenty. Sides facing another region (`regions`, (n, n) labels) are
    left out: pages draw thick region borders partly inside the cells."""
    colours, inside = points_at(rgb, lattice, RIM_POINTS)
    distance = np.linalg.norm(colours - background[:, :, None, :], axis=-1)
    counted = inside & sides_within_region(regions, lattice.n)
    return np.asarray(((distance > RIM_INK) & counted).sum(axis=2) / np.maximum(counted.sum(axis=2), 1))


def sides_within_region(regions: Sequence[Sequence[int]] | np.ndarray | None, n: int) -> np.ndarray:
    """(n, n, rim points) bool: rim points on sides that face a cell of the same region, or the
    board's edge (the outer border lies outside the cells)."""
    keep = np.ones((n, n, len(RIM_POINTS)), bool)
    if regions is None:
        return keep
    labels = np.asarray(regions)
    differs = np.zeros((4, n, n), bool)  # facing up, down, left, right
    differs[0, 1:] = labels[1:] != labels[:-1]
    differs[1, :-1] = labels[:-1] != labels[1:]
    differs[2, :, 1:] = labels[:, 1:] != labels[:, :-1]
    differs[3, :, :-1] = labels[:, :-1] != labels[:, 1:]
    for side, points in enumerate(RIM_SIDES):
        keep[differs[side]] &= ~points
    return keep


def classify(features: CellFeatures) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """State per cell, and per cell the score (see vision.reading.margin_score) of each measure
    the state rests on: how far the ink lies from the mark threshold, the shape from the crown /
    X threshold and the ring from the locked-disc threshold."""
    ink, off = features.ink, features.off
    mark = ink >= X_INK
    crown = mark & (off >= CROWN_SHAPE)
    states = np.full(ink.shape, CellState.EMPTY, dtype=object)
    states[mark] = CellState.X
    states[crown] = CellState.QUEEN
    states[crown & (features.ring >= LOCKED_RING)] = CellState.LOCKED
    scores = {
        "ink": _distance_score(ink, X_INK, INK_DOUBT * X_INK),
        "shape": np.where(mark, _distance_score(off, CROWN_SHAPE, SHAPE_DOUBT), 1.0),
        "disc": np.where(crown, _distance_score(features.ring, LOCKED_RING, RING_DOUBT), 1.0),
    }
    return states, scores


def shape_scores(
    rgb: np.ndarray, lattice: Lattice, background: np.ndarray, states: np.ndarray, striped: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, how surely its crown is a crown and its X an X (1 where there is none, and in
    striped cells, whose doubt is already said): dark blobs of other shapes are no queens."""
    crowns, crosses = np.ones(states.shape), np.ones(states.shape)
    marked = [(int(r), int(c)) for r, c in np.argwhere((states != CellState.EMPTY) & ~striped)]
    x_cells = [cell for cell in marked if states[cell] is CellState.X]
    for cell, match in zip(x_cells, x_likenesses(rgb, lattice, x_cells, background)):
        crosses[cell] = margin_score(match, X_MATCH_ZERO, X_MATCH_SURE, X_MATCH_FULL)
    for cell in marked:
        if states[cell] is not CellState.X:
            match = crown_likeness(rgb, lattice, cell, background)
            crowns[cell] = margin_score(match, CROWN_MATCH_ZERO, CROWN_MATCH_SURE, CROWN_MATCH_FULL)
    return crowns, crosses


def _distance_score(values: np.ndarray, threshold: float, doubt: float) -> np.ndarray:
    """A measure's score by its distance from the threshold it is judged by: CONFIDENT at the
    edge of the doubt band, 1 at twice that."""
    return margin_score(np.abs(values - threshold) / doubt, 0.0, 1.0, 2.0)


def read_states(
    rgb: np.ndarray, lattice: Lattice, background: np.ndarray, striped: Sequence[tuple[int, int]] = (),
    regions: tuple[tuple[int, ...], ...] | None = None,
) -> StateReading:
    """States of all cells, whether the crowns are gold, and the margins they rest on; `striped`
    cells show red conflict stripes (what remains of them is not read as a mark); `regions`
    (labels per cell) say where thick borders may reach into cells."""
    mask = np.zeros(background.shape[:2], bool)
    for r, c in striped:
        mask[r, c] = True
    features = cell_features(resample_cells(rgb, lattice), background, mask)
    states, scores = classify(features)
    rim = rim_ink(rgb, lattice, background, regions)
    rim = np.where(states == CellState.LOCKED, rim / 2, rim)  # a small disc's blur may reach it
    scores["rim"] = margin_score(rim, RIM_ZERO, RIM_SURE, RIM_FULL)
    crowns = states == CellState.QUEEN
    solved_look = bool(crowns.any() and (features.gold[crowns] >= GOLD_QUEEN).mean() > 0.5)
    scores["crown"], scores["cross"] = shape_scores(rgb, lattice, background, states, mask)
    scores["rim"] = np.where(mask, 1.0, scores["rim"])  # stripes reach the edge (and are doubted)
    scores["dark"] = dark_cell_scores(background)
    odd = (scores["crown"] < CONFIDENT) | (scores["cross"] < CONFIDENT)
    letters: list[Margin] = []
    if looks_lettered(odd, regions):
        # one cause for all those doubts: name it, not each of them
        lettered = min(float(scores.pop(what).min()) for what in ("crown", "cross", "shape"))
        letters.append(Margin("letters", lettered, LETTERS.format(count=int(odd.sum()))))
    margins = (*letters, *(_state_margin(what, score) for what, score in scores.items()))
    return StateReading(tuple(tuple(row) for row in states.tolist()), solved_look, margins)


def looks_lettered(odd: np.ndarray, regions: tuple[tuple[int, ...], ...] | None) -> bool:
    """Whether the marks that are neither an X nor a crown (`odd`, per cell) are letters over the
    board: in more cells than a board has queens, and in most regions (a tooltip or a pointer
    covers a few cells in one place)."""
    n = odd.shape[0]
    if regions is None or odd.sum() <= n:
        return False
    labels = np.asarray(regions)
    return len(set(labels[odd].tolist())) * 2 > len(set(labels.ravel().tolist()))


def dark_cell_scores(background: np.ndarray) -> np.ndarray:
    """Per cell, how surely a dark mark would show on its colour (0 on a cell too dark for it)."""
    luma = background.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    return margin_score(luma, DARK_CELL_ZERO, DARK_CELL_SURE, DARK_CELL_FULL)


def states_only(
    rgb: np.ndarray, lattice: Lattice, background: np.ndarray
) -> tuple[tuple[CellState, ...], ...]:
    """The states `read_states` gives, without the margins that say how sure each one is.

    What a second look at a known board needs while the page is still repainting: the margins'
    crown and X shape matching is most of a full reading's cost (one template match per mark),
    and every millisecond of it is taken from the browser that has our clicks to handle."""
    features = cell_features(resample_cells(rgb, lattice), background)
    states, _ = classify(features)
    return tuple(tuple(row) for row in states.tolist())


LETTERS = (
    "{count} cells in most regions show marks that are neither an X nor a crown: letters in the "
    "cells? (the page's option that prints region letters in them: turn it off and run again)"
)
STATE_DOUBTS = {
    "ink": "marks hard to read (faint or noisy ink) at {cells}",
    "shape": "marks hard to tell apart (X or crown) at {cells}",
    "disc": "crowns hard to tell apart (player's or locked) at {cells}",
    "cross": "marks at {cells} are neither an X nor a crown",
    "rim": "something covers cells {cells} (ink reaches their edges)",
    "crown": "dark shapes at {cells} are not crowns",
    "dark": (
        "cells {cells} are too dark to see an X mark on (pages draw their cells light: is the "
        "browser's forced dark mode or a colour filter on? turn it off)"
    ),
}


def _state_margin(what: str, score: np.ndarray) -> Margin:
    """One state measure's weakest cells as a Margin naming them."""
    weak = [(int(r), int(c)) for r, c in np.argwhere(score < CONFIDENT)]
    if not weak:
        r, c = np.unravel_index(int(np.argmin(score)), score.shape)
        weak = [(int(r), int(c))]
    names = ", ".join(cell_name(cell) for cell in weak[:6])
    if len(weak) > 6:
        names += f" (+{len(weak) - 6} more)"
    return Margin(what, float(score.min()), STATE_DOUBTS[what].format(cells=names))
