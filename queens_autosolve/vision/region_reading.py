"""Deciding the regions from two witnesses: the thick borders drawn between regions, and the cell
colours. Neighbouring cells share a region when no thick border separates them and their colours
are not clearly different; the result must be exactly N regions: N connected areas, or more
areas in exactly N colours (a page that paints one region in pieces).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from queens_autosolve.solver.puzzle import cell_name
from queens_autosolve.vision.reading import Margin, RegionsUnreadable, margin_score
from queens_autosolve.vision.sample import BoardSamples
from queens_autosolve.vision.stats import group_medians

# Colour distances (CIE Lab, delta E 1976). A hovered cell is about 8 from its region; the nearest
# two region colours seen on real screens are about 14 apart.
SAME_COLOUR = 11.0
# Areas of a board this close in colour are one region painted in pieces: the same colour on
# screen measures within 1-2; the nearest two region colours seen are about 14 apart.
ONE_COLOUR = 5.0
CLEARLY_DIFFERENT = 25.0
# Thick borders must hold this many times the ink of thin lines for the border witness to count.
BORDER_CONTRAST = 1.5
INK_OFFSET = 0.1  # keeps log(ink) finite where a line is all but invisible
# Margins (see vision.read): a border verdict's sureness (0 at the thick/thin threshold, 1 at a
# typical line); a cell's colour separation, delta E nearer its own region's colour than any
# neighbouring region's; a cell's distance from its own region's colour (hover gives about 8).
BORDER_SURE, BORDER_FULL = 0.25, 0.5
SEPARATION_SURE, SEPARATION_FULL = 8.0, 14.0
OWN_FULL, OWN_SURE, OWN_ZERO = 5.0, 10.0, 16.0
HOVER = 10.0  # delta E a cell of its region's hue may be darker by (hover), forgiven
FOLLOWS_BORDERS = 0.7  # regions from the borders against the colours' word: never click on it


@dataclass(frozen=True)
class RegionReading:
    """Region number per cell (0..n-1, numbered in reading order), colours, the margin of the
    weakest boundary, and how far each cell's colour is off its region's (see
    `cell_colour_margin`)."""

    regions: tuple[tuple[int, ...], ...]
    colours: tuple[tuple[int, int, int], ...]
    margins: tuple[Margin, ...]
    off_colour: np.ndarray = field(compare=False)  # (n, n) delta E off the region's colour


def split_two(values: np.ndarray) -> tuple[float, float, float]:
    """Best two-group split of 1-D values (least within-group variance): the threshold between
    the groups and the two group means."""
    v = np.sort(values)
    if len(v) < 2 or v[0] == v[-1]:
        return float(v[-1]) + 1.0, float(v.mean()), float(v.mean())
    csum, csq = np.cumsum(v), np.cumsum(v * v)
    total, total_sq, n = csum[-1], csq[-1], len(v)
    k = np.arange(1, n)
    left_var = csq[:-1] - csum[:-1] ** 2 / k
    right_var = (total_sq - csq[:-1]) - (total - csum[:-1]) ** 2 / (n - k)
    best = int(np.argmin(left_var + right_var))
    low, high = v[: best + 1].mean(), v[best + 1 :].mean()
    return float((v[best] + v[best + 1]) / 2), float(low), float(high)


def thick_borders(samples: BoardSamples) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:
    """Which boundaries are thick region borders, how sure each verdict is (0 at the threshold,
    1 at a typical thin or thick line), and whether thick and thin lines are apart at all."""
    inks = np.concatenate([samples.ink_right.ravel(), samples.ink_down.ravel()])
    threshold, low, high = split_two(np.log(inks + INK_OFFSET))
    usable = high - low > np.log(BORDER_CONTRAST)
    half_gap = max((high - low) / 2, 1e-6)

    def verdicts(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logs = np.log(ink + INK_OFFSET)
        return logs > threshold, np.clip(np.abs(logs - threshold) / half_gap, 0.0, 1.0)

    right, sure_right = verdicts(samples.ink_right)
    down, sure_down = verdicts(samples.ink_down)
    return right, down, sure_right, sure_down, bool(usable)


def colour_gaps(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Colour distance between each cell and its right and lower neighbour."""
    return (
        np.linalg.norm(lab[:, 1:] - lab[:, :-1], axis=2),
        np.linalg.norm(lab[1:] - lab[:-1], axis=2),
    )


def label_components(n: int, join_right: np.ndarray, join_down: np.ndarray) -> np.ndarray:
    """Connected groups of cells joined by the given links, numbered in reading order.

    Labelled as an image (cells on even pixels, links between them; a Python flood fill cost
    more than the rest of the region reading), then renumbered by each group's first cell."""
    side = 2 * n - 1
    image = np.zeros((side, side), np.uint8)
    image[::2, ::2] = 1
    image[::2, 1::2] = join_right[:, : n - 1]
    image[1::2, ::2] = join_down[: n - 1, :]
    _, found = cv2.connectedComponents(image, connectivity=4)
    cells = np.asarray(found[::2, ::2].ravel(), np.intp)
    first = np.full(int(cells.max()) + 1, cells.size)
    np.minimum.at(first, cells, np.arange(cells.size))
    rank = np.empty_like(first)
    rank[np.argsort(first)] = np.arange(len(first))
    return np.asarray(rank[cells].reshape(n, n), dtype=int)


