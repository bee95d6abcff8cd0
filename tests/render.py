"""Drawing boards the way the project's practice page shows them (and close to LinkedIn's look):
pastel regions, thin cell lines, thick region and outer borders, X marks, black or gold crowns,
locked queens (a near-black disc with a white crown), hover, dark page and a whole-page mode with
header text, crown icons in the text and a small "Examples" board. Tests and benchmarks read these.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import cv2
import numpy as np

from queens_autosolve.solver.puzzle import Cell

PALETTE = (
    "#BBA3E2", "#FFC992", "#96BEFF", "#B3DFA0", "#DFDFDF", "#FF7B60", "#E6F388", "#B9B29E", "#DFA0BF",
    "#A3D2D8", "#62EFEA", "#FF93F3", "#8ACC6D", "#729AEC", "#C387E0", "#FFE04B", "#F0B27A", "#D7BDE2",
)
LINE = (17, 17, 17)
GOLD = (232, 180, 0)
DISC = (24, 24, 24)
PAGE_LIGHT = (243, 242, 239)
PAGE_DARK = (27, 31, 35)
HOVER_DARKEN = 0.88
STRIPE, STRIPE_ALPHA, STRIPE_WIDTH, STRIPE_PERIOD = (220, 38, 38), 0.55, 2.0, 9.0
SUPERSAMPLE = 4  # crowns and X marks are drawn this much larger, then reduced (anti-aliasing)


def hex_rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def _region_grid(regions: Sequence[Sequence[object]]) -> list[list[int]]:
    """Region labels (strings of characters, or grids of any labels) as numbers 0.. in reading order."""
    numbers: dict[object, int] = {}
    return [[numbers.setdefault(label, len(numbers)) for label in row] for row in regions]


def _crown_polygon(size: float) -> tuple[np.ndarray, list[tuple[float, float, float]], np.ndarray]:
    """A crown `size` wide centred on (0, 0): body polygon, tip balls (x, y, radius), base bar."""
    s = size / 2
    body = np.array([
        (-s, -0.45 * s), (-0.5 * s, 0.05 * s), (0, -0.65 * s), (0.5 * s, 0.05 * s), (s, -0.45 * s),
        (0.78 * s, 0.45 * s), (-0.78 * s, 0.45 * s),
    ])
    balls = [(-s, -0.5 * s, 0.14 * s), (0, -0.7 * s, 0.14 * s), (s, -0.5 * s, 0.14 * s)]
    bar = np.array([(-0.78 * s, 0.58 * s), (0.78 * s, 0.58 * s), (0.78 * s, 0.8 * s), (-0.78 * s, 0.8 * s)])
    return body, balls, bar


def draw_crown(
    canvas: np.ndarray, centre: tuple[float, float], size: float, colour: tuple[int, int, int]
) -> None:
    """A filled crown icon, anti-aliased."""
    body, balls, bar = _crown_polygon(size)
    k = 16  # fixed-point shift: sub-pixel polygon corners
    cx, cy = centre
    for shape in (body, bar):
        pts = np.rint((shape + np.array((cx, cy))) * k).astype(np.int32)
        cv2.fillPoly(canvas, [pts], colour, cv2.LINE_AA, shift=4)
    for bx, by, radius in balls:
        cv2.circle(canvas, (int((cx + bx) * k), int((cy + by) * k)), max(1, int(radius * k)), colour, -1,
                   cv2.LINE_AA, shift=4)


def _draw_mark(canvas: np.ndarray, state: str, x: int, y: int, cell: int, gold: bool) -> None:
    """One cell's mark drawn into the cell's square at (x, y); supersampled for smooth edges."""
    if state not in "xQL":
        return
    big_cell = cell * SUPERSAMPLE
    patch = cv2.resize(
        canvas[y : y + cell, x : x + cell], (big_cell, big_cell), interpolation=cv2.INTER_NEAREST
    )
    centre = (big_cell / 2, big_cell / 2)
    if state == "x":
        half = 0.15 * big_cell
        stroke = max(1, round(2 * cell / 48)) * SUPERSAMPLE
        for dx in (-1, 1):
            p0 = (int(centre[0] - half), int(centre[1] - half * dx))
            p1 = (int(centre[0] + half), int(centre[1] + half * dx))
            cv2.line(patch, p0, p1, (60, 60, 60), stroke, cv2.LINE_AA)
    elif state == "Q":
        colour = GOLD if gold else (0, 0, 0)
        draw_crown(patch, (centre[0], centre[1] + 0.04 * big_cell), 0.55 * big_cell, colour)
    else:
        cv2.circle(patch, (int(centre[0]), int(centre[1])), int(0.35 * big_cell), DISC, -1, cv2.LINE_AA)
        draw_crown(patch, (centre[0], centre[1] + 0.03 * big_cell), 0.38 * big_cell, (255, 255, 255))
    canvas[y : y + cell, x : x + cell] = cv2.resize(patch, (cell, cell), interpolation=cv2.INTER_AREA)


def line_widths(cell: int) -> tuple[int, int]:
    """(thin cell line, thick region and outer border) widths for a cell size."""
    return max(1, round(cell / 48)), max(2, round(3 * cell / 48))


def margin_of(cell: int) -> int:
    """Page background around a board rendered without `page`."""
    return max(4, cell // 3)


def cell_centres(n: int, cell: int) -> list[list[tuple[float, float]]]:
    """Where `render_board(..., cell=cell)` (no `page`) draws each cell's centre, (x, y)."""
    thin, thick = line_widths(cell)
    start = margin_of(cell) + thick + (cell - 1) / 2
    return [[(start + c * (cell + thin), start + r * (cell + thin)) for c in range(n)] for r in range(n)]


