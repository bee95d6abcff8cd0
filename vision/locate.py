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

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frame import check_frame, cut_off, cut_sides, short_sides
from vision.lattice import Blobs, Lattice
from vision.reading import BoardNotFound, GridNotSquare, TwoBoards
from vision.shades import Shades, compare_with
from vision.stats import list_median
from vision.stats import median as array_median

# Larger images are searched at reduced size; the board is then re-read from a full-size crop.
SEARCH_SIDE = 2000
MIN_CELL = 6  # px at search scale: smaller blobs are text counters and icons, not cells
MIN_N, MAX_N = 4, 30


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
    # not a line: not(line and not stripe) = not line, or stripe (two whole-image passes fewer)
    no_line = compare_with(shades.local_dark, LOCAL_DARK, cv2.CMP_LT)
    if stripes:  # red conflict stripes are not lines
        no_line = cv2.bitwise_or(no_line, shades.stripes)
    return cv2.bitwise_and(no_line, compare_with(shades.gray, dark, cv2.CMP_GT))


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


@dataclass(frozen=True)
class Outlines:
    """A mask's contours (outer edges of light areas and edges of their holes), per contour its
    bounding box (x, y, w, h) and the index of the light area a hole's edge belongs to (-1 for an
    outer edge). Blobs and light areas are both found among them: one search for both."""

    contours: Sequence[np.ndarray]
    boxes: np.ndarray  # int (K, 4)
    parents: np.ndarray  # int (K,)


def outlines_of(mask: np.ndarray) -> Outlines:
    """The outlines of the light areas in `mask` and of their holes."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return Outlines((), np.zeros((0, 4), np.int64), np.zeros(0, np.int64))
    return Outlines(contours, _bounding_boxes(contours), hierarchy[0][:, 3].astype(np.int64))


def _bounding_boxes(contours: Sequence[np.ndarray]) -> np.ndarray:
    """`cv2.boundingRect` of every contour (x, y, w, h), at once: a page has hundreds of contours
    (text, icons, noise), and a Python loop over them was a third of the blob search (profiled)."""
    points = np.concatenate(contours).reshape(-1, 2).astype(np.int64)
    starts = np.zeros(len(contours), np.int64)
    np.cumsum(np.fromiter(map(len, contours), np.int64, len(contours))[:-1], out=starts[1:])
    low = np.minimum.reduceat(points, starts, axis=0)
    high = np.maximum.reduceat(points, starts, axis=0)
    return np.concatenate([low, high - low + 1], axis=1)


def find_blobs(mask: np.ndarray, min_cell: int = MIN_CELL) -> Blobs:
    """Light, square, compact connected areas: every cell of every board, plus some noise.

    Outer contours (not labelled components) because they are several times faster here, and
    their area ignores the holes that crowns and X marks punch in a cell.
    """
    return _blobs_among(outlines_of(mask), min(mask.shape), min_cell)


def _blobs_among(outlines: Outlines, side: int, min_cell: int) -> Blobs:
    """The blobs (see `find_blobs`) among a mask's outlines; `side`: the mask's smaller side."""
    limit = 0.6 * side
    _, _, w, h = outlines.boxes.T
    # the box tests first, on all outlines at once: few outlines pass them
    squarish = (
        (outlines.parents < 0)  # not the edge of a hole
        & (min_cell <= w) & (w < limit) & (min_cell <= h) & (h < limit) & (w * 4 < h * 5) & (h * 4 < w * 5)
    )
    boxes = []
    for i in np.flatnonzero(squarish).tolist():
        contour, (bx, by, bw, bh) = outlines.contours[i], outlines.boxes[i].tolist()
        if cv2.contourArea(contour) * 10 < bw * bh * 7:
            continue  # not a filled square: an L of merged cells, a ring, a letter
        if not _is_square(contour, bw, bh):
            continue  # a disc (a round button passes the area test: 78.5% of its box)
        boxes.append((bx, by, bx + bw, by + bh))
    box_array = np.array(boxes, dtype=np.int64).reshape(-1, 4)
    # centre of the bounding box, not of the pixels: crowns and X marks punch holes off-centre
    return Blobs(box_array, (box_array[:, :2] + box_array[:, 2:]) / 2.0)


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


def _neighbour_pairs(blobs: Blobs) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (i, j), both ways, of blobs of about one size side by side at about their pitch.

    Any such pair lies within 1.6 cells both ways: that is tested on all k x k pairs first, and
    the other tests (the same expressions, so the same decisions) only on the few pairs within.
    (k is 60-300: all tests on all pairs cost half as much again, measured on the test images.)"""
    size = blobs.sizes
    cx, cy = blobs.centres[:, 0], blobs.centres[:, 1]
    adx, ady = np.abs(cx[None, :] - cx[:, None]), np.abs(cy[None, :] - cy[:, None])
    s = np.minimum(size[:, None], size[None, :])
    a, b = np.nonzero((adx < 1.6 * s) & (ady < 1.6 * s))
    adx, ady, s = adx[a, b], ady[a, b], s[a, b]
    similar = np.abs(size[a] - size[b]) < 0.25 * s
    step_x = (adx > 0.95 * s) & (ady < 0.3 * s)
    step_y = (ady > 0.95 * s) & (adx < 0.3 * s)
    keep = similar & (step_x | step_y)
    return a[keep], b[keep]


