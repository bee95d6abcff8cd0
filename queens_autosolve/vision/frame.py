"""A located board's outer frame: what lies beyond each side of its lattice. A board is whole
only when a frame line closes it on all four sides with page beyond (or, in a tight crop, the image
edge right after an equally thick frame on all four); a board the image or window edge cuts is
refused with the edges that cut it and how much lies beyond (BoardCutOff), so that the refusal
can say where to scroll and `run --scroll` can do it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from queens_autosolve.vision.lattice import Lattice
from queens_autosolve.vision.reading import BoardCutOff, BoardNotFound
from queens_autosolve.vision.stats import list_median
from queens_autosolve.vision.stats import median as array_median


def cut_sides(mask: np.ndarray, grid: Lattice) -> list[str]:
    """The sides of a (not square) grid that the image edge cuts.

    The lines or cells missing lie beyond a short side (top or bottom when there are fewer rows
    than columns): one that ends within a frame's width of the image edge is taken as cut there
    even when a frame seems to close it, for a window's own border right after a cut cell reads
    as a thin frame with a sliver of page beyond (Chromium at 150% under openbox)."""
    steps = np.concatenate([np.diff(grid.xs), np.diff(grid.ys)])
    pitch = float(array_median(steps)) if len(steps) else float(grid.right[0] - grid.left[0])
    cell = float(array_median(grid.right - grid.left))
    cols, rows = len(grid.left), len(grid.top)
    short = ("top", "bottom") if rows < cols else ("left", "right") if cols < rows else ()
    cut = []
    for view in _side_views(mask, grid):
        name, edge = view[0], view[2]
        if name in short and edge <= FRAME_MAX * pitch:
            cut.append(name)  # whatever lies beyond: not looked at (a sixth of the looks, in tests)
            continue
        try:
            kind: Beyond | None = _look_beyond(*view, pitch, cell).kind
        except BoardNotFound:
            kind = None  # no frame on that side, but no sign of the image edge cutting it either
        if kind is Beyond.CUT:
            cut.append(name)
    return cut


def short_sides(cut: list[str], cols: int, rows: int, cell: float) -> list[Side]:
    """The cut sides of a grid with fewer rows than columns (or the other way round): when one
    edge alone cuts the short way, the missing rows (columns) all lie beyond it."""
    short = ("top", "bottom") if rows < cols else ("left", "right")
    cut_short = [side for side in cut if side in short]
    missing = int(round(abs(cols - rows) * cell)) if len(cut_short) == 1 else 0
    return [Side(side, Beyond.CUT, 0.0, missing if side in cut_short else 0) for side in cut]


# --- the outer frame: a board is whole only when a frame line closes it on all four sides ------

SIDES = ("left", "right", "top", "bottom")
SCROLL = {"top": "scroll up", "bottom": "scroll down", "left": "scroll left", "right": "scroll right"}
MIN_FRAME = 2  # px: an outer frame at the image edge is at least this thick (and 4% of the pitch)
FRAME_SHARE = 0.8  # of the rows along a side that must show the frame: it runs the full length
# A frame at the image edge (nothing beyond to tell it from a line inside a board) must be frame
# thick along (almost) every row, and about as thick on all four sides.
EDGE_FRAME_SHARE = 0.9
LINE_LIKE = 0.15  # of the pitch: a line between cells is thinner than this
FRAME_MAX = 0.3  # of the pitch: a frame is thinner; a longer dark run beyond the cells is dark page
WINDOW_LINE = 2  # px: the dark outer line a window's border may end in, at the image edge
EDGE_FRAME_SPREAD = 0.25  # of the thickest side, and at least 1.5 px


class Beyond(Enum):
    """What lies beyond one side of a board's lattice."""

    PAGE = "page"  # the frame, then page background
    EDGE = "edge"  # the frame, then the image edge: a tight crop
    CUT = "cut"  # the image edge cuts the board


@dataclass(frozen=True)
class Side:
    """What lies beyond one side of the lattice (`name`: "left", "top"...); `missing_px`: at
    least this much board lies beyond a cut side."""

    name: str
    kind: Beyond
    frame_px: float
    missing_px: int = 0


SideView = tuple[str, np.ndarray, float, np.ndarray, np.ndarray]