def board_image(
    regions: Sequence[Sequence[object]],
    states: Sequence[str] = (),
    cell: int = 48,
    hover: Cell | None = None,
    gold: bool = False,
    conflicts: Collection[Cell] = (),
) -> np.ndarray:
    """Just the board (outer border included), RGB."""
    grid = _region_grid(regions)
    n = len(grid)
    thin, thick = line_widths(cell)
    outer = thick
    pitch = cell + thin
    side = 2 * outer + n * cell + (n - 1) * thin
    canvas = np.full((side, side, 3), LINE, np.uint8)
    colours = [hex_rgb(PALETTE[i % len(PALETTE)]) for i in range(max(max(row) for row in grid) + 1)]
    for r in range(n):
        for c in range(n):
            colour = np.array(colours[grid[r][c]], float)
            if hover == (r, c):
                colour *= HOVER_DARKEN
            x, y = outer + c * pitch, outer + r * pitch
            canvas[y : y + cell, x : x + cell] = np.rint(colour).astype(np.uint8)
            if (r, c) in conflicts:
                _stripe(canvas[y : y + cell, x : x + cell])
    # region borders: thick bars centred on the thin line between cells of different regions
    lo, hi = (thick - thin) // 2, thick - (thick - thin) // 2
    for r in range(n):
        for c in range(n):
            x, y = outer + c * pitch, outer + r * pitch
            if c + 1 < n and grid[r][c] != grid[r][c + 1]:
                bx = x + cell
                canvas[max(0, y - thin) : y + cell + thin, bx - lo : bx - lo + hi + lo] = LINE
            if r + 1 < n and grid[r][c] != grid[r + 1][c]:
                by = y + cell
                canvas[by - lo : by - lo + hi + lo, max(0, x - thin) : x + cell + thin] = LINE
    for r, row in enumerate(states):
        for c, state in enumerate(row):
            _draw_mark(canvas, state, outer + c * pitch, outer + r * pitch, cell, gold)
    return canvas


