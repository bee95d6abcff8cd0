"""The vision entry points: an image (array or file) in, a `BoardReading` out, or an error that
says what could not be found. Stages: locate the lattice, sample colours and border ink, decide
regions (two witnesses), read cell states, then weigh the measured margins into one confidence.

Confidence. Every witness of the reading measures a margin: how far its evidence lies from the
point where the decision would flip. `vision.reading.margin_score` maps a margin onto 0..1 (0 at
the flip, CONFIDENT = 0.9 at the margin calibration showed to be safe, 1 at a comfortable one,
linear between), and the confidence is the minimum over all witnesses: one weak witness is
enough to hold a reading back. The witnesses (thresholds zero / sure / full):

- regions (vision.region_reading), per boundary between two cells, the better of two witnesses that
  agree with the reading: the border's sureness (0 at the thick/thin split, 1 at a typical
  line; 0 / 0.25 / 0.5), and the colour separation, the lesser of the two cells' margins by
  which each is nearer its own region's colour than the nearest neighbouring region's (delta E;
  0 / 8 / 14). With no thick borders seen (small zoom, 1 px borders) colour alone carries it.
- cell colours: each cell's distance from its own region's colour, a hover's darkening (up to
  10) forgiven (delta E; 16 / 10 / 5): a cell that matches no region is covered or misread.
  Locked queens are left out (their disc reaches the colour samples of small, blurred cells).
- grid (here): the share of cells seen as clean blobs (0.5 / 0.6 / 0.8), and the largest
  distance of a cell centre from an evenly spaced lattice (pitches; 0.2 / 0.08 / 0.03).
- states (vision.states), per cell: ink against the mark threshold, off-diagonal ink against
  the crown/X threshold, the ring against the locked-disc threshold (each: CONFIDENT at the edge
  of its doubt band, 1 at twice that); the shape match of every crown with crown.svg's crown
  (correlation; 0.45 / 0.56 / 0.66) and of every X with an X (0.3 / 0.55 / 0.7); and the rim,
  ink near a cell's edge where no mark reaches (share of rim points; 0.25 / 0.12 / 0), which a
  tooltip, a pointer or a dialog's edge leaves.
- stripes: red conflict stripes hide parts of cells (a fixed 0.75).

So 0.9 means: the weakest of all these margins is exactly at its calibrated safe edge. On the
sweep of scripts/calibrate_vision.py (real screenshots and renders, with overlays, rescales and
JPEG) no reading at or above it was wrong, but for crops that cut the board (the locator must
refuse those). `reasons` name every witness below 0.9, weakest
first, with where (cells, regions); a reading above 0.9 but below 1 names its weakest witness.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.image_file import load_image
from queens_autosolve.capture.models import Frame
from queens_autosolve.solver.position import CellState
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.vision.enlarged import enlargement
from queens_autosolve.vision.lattice import Lattice
from queens_autosolve.vision.locate import locate, stripes_on_lines
from queens_autosolve.vision.reading import (
    CONFIDENT,
    BoardNotFound,
    BoardReading,
    GridNotSquare,
    Margin,
    margin_score,
)
from queens_autosolve.vision.region_reading import cell_colour_margin, read_regions
from queens_autosolve.vision.sample import BoardSamples, sample_board
from queens_autosolve.vision.shades import Shades, shades_of, share_around_marks, without_stripes
from queens_autosolve.vision.states import read_states
from queens_autosolve.vision.tight import tight_margin, unique_or_refused

# Red conflict stripes hide part of the cells they cover: such a reading is never clicked on.
STRIPED_SCORE = 0.75
# Grid fit margins: the share of cells seen as clean blobs, and the largest distance of a cell
# line's centre from an evenly spaced lattice, in pitches.
FOUND_ZERO, FOUND_SURE, FOUND_FULL = 0.5, 0.6, 0.8
RESIDUAL_ZERO, RESIDUAL_SURE, RESIDUAL_FULL = 0.2, 0.08, 0.03
# Share of a cell's pixels (around its middle) on red stripes: the cell is in conflict. Stripes
# give 0.12-0.2 (less at high device scales, as only their edges border the cell colour).
STRIPED_SHARE = 0.08
BLANK_SPREAD = 8  # gray levels: an image whose pixels all lie this close is blank


def as_rgb(image: np.ndarray) -> np.ndarray:
    """An RGB uint8 HxWx3 view of a gray, RGB or RGBA (alpha ignored) image array."""
    image = np.asarray(image)
    if image.dtype != np.uint8:
        raise BoardNotFound(f"expected 8-bit pixels, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2RGB)
    if image.ndim == 3 and image.shape[2] == 4:
        return np.ascontiguousarray(image[:, :, :3])
    if image.ndim == 3 and image.shape[2] == 3:
        return np.ascontiguousarray(image)
    raise BoardNotFound(f"expected an RGB image, got an array of shape {image.shape}")


def read_board(image: np.ndarray, still: bool = False) -> BoardReading:
    """Read the main Queens board in an RGB (or RGBA) image; a screen grab in mss's BGRA goes
    through `capture.Frame.rgb` first.

    Raises BoardNotFound when there is no single whole board, or its regions cannot be read.
    `still`: the image is a picture file, not a live window or screen: a board cropped tightly
    (its frame and a sliver of the outer cells cut away on all four sides) is read as the whole
    board when its puzzle has exactly one solution (vision/tight.py; `BoardReading.tight_crop`),
    below the click threshold. Live, a board the edge cuts is always refused: the user can
    scroll it into view.

    >>> read_board(np.full((300, 300, 3), 255, np.uint8))
    Traceback (most recent call last):
    ...
    queens_autosolve.vision.reading.BoardNotFound: no board found: the image is blank
    """
    rgb = as_rgb(image)
    if min(rgb.shape[:2]) < 20:
        raise BoardNotFound(f"no board found: the image is only {rgb.shape[1]}x{rgb.shape[0]} pixels")
    blocks = enlargement(rgb)
    if blocks is not None:  # enlarged by repeating pixels: read at the size it was drawn
        return blocks.scaled_back(_read(blocks.reduced(rgb), still))
    return _read(rgb, still)


def _read(rgb: np.ndarray, still: bool) -> BoardReading:
    """`read_board` on an RGB image at the size it was drawn."""
    shades = shades_of(rgb)
    darkest, lightest, _, _ = cv2.minMaxLoc(shades.gray)  # one pass over the image, not two
    if int(lightest) - int(darkest) <= BLANK_SPREAD:
        raise BoardNotFound("no board found: the image is blank")
    lattice, samples, striped = _locate_and_sample(shades, still)
    if striped:
        shades = without_stripes(shades, [_cell_rect(lattice, cell, rgb.shape) for cell in striped])
        samples = sample_board(shades.rgb, shades, lattice)
    regions = read_regions(samples, lattice.n)
    states = read_states(shades.rgb, lattice, samples.rgb, striped, regions.regions)
    locked = np.array([[state is CellState.LOCKED for state in row] for row in states.states])
    margins = [*regions.margins, cell_colour_margin(regions, locked), *states.margins, *grid_margins(lattice)]
    if striped:
        margins.append(Margin(
            "stripes", STRIPED_SCORE,
            f"red conflict stripes on {len(striped)} cell(s) (queens break a rule); "
            "marks there may be misread",
        ))
    if lattice.tight_crop:
        puzzle = Puzzle.from_region_grid(regions.regions, given=_locked_cells(locked))
        unique_or_refused(puzzle, lattice, rgb.shape)
        margins.append(tight_margin())
    confidence, reasons = weigh(margins)
    return BoardReading(
        n=lattice.n,
        regions=regions.regions,
        states=states.states,
        centres=tuple(
            tuple((float(x), float(y)) for x in lattice.xs) for y in lattice.ys
        ),
        box=lattice.box(rgb.shape),
        region_colours=regions.colours,
        confidence=confidence,
        reasons=reasons,
        solved_look=states.solved_look,
        tight_crop=lattice.tight_crop,
    )


def _locked_cells(locked: np.ndarray) -> list[tuple[int, int]]:
    """The cells of a boolean grid that are set (the locked queens), as (row, col)."""
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(locked))]


def _locate_and_sample(shades: Shades, still: bool) -> tuple[Lattice, BoardSamples, list[tuple[int, int]]]:
    """The main board, its measurements and its cells under red conflict stripes.

    Stripes can cut cells up so that the board is missed or mis-fitted; then it is located again
    with the stripes taken out of the grid lines (only then: finding them costs time).
    """
    try:
        lattice = locate(shades, still=still)
    except BoardNotFound as first:
        lattice = _locate_without_stripes(shades, first, still)
    else:
        samples = sample_board(shades.rgb, shades, lattice)
        striped = _confirm_stripes(shades, lattice, samples.striped())
        if not striped or not stripes_on_lines(shades):  # none on a line: the same mask, lattice
            return lattice, samples, striped
        lattice = locate(shades, stripes=True, still=still)
    samples = sample_board(shades.rgb, shades, lattice)
    return lattice, samples, _confirm_stripes(shades, lattice, samples.striped())


def _locate_without_stripes(shades: Shades, first: BoardNotFound, still: bool) -> Lattice:
    """After `first`: the board located with the red stripes taken out of the grid lines, else
    with dark cells counted. Where no stripe lies on a line, the light mask is the same as for
    `first`, so is the outcome: that search is not repeated."""
    if not stripes_on_lines(shades):
        return _locate_with_dark_cells(shades, first, still)
    try:
        return locate(shades, stripes=True, still=still)
    except BoardNotFound:
        return _locate_with_dark_cells(shades, first, still)


def _locate_with_dark_cells(shades: Shades, first: BoardNotFound, still: bool) -> Lattice:
    """After `first`: a grid that missed whole lines of cells, looked for again with dark cells
    counted. A board found so has cells darker than any page draws, which the states' "dark"
    witness then names (so the reading is refused for its real cause, not as "no board")."""
    if not isinstance(first, GridNotSquare):
        raise first
    try:
        return locate(shades, dark_cells=True, still=still)
    except BoardNotFound:
        raise first from None


def _confirm_stripes(shades: Shades, lattice: Lattice, cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The cells among `cells` (whose colour samples hit stripe colours) that really are striped:
    stripe pixels cover a good share of them (about a fifth) around the middle, not a few
    JPEG-noisy pixels or the rim of a mark."""
    return [
        cell for cell in cells
        if share_around_marks(shades.stripes_in(_cell_rect(lattice, cell, shades.shape))) > STRIPED_SHARE
    ]


