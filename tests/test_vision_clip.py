"""A board the image edge cuts is refused, never read as a smaller whole board; round buttons
beside a board are no cells; two boards in one image are refused, except LinkedIn's small
example boards below the main one. (The full clip sweep: scripts/sweep_clips.py; the verdict both
give: tests/clips.py.)"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from queens_autosolve.capture import load_image
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.regions import random_regions
from queens_autosolve.vision import BoardCutOff, BoardNotFound, read_board
from queens_autosolve.vision.tight import TIGHT_REASON
from tests import render
from tests.clips import FRACTIONS, PLACES, clip_verdict, crop_into_cells, fitted_lattice
from tests.environment import shared_path, shared_screen_names
from tests.render import (
    cell_centres,
    cell_spans,
    clip_image,
    draw_round_buttons,
    line_widths,
    margin_of,
    render_board,
)


def board(n: int, cell: int, seed: int = 0, dark: bool = False) -> tuple[np.ndarray, list, list[str]]:
    rng = random.Random(seed * 100 + n)
    regions = random_regions(n, rng)
    states = ["".join(rng.choice(".....xQ") for _ in range(n)) for _ in range(n)]
    return render_board(regions, states, cell=cell, dark=dark), regions, states


def same_partition(read: Sequence[Sequence[int]], regions: Sequence[Sequence[int]]) -> bool:
    return Puzzle.from_region_grid(read).regions == Puzzle.from_region_grid(regions).regions


def sampled_clips(n: int, rng: random.Random, count: int) -> list[tuple[tuple[str, ...], float, bool]]:
    """`count` clips: place, cells hidden (whole and fractions), and whether the grid line stays."""
    clips = [(places, k + f, False) for places in PLACES for k in range(n) for f in FRACTIONS]
    clips += [(places, float(k), True) for places in PLACES for k in range(1, n)]
    return rng.sample(clips, count)


# --- cut off by the image edge ------------------------------------------------------------------


@pytest.mark.parametrize("thin_borders", [False, True], ids=("thick-borders", "thin-borders"))
@pytest.mark.parametrize("n", range(7, 15))
def test_a_clipped_render_is_refused_or_read_exactly(n, thin_borders, monkeypatch):
    if thin_borders:  # region borders as thin as the cell lines
        monkeypatch.setattr(render, "line_widths", lambda cell: (1, 1))
    rng = random.Random(n)
    failures = []
    for cell in (24, 48, 96) if n % 2 else (36, 72):
        image, regions, states = board(n, cell, seed=cell, dark=cell == 72)
        partition = Puzzle.from_region_grid(regions).regions
        spans = cell_spans(n, cell)
        for places, cells, keep_line in sampled_clips(n, rng, 8):
            clipped = clip_image(image, spans, spans, places, cells, keep_line)
            verdict = clip_verdict(clipped, n, partition, states)
            if not verdict.safe:
                failures.append(f"cell={cell} {'+'.join(places)} by {cells}, line {keep_line}: {verdict}")
    assert not failures, failures


@pytest.mark.shared
@pytest.mark.parametrize("name", shared_screen_names())
def test_a_clipped_real_screenshot_is_refused_or_read_exactly(name):
    label = json.loads(shared_path("screens", "labels.json").read_text())[name]
    image = load_image(shared_path("screens", name)).rgb
    partition = Puzzle.from_rows(label["regions"]).regions
    n, (h, w) = label["n"], image.shape[:2]
    lattice = fitted_lattice(image)  # where the cells are (whether or not the whole is refused)
    assert lattice.n == n
    columns, rows = (lattice.left, lattice.right), (lattice.top, lattice.bottom)
    rng = random.Random(name)
    failures = []
    for places, cells, keep_line in sampled_clips(n, rng, 12):
        clipped = clip_image(image, columns, rows, places, cells, keep_line)
        if min(clipped.shape[:2]) < 20:
            continue
        verdict = clip_verdict(clipped, n, partition, None)
        if not verdict.safe:
            failures.append(f"{'+'.join(places)} by {cells} cells, line {keep_line}, of {w}x{h}: {verdict}")
    assert not failures, failures


@pytest.mark.parametrize("visible", [0.0, 0.1, 0.3, 0.5, 0.9])
def test_a_nine_by_nine_missing_its_last_row_and_column_is_no_eight_by_eight(visible):
    """The case found on real pages: 0..40 px of the last row and column left, read as 8x8."""
    image, _, _ = board(9, 48, seed=3)
    spans = cell_spans(9, 48)
    clipped = clip_image(image, spans, spans, ("right", "bottom"), 1 - visible)
    with pytest.raises(BoardCutOff) as refusal:
        read_board(clipped)
    assert set(refusal.value.edges) == {"right", "bottom"}
    # beyond the edge: the cut part of a cell, or (cut at a line) at least that line
    least = (1 - visible) * 48 - 4 if visible else 1
    assert all(refusal.value.missing_px[side] >= least for side in ("right", "bottom"))
    assert "bottom" in str(refusal.value) and "cut off" in str(refusal.value)


# What a window shows between its page and the image edge: a light grey grip, a dark line, white,
# and openbox's light-blue frame with its darker outer line (as grabbed from Chromium under openbox).
WINDOW_BORDERS = {
    "grey": (((214, 214, 214), 3),),
    "dark": (((60, 60, 60), 3),),
    "white": (((255, 255, 255), 3),),
    "openbox": (((211, 227, 253), 3), ((179, 193, 215), 1)),
}


def with_border(image: np.ndarray, side: str, border: tuple[tuple[tuple[int, int, int], int], ...],
                scale: int) -> np.ndarray:
    """`image` with a window border (colour, px) outward along `side`, each band `scale` times."""
    parts = [image]
    for colour, px in border:
        shape = (px * scale, image.shape[1], 3) if side == "bottom" else (image.shape[0], px * scale, 3)
        parts.append(np.full(shape, colour, np.uint8))
    return np.ascontiguousarray(np.concatenate(parts, axis=0 if side == "bottom" else 1))


@pytest.mark.parametrize("side", ["right", "bottom"])
@pytest.mark.parametrize("border", WINDOW_BORDERS)
def test_a_board_cut_by_a_window_border_is_refused_as_cut_off_or_read_exactly(side, border):
    """The frame and part of the last cells (or a whole line of cells and part of the next) cut
    off, then a window's border before the image ends (openbox's frame under a 150% page): the
    refusal names the cut edge, so that --scroll can act on it; never the generic "no board",
    never a smaller board."""
    n, cell = 9, 72
    image, regions, _states = board(n, cell, seed=5)
    spans = cell_spans(n, cell)
    partition = Puzzle.from_region_grid(regions).regions
    failures = []
    for hidden in (0.1, 0.3, 0.5, 0.8, 0.9, 1.1, 1.3, 1.6):
        for scale in (1, 2):
            clipped = clip_image(image, spans, spans, (side,), hidden)
            joined = with_border(clipped, side, WINDOW_BORDERS[border], scale)
            try:
                reading = read_board(joined)
            except BoardCutOff as refusal:
                if side not in refusal.edges:
                    failures.append(f"{hidden} hidden, border x{scale}: cut at {refusal.edges}")
                continue
            except BoardNotFound as refusal:
                failures.append(f"{hidden} hidden, border x{scale}: {refusal}")
                continue
            exact = reading.n == n and Puzzle.from_region_grid(reading.regions).regions == partition
            if not exact or hidden > 0.3:  # most of a line of cells gone and read all the same: wrong
                failures.append(f"{hidden} hidden, border x{scale}: read a {reading.n}x{reading.n} board")
    assert not failures, failures


def test_the_refusal_says_which_edge_and_how_far_to_scroll():
    image, _, _ = board(10, 40, seed=4)
    spans = cell_spans(10, 40)
    with pytest.raises(BoardCutOff) as refusal:
        read_board(clip_image(image, spans, spans, ("bottom",), 2.5))
    assert refusal.value.edges == ("bottom",) and refusal.value.missing_px["bottom"] >= 15
    assert "scroll down" in str(refusal.value)


def test_a_crop_at_the_outer_frame_all_round_is_a_whole_board():
    image, regions, states = board(9, 48, seed=5)
    m = margin_of(48)
    partition = Puzzle.from_region_grid(regions).regions
    assert clip_verdict(image[m:-m, m:-m], 9, partition, states).kind == "exact"


@pytest.mark.parametrize("sides", [("right",), ("left", "top"), ("right", "bottom")])
def test_the_frame_at_the_image_edge_on_some_sides_only_may_be_a_cut_board(sides):
    """Cut exactly along a region border, a board that runs on looks like one closed by its frame:
    a frame at the edge is trusted only when the whole board is cropped that tightly."""
    image, _, _ = board(9, 48, seed=6)
    m = margin_of(48)
    h, w = image.shape[:2]
    x0, y0 = (m if "left" in sides else 0), (m if "top" in sides else 0)
    x1, y1 = (w - m if "right" in sides else w), (h - m if "bottom" in sides else h)
    with pytest.raises(BoardCutOff) as refusal:
        read_board(np.ascontiguousarray(image[y0:y1, x0:x1]))
    assert set(refusal.value.edges) == set(sides)


@pytest.mark.parametrize("cell", [24, 48, 80])
def test_a_crop_that_shaves_the_frame_or_the_outer_cells_is_cut_off(cell):
    image, _, _ = board(9, cell, seed=cell)
    _, thick = line_widths(cell)
    for shave in (thick, thick + cell // 8):
        cut = margin_of(cell) + shave
        with pytest.raises(BoardCutOff):
            read_board(np.ascontiguousarray(image[cut:-cut, cut:-cut]))


# --- tight crops: the frame and a sliver of the outer cells cut off on all four sides --------------


def level(n: int, cell: int, seed: int) -> tuple[np.ndarray, object, list[str]]:
    """A render of a puzzle with exactly one solution (as every level has), with random marks."""
    rng = random.Random(seed)
    regions = generate_puzzle(n, rng=seed).regions
    states = ["".join(rng.choice(".....xQ") for _ in range(n)) for _ in range(n)]
    return render_board(regions, states, cell=cell), Puzzle.from_region_grid(regions).regions, states


def tight_crop(image: np.ndarray, n: int, cell: int, depths: tuple[float, float, float, float]) -> np.ndarray:
    """A render cropped `depths` (left, right, top, bottom; px) into its outer cells."""
    lo, hi = cell_spans(n, cell)
    sides = dict(zip(("left", "right", "top", "bottom"), depths))
    return crop_into_cells(image, (lo, hi), (lo, hi), sides)


def tight_depths(cell: int) -> list[tuple[float, float, float, float]]:
    """1 px, a tenth and a quarter of a cell on every side, and a crop box off centre."""
    quarter = cell / 4
    return [(1, 1, 1, 1), (cell / 10,) * 4, (quarter,) * 4, (1, quarter, quarter / 2, 2)]


@pytest.mark.parametrize(("n", "cell"), [(7, 24), (9, 48), (11, 80), (14, 36)])
def test_a_tight_crop_of_a_still_is_read_as_the_whole_board_and_says_so(n, cell):
    image, partition, states = level(n, cell, seed=n)
    for depths in tight_depths(cell):
        cropped = tight_crop(image, n, cell, depths)
        reading = read_board(cropped, still=True)
        assert reading.n == n and Puzzle.from_region_grid(reading.regions).regions == partition, depths
        assert reading.state_rows() == states, depths
        assert reading.tight_crop and TIGHT_REASON in reading.reasons and not reading.is_certain
        # deeper, the crop may cut the crown of a queen in an outer cell: that doubt is said too
        assert reading.reasons == (TIGHT_REASON,) or max(depths) > cell / 10, (depths, reading.reasons)


@pytest.mark.parametrize(("n", "cell"), [(9, 48), (11, 80)])
def test_a_tight_crop_in_a_live_window_stays_refused_as_cut_off(n, cell):
    """Live, the user can scroll: a board the grab cuts on every side is never read."""
    from queens_autosolve.autosolve.onscreen import read
    from queens_autosolve.capture import BoardNotVisibleError, Frame
    from queens_autosolve.capture.models import FrameSource

    image, _, _ = level(n, cell, seed=n)
    for depths in tight_depths(cell):
        cropped = tight_crop(image, n, cell, depths)
        with pytest.raises(BoardCutOff) as refusal:
            read_board(cropped)
        assert set(refusal.value.edges) == {"left", "right", "top", "bottom"}
        for source in (FrameSource.WINDOW, FrameSource.SCREEN):
            with pytest.raises(BoardNotVisibleError, match="cut off"):
                read(Frame.from_rgb(cropped, source=source))


@pytest.mark.parametrize("fraction", [0.4, 0.5, 0.75])
def test_a_four_side_clip_deeper_than_a_quarter_cell_is_refused(fraction):
    image, _, _ = level(9, 48, seed=2)
    with pytest.raises(BoardCutOff) as refusal:
        read_board(tight_crop(image, 9, 48, (fraction * 48,) * 4), still=True)
    assert set(refusal.value.edges) == {"left", "right", "top", "bottom"}


def test_a_tight_crop_whose_puzzle_has_many_solutions_is_refused_as_maybe_a_piece_of_a_board():
    """Rows for regions: a puzzle with many solutions, as a piece cut out of a larger board may be."""
    regions = ["".join(chr(65 + r) * 8) for r in range(8)]
    image = render_board(regions, ["." * 8] * 8, cell=48)
    with pytest.raises(BoardCutOff, match="tight crop of a whole board it would have more than one solution"):
        read_board(tight_crop(image, 8, 48, (3, 3, 3, 3)), still=True)
    reading = read_board(image, still=True)  # the whole board, frame and all, reads: the page shows it so
    assert reading.n == 8 and not reading.tight_crop


@pytest.mark.parametrize("places", [("left",), ("right", "bottom"), ("left", "right", "top")])
def test_a_still_clipped_on_one_two_or_three_sides_is_refused(places):
    image, _, _ = level(9, 48, seed=3)
    spans = cell_spans(9, 48)
    for cells in (0.05, 0.2, 1.1):
        with pytest.raises(BoardCutOff) as refusal:
            read_board(clip_image(image, spans, spans, places, cells), still=True)
        assert set(refusal.value.edges) <= {"left", "right", "top", "bottom"}


# --- round buttons ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [12, 13, 14])
@pytest.mark.parametrize("cell", [28, 36, 48])
def test_round_buttons_under_and_beside_the_board_are_no_cells(n, cell):
    """The worst case: buttons as big as a cell, in line with the columns (rows) a pitch away."""
    image, regions, states = board(n, cell, seed=n, dark=cell == 36)
    side, centres = image.shape[0], [round(c) for c, _ in cell_centres(n, cell)[0]]
    page = np.full((side + 2 * cell, side + 2 * cell, 3), image[0, 0], np.uint8)
    page[:side, :side] = image
    below = centres[-1] + cell + line_widths(cell)[1] + 2
    draw_round_buttons(page, below, centres[n // 2 - 2 : n // 2 + 3], cell, dark=cell == 36)
    for y in centres[2:5]:
        draw_round_buttons(page, y, [below], cell, dark=cell == 36)
    reading = read_board(page)
    assert reading.n == n and same_partition(reading.regions, regions)
    assert reading.state_rows() == states


# --- two boards ---------------------------------------------------------------------------------


def _two_boards(first: np.ndarray, second: np.ndarray, below: bool = False) -> np.ndarray:
    """`second` 40 px to the right of `first` (or below it) on `first`'s background."""
    if below:
        return _two_boards(first.swapaxes(0, 1), second.swapaxes(0, 1)).swapaxes(0, 1).copy()
    h = max(first.shape[0], second.shape[0])
    out = np.full((h, first.shape[1] + second.shape[1] + 40, 3), first[0, 0], np.uint8)
    out[: first.shape[0], : first.shape[1]] = first
    out[: second.shape[0], first.shape[1] + 40 :] = second
    return out