def _stripe(patch: np.ndarray) -> None:
    """Red diagonal stripes over a cell, as pages mark cells in conflict (CSS
    repeating-linear-gradient(135deg, rgba(220, 38, 38, 0.55) 0 2px, transparent 2px 9px))."""
    yy, xx = np.mgrid[0 : patch.shape[0], 0 : patch.shape[1]]
    along = (xx + yy + 1) / np.sqrt(2) % STRIPE_PERIOD
    cover = np.clip(STRIPE_WIDTH + 0.5 - along, 0, 1) * np.clip(along + 0.5, 0, 1)  # soft edges
    alpha = (STRIPE_ALPHA * cover)[..., None]
    patch[:] = np.rint(patch * (1 - alpha) + np.array(STRIPE) * alpha).astype(np.uint8)


def render_board(
    puzzle_regions: Sequence[Sequence[object]],
    states: Sequence[str] = (),
    cell: int = 48,
    dark: bool = False,
    hover: Cell | None = None,
    gold: bool = False,
    page: bool = False,
    canvas: tuple[int, int] | None = None,
    conflicts: Collection[Cell] = (),
) -> np.ndarray:
    """A board on its page background, RGB uint8.

    `puzzle_regions`: rows of region labels; `states`: rows of `.`, `x`, `Q` (crown), `L` (locked
    queen); `cell`: cell size in pixels (48 is 100% zoom); `hover`: the cell under the mouse;
    `gold`: crowns in gold (a solved board); `page`: a whole page around the board (title, timer,
    buttons, "How to play" text with crown icons, a small example board); `canvas`: (width,
    height) of the page, to pose as a screenshot of that size; `conflicts`: cells drawn with red
    conflict stripes.

    >>> render_board(["AB", "BB"], ["Q.", ".."], cell=20).shape[2]
    3
    """
    board = board_image(puzzle_regions, states, cell, hover, gold, set(conflicts))
    background = PAGE_DARK if dark else PAGE_LIGHT
    if not page:
        margin = margin_of(cell)
        out = np.full((board.shape[0] + 2 * margin, board.shape[1] + 2 * margin, 3), background, np.uint8)
        out[margin : margin + board.shape[0], margin : margin + board.shape[1]] = board
        return out
    return _page(board, dark, cell, canvas)