def _cell_rect(lattice: Lattice, cell: tuple[int, int], shape: tuple[int, ...]) -> Rect:
    """A cell's light span in pixels, inside the image: an outer cell of a tight crop may reach
    past its edge (a negative start would wrap around when slicing)."""
    r, c = cell
    x0, y0 = max(0, int(lattice.left[c])), max(0, int(lattice.top[r]))
    x1, y1 = min(shape[1], int(lattice.right[c])), min(shape[0], int(lattice.bottom[r]))
    return Rect(x0, y0, max(0, x1 - x0), max(0, y1 - y0))


def grid_margins(lattice: Lattice) -> list[Margin]:
    """How well the lattice fits: the share of cells seen as clean blobs, and how far the cell
    centres stray from evenly spaced lines."""
    at = np.arange(lattice.n)
    residual = 0.0
    for centres in (lattice.xs, lattice.ys):
        slope, offset = np.polyfit(at, centres, 1)
        residual = max(residual, float(np.abs(centres - (slope * at + offset)).max()))
    residual /= max(lattice.pitch, 1.0)
    return [
        Margin("grid", float(margin_score(lattice.found, FOUND_ZERO, FOUND_SURE, FOUND_FULL)),
               f"only {lattice.found:.0%} of the cells were seen clearly"),
        Margin("grid", float(margin_score(residual, RESIDUAL_ZERO, RESIDUAL_SURE, RESIDUAL_FULL)),
               f"the cells stray up to {residual:.0%} of a cell from an even grid"),
    ]