def _components(k: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per node of a graph with k nodes and the edges (a, b) (listed both ways), the smallest node
    of its connected component: the least label is passed along the edges, with labels taking
    their label's label (pointer jumping; 4-14 rounds on boards). A Python union-find over the
    edges cost 2.5 times as much (about 70 us a search against 25-30)."""
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
    lines = _run_medians(v, starts, ends)
    if len(lines) < 2:
        raise BoardNotFound("no grid found: the light cells do not form rows and columns")
    steps = np.diff(lines)
    pitch = float(array_median(steps[steps < 1.5 * steps.min()]))
    line_index = np.rint((lines - lines[0]) / pitch).astype(int)
    index = np.empty(len(values), dtype=int)
    index[order] = np.repeat(line_index, ends - starts)
    return index, pitch


def _run_medians(ordered: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The median of each run ordered[start:end] of sorted values, all at once (as `list_median`
    gives it: the middle value, or the mean of the middle two; x + x halved is x exactly). A call
    per line made `_axis_positions` a fifth slower."""
    length = ends - starts
    return (ordered[starts + (length - 1) // 2] + ordered[starts + length // 2]) / 2


def _spans(lo: np.ndarray, hi: np.ndarray, index: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per line, the median light span of its blobs; lines with no blob are interpolated."""
    lows: list[list[float]] = [[] for _ in range(n)]
    highs: list[list[float]] = [[] for _ in range(n)]
    for i, a, b in zip(index.tolist(), lo.tolist(), hi.tolist()):
        lows[i].append(a)
        highs[i].append(b)
    left = np.array([list_median(v) if v else np.nan for v in lows])
    right = np.array([list_median(v) if v else np.nan for v in highs])
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
        x0, x1 = int(round(at + 0.3 * span)), int(round(at + 0.7 * span))
        if at < 0 or at + span > view.shape[1]:
            continue
        # light near the cell's left and right edges (crowns and discs sit in the middle)
        edge_x = [int(round(at + f * span)) for f in (0.15, 0.2, 0.8, 0.85)]
        half = max(1, int(0.2 * pitch))
        light = np.mean([
            view[int(y) - half : int(y) + half + 1, edge_x].mean() / 255 > 0.6 for y in mids
        ])
        lines = np.mean([
            view[int(round(y)) - 1 : int(round(y)) + 2, x0:x1].min(axis=0).mean() / 255 < 0.5 for y in gaps
        ])
        if light >= 0.8 and lines >= 0.8 and (best is None or light + lines > best[0]):
            best = (light + lines, side, at, span)
    if best is None:
        return lo, hi
    _, side, at, span = best
    if side < 0:
        return np.concatenate([[at], lo]), np.concatenate([[at + span], hi])
    return np.concatenate([lo, [at]]), np.concatenate([hi, [at + span]])


# An example board's cells are smaller than this share of the main board's (0.6 beside a 14x14).
EXAMPLE_CELLS = 0.75


def _group_box(blobs: Blobs, members: np.ndarray) -> np.ndarray:
    """The bounding box (x0, y0, x1, y1) of a group of blobs."""
    boxes = blobs.boxes[members]
    return np.concatenate([boxes[:, :2].min(axis=0), boxes[:, 2:].max(axis=0)])


def _is_board_shaped(blobs: Blobs, members: np.ndarray) -> bool:
    """True when a group spans at least MIN_N cells both ways (a row of tiles is no board)."""
    x0, y0, x1, y1 = _group_box(blobs, members)
    size = float(array_median(blobs.sizes[members]))
    return min(x1 - x0, y1 - y0) >= (MIN_N - 0.5) * size


def _is_example_below(blobs: Blobs, main: np.ndarray, other: np.ndarray) -> bool:
    """True for LinkedIn's small example boards (How to play): much smaller cells, below the
    main board."""
    smaller = float(array_median(blobs.sizes[other])) < EXAMPLE_CELLS * float(array_median(blobs.sizes[main]))
    return smaller and _group_box(blobs, other)[1] >= _group_box(blobs, main)[3]


def _overlaps(blobs: Blobs, main: np.ndarray, other: np.ndarray) -> bool:
    """True when a group lies within the main board's box: part of it (split by a damaged row)."""
    a, b = _group_box(blobs, main), _group_box(blobs, other)
    return bool(b[0] < a[2] and a[0] < b[2] and b[1] < a[3] and a[1] < b[3])


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

MERGE_TOLERANCE = 0.12  # of the pitch: a merged area's sides lie this close to whole cells
FILLED = 0.9  # of its box: a merged area's outline (marks' holes aside) fills it, as a rectangle
MIN_STRIPS = 4  # light areas one cell across that agree on the cell size before it is believed
MAX_UNITS = 3  # cell sizes tried from grids of clean cells, the largest grids first
MAX_STRIP_UNITS = 3  # cell sizes tried from the most common short sides of rectangles


@dataclass(frozen=True)
class Unit:
    """One cell's light size and the pitch."""

    size: float
    pitch: float

    @property
    def gap(self) -> float:
        return self.pitch - self.size

    def cells_across(self, lengths: np.ndarray) -> np.ndarray:
        """Per light span length (px, int array), how many cells side by side it is (0: not a
        whole number). All lengths at once: a fit tries every light area with every likely unit,
        and a call per area cost 5-7% of a board search (profiled on the test images)."""
        count = np.rint((lengths + self.gap) / self.pitch)
        off = np.abs(lengths - (count * self.pitch - self.gap))
        whole = (count >= 1) & (count <= MAX_N) & (off <= max(2.0, MERGE_TOLERANCE * self.pitch))
        return np.where(whole, count, 0).astype(np.int64)


@dataclass(frozen=True)
class Areas:
    """Light areas: per area its outline, its bounding box (x, y, w, h), the smaller side of its
    largest hole (0 for none: a mark makes a small hole, a board inside a card a large one, and
    `split_merged` leaves areas with large holes whole) and whether it is a filled rectangle
    (where `units_of_strips` looks for strips)."""

    outlines: list[np.ndarray]
    boxes: np.ndarray  # int (K, 4)
    holes: np.ndarray  # int (K,)
    filled: np.ndarray  # bool (K,): the outline fills its box as a rectangle does


def light_areas(mask: np.ndarray, min_cell: int) -> Areas:
    """Every light area at least `min_cell` across, outline and box."""
    return _areas_among(outlines_of(mask), min_cell)


def _areas_among(outlines: Outlines, min_cell: int) -> Areas:
    """The light areas (see `light_areas`) among a mask's outlines."""
    sides = outlines.boxes[:, 2:].min(axis=1)
    inner = outlines.parents >= 0
    holes = np.zeros(len(sides), np.int64)
    np.maximum.at(holes, outlines.parents[inner], sides[inner])
    kept = np.flatnonzero(~inner & (sides >= min_cell))
    outlines_kept = [outlines.contours[i] for i in kept.tolist()]
    boxes = outlines.boxes[kept].reshape(-1, 4)
    filled = [
        cv2.contourArea(contour) >= FILLED * w * h
        for contour, (_, _, w, h) in zip(outlines_kept, boxes.tolist())
    ]
    return Areas(outlines_kept, boxes, holes[kept], np.array(filled, bool))


def unit_of(blobs: Blobs, members: np.ndarray) -> Unit:
    """The cell size and pitch of a grid of clean cells (a whole board or a piece of one)."""
    centres, sizes = blobs.centres[members], blobs.sizes[members]
    _, pitch_x = _axis_positions(centres[:, 0], sizes)
    _, pitch_y = _axis_positions(centres[:, 1], sizes)
    return Unit(float(array_median(sizes)), (pitch_x + pitch_y) / 2)


def units_of_strips(areas: Areas) -> list[Unit]:
    """Cell sizes and pitches from strips: where a browser dropped every line one way (Firefox
    at 50% zoom draws no vertical cell line at all), the cells of a row merge into strips one
    cell high. A short side that many rectangles share is a cell (the most common few are
    tried: a page's example boards share theirs too); rectangles one above the other (or side
    by side) a cell apart start a pitch apart."""
    rectangles = areas.boxes[areas.filled]
    short = np.minimum(rectangles[:, 2], rectangles[:, 3])
    values = sorted(set(short.tolist()))  # (np.unique imports numpy.ma: 25-40 ms at start-up)
    near = [np.count_nonzero(np.abs(short - v) <= 1) for v in values]
    units: list[Unit] = []
    for count, value in sorted(zip(near, values), reverse=True):
        if count < MIN_STRIPS or len(units) == MAX_STRIP_UNITS:
            break
        if any(abs(unit.size - value) <= 2 for unit in units):
            continue
        strips = rectangles[np.abs(short - value) <= 1]
        size = float(array_median(np.minimum(strips[:, 2], strips[:, 3]).astype(float)))
        steps = _steps_between(strips, size)
        if steps:
            units.append(Unit(size, float(list_median(steps))))
    return units


def _steps_between(boxes: np.ndarray, size: float) -> list[float]:
    """How far apart strips start that lie one above the other (or side by side) a cell apart."""
    steps = []
    for start, lo, length in ((1, 0, 2), (0, 1, 3)):
        a = boxes[:, start].astype(float)
        step = a[None, :] - a[:, None]
        x_lo, x_hi = boxes[:, lo], boxes[:, lo] + boxes[:, length]
        overlap = np.minimum(x_hi[:, None], x_hi[None, :]) - np.maximum(x_lo[:, None], x_lo[None, :])
        steps.extend(step[(step > 0.5 * size) & (step < 1.5 * size) & (overlap > 0.5 * size)].tolist())
    return steps


def split_merged(areas: Areas, blobs: Blobs, unit: Unit) -> Blobs:
    """The blobs, with light areas whose box spans whole
    cells (2x1, 3x1, 2x2, an L of three, ... at the pitch) split into those cells: cells whose
    thin lines the browser did not draw.

    Firefox at 67% or 80% zoom draws a 1 px line 0.67 or 0.8 px wide and, by where it falls on
    the pixel grid, shows it or drops it (at 50% it drops every line one way): lines inside a
    region vanish, which merges its cells into one area and cuts the board into pieces that do
    not look like one board. An area splits only when both sides of its box are whole cells
    within a tolerance and it holds no hole a whole cell wide (a card or dialog around the board
    does: the board is its hole); a cell of it is one whose middle lies inside the area's
    outline. A smaller hole is a mark: a crown is 55-60% of a cell across (half a cell, the
    former limit, kept every area holding a crown whole, so Firefox at 50% could not read a board
    once queens were on it)."""
    split: set[tuple[int, int, int, int]] = set()
    boxes: list[tuple[int, int, int, int]] = []
    half = unit.size / 2
    across, down = unit.cells_across(areas.boxes[:, 2]), unit.cells_across(areas.boxes[:, 3])
    for i in np.flatnonzero((across * down >= 2) & (areas.holes < unit.size)).tolist():
        outline, (x, y, w, h) = areas.outlines[i], areas.boxes[i].tolist()
        split.add((x, y, x + w, y + h))
        for row in range(int(down[i])):
            for col in range(int(across[i])):
                x0, y0 = x + col * unit.pitch, y + row * unit.pitch
                if cv2.pointPolygonTest(outline, (x0 + half, y0 + half), False) > 0:
                    boxes.append((int(round(x0)), int(round(y0)),
                                  int(round(x0 + unit.size)), int(round(y0 + unit.size))))
    # every other blob stays: a second board beside this one is still seen (and refused)
    boxes += [box for box in map(tuple, blobs.boxes.tolist()) if box not in split]
    box_array = np.array(boxes, dtype=np.int64).reshape(-1, 4)
    return Blobs(box_array, (box_array[:, :2] + box_array[:, 2:]) / 2.0)


def fit_board(mask: np.ndarray, min_cell: int = MIN_CELL) -> Lattice:
    """The main board's lattice in `mask` (its frame not yet checked).

    When the clean cells do not make one whole board, or leave cells unseen, merged cells are
    split by each likely cell size in turn (each grid of clean cells, largest first, and the
    strips), and the board covering the most area (then the finest lattice) is taken. A cell
    size counts only where the board itself shows it, in clean cells or strips one cell across,
    on a good share of its cells: a board of large cells beside one of small cells is not a
    board of small cells. If no board is found that way, the first answer stands."""
    outlines = outlines_of(mask)  # found once for the blobs and (when needed) the light areas
    blobs = _blobs_among(outlines, min(mask.shape), min_cell)
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
    areas = _areas_among(outlines, min_cell)
    for unit in _likely_units(blobs, groups, areas):
        try:
            split = split_merged(areas, blobs, unit)
            mended = fit_lattice(split, main_board(split), mask)
        except BoardNotFound:
            continue
        if _unit_share(blobs, areas, unit, mended) < MIN_UNIT_SHARE:
            continue  # the cell size of some other grid (an example board), not of this one
        if best is None or _is_better(mended, best):
            best = mended
    if best is None:
        assert first is not None
        raise first
    return best


MIN_UNIT_SHARE = 0.25  # of a mended board's cells: clean cells or strips of the unit's size


def _unit_share(blobs: Blobs, areas: Areas, unit: Unit, lattice: Lattice) -> float:
    """The share of the lattice's cells that show `unit`'s size themselves: a clean cell of that
    size, or a strip one such cell across (whose other side is whole cells) lies on them."""
    tolerance = max(2.0, MERGE_TOLERANCE * unit.pitch)
    centres = blobs.centres[np.abs(blobs.sizes - unit.size) < 0.25 * unit.size].tolist()
    rectangles = areas.boxes[areas.filled]
    across, down = unit.cells_across(rectangles[:, 2]), unit.cells_across(rectangles[:, 3])
    strips = (np.abs(rectangles[:, 2:].min(axis=1) - unit.size) <= tolerance) & (across > 0) & (down > 0)
    for (x, y, _, _), cols, rows in zip(*(a[strips].tolist() for a in (rectangles, across, down))):
        for row in range(rows):
            for col in range(cols):
                centres.append([x + col * unit.pitch + unit.size / 2, y + row * unit.pitch + unit.size / 2])
    cells = _lattice_cells_at(lattice, np.array(centres, np.float64).reshape(-1, 2))
    return len(cells) / (lattice.n * lattice.n)


def _lattice_cells_at(lattice: Lattice, points: np.ndarray) -> set[tuple[int, int]]:
    """The cells (row, col) of the lattice with one of the points (x, y) near their centre (within
    a quarter pitch both ways). All points at once: a loop over them was most of
    `_unit_share`'s cost (3% of a board search, profiled on the test images)."""
    xs, ys, near = lattice.xs, lattice.ys, 0.25 * lattice.pitch
    dx, dy = np.abs(xs[None, :] - points[:, :1]), np.abs(ys[None, :] - points[:, 1:])
    cols, rows = dx.argmin(axis=1), dy.argmin(axis=1)
    at = np.arange(len(points))
    seen = (dx[at, cols] < near) & (dy[at, rows] < near)
    return set(zip(rows[seen].tolist(), cols[seen].tolist()))


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


def locate(shades: Shades, stripes: bool = False, dark_cells: bool = False) -> Lattice:
    """The main board's lattice in full-image pixel coordinates; with `stripes`, red conflict
    stripes are first taken out of the grid lines (costs a few milliseconds); with `dark_cells`,
    dark areas between lines count as cells too (only DARK_CELLS and below is a line or border).

    Large images are searched at reduced size (speed), then the board is re-fitted on a
    full-resolution crop around what the search found (accuracy).
    """
    h, w = shades.shape
    mask = light_mask(shades, stripes)
    cells = light_mask(shades, stripes, DARK_CELLS) if dark_cells else mask
    factor = -(-max(h, w) // SEARCH_SIDE)
    if factor == 1:
        lattice = fit_board(cells)
        check_frame(mask, lattice)
        return lattice
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
    lattice = lattice.shifted(x0, y0)
    check_frame(mask, lattice)
    return lattice