def _side_views(mask: np.ndarray, lattice: Lattice) -> list[SideView]:
    """Per side: its name, the mask turned so that the side faces left (outward is towards
    column 0), the outer cells' light edge in that view, and the cell centres and line gaps along
    the side."""
    h, w = mask.shape
    ys, xs = lattice.ys, lattice.xs
    # the middle pixel of each line between cells (a line's pixels are [end of one, start of next))
    row_gaps = np.floor((lattice.bottom[:-1] + lattice.top[1:] - 1) / 2)
    col_gaps = np.floor((lattice.right[:-1] + lattice.left[1:] - 1) / 2)
    return [
        ("left", mask, float(lattice.left[0]), ys, row_gaps),
        ("right", mask[:, ::-1], float(w - lattice.right[-1]), ys, row_gaps),
        ("top", mask.T, float(lattice.top[0]), xs, col_gaps),
        ("bottom", mask.T[:, ::-1], float(h - lattice.bottom[-1]), xs, col_gaps),
    ]


def _look_beyond(
    name: str, view: np.ndarray, edge: float, along: np.ndarray, gaps: np.ndarray, pitch: float, cell: float
) -> Side:
    """Classify one side (turned to face left in `view`): walk outward from inside each outer cell
    across the frame line, and look at what follows it."""
    if edge <= 1:  # the outer cells reach the image edge: no frame at all on this side
        # beyond: the part of the outer cells the edge cuts (see _uncut) and at least a line
        return Side(name, Beyond.CUT, 0.0, max(1, int(round(max(0.0, -edge) + pitch - cell))))
    if _view_edge_at(view, edge, along, pitch, cell):
        return Side(name, Beyond.CUT, 0.0)
    start = min(int(round(edge)) + 2, view.shape[1])  # two pixels inside the outer cells
    reach = min(start, int(pitch) + 4)
    rows = np.clip(np.rint(along).astype(int), 0, view.shape[0] - 1)
    seg = view[rows, start - reach : start][:, ::-1] == 0  # outward; True where not light
    at = np.arange(reach)
    first = np.where(seg.any(axis=1), seg.argmax(axis=1), reach)  # where the frame begins
    light_after = ~seg & (at[None, :] > first[:, None])
    beyond = np.where(light_after.any(axis=1), light_after.argmax(axis=1), reach)
    framed = first <= 4 + 0.03 * pitch
    if np.count_nonzero(framed) < FRAME_SHARE * len(rows):
        # light up to the image edge, or to a window's outer line there, a few pixels on
        light_at_edge = np.count_nonzero(~seg[:, max(0, reach - 1 - WINDOW_LINE)]) >= FRAME_SHARE * len(rows)
        if reach == start and edge <= FRAME_MAX * pitch and light_at_edge:
            # no frame, and the window's light border or grip right after the page: the window's
            # edge cuts the frame, and maybe more of the board
            return Side(name, Beyond.CUT, 0.0)
        raise BoardNotFound(f"no whole board found: no outer frame line along its {name} side")
    run = float(list_median((beyond - first)[framed].tolist()))
    open_end = float(list_median(beyond[framed].tolist()))  # where the light beyond begins
    min_frame = max(MIN_FRAME, 0.04 * pitch)
    if run > FRAME_MAX * pitch:  # dark for longer than a frame: a dark page
        return Side(name, Beyond.PAGE, run)
    if open_end >= reach:  # the frame, then the image edge
        if np.count_nonzero((beyond - first)[framed] >= min_frame) >= EDGE_FRAME_SHARE * len(rows):
            return Side(name, Beyond.EDGE, run)
        # only a thin cell line, then the image edge: a whole next cell is cut off
        return Side(name, Beyond.CUT, run, int(round(cell)))
    x = start - 1 - int(open_end)  # the first light pixel beyond the frame
    light = _light_extent(view, x, rows, int(pitch))
    # more cells beyond are light right after a line, or (a sliver the thick line of a region
    # border covers) dark up to the image edge, along almost every row
    line_like = LINE_LIKE * pitch + 1
    soon = (beyond - first <= line_like) | ((beyond == reach) & (reach == start))
    if (
        run <= line_like
        and np.count_nonzero(soon[framed]) >= FRAME_SHARE * len(rows)
        and _grid_continues(view, x, gaps, min(int(0.25 * cell), max(3, (light - 1) // 2)))
    ):
        if light < 0.95 * cell:  # a sliver of the next cells, up to the image or window edge
            return Side(name, Beyond.CUT, run, max(1, int(round(cell - light))))
        raise BoardNotFound(
            f"no whole board found: the grid goes on past its {name} side, where cells were not seen"
        )
    return Side(name, Beyond.PAGE, run)


VIEW_EDGE_BEFORE = 6  # px before the outer cells where a view's edge is looked for (a board's frame is 2-4)


def _view_edge_at(view: np.ndarray, edge: float, along: np.ndarray, pitch: float, cell: float) -> bool:
    """True when a straight dark line touches or crosses the outer cells of a side (turned to face
    left in `view`) with no frame between, and runs on past both ends of the side with light on
    either hand: the edge of the browser's view (its toolbar's border) cutting a board that is
    scrolled under it. A board's own frame ends with the board, and lies between its cells and
    anything beyond."""
    h, w = view.shape
    ends = [np.arange(int(along[0] - 1.5 * pitch), int(along[0] - pitch)),
            np.arange(int(along[-1] + pitch), int(along[-1] + 1.5 * pitch))]
    ends = [rows[(rows >= 0) & (rows < h)] for rows in ends]
    if min(len(rows) for rows in ends) == 0:
        return False  # the board reaches the image's end along this side: nothing to tell by
    rows = np.clip(np.rint(along).astype(int), 0, h - 1)
    outside = np.concatenate(ends)
    # from a few pixels before the cells: the view's edge may lie on a line between two rows of
    # cells, the two lines then one dark band with the cells' line on the inside
    first, stop = max(2, int(edge) - VIEW_EDGE_BEFORE), min(w - 2, int(edge + 0.9 * cell))
    if stop <= first:
        return False
    # the columns dark across the side (a frame's, or the view edge's), then the line test on those
    across = np.count_nonzero(view[rows, first:stop] == 0, axis=0) >= 0.9 * len(rows)
    cols, beyond = np.flatnonzero(across) + first, outside[:, None]
    # all those columns at once: dark there, light two pixels either side, on the rows beyond
    line = (view[beyond, cols] == 0) & (view[beyond, cols - 2] > 0) & (view[beyond, cols + 2] > 0)
    return bool((np.count_nonzero(line, axis=0) >= 0.9 * len(outside)).any())


def _light_extent(view: np.ndarray, x: int, rows: np.ndarray, limit: int) -> int:
    """How far (median over `rows`, at most `limit`) the light beyond the frame goes on outward
    from column `x`: to the image edge, or to whatever ends it (a window's toolbar, page text)."""
    seg = view[rows, max(0, x + 1 - limit) : x + 1][:, ::-1] == 0
    ends = np.where(seg.any(axis=1), seg.argmax(axis=1), seg.shape[1])
    return int(list_median(ends.tolist()))


def _grid_continues(view: np.ndarray, x: int, gaps: np.ndarray, depth: int) -> bool:
    """True when the lines between the outer cells go on beyond the frame, from column `x`
    outward: the light there is more cells (of a board the image or window edge cuts), not page.
    Looked at next to the frame and `depth` further (a quarter cell, or to the end of the light):
    JPEG ringing can darken a pixel or two of page beside a line junction, not more."""
    if len(gaps) == 0 or x < 0:
        return False
    near, far = max(x - 1, 0), max(x - max(depth, 1), 0)
    lines = np.clip(gaps.astype(int), 0, view.shape[0] - 1)
    dark = (view[lines, near] == 0) & (view[lines, far] == 0)
    return bool(np.count_nonzero(dark) >= 0.5 * len(lines))


def check_frame(mask: np.ndarray, lattice: Lattice) -> list[Side]:
    """The four sides of a located board; BoardCutOff when the image edge cuts the board or may
    cut it, BoardNotFound when the outer frame does not close it.

    Accepted: the frame with page beyond on all four sides, or the frame right at the image edge
    on all four (a tight crop), equally thick on all four. A frame at the edge on some sides
    with page beyond on others is how a board that runs past the image by whole cells looks when
    the cut falls along a region border: refused."""
    return judge_sides(frame_sides(mask, lattice))


def frame_sides(mask: np.ndarray, lattice: Lattice, gray: np.ndarray | None = None) -> list[Side]:
    """What lies beyond each of the four sides; BoardNotFound when a side has no frame line.
    With the `gray` image, a frame that seems to run to the image edge but ends a pixel short of
    it (the page beyond begins in an anti-aliased pixel) has page beyond, not the edge."""
    pitch = lattice.pitch
    cell = float(array_median(lattice.right - lattice.left))
    sides = []
    for view in _side_views(mask, lattice):
        side = _look_beyond(*view, pitch, cell)
        if side.kind is Beyond.EDGE and gray is not None and _page_begins(_turned(gray, view[0]), *view[2:]):
            side = Side(side.name, Beyond.PAGE, side.frame_px)
        sides.append(side)
    return sides


def _turned(image: np.ndarray, name: str) -> np.ndarray:
    """`image` turned as `_side_views` turns the mask, so that side `name` faces left."""
    turned = {"left": image, "right": image[:, ::-1], "top": image.T, "bottom": image.T[:, ::-1]}
    return np.asarray(turned[name])


PAGE_LIFT = 0.3  # of the way from the frame's gray to the cells': the image's last pixel is past the frame


def _page_begins(gray: np.ndarray, edge: float, along: np.ndarray, gaps: np.ndarray) -> bool:
    """True when the image's outermost pixels beyond a frame (turned to face left) are clearly
    lighter than the frame, as light on the lines between the outer cells as beside them: a crop
    that ended one anti-aliased pixel into the page. More cells would be dark on their lines."""
    h, w = gray.shape
    if edge < 3 or len(gaps) == 0:
        return False
    rows = np.clip(np.rint(along).astype(int), 0, h - 1)
    lines = np.clip(gaps.astype(int), 0, h - 1)
    frame = float(array_median(gray[rows, int(edge) // 2].astype(float)))
    cells = float(array_median(gray[rows, min(w - 1, int(edge) + 2)].astype(float)))
    if cells - frame < 40:  # no clear frame against its cells to measure by
        return False
    opened = frame + PAGE_LIFT * (cells - frame)
    beside = float(array_median(gray[rows, 0].astype(float)))
    on_lines = float(array_median(gray[lines, 0].astype(float)))
    return beside >= opened and on_lines >= opened


def judge_sides(sides: list[Side], thickest_line: float = float("inf")) -> list[Side]:
    """`sides` when they make a whole board (see check_frame), else BoardCutOff.

    A frame at the image edge on some sides, with page beyond the others, is taken as the frame
    (a crop that ended right after it) only where it is as thick as the frames with page beyond
    and clearly thicker than `thickest_line`, the thickest line inside the board (px): a region
    border the edge runs along is no thicker than that."""
    cut = [side for side in sides if side.kind is Beyond.CUT]
    if cut:
        raise cut_off(cut)
    sides = _frames_at_edge(sides, thickest_line)
    at_edge = [side for side in sides if side.kind is Beyond.EDGE]
    if at_edge and len(at_edge) < len(sides):
        raise cut_off(at_edge)
    if at_edge:
        widths = [side.frame_px for side in at_edge]
        if max(widths) - min(widths) > max(1.5, EDGE_FRAME_SPREAD * max(widths)):
            thinner = [side for side in at_edge if side.frame_px < max(widths) - 1.5]
            raise cut_off(thinner)  # a line inside the board, not its frame, at those edges
    return sides


def _frames_at_edge(sides: list[Side], thickest_line: float) -> list[Side]:
    """`sides` with each frame at the image edge that is plainly the board's own frame (see
    judge_sides) counted as closing the board, like a frame with page beyond."""
    framed = [side.frame_px for side in sides if side.kind is Beyond.PAGE]
    if not framed:
        return sides
    least = max(min(framed) - 1.5, thickest_line + 1.5)
    return [Side(side.name, Beyond.PAGE, side.frame_px)
            if side.kind is Beyond.EDGE and side.frame_px >= least else side for side in sides]


def thickest_line(lattice: Lattice) -> float:
    """The widest gap between two neighbouring cells of the lattice (a region border), px."""
    gaps = np.concatenate([lattice.left[1:] - lattice.right[:-1], lattice.top[1:] - lattice.bottom[:-1]])
    return float(gaps.max()) if len(gaps) else 0.0


def cut_off(sides: list[Side], why: str = "") -> BoardCutOff:
    """The refusal for a board cut (or possibly cut) by the image edge at `sides`; `why` adds
    what else was seen."""
    names = [side.name for side in sides]
    where = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    known = [side.missing_px for side in sides if side.missing_px]
    if known:
        how_much = f" (at least {max(known)} px more)"
        verb = "runs past"
    else:
        how_much = ""
        verb = "touches (and may run past)"
    edges = "edge" if len(names) == 1 else "edges"
    opposite = {"left", "right"} <= set(names) or {"top", "bottom"} <= set(names)
    fix = "zoom out" if opposite else " or ".join(SCROLL[name] for name in names)
    return BoardCutOff(
        f"the board is cut off: it {verb} the {where} {edges} of the image{how_much}; "
        + (f"{why}; " if why else "")
        + f"{fix}, enlarge the window or crop the picture wider, so that the whole board and its frame show",
        edges=tuple(names),
        missing_px={side.name: side.missing_px for side in sides},
    )