@pytest.mark.parametrize(("first", "second"), [((9, 48), (7, 32)), ((8, 40), (8, 40)), ((10, 36), (6, 36))],
                         ids=("different-sizes", "same-board-size", "same-pitch"))
def test_two_boards_side_by_side_are_refused(first, second):
    left, _, _ = board(first[0], first[1], seed=1)
    right, _, _ = board(second[0], second[1], seed=2)
    with pytest.raises(BoardNotFound, match="two boards"):
        read_board(_two_boards(left, right))


@pytest.mark.parametrize("cell", [36, 48])
def test_the_main_board_above_small_example_boards_is_read(cell):
    rng = random.Random(cell)
    regions = random_regions(9, rng)
    page = render_board(regions, cell=cell, page=True, canvas=(1280, 1000))
    reading = read_board(page)
    assert reading.n == 9 and same_partition(reading.regions, regions)


@pytest.mark.parametrize(("n", "cell"), [(18, 18), (14, 16)])
def test_a_big_board_above_example_boards_with_nearly_its_cell_size_is_read(n, cell):
    """On an 18x18 practice board at 67% zoom the example boards' cells are 0.78 of the board's
    (found live: refused as "two boards found"). Small boards below it are examples still."""
    regions = random_regions(n, random.Random(cell))
    page = render_board(regions, cell=cell, page=True, canvas=(1280, 1000))
    reading = read_board(page)
    assert reading.n == n and same_partition(reading.regions, regions)