def _same_hue(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """True where two RGB colours differ only in shade (one is the other darkened, as a hovered
    cell is): their RGB directions lie within about 3.5 degrees."""
    cos = (a * b).sum(axis=-1) / np.maximum(np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1), 1e-6)
    return np.asarray(cos > np.cos(np.radians(3.5)))


def read_regions(samples: BoardSamples, n: int) -> RegionReading:
    """Exactly n connected regions, or BoardNotFound saying how many were seen.

    Thick borders split where they can be seen; colours split where they plainly differ, and
    alone decide where the borders are no thicker than cell lines (small zoom, 1 px borders):
    how sure that is, the margins say."""
    thick_r, thick_d, sure_r, sure_d, borders_usable = thick_borders(samples)
    gap_r, gap_d = colour_gaps(samples.lab)
    margins: list[Margin] = []
    by_colour = (_same_colour(samples, 0, 1, gap_r), _same_colour(samples, 1, 0, gap_d))
    if borders_usable:
        # split where a thick border runs, or where the colours are plainly different
        join_r = ~thick_r & (gap_r < CLEARLY_DIFFERENT)
        join_d = ~thick_d & (gap_d < CLEARLY_DIFFERENT)
    else:
        join_r, join_d = by_colour
    labels = label_components(n, join_r, join_d)
    count = int(labels.max()) + 1
    if count != n and borders_usable:
        # the colour veto may have cut a region on a misread (e.g. hovered) cell: borders alone
        alone = label_components(n, ~thick_r, ~thick_d)
        if alone.max() + 1 == n:
            labels, count = alone, n
            margins.append(Margin("regions", FOLLOWS_BORDERS, "regions follow the borders; colours disagree"))
    if count != n and borders_usable:
        # region borders barely thicker than cell lines (1 px borders, small zoom) split some
        # regions: colours alone, as when no borders are seen (the margins say how sure)
        alone = label_components(n, *by_colour)
        if alone.max() + 1 == n:
            labels, count, borders_usable = alone, n, False
    if count > n:
        # some pages paint one region as several areas of one colour: a region is its colour
        grouped = group_by_colour(samples.lab, labels, count)
        hues = int(grouped.max()) + 1
        if hues != n:
            raise RegionsUnreadable(
                f"found {count} areas in {hues} colours on the {n}x{n} board, expected {n} "
                "regions: regions not readable"
            )
        labels, count = grouped, n
    if count != n:
        raise RegionsUnreadable(
            f"found {count} regions on the {n}x{n} board, expected {n}: regions not readable"
        )
    borders = (thick_r, thick_d, sure_r, sure_d)
    boundary, off_colour = region_margins(samples, labels, n, borders, borders_usable)
    margins.append(boundary)
    rgb_medians = region_medians(samples.rgb, labels, n)
    colours = tuple((int(round(r)), int(round(g)), int(round(b))) for r, g, b in rgb_medians)
    return RegionReading(
        tuple(tuple(int(v) for v in row) for row in labels),
        colours,
        tuple(margins),
        off_colour,
    )


def group_by_colour(lab: np.ndarray, labels: np.ndarray, count: int) -> np.ndarray:
    """The areas `labels` numbers (0..count-1) grouped by colour: areas whose colours lie within
    ONE_COLOUR of a group's first area join it; groups numbered in reading order."""
    medians = region_medians(lab, labels, count)
    group_of: list[int] = []
    firsts: list[int] = []  # each group's first area
    for area in range(count):  # areas are numbered in reading order already
        near = [g for g, first in enumerate(firsts)
                if np.linalg.norm(medians[area] - medians[first]) < ONE_COLOUR]
        if near:
            group_of.append(near[0])
        else:
            group_of.append(len(firsts))
            firsts.append(area)
    return np.asarray(np.array(group_of)[labels])


def _same_colour(samples: BoardSamples, dr: int, dc: int, gap: np.ndarray) -> np.ndarray:
    """Neighbours whose colours are the same, or one a darker shade of the other (hover)."""
    rgb = samples.rgb
    rows, cols = rgb.shape[0] - dr, rgb.shape[1] - dc
    return (gap < SAME_COLOUR) | (_same_hue(rgb[dr:, dc:], rgb[:rows, :cols]) & (gap < CLEARLY_DIFFERENT))


def region_medians(lab: np.ndarray, labels: np.ndarray, n: int) -> np.ndarray:
    """Each region's colour: the median of its cells', (n, channels) (NaN for a region without
    cells), all regions at once per channel."""
    regions = labels.ravel()
    values = lab.reshape(regions.size, -1).astype(np.float64)
    return np.stack([group_medians(values[:, channel], regions, n) for channel in range(values.shape[1])],
                    axis=1)


