"""Deciding the regions from two witnesses: the thick borders drawn between regions, and the cell
colours. Neighbouring cells share a region when no thick border separates them and their colours
are not clearly different; the result must be exactly N connected regions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.puzzle import cell_name
from vision.reading import BoardNotFound
from vision.sample import BoardSamples
from vision.stats import median

# Colour distances (CIE Lab, delta E 1976). A hovered cell is about 8 from its region; the nearest
# two region colours seen on real screens are about 14 apart.
SAME_COLOUR = 11.0
CLEARLY_DIFFERENT = 25.0
# Thick borders must hold this many times the ink of thin lines for the border witness to count.
BORDER_CONTRAST = 1.5
INK_OFFSET = 0.1  # keeps log(ink) finite where a line is all but invisible


@dataclass(frozen=True)
class RegionReading:
    """Region number per cell (0..n-1, numbered in reading order), colours, and doubts."""

    regions: tuple[tuple[int, ...], ...]
    colours: tuple[tuple[int, int, int], ...]
    doubts: tuple[str, ...]


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
    """Connected groups of cells joined by the given links, numbered in reading order."""
    labels = -np.ones((n, n), dtype=int)
    count = 0
    for r0 in range(n):
        for c0 in range(n):
            if labels[r0, c0] >= 0:
                continue
            labels[r0, c0] = count
            stack = [(r0, c0)]
            while stack:
                r, c = stack.pop()
                for rr, cc, linked in (
                    (r, c + 1, c + 1 < n and join_right[r, c]),
                    (r, c - 1, c > 0 and join_right[r, c - 1]),
                    (r + 1, c, r + 1 < n and join_down[r, c]),
                    (r - 1, c, r > 0 and join_down[r - 1, c]),
                ):
                    if linked and labels[rr, cc] < 0:
                        labels[rr, cc] = count
                        stack.append((rr, cc))
            count += 1
    return labels


def _same_hue(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """True where two RGB colours differ only in shade (one is the other darkened, as a hovered
    cell is): their RGB directions lie within about 3.5 degrees."""
    cos = (a * b).sum(axis=-1) / np.maximum(np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1), 1e-6)
    return cos > np.cos(np.radians(3.5))


def _conflicts(samples: BoardSamples, thick_r: np.ndarray, thick_d: np.ndarray) -> list[str]:
    """Boundaries where the two witnesses disagree: a thin line between clearly different colours
    (a cell only darker than its neighbour is a hovered cell, not a disagreement)."""
    lab, rgb = samples.lab, samples.rgb
    out = []
    for dr, dc, thick in ((0, 1, thick_r), (1, 0, thick_d)):
        rows, cols = lab.shape[0] - dr, lab.shape[1] - dc
        gap = np.linalg.norm(lab[dr:, dc:] - lab[:rows, :cols], axis=2)
        shade_only = _same_hue(rgb[dr:, dc:], rgb[:rows, :cols]) & (gap < CLEARLY_DIFFERENT)
        for r, c in zip(*np.nonzero(~thick & (gap > SAME_COLOUR) & ~shade_only)):
            out.append(f"{cell_name((r, c))}|{cell_name((r + dr, c + dc))}")
    return out


def read_regions(samples: BoardSamples, n: int) -> RegionReading:
    """Exactly n connected regions, or BoardNotFound saying how many were seen."""
    thick_r, thick_d, sure_r, sure_d, borders_usable = thick_borders(samples)
    gap_r, gap_d = colour_gaps(samples.lab)
    doubts: list[str] = []
    if borders_usable:
        # split where a thick border runs, or where the colours are plainly different
        join_r = ~thick_r & (gap_r < CLEARLY_DIFFERENT)
        join_d = ~thick_d & (gap_d < CLEARLY_DIFFERENT)
        conflicts = _conflicts(samples, thick_r, thick_d)
        if conflicts:
            doubts.append(
                f"colour changes without a thick border at {', '.join(conflicts[:4])}"
                + (f" (+{len(conflicts) - 4} more)" if len(conflicts) > 4 else "")
            )
        # a border verdict near the threshold counts only when the colours do not back it
        weak = ((sure_r < 0.25) & (thick_r != (gap_r > SAME_COLOUR))).sum()
        weak += ((sure_d < 0.25) & (thick_d != (gap_d > SAME_COLOUR))).sum()
        if weak:
            doubts.append(f"{weak} grid line(s) neither clearly thick nor clearly thin")
    else:
        join_r, join_d = gap_r < SAME_COLOUR, gap_d < SAME_COLOUR
        doubts.append("no thick region borders seen; regions read from colour alone")
    labels = label_components(n, join_r, join_d)
    count = int(labels.max()) + 1
    if count != n and borders_usable:
        # the colour veto may have cut a region on a misread (e.g. hovered) cell: borders alone
        alone = label_components(n, ~thick_r, ~thick_d)
        if alone.max() + 1 == n:
            labels, count = alone, n
            doubts.append("regions follow the borders; colours disagree")
    if count != n:
        raise BoardNotFound(
            f"found {count} regions on the {n}x{n} board, expected {n}: regions not readable"
        )
    rgb_medians = np.array([median(samples.rgb[labels == region], axis=0) for region in range(n)])
    colours = tuple(tuple(int(round(v)) for v in colour) for colour in rgb_medians)
    return RegionReading(
        tuple(tuple(int(v) for v in row) for row in labels),
        colours,  # type: ignore[arg-type]
        tuple(doubts),
    )