def _page(board: np.ndarray, dark: bool, cell: int, canvas: tuple[int, int] | None) -> np.ndarray:
    """The board placed on a page with the things real pages put around it."""
    text = (230, 230, 230) if dark else (40, 40, 40)
    size = board.shape[0]
    example_regions = ["AABBB", "AABCB", "DDBCB", "DEECB", "DEEEB"]
    example = board_image(example_regions, ["Q.x..", "..xQ.", ".x..."], cell=max(14, cell // 3))
    width = max(size + 160, 640) if canvas is None else canvas[0]
    height = size + 420 + example.shape[0] if canvas is None else canvas[1]
    out = np.full((height, width, 3), PAGE_DARK if dark else PAGE_LIGHT, np.uint8)
    left = (width - size) // 2
    top = 110
    if top + size + 20 > height or left < 0:
        raise ValueError(f"a {width}x{height} page is too small for a {size} px board")
    cv2.putText(out, "Queens", (left, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.2, text, 2, cv2.LINE_AA)
    cv2.putText(out, "0:42", (left, 92), cv2.FONT_HERSHEY_SIMPLEX, 0.7, text, 2, cv2.LINE_AA)
    _button(out, (left + 90, 92), "Undo", text)
    _button(out, (left + 200, 92), "Hint", text)
    out[top : top + size, left : left + size] = board
    y = top + size + 40
    how_to_play = (
        "How to play", "1. Exactly one      in each row, column and region.", "2. Two      cannot touch."
    )
    for line in how_to_play:
        if y + 30 > height:
            break
        cv2.putText(out, line, (left, y), cv2.FONT_HERSHEY_SIMPLEX, 0.6, text, 1, cv2.LINE_AA)
        if "  " in line:  # the icon sits in the gap the text leaves for it
            gap = line.index("  ")
            icon_x = left + cv2.getTextSize(line[: gap + 1], cv2.FONT_HERSHEY_SIMPLEX, 0.6, 1)[0][0] + 10
            draw_crown(out, (icon_x, y - 6), 16, text)
        y += 34
    if y + example.shape[0] + 30 <= height:
        cv2.putText(out, "Examples", (left, y), cv2.FONT_HERSHEY_SIMPLEX, 0.6, text, 1, cv2.LINE_AA)
        out[y + 14 : y + 14 + example.shape[0], left : left + example.shape[1]] = example
    return out


def _button(out: np.ndarray, at: tuple[int, int], label: str, colour: tuple[int, int, int]) -> None:
    x, y = at
    cv2.rectangle(out, (x, y - 24), (x + 96, y + 4), colour, 2, cv2.LINE_AA)
    cv2.putText(out, label, (x + 22, y - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 1, cv2.LINE_AA)


# --- variants and overlays for the vision calibration (scripts/calibrate_vision.py) ---------------


def render_board_lines(
    puzzle_regions: Sequence[Sequence[object]], states: Sequence[str] = (), cell: int = 48,
    thin: int = 1, thick: int = 3, **options: object,
) -> np.ndarray:
    """`render_board` with the given widths of thin cell lines and thick region (and outer)
    borders: pages draw region borders 1 to 9 px wide, and at small zoom one may be no thicker
    than a cell line. The one drawing routine is reused by swapping its line widths for the call."""
    module = globals()
    widths = module["line_widths"]
    module["line_widths"] = lambda size: (thin, thick)
    try:
        return render_board(puzzle_regions, states, cell, **options)  # type: ignore[arg-type]
    finally:
        module["line_widths"] = widths


def draw_tooltip(
    image: np.ndarray, box: tuple[int, int, int, int], colour: tuple[int, int, int] = (40, 40, 40)
) -> None:
    """A tooltip over (x, y, w, h): a filled box with a soft shadow and two lines of text in the
    opposite shade, as browsers and pages show on hover."""
    x, y, w, h = box
    shadow = image[y + 2 : y + h + 3, x + 2 : x + w + 3]
    shadow[:] = (shadow * 0.7).astype(np.uint8)
    cv2.rectangle(image, (x, y), (x + w - 1, y + h - 1), colour, -1, cv2.LINE_AA)
    text = (255, 255, 255) if sum(colour) < 384 else (30, 30, 30)
    scale = max(0.3, h / 60)
    for line, word in enumerate(("Undo move", "Ctrl+Z")):
        at = (x + max(2, w // 12), y + int(h * (0.42 + 0.4 * line)))
        cv2.putText(image, word, at, cv2.FONT_HERSHEY_SIMPLEX, scale, text, 1, cv2.LINE_AA)


def draw_pointer(image: np.ndarray, tip: tuple[float, float], scale: float = 1.0, black: bool = True) -> None:
    """A mouse pointer (the usual arrow, 12x19 px at scale 1) with its tip at `tip`: black with a
    white outline, or white with a black one."""
    arrow = np.array([(0, 0), (0, 16), (4, 12), (7, 18.5), (9.5, 17.5), (6.5, 11.5), (11.5, 11.5)])
    points = np.rint((arrow * scale + tip) * 16).astype(np.int32)
    fill, edge = ((0, 0, 0), (255, 255, 255)) if black else ((255, 255, 255), (0, 0, 0))
    cv2.fillPoly(image, [points], fill, cv2.LINE_AA, shift=4)
    cv2.polylines(image, [points], True, edge, max(1, round(scale)), cv2.LINE_AA, shift=4)


def draw_dialog(
    image: np.ndarray, box: tuple[int, int, int, int], colour: tuple[int, int, int] = (255, 255, 255),
    alpha: float = 0.6,
) -> None:
    """A semi-transparent dialog over (x, y, w, h): the page shows through it, blended."""
    x, y, w, h = box
    region = image[y : y + h, x : x + w]
    region[:] = np.rint(region * (1 - alpha) + np.array(colour) * alpha).astype(np.uint8)


def cell_spans(n: int, cell: int) -> tuple[np.ndarray, np.ndarray]:
    """Where `render_board(..., cell=cell)` (no `page`) draws each column's (and row's) cell:
    start and end pixel (exclusive), the same along both axes."""
    thin, thick = line_widths(cell)
    lo = margin_of(cell) + thick + np.arange(n) * (cell + thin)
    return lo.astype(float), (lo + cell).astype(float)


def clip_image(
    image: np.ndarray,
    columns: tuple[Sequence[float] | np.ndarray, Sequence[float] | np.ndarray],
    rows: tuple[Sequence[float] | np.ndarray, Sequence[float] | np.ndarray],
    sides: Collection[str],
    cells: float,
    keep_line: bool = False,
) -> np.ndarray:
    """The image with the board cut off at `sides` ("left", "right", "top", "bottom"), as when it
    runs past a window's edge: `cells` = k + f hides k whole cells and a fraction f of the next
    (k = 0, f = 0 hides only the outer frame); with `keep_line` the grid line after the k-th hidden
    cell stays visible. `columns` and `rows` are the (start, end) pixel spans of the cells."""
    k, f = int(cells), cells - int(cells)
    h, w = image.shape[:2]
    bounds = {"left": 0, "top": 0, "right": w, "bottom": h}
    for side in sides:
        lo, hi = columns if side in ("left", "right") else rows
        line = keep_line and f == 0 and k > 0
        if side in ("left", "top"):
            at = hi[k - 1] if line else lo[k] + f * (hi[k] - lo[k])
        else:
            j = len(lo) - 1 - k
            at = lo[j + 1] if line else hi[j] - f * (hi[j] - lo[j])
        bounds[side] = int(round(at))
    return np.ascontiguousarray(image[bounds["top"] : bounds["bottom"], bounds["left"] : bounds["right"]])


def draw_round_buttons(
    image: np.ndarray, centre_y: int, xs: Sequence[int], diameter: int, dark: bool = False
) -> None:
    """Round controls (zoom, reset, palette) as LinkedIn puts them near the board: light discs
    with a darker rim and a small icon inside, centred at (x, centre_y) for x in `xs`."""
    fill = (60, 63, 68) if dark else (250, 250, 250)
    rim = (120, 120, 120) if dark else (190, 190, 190)
    icon = (220, 220, 220) if dark else (70, 70, 70)
    radius = diameter // 2
    for x in xs:
        cv2.circle(image, (x, centre_y), radius, fill, -1, cv2.LINE_AA)
        cv2.circle(image, (x, centre_y), radius, rim, max(1, diameter // 24), cv2.LINE_AA)
        arm = max(2, diameter // 6)
        cv2.line(image, (x - arm, centre_y), (x + arm, centre_y), icon, max(1, diameter // 18), cv2.LINE_AA)
        cv2.line(image, (x, centre_y - arm), (x, centre_y + arm), icon, max(1, diameter // 18), cv2.LINE_AA)


def lay_card(image: np.ndarray, spans: tuple[np.ndarray, np.ndarray], rows: tuple[float, float],
             columns: tuple[float, float]) -> tuple[np.ndarray, set[tuple[int, int]]]:
    """`image` with a white results card over it, a grey outline and a shadow under it, its edges
    at fractional `rows` and `columns` (row 4.5: halfway down row 4), as LinkedIn's win dialog
    over a big board; and the cells the card (not its shadow) reaches."""
    lo, hi = spans
    pitch = lo[1] - lo[0]
    top, bottom = (int(lo[0] + r * pitch) for r in rows)
    left, right = (int(lo[0] + c * pitch) for c in columns)
    out = image.copy()
    shadow = out[top + 3:bottom + 6, left - 2:right + 3].astype(float)
    out[top + 3:bottom + 6, left - 2:right + 3] = (shadow * 0.8).astype(np.uint8)
    out[top:bottom, left:right] = (200, 200, 200)
    out[top + 1:bottom - 1, left + 1:right - 1] = 255
    n = len(lo)
    reached = {(r, c) for r in range(n) for c in range(n)
               if lo[r] < bottom and hi[r] > top and lo[c] < right and hi[c] > left}
    return out, reached