def neighbouring_regions(labels: np.ndarray, n: int) -> np.ndarray:
    """(n, n) bool: which regions share a boundary."""
    touching = np.zeros((n, n), bool)
    for a, b in ((labels[:, 1:], labels[:, :-1]), (labels[1:], labels[:-1])):
        touching[a.ravel(), b.ravel()] = True
        touching[b.ravel(), a.ravel()] = True
    np.fill_diagonal(touching, False)
    return touching


def colour_margins(
    lab: np.ndarray, rgb: np.ndarray, labels: np.ndarray, n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell: its distance to its own region's colour (less what hover explains), how much
    nearer that is than the colour of the nearest neighbouring region (the colour witness's
    margin), and that region."""
    medians = region_medians(lab, labels, n)
    to_region = np.linalg.norm(lab[:, :, None, :] - medians[None, None], axis=3)  # (n, n, regions)
    own = np.take_along_axis(to_region, labels[:, :, None], axis=2)[:, :, 0]
    # a hovered cell is its region's colour darkened (about 8 delta E): that much is forgiven
    darker = lab[:, :, 0] < medians[labels][:, :, 0] - 2
    hovered = darker & _same_hue(rgb, region_medians(rgb, labels, n)[labels])
    own = np.where(hovered, np.maximum(own - HOVER, 0.0), own)
    others = np.where(neighbouring_regions(labels, n)[labels], to_region, np.inf)
    nearest = others.argmin(axis=2)
    return own, others.min(axis=2) - own, nearest


def region_letter(region: int) -> str:
    return chr(ord("A") + region) if region < 26 else f"#{region + 1}"


def _boundary_scores(
    split: np.ndarray, thick: np.ndarray, sure: np.ndarray, usable: bool, separation: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per boundary: the border witness's score (0 where it is unusable or disagrees with the
    reading) and the colour witness's (the lesser margin of the two cells)."""
    border = margin_score(sure, 0.0, BORDER_SURE, BORDER_FULL)
    border = np.where(usable & (thick == split), border, 0.0)
    colour = margin_score(separation, 0.0, SEPARATION_SURE, SEPARATION_FULL)
    return border, colour


def region_margins(
    samples: BoardSamples, labels: np.ndarray, n: int, borders: tuple[np.ndarray, ...], usable: bool
) -> tuple[Margin, np.ndarray]:
    """The margin of the weakest boundary (either witness may carry it), and each cell's distance
    from its own region's colour."""
    thick_r, thick_d, sure_r, sure_d = borders
    own, separation, nearest = colour_margins(samples.lab, samples.rgb, labels, n)
    weakest: tuple[float, tuple[int, int], tuple[int, int], float, float] | None = None
    for dr, dc, thick, sure in ((0, 1, thick_r, sure_r), (1, 0, thick_d, sure_d)):
        rows, cols = n - dr, n - dc
        split = labels[dr:, dc:] != labels[:rows, :cols]
        pair_separation = np.minimum(separation[dr:, dc:], separation[:rows, :cols])
        border, colour = _boundary_scores(split, thick, sure, usable, pair_separation)
        score = np.maximum(border, colour)
        r, c = np.unravel_index(int(np.argmin(score)), score.shape)
        if weakest is None or score[r, c] < weakest[0]:
            weakest = (float(score[r, c]), (int(r), int(c)), (int(r + dr), int(c + dc)),
                       float(pair_separation[r, c]), float(border[r, c]))
    assert weakest is not None
    score, a, b, apart, border_score = weakest
    ra, rb = int(labels[a]), int(labels[b])
    where = f"{cell_name(a)}|{cell_name(b)}"
    if not usable:
        border_note = "no thick region borders seen"
    elif border_score == 0:
        border_note = "the grid line there disagrees"
    else:
        border_note = "the grid line there is neither clearly thick nor clearly thin"
    if ra != rb:
        boundary = (f"regions {region_letter(ra)} and {region_letter(rb)} differ by only {apart:.0f} "
                    f"delta E at {where} ({border_note})")
    else:
        other = region_letter(int(nearest[a] if separation[a] <= separation[b] else nearest[b]))
        boundary = (f"cells {where} of region {region_letter(ra)} are only {apart:.0f} delta E nearer "
                    f"its colour than region {other}'s ({border_note})")
    return Margin("regions", score, boundary), own


def cell_colour_margin(reading: RegionReading, skip: np.ndarray) -> Margin:
    """The cell farthest from its own region's colour (something covers it, or it is misread),
    leaving out the `skip` cells ((n, n) bool): a locked queen's disc reaches the colour samples
    of a small, blurred cell."""
    off = np.where(skip, 0.0, reading.off_colour)
    worst = np.unravel_index(int(np.argmax(off)), off.shape)
    region = reading.regions[int(worst[0])][int(worst[1])]
    return Margin(
        "cell colours", float(margin_score(float(off[worst]), OWN_ZERO, OWN_SURE, OWN_FULL)),
        f"cell {cell_name((int(worst[0]), int(worst[1])))} is {off[worst]:.0f} delta E off its region "
        f"{region_letter(region)}'s colour (covered, or misread)",
    )
