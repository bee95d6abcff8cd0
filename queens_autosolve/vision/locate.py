"""Finding the main board in an image: the light cells between dark grid lines, grouped into one
square lattice. No palette and no screen size are assumed: cells are whatever light, square,
equal-sized blobs sit side by side at a regular pitch.

Only a whole board is located: its outer frame line closes all four sides with page beyond (or,
in a tight crop, the image edge right after an equally thick frame on all four). A board the image
edge cuts would otherwise read as a smaller, complete one (BoardCutOff); round buttons are no cells;
a second board beside the main one is a refusal (LinkedIn's small example boards below it are not).

Vocabulary: a *blob* is a connected light area (a candidate cell), a *lattice* is the fitted grid
of N x N cells, *pitch* the distance between neighbouring cell centres in pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from queens_autosolve.capture.geometry import Rect
from queens_autosolve.vision.frame import (
    cut_off,
    cut_sides,
    frame_sides,
    judge_sides,
    short_sides,
    thickest_line,
)
from queens_autosolve.vision.lattice import Blobs, Lattice
from queens_autosolve.vision.merged import (
    MIN_UNIT_SHARE,
    Areas,
    Unit,
    areas_among,
    split_merged,
    unit_share,
    units_of_strips,
)
from queens_autosolve.vision.outlines import Outlines, contour_areas, outlines_of
from queens_autosolve.vision.reading import BoardNotFound, GridNotSquare, TwoBoards
from queens_autosolve.vision.shades import KERNEL, Shades, compare_with
from queens_autosolve.vision.sizes import MAX_N, MIN_N
from queens_autosolve.vision.stats import group_medians, run_medians
from queens_autosolve.vision.stats import median as array_median
from queens_autosolve.vision.tight import tight_crop_lattice

# Larger images are searched at reduced size; the board is then re-read from a full-size crop.
SEARCH_SIDE = 2000
MIN_CELL = 6  # px at search scale: smaller blobs are text counters and icons, not cells

LOCAL_DARK = 14  # levels darker than the lightest pixel within two: a line, even a faint one
DARK = 100  # luma below this is a line or a dark page whatever surrounds it
# ... unless the cells themselves are dark (a browser's forced dark mode darkens the lightest region
# colours to luma 38-56): where the grid seen misses whole lines of cells, it is looked for again
# with only near-black counted as dark (borders and lines there: 0-24)
DARK_CELLS = 30


def light_mask(shades: Shades, stripes: bool = False, dark: int = DARK) -> np.ndarray:
    """Pixels that are neither grid lines nor marks: not darker than their surroundings, not dark.

    The local test (how much darker a pixel is than the lightest pixel within two) catches thin
    anti-aliased lines at small zoom, also next to a dark page where a local mean would be
    dragged down; the absolute test catches thick borders. (One dilation: a closing would be
    exact at the edges of cells, but costs twice as much and changes nothing that matters.)
    """
    if not stripes:
        return _light_without_stripes(shades, dark)
    # not a line: not(line and not stripe) = not line, or stripe (two whole-image passes fewer)
    no_line = compare_with(shades.local_dark, LOCAL_DARK, cv2.CMP_LT)
    no_line = cv2.bitwise_or(no_line, shades.stripes)  # red conflict stripes are not lines
    return cv2.bitwise_and(no_line, compare_with(shades.gray, dark, cv2.CMP_GT))


def _light_without_stripes(shades: Shades, dark: int) -> np.ndarray:
    """`light_mask` where stripes count as lines, in one new array (each new whole-image array
    costs page faults in a fresh process): a pixel is light when its luma exceeds both `dark`
    and the lightest within two less LOCAL_DARK (the same test, as lightest - gray < LOCAL_DARK
    holds exactly when gray > lightest - LOCAL_DARK, and the saturating subtraction only clips
    below 0 <= dark)."""
    bound = cv2.dilate(shades.gray, KERNEL)  # the lightest within two pixels
    # (stubs lack the scalar forms of subtract and max)
    cv2.subtract(bound, LOCAL_DARK, dst=bound)  # type: ignore[call-overload]
    cv2.max(bound, dark, dst=bound)  # type: ignore[call-overload]
    return np.asarray(cv2.compare(shades.gray, bound, cv2.CMP_GT, dst=bound))


def stripes_on_lines(shades: Shades) -> bool:
    """True when a pixel of red conflict stripes lies on a grid line: only then does taking the
    stripes out of the lines (`light_mask`'s `stripes`) change the light mask, and so what
    `locate` finds. Where it does not, locating again with `stripes` repeats the first search
    exactly: skipping it saves a whole board search on most refused images."""
    line = compare_with(shades.local_dark, LOCAL_DARK, cv2.CMP_GE)
    return cv2.countNonZero(cv2.bitwise_and(line, shades.stripes)) > 0


def shrink_mask(mask: np.ndarray, factor: int) -> np.ndarray:
    """The light mask `factor` times smaller, where a pixel stays light only if all it covers was
    light: thin lines survive the reduction instead of fading into the cells. (A whole-number
    factor: OpenCV's area reduction is many times faster then.)"""
    h, w = mask.shape[0] // factor, mask.shape[1] // factor
    small = cv2.resize(mask[: h * factor, : w * factor], (w, h), interpolation=cv2.INTER_AREA)
    return compare_with(small, 254, cv2.CMP_GT)


def find_blobs(mask: np.ndarray, min_cell: int = MIN_CELL) -> Blobs:
    """Light, square, compact connected areas: every cell of every board, plus some noise.

    Outer contours (not labelled components) because they are several times faster here, and
    their area ignores the holes that crowns and X marks punch in a cell.
    """
    return _blobs_among(outlines_of(mask), mask.shape, min_cell)


def _blobs_among(outlines: Outlines, shape: tuple[int, ...], min_cell: int) -> Blobs:
    """The blobs (see `find_blobs`) among the outlines of a mask of `shape`.

    A cell the image edge cuts a little (up to 30% of it: a tight crop, a window edge) counts,
    with its box restored to a square beyond that edge: its centre and size are those of the
    whole cell, so it joins its board's grid (and the frame checks see the edge cut it)."""
    limit = 0.6 * min(shape[:2])
    x, y, w, h = outlines.boxes.T
    cut_x = ((x == 0) | (x + w == shape[1])) & (w < h) & (w * 10 >= h * 7)
    cut_y = ((y == 0) | (y + h == shape[0])) & (h < w) & (h * 10 >= w * 7)
    # the box tests first, on all outlines at once: few outlines pass them
    squarish = (
        (outlines.parents < 0)  # not the edge of a hole
        & (min_cell <= w) & (w < limit) & (min_cell <= h) & (h < limit)
        & (((w * 4 < h * 5) & (h * 4 < w * 5)) | cut_x | cut_y)
    )
    boxes = []
    candidates = np.flatnonzero(squarish)
    areas = contour_areas([outlines.contours[i] for i in candidates.tolist()])
    for i, area in zip(candidates.tolist(), areas.tolist()):
        contour, (bx, by, bw, bh) = outlines.contours[i], outlines.boxes[i].tolist()
        if area * 10 < bw * bh * 7:
            continue  # not a filled square: an L of merged cells, a ring, a letter
        if not _is_square(contour, bw, bh):
            continue  # a disc (a round button passes the area test: 78.5% of its box)
        boxes.append(_restored((bx, by, bx + bw, by + bh), shape))
    box_array = np.array(boxes, dtype=np.int64).reshape(-1, 4)
    # centre of the bounding box, not of the pixels: crowns and X marks punch holes off-centre
    return Blobs(box_array, (box_array[:, :2] + box_array[:, 2:]) / 2.0)


def _restored(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """A blob's box (x0, y0, x1, y1) made square beyond the image edge that cuts it short."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w * 4 < h * 5 and h * 4 < w * 5:
        return box  # square enough: as found
    if w < h:
        return (x1 - h, y0, x1, y1) if x0 == 0 else (x0, y0, x0 + h, y1)
    return (x0, y1 - w, x1, y1) if y0 == 0 else (x0, y0, x1, y0 + w)


ROUND_FILL = 0.8  # of its box, a disc's convex outline fills 78.5%; a cell's (even notched) more


def _is_square(contour: np.ndarray, w: int, h: int) -> bool:
    """True when the blob's convex outline fills its box as a square does, not as a disc or a
    round button. (The hull, not the outline: JPEG ringing at line crossings notches a small
    cell's corners, which the hull bridges.)"""
    return cv2.contourArea(cv2.convexHull(contour)) > ROUND_FILL * w * h


def group_boards(blobs: Blobs) -> list[np.ndarray]:
    """Indices of blobs forming each grid: same size, side by side at about one cell's pitch."""
    k = len(blobs.boxes)
    if k == 0:
        return []
    labels = _components(k, *_neighbour_pairs(blobs))
    counts = np.bincount(labels, minlength=k)
    # groups in the order of their first blob, each blob's indices ascending
    return [np.flatnonzero(labels == first) for first in np.flatnonzero(counts >= MIN_N * 2)]


# Two blobs are neighbouring cells when, in units of the smaller one's size: they lie within
# NEIGHBOUR_REACH both ways, their sizes differ by less than SAME_SIZE, and one is at least
# NEXT_CELL away along a row or column and less than IN_LINE off it.
NEIGHBOUR_REACH = 1.6
SAME_SIZE = 0.25
NEXT_CELL = 0.95
IN_LINE = 0.3


def _neighbour_pairs(blobs: Blobs) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (i, j), both ways, of blobs of about one size side by side at about their pitch.

    Any such pair lies within NEIGHBOUR_REACH both ways: that is tested on all k x k pairs first,
    and the other tests (the same expressions, so the same decisions) only on the few pairs within
    (k is 60-300 blobs: see docs/notes.md)."""
    size = blobs.sizes
    cx, cy = blobs.centres[:, 0], blobs.centres[:, 1]
    adx, ady = np.abs(cx[None, :] - cx[:, None]), np.abs(cy[None, :] - cy[:, None])
    s = np.minimum(size[:, None], size[None, :])
    a, b = np.nonzero((adx < NEIGHBOUR_REACH * s) & (ady < NEIGHBOUR_REACH * s))
    adx, ady, s = adx[a, b], ady[a, b], s[a, b]
    similar = np.abs(size[a] - size[b]) < SAME_SIZE * s
    step_x = (adx > NEXT_CELL * s) & (ady < IN_LINE * s)
    step_y = (ady > NEXT_CELL * s) & (adx < IN_LINE * s)
    keep = similar & (step_x | step_y)
    return a[keep], b[keep]


def _components(k: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per node of a graph with k nodes and the edges (a, b) (listed both ways), the smallest node
    of its connected component: the least label is passed along the edges, with labels taking
    their label's label (pointer jumping: in numpy, faster than a Python union-find; docs/notes.md)."""
    labels = np.arange(k)
    while True:
        passed = labels.copy()
        np.minimum.at(passed, a, labels[b])
        passed = passed[passed]
        if np.array_equal(passed, labels):
            return labels
        labels = passed


def _axis_positions(values: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, float]:
    """Split blob centres along one axis into lines (columns or rows): each blob's line index
    counted from the first line, and the pitch."""
    order = np.argsort(values)
    v = values[order]
    tol = 0.5 * float(array_median(sizes))
    breaks = np.nonzero(np.diff(v) > tol)[0]
    starts = np.concatenate([[0], breaks + 1])
    ends = np.concatenate([breaks + 1, [len(v)]])
    lines = run_medians(v, starts, ends)
    if len(lines) < 2:
        raise BoardNotFound("no grid found: the light cells do not form rows and columns")
    steps = np.diff(lines)
    pitch = float(array_median(steps[steps < 1.5 * steps.min()]))
    line_index = np.rint((lines - lines[0]) / pitch).astype(int)
    index = np.empty(len(values), dtype=int)
    index[order] = np.repeat(line_index, ends - starts)
    return index, pitch


def _spans(lo: np.ndarray, hi: np.ndarray, index: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per line, the median light span of its blobs; lines with no blob are interpolated."""
    left, right = group_medians(lo, index, n), group_medians(hi, index, n)
    known = ~np.isnan(left)
    at = np.arange(n)
    left = np.interp(at, at[known], left[known]) if not known.all() else left
    right = np.interp(at, at[known], right[known]) if not known.all() else right
    if known.sum() >= 2 and not known.all():
        # np.interp holds the ends flat; extrapolate the missing end lines at the pitch instead
        a, b = np.polyfit(at[known], (left[known] + right[known]) / 2, 1)
        half = float(array_median(right[known] - left[known])) / 2
        for i in np.nonzero(~known)[0]:
            left[i], right[i] = a * i + b - half, a * i + b + half
    return left, right


def fit_lattice(blobs: Blobs, members: np.ndarray, mask: np.ndarray) -> Lattice:
    """The N x N grid the member blobs lie on; BoardNotFound when they are not a whole square board."""
    boxes = blobs.boxes[members]
    centres = blobs.centres[members]
    sizes = blobs.sizes[members]
    col, _ = _axis_positions(centres[:, 0], sizes)
    row, _ = _axis_positions(centres[:, 1], sizes)
    cols, rows = int(col.max()) + 1, int(row.max()) + 1
    left, right = _spans(boxes[:, 0].astype(float), boxes[:, 2].astype(float), col, cols)
    top, bottom = _spans(boxes[:, 1].astype(float), boxes[:, 3].astype(float), row, rows)
    left, right = _uncut(left, right, mask.shape[1])
    top, bottom = _uncut(top, bottom, mask.shape[0])
    if cols == rows - 1:
        left, right = _extend(mask, left, right, top, bottom, across=False)
    elif rows == cols - 1:
        top, bottom = _extend(mask, top, bottom, left, right, across=True)
    cols, rows = len(left), len(top)
    if cols != rows:
        cut = cut_sides(mask, Lattice(cols, left, right, top, bottom, 0.0))
        if cut:
            raise cut_off(short_sides(cut, cols, rows, float(array_median(sizes))))
        raise GridNotSquare(f"no whole board found: the grid shows {cols} columns but {rows} rows")
    n = cols
    if not MIN_N <= n <= MAX_N:
        raise BoardNotFound(f"no board found: a {n}x{n} grid is outside {MIN_N}..{MAX_N}")
    found = len({(int(r), int(c)) for r, c in zip(row, col)}) / (n * n)
    if found < 0.5:
        raise BoardNotFound(f"no clear board found: only {found:.0%} of the {n}x{n} cells were seen")
    return Lattice(n, left, right, top, bottom, found)


def _uncut(lo: np.ndarray, hi: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """Spans of the first and last line restored to full width where the image edge cuts them
    (a tight crop can shave a few pixels off the outer cells): centres stay true."""
    if len(lo) < 3:
        return lo, hi
    width = float(array_median(hi[1:-1] - lo[1:-1]))
    lo, hi = lo.copy(), hi.copy()
    if lo[0] <= 1 and hi[0] - lo[0] < width:
        lo[0] = hi[0] - width
    if hi[-1] >= limit - 1 and hi[-1] - lo[-1] < width:
        hi[-1] = lo[-1] + width
    return lo, hi


# What `_extend` looks at, as shares of a cell's width (span) or pitch: the cell's light edges
# (CELL_EDGES across, EDGE_HALF_HEIGHT up and down), and the part of a grid line between two
# cells that must be dark (LINE_SPAN). A cell is light when those edges are brighter than
# LIGHT_CELL (of white); a line dark when its darkest pixels average below DARK_LINE; a new line
# of cells is taken when at least SEEN_SHARE of its cells and of its grid lines show so.
CELL_EDGES = (0.15, 0.2, 0.8, 0.85)
EDGE_HALF_HEIGHT = 0.2
LINE_SPAN = (0.3, 0.7)
LIGHT_CELL = 0.6
DARK_LINE = 0.5
SEEN_SHARE = 0.8


def _extend(
    mask: np.ndarray, lo: np.ndarray, hi: np.ndarray, other_lo: np.ndarray, other_hi: np.ndarray, across: bool
) -> tuple[np.ndarray, np.ndarray]:
    """One more line of cells (column, or row when `across`) before or after the seen ones, when
    the image shows cells there: light centres with grid lines between them. Cells whose thin
    lines blurred away (small zoom, JPEG) merge into blobs that are not square, and can take a
    whole edge line with them."""
    view = mask.T if across else mask  # work on columns; rows are columns of the transposed mask
    pitch = float(array_median(np.diff((lo + hi) / 2))) if len(lo) > 1 else float(hi[0] - lo[0])
    mids = (other_lo + other_hi) / 2
    gaps = (other_hi[:-1] + other_lo[1:]) / 2
    best = None
    for side in (-1, 1):
        at = (lo[0] if side < 0 else lo[-1]) + side * pitch
        span = float(hi[0] - lo[0])
        x0, x1 = int(round(at + LINE_SPAN[0] * span)), int(round(at + LINE_SPAN[1] * span))
        if at < 0 or at + span > view.shape[1]:
            continue
        # light near the cell's left and right edges (crowns and discs sit in the middle)
        edge_x = [int(round(at + f * span)) for f in CELL_EDGES]
        half = max(1, int(EDGE_HALF_HEIGHT * pitch))
        # (an outer cell a tight crop cuts may start before the image: its rows are clamped to it)
        light = np.mean([
            view[max(0, int(y) - half) : max(1, int(y) + half + 1), edge_x].mean() / 255 > LIGHT_CELL
            for y in mids
        ])
        lines = np.mean([
            view[max(0, int(round(y)) - 1) : max(1, int(round(y)) + 2), x0:x1].min(axis=0).mean() / 255
            < DARK_LINE
            for y in gaps
        ])
        if light >= SEEN_SHARE and lines >= SEEN_SHARE and (best is None or light + lines > best[0]):
            best = (light + lines, side, at, span)
    if best is None:
        return lo, hi
    _, side, at, span = best
    if side < 0:
        return np.concatenate([[at], lo]), np.concatenate([[at + span], hi])
    return np.concatenate([lo, [at]]), np.concatenate([hi, [at + span]])


# An example board's cells are smaller than this share of the main board's (0.6 beside a 14x14),
# or the example is at most this share of the main board's width and height: on an 18x18 board
# at 67% zoom the examples' cells are 0.78 of the board's, the examples 0.22 of its width.
EXAMPLE_CELLS = 0.75
EXAMPLE_SPAN = 0.5


def _group_box(blobs: Blobs, members: np.ndarray) -> np.ndarray:
    """The bounding box (x0, y0, x1, y1) of a group of blobs."""
    boxes = blobs.boxes[members]
    return np.concatenate([boxes[:, :2].min(axis=0), boxes[:, 2:].max(axis=0)])


def _is_board_shaped(blobs: Blobs, members: np.ndarray) -> bool:
    """True when a group spans at least MIN_N cells both ways (a row of tiles is no board)."""
    x0, y0, x1, y1 = _group_box(blobs, members)
    size = float(array_median(blobs.sizes[members]))
    return bool(min(x1 - x0, y1 - y0) >= (MIN_N - 0.5) * size)


def _is_example_below(blobs: Blobs, main: np.ndarray, other: np.ndarray) -> bool:
    """True for LinkedIn's small example boards (How to play), below the main board: with much
    smaller cells, or with cells no larger and a small board as a whole (beside a big board the
    main board's cells shrink to nearly the examples' size)."""
    box, main_box = _group_box(blobs, other), _group_box(blobs, main)
    if box[1] < main_box[3]:
        return False
    cells, main_cells = float(array_median(blobs.sizes[other])), float(array_median(blobs.sizes[main]))
    if cells < EXAMPLE_CELLS * main_cells:
        return True
    small = np.all(box[2:] - box[:2] <= EXAMPLE_SPAN * (main_box[2:] - main_box[:2]))
    return cells <= main_cells and bool(small)


def _overlaps(blobs: Blobs, main: np.ndarray, other: np.ndarray) -> bool:
    """True when a group lies within the main board's box: part of it (split by a damaged row)."""
    a, b = _group_box(blobs, main), _group_box(blobs, other)
    return bool(b[0] < a[2] and a[0] < b[2] and b[1] < a[3] and a[1] < b[3])


@dataclass(frozen=True)
class VisibleCells:
    """The main board's cells that show, cut off or not: their box and the centre of the one
    nearest its middle (a point on the page that shows the board, where a wheel turn scrolls
    that page), image pixels."""

    box: Rect
    middle: tuple[float, float]
    cell: float  # the cells' median size, px


def visible_cells(shades: Shades) -> VisibleCells | None:
    """The main board's cells that show (`VisibleCells`), or None when no grid of cells shows."""
    blobs = find_blobs(light_mask(shades))
    try:
        members = _main_of(blobs, group_boards(blobs))
    except BoardNotFound:
        return None
    x0, y0, x1, y1 = (int(v) for v in _group_box(blobs, members))
    centres = blobs.centres[members]
    nearest = int(np.argmin(np.hypot(centres[:, 0] - (x0 + x1) / 2, centres[:, 1] - (y0 + y1) / 2)))
    middle = (float(centres[nearest, 0]), float(centres[nearest, 1]))
    return VisibleCells(Rect(x0, y0, x1 - x0, y1 - y0), middle, float(np.median(blobs.sizes[members])))


def main_board(blobs: Blobs) -> np.ndarray:
    """The blobs of the largest grid; BoardNotFound when there is none, or when another board
    shows beside it (only LinkedIn's small example boards below the main one are let be)."""
    return _main_of(blobs, group_boards(blobs))


def _main_of(blobs: Blobs, groups: list[np.ndarray]) -> np.ndarray:
    """`main_board` among the blobs' grids (`group_boards`)."""
    if not groups:
        raise BoardNotFound("no board found: no grid of square cells in the image")
    areas = [float(np.prod(np.diff(_group_box(blobs, g).reshape(2, 2), axis=0))) for g in groups]
    best = int(np.argmax(areas))
    main = groups[best]
    if len(main) < 2 * MIN_N:
        raise BoardNotFound("no board found: no grid of square cells in the image")
    for i, other in enumerate(groups):
        if i == best or not _is_board_shaped(blobs, other) or _overlaps(blobs, main, other):
            continue
        if not _is_example_below(blobs, main, other):
            raise TwoBoards(
                "two boards found in the image; crop it to the one to read, or close the other"
            )
    return main


# --- cells whose lines vanished: at fractional zoom a browser can drop a 1 px cell line ------

MAX_UNITS = 3  # cell sizes tried from grids of clean cells, the largest grids first


def unit_of(blobs: Blobs, members: np.ndarray) -> Unit:
    """The cell size and pitch of a grid of clean cells (a whole board or a piece of one)."""
    centres, sizes = blobs.centres[members], blobs.sizes[members]
    _, pitch_x = _axis_positions(centres[:, 0], sizes)
    _, pitch_y = _axis_positions(centres[:, 1], sizes)
    return Unit(float(array_median(sizes)), (pitch_x + pitch_y) / 2)


def fit_board(mask: np.ndarray, min_cell: int = MIN_CELL) -> Lattice:
    """The main board's lattice in `mask` (its frame not yet checked).

    When the clean cells do not make one whole board, or leave cells unseen, merged cells are
    split by each likely cell size in turn (each grid of clean cells, largest first, and the
    strips), and the board covering the most area (then the finest lattice) is taken. A cell
    size counts only where the board itself shows it, in clean cells or strips one cell across,
    on a good share of its cells: a board of large cells beside one of small cells is not a
    board of small cells. If no board is found that way, the first answer stands."""
    outlines = outlines_of(mask)  # found once for the blobs and (when needed) the light areas
    blobs = _blobs_among(outlines, mask.shape, min_cell)
    groups = group_boards(blobs)  # for the main board and (when needed) the likely cell sizes
    first: BoardNotFound | None = None
    lattice: Lattice | None = None
    try:
        lattice = fit_lattice(blobs, _main_of(blobs, groups), mask)
    except BoardNotFound as error:
        first = error
    if lattice is not None and lattice.found >= 1.0:
        return lattice
    best = lattice
    areas = areas_among(outlines, min_cell)
    for unit in _likely_units(blobs, groups, areas):
        try:
            split = split_merged(areas, blobs, unit)
            mended = fit_lattice(split, main_board(split), mask)
        except BoardNotFound:
            continue
        if unit_share(blobs, areas, unit, mended) < MIN_UNIT_SHARE:
            continue  # the cell size of some other grid (an example board), not of this one
        if best is None or _is_better(mended, best):
            best = mended
    if best is None:
        assert first is not None
        raise first
    return best


def _likely_units(blobs: Blobs, groups: list[np.ndarray], areas: Areas) -> list[Unit]:
    """Cell sizes to split merged cells by: each grid of clean cells (`groups`, largest first),
    then the strips."""
    boxes = [_group_box(blobs, g) for g in groups]
    order = np.argsort([-(b[2] - b[0]) * (b[3] - b[1]) for b in boxes])
    return [unit_of(blobs, groups[i]) for i in order[:MAX_UNITS]] + units_of_strips(areas)


def _is_better(a: Lattice, b: Lattice) -> bool:
    """Which of two lattices is the board: the clearly larger in area, else the finer, else the
    fuller (two fits of one board differ in area by a few pixels)."""
    area_a, area_b = _area(a), _area(b)
    if area_a > SAME_AREA * area_b or area_b > SAME_AREA * area_a:
        return area_a > area_b
    return (a.n, a.found) > (b.n, b.found)


SAME_AREA = 1.1


def _area(lattice: Lattice) -> float:
    return float((lattice.right[-1] - lattice.left[0]) * (lattice.bottom[-1] - lattice.top[0]))


def locate(shades: Shades, stripes: bool = False, dark_cells: bool = False, still: bool = False) -> Lattice:
    """The main board's lattice in full-image pixel coordinates; with `stripes`, red conflict
    stripes are first taken out of the grid lines (costs a few milliseconds); with `dark_cells`,
    dark areas between lines count as cells too (only DARK_CELLS and below is a line or border);
    with `still` (an image file, not a live window), a tight crop of the board is taken as whole
    (the lattice says so: `tight_crop`; vision/tight.py).

    Large images are searched at reduced size (speed), then the board is re-fitted on a
    full-resolution crop around what the search found (accuracy).
    """
    h, w = shades.shape
    mask = light_mask(shades, stripes)
    cells = light_mask(shades, stripes, DARK_CELLS) if dark_cells else mask
    factor = -(-max(h, w) // SEARCH_SIDE)
    if factor == 1:
        return framed(mask, fit_board(cells), still, shades.gray)
    scale = 1 / factor
    small = shrink_mask(cells, factor)
    rough = fit_board(small, min_cell=max(4, round(MIN_CELL * scale * 1.5)))
    x, y, bw, bh = rough.box(small.shape).as_tuple()
    margin = rough.pitch
    x0 = max(0, int((x - margin) / scale))
    y0 = max(0, int((y - margin) / scale))
    x1 = min(w, int((x + bw + margin) / scale) + 1)
    y1 = min(h, int((y + bh + margin) / scale) + 1)
    crop = np.ascontiguousarray(cells[y0:y1, x0:x1])
    lattice = fit_board(crop)
    if lattice.n != rough.n:
        raise BoardNotFound(
            f"board size unclear: {rough.n}x{rough.n} at reduced size, {lattice.n}x{lattice.n} at full size"
        )
    return framed(mask, lattice.shifted(x0, y0), still, shades.gray)


def framed(mask: np.ndarray, lattice: Lattice, still: bool, gray: np.ndarray) -> Lattice:
    """`lattice` once its frame shows it whole (or, in a still, a tight crop of it), else
    BoardCutOff or BoardNotFound."""
    sides = frame_sides(mask, lattice, gray)
    tight = tight_crop_lattice(mask, lattice, sides) if still else None
    if tight is not None:
        return tight
    judge_sides(sides, thickest_line(lattice))
    return lattice