@pytest.mark.parametrize("second", [(6, 36), (4, 40)], ids=("over-half-as-wide", "larger-cells"))
def test_a_second_board_below_that_is_no_example_is_refused(second):
    """Below the main board (10x10, 36 px cells) and not like LinkedIn's examples: a board with the
    same cells over half as wide, or a small one with larger cells."""
    upper, _, _ = board(10, 36, seed=1)
    lower, _, _ = board(second[0], second[1], seed=2)
    with pytest.raises(BoardNotFound, match="two boards"):
        read_board(_two_boards(upper, lower, below=True))


@pytest.mark.parametrize("visible", [0.1, 0.3, 0.6])
def test_a_board_cut_by_the_top_of_a_browser_viewport_is_cut_off(visible):
    """In a window grab the page's top edge is no image edge: the browser's toolbar lies above
    it. A row the viewport cuts shows as a sliver of cells ending at the toolbar."""
    image, _, _ = board(9, 56, seed=7)
    spans = cell_spans(9, 56)
    page = clip_image(image, spans, spans, ("top",), 2 - visible)
    toolbar = np.full((60, page.shape[1], 3), (222, 226, 230), np.uint8)
    toolbar[-1] = (200, 200, 200)  # the line under the toolbar
    with pytest.raises(BoardCutOff) as refusal:
        read_board(np.concatenate([toolbar, page]))
    assert refusal.value.edges == ("top",)
    assert refusal.value.missing_px["top"] >= (1 - visible) * 56 - 4


@pytest.mark.parametrize("name", ["chromium-scrolled-3-rows-under-toolbar.png",
                                  "chromium-scrolled-0.4-row-under-toolbar.png",
                                  "chromium-scrolled-5-rows-under-toolbar-on-a-row-line.png"])
def test_a_board_scrolled_under_the_browser_toolbar_is_cut_at_the_top(name):
    """Grabs of our page in Chromium scrolled down until the toolbar hides the board's top rows
    (3 whole rows; 0.4 of one; 5 whole rows, the toolbar's border lying on the line between two
    rows, on GNOME). The toolbar's border line runs across the cells and on past the board, which
    no board frame does. Found live: "the grid shows 9 columns but 6 rows" and "no outer frame
    line along its top side", with the generic hint, and `--scroll` could not act; on a row's
    line, the border and that line made one dark band 4 px thick a pixel or two before the cells,
    where the view's edge was not looked for: "9 columns but 4 rows"."""
    image = load_image(Path(__file__).parent / "images" / name).rgb
    with pytest.raises(BoardCutOff) as cut:
        read_board(image)
    assert cut.value.edges == ("top",)