def weigh(margins: list[Margin]) -> tuple[float, tuple[str, ...]]:
    """The confidence (the weakest witness's score) and the reasons: every margin below CONFIDENT,
    weakest first, or else which witness holds the confidence below 1."""
    ordered = sorted(margins, key=lambda margin: margin.score)
    confidence = round(ordered[0].score, 3) if ordered else 1.0
    reasons = [margin.reason for margin in ordered if margin.score < CONFIDENT]
    if not reasons and confidence < 1.0:
        reasons = [f"weakest witness: {ordered[0].witness} at {confidence:.2f}"]
    return confidence, tuple(reasons)


# JPEG quality at or below which a picture's 8-pixel blocks blur a board's lines past reading
HEAVY_JPEG = 25


def read_picture(frame: Frame) -> BoardReading:
    """The board in a picture file's frame, read as a still; when none is read in a JPEG saved at
    a quality so low that its blocks blur the lines, that is the cause given."""
    try:
        return read_board(frame.rgb, still=True)
    except BoardNotFound:
        quality = frame.jpeg_quality
        if quality is None or quality > HEAVY_JPEG:
            raise
        raise BoardNotFound(
            f"no board could be read: the picture is a JPEG saved at quality {quality}, whose 8-pixel "
            "blocks blur the board's lines; save the screenshot as PNG (or as JPEG at quality 50 or more)"
        ) from None


def read_image(path: str | Path) -> BoardReading:
    """Read the board in an image file (PNG, JPEG, ... anything Pillow opens); ImageReadError
    when the file is missing or not a picture."""
    return read_picture(load_image(path))
