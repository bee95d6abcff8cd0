"""Finding the main board in an image: the light cells between dark grid lines, grouped into one
square lattice. No palette and no screen size are assumed: cells are whatever light, square,
equal-sized blobs sit side by side at a regular pitch.

Vocabulary: a *blob* is a connected light area (a candidate cell), a *lattice* is the fitted grid
of N x N cells, *pitch* the distance between neighbouring cell centres in pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.reading import BoardNotFound
from vision.shades import Shades
from vision.stats import median as array_median

# Larger images are searched at reduced size; the board is then re-read from a full-size crop.
SEARCH_SIDE = 2000
MIN_CELL = 6  # px at search scale: smaller blobs are text counters and icons, not cells
MIN_N, MAX_N = 4, 30


@dataclass(frozen=True)
class Blobs:
    """Candidate cells: bounding boxes (x0, y0, x1, y1 exclusive) and centres, one row each."""

    boxes: np.ndarray  # int (K, 4)
    centres: np.ndarray  # float (K, 2)

    @property
    def sizes(self) -> np.ndarray:
        return (self.boxes[:, 2:] - self.boxes[:, :2]).mean(axis=1)


@dataclass(frozen=True)
class Lattice:
    """The board's grid: per column the light span [left, right), per row [top, bottom)."""

    n: int
    left: np.ndarray
    right: np.ndarray
    top: np.ndarray
    bottom: np.ndarray
    found: float  # share of the N*N cells seen as clean blobs

    @property
    def xs(self) -> np.ndarray:
        return (self.left + self.right) / 2

    @property
    def ys(self) -> np.ndarray:
        return (self.top + self.bottom) / 2

    @property
    def pitch(self) -> float:
        if self.n < 2:
            return float(self.right[0] - self.left[0])
        return float((self.xs[-1] - self.xs[0] + self.ys[-1] - self.ys[0]) / (2 * (self.n - 1)))

    def box(self, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
        """The board box in pixels: the cells plus half a line gap around them, inside the image."""
        gap = max(1.0, self.pitch - float(array_median(self.right - self.left)))
        x0 = max(0, int(round(self.left[0] - gap)))
        y0 = max(0, int(round(self.top[0] - gap)))
        x1 = min(shape[1], int(round(self.right[-1] + gap)))
        y1 = min(shape[0], int(round(self.bottom[-1] + gap)))
        return x0, y0, x1 - x0, y1 - y0

    def shifted(self, dx: float, dy: float) -> Lattice:
        return Lattice(
            self.n, self.left + dx, self.right + dx, self.top + dy, self.bottom + dy, self.found
        )


LOCAL_DARK = 14  # levels darker than the lightest pixel within two: a line, even a faint one
DARK = 100  # luma below this is a line or a dark page whatever surrounds it


def light_mask(shades: Shades, stripes: bool = False) -> np.ndarray:
    """Pixels that are neither grid lines nor marks: not darker than their surroundings, not dark.

    The local test (how much darker a pixel is than the lightest pixel within two) catches thin
    anti-aliased lines at small zoom, also next to a dark page where a local mean would be
    dragged down; the absolute test catches thick borders. (One dilation: a closing would be
    exact at the edges of cells, but costs twice as much and changes nothing that matters.)
    """
    line = cv2.compare(shades.local_dark, LOCAL_DARK, cv2.CMP_GE)
    if stripes:  # red conflict stripes are not lines
        line = cv2.bitwise_and(line, cv2.bitwise_not(shades.stripes))
    return cv2.bitwise_and(cv2.bitwise_not(line), cv2.compare(shades.gray, DARK, cv2.CMP_GT))


def shrink_mask(mask: np.ndarray, factor: int) -> np.ndarray:
    """The light mask `factor` times smaller, where a pixel stays light only if all it covers was
    light: thin lines survive the reduction instead of fading into the cells. (A whole-number
    factor: OpenCV's area reduction is many times faster then.)"""
    h, w = mask.shape[0] // factor, mask.shape[1] // factor
    small = cv2.resize(mask[: h * factor, : w * factor], (w, h), interpolation=cv2.INTER_AREA)
    return cv2.compare(small, 254, cv2.CMP_GT)


def find_blobs(mask: np.ndarray, min_cell: int = MIN_CELL) -> Blobs:
    """Light, square, compact connected areas: every cell of every board, plus some noise.

    Outer contours (not labelled components) because they are several times faster here, and
    their area ignores the holes that crowns and X marks punch in a cell.
    """
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return Blobs(np.zeros((0, 4), np.int64), np.zeros((0, 2)))
    limit = 0.6 * min(mask.shape)
    boxes = []
    for contour, link in zip(contours, hierarchy[0]):
        if link[3] >= 0:
            continue  # the edge of a hole, not of a light area
        x, y, w, h = cv2.boundingRect(contour)
        if not (min_cell <= w < limit and min_cell <= h < limit and w * 4 < h * 5 and h * 4 < w * 5):
            continue
        if cv2.contourArea(contour) * 10 < w * h * 7:
            continue  # not a filled square: an L of merged cells, a ring, a letter
        boxes.append((x, y, x + w, y + h))
    box_array = np.array(boxes, dtype=np.int64).reshape(-1, 4)
    # centre of the bounding box, not of the pixels: crowns and X marks punch holes off-centre
    return Blobs(box_array, (box_array[:, :2] + box_array[:, 2:]) / 2.0)


def group_boards(blobs: Blobs) -> list[np.ndarray]:
    """Indices of blobs forming each grid: same size, side by side at about one cell's pitch."""
    k = len(blobs.boxes)
    if k == 0:
        return []
    size = blobs.sizes
    d = blobs.centres[None, :, :] - blobs.centres[:, None, :]
    adx, ady = np.abs(d[..., 0]), np.abs(d[..., 1])
    s = np.minimum(size[:, None], size[None, :])
    similar = np.abs(size[:, None] - size[None, :]) < 0.25 * s
    step_x = (adx > 0.95 * s) & (adx < 1.6 * s) & (ady < 0.3 * s)
    step_y = (ady > 0.95 * s) & (ady < 1.6 * s) & (adx < 0.3 * s)
    a, b = np.nonzero(similar & (step_x | step_y))
    parent = list(range(k))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in zip(a.tolist(), b.tolist()):
        ri, rj = root(i), root(j)
        if ri != rj:
            parent[ri] = rj
    groups: dict[int, list[int]] = {}
    for i in range(k):
        groups.setdefault(root(i), []).append(i)
    return [np.array(g) for g in groups.values() if len(g) >= MIN_N * 2]


def _axis_positions(values: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, float]:
    """Split blob centres along one axis into lines (columns or rows): each blob's line index
    counted from the first line, and the pitch."""
    order = np.argsort(values)
    v = values[order]
    tol = 0.5 * float(array_median(sizes))
    breaks = np.nonzero(np.diff(v) > tol)[0]
    starts = np.concatenate([[0], breaks + 1])
    ends = np.concatenate([breaks + 1, [len(v)]])
    values_list = v.tolist()
    lines = np.array([median(values_list[s:e]) for s, e in zip(starts, ends)])
    if len(lines) < 2:
        raise BoardNotFound("no grid found: the light cells do not form rows and columns")
    steps = np.diff(lines)
    pitch = float(array_median(steps[steps < 1.5 * steps.min()]))
    line_index = np.rint((lines - lines[0]) / pitch).astype(int)
    index = np.empty(len(values), dtype=int)
    for li, (s, e) in enumerate(zip(starts, ends)):
        index[order[s:e]] = line_index[li]
    return index, pitch


def median(values: list[float]) -> float:
    """The median of a short list (numpy's costs more than the sort for a handful of values)."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _spans(lo: np.ndarray, hi: np.ndarray, index: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per line, the median light span of its blobs; lines with no blob are interpolated."""
    lows: list[list[float]] = [[] for _ in range(n)]
    highs: list[list[float]] = [[] for _ in range(n)]
    for i, a, b in zip(index.tolist(), lo.tolist(), hi.tolist()):
        lows[i].append(a)
        highs[i].append(b)
    left = np.array([median(v) if v else np.nan for v in lows])
    right = np.array([median(v) if v else np.nan for v in highs])
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
        why = " (the board looks cut off at the image edge)" if _near_edge(boxes, mask.shape) else ""
        raise BoardNotFound(f"no whole board found: the grid shows {cols} columns but {rows} rows{why}")
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


def _near_edge(boxes: np.ndarray, shape: tuple[int, ...]) -> bool:
    """True when the grid ends less than a cell from an image edge: cut cells may lie beyond."""
    h, w = shape[:2]
    size = float(array_median(boxes[:, 2:] - boxes[:, :2]))
    return bool(
        boxes[:, 0].min() < size or boxes[:, 1].min() < size
        or boxes[:, 2].max() > w - size or boxes[:, 3].max() > h - size
    )


def _group_area(blobs: Blobs, members: np.ndarray) -> float:
    boxes = blobs.boxes[members]
    return float(np.prod(boxes[:, 2:].max(axis=0) - boxes[:, :2].min(axis=0)))


def main_board(blobs: Blobs) -> np.ndarray:
    """The blobs of the largest grid; BoardNotFound when there is none or two of the same size."""
    groups = group_boards(blobs)
    if not groups:
        raise BoardNotFound("no board found: no grid of square cells in the image")
    areas = sorted(((_group_area(blobs, g), len(g), i) for i, g in enumerate(groups)), reverse=True)
    (best_area, best_count, best), rest = areas[0], areas[1:]
    if best_count < 2 * MIN_N:
        raise BoardNotFound("no board found: no grid of square cells in the image")
    for area, count, _ in rest:
        if area > 0.8 * best_area and count > 0.8 * best_count:
            raise BoardNotFound(
                "two boards of about the same size found; crop the image to the one to read"
            )
    return groups[best]


def locate(shades: Shades, stripes: bool = False) -> Lattice:
    """The main board's lattice in full-image pixel coordinates; with `stripes`, red conflict
    stripes are first taken out of the grid lines (costs a few milliseconds).

    Large images are searched at reduced size (speed), then the board is re-fitted on a
    full-resolution crop around what the search found (accuracy).
    """
    h, w = shades.shape
    mask = light_mask(shades, stripes)
    factor = -(-max(h, w) // SEARCH_SIDE)
    if factor == 1:
        blobs = find_blobs(mask)
        return fit_lattice(blobs, main_board(blobs), mask)
    scale = 1 / factor
    small = shrink_mask(mask, factor)
    blobs = find_blobs(small, min_cell=max(4, round(MIN_CELL * scale * 1.5)))
    rough = fit_lattice(blobs, main_board(blobs), small)
    x, y, bw, bh = rough.box(small.shape)
    margin = rough.pitch
    x0 = max(0, int((x - margin) / scale))
    y0 = max(0, int((y - margin) / scale))
    x1 = min(w, int((x + bw + margin) / scale) + 1)
    y1 = min(h, int((y + bh + margin) / scale) + 1)
    crop = np.ascontiguousarray(mask[y0:y1, x0:x1])
    blobs = find_blobs(crop, min_cell=MIN_CELL)
    lattice = fit_lattice(blobs, main_board(blobs), crop)
    if lattice.n != rough.n:
        raise BoardNotFound(
            f"board size unclear: {rough.n}x{rough.n} at reduced size, {lattice.n}x{lattice.n} at full size"
        )
    return lattice.shifted(x0, y0)
