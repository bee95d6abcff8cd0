"""Sweep of boards cut off by the image edge: every edge, corner and three sides, by 0..n-1 whole
cells and by fractions of a cell (and exactly at the grid lines), on the shared screenshots and on
renders; and the tight-crop set: the frame cropped off on all four sides and the outer cells cut by
1 px up to a quarter of a cell (each side its own depth, as a user's crop box), which must read
exactly, and four-side clips deeper than that (up to two cells and a bit), which must not read as a
smaller board. Images are read as stills (`read_board(still=True)`, as image files are), the
stricter case. Counts per source how many readings are exact, refused, wrong but unsure, and wrong
but confident (the actuator would click on those: must be none); for the tight crops, how many
were refused although readable.

    .venv/bin/python -m scripts.sweep_clips [--renders-only | --screens-only] [--quick]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from queens_autosolve.capture import load_image
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.vision import BoardNotFound
from queens_autosolve.vision.locate import locate
from queens_autosolve.vision.shades import shades_of
from tests import render
from tests.clips import FRACTIONS, clip_verdict, crop_into_cells, fitted_lattice
from tests.clips import PLACES as CORNERS_AND_SIDES
from tests.render import cell_spans, clip_image, margin_of, render_board

ROOT = Path(__file__).resolve().parents[1]

SCREENS = ROOT.parent / "shared" / "data" / "screens"
PLACES = (*CORNERS_AND_SIDES, ("left", "right", "top"), ("left", "right", "bottom"),
          ("left", "top", "bottom"), ("right", "top", "bottom"))
FOUR = ("left", "right", "top", "bottom")
TIGHT = (0.05, 0.1, 0.15, 0.2, 0.25)  # of a cell, cut off the outer cells by a tight crop (and 1 px)
DEEP = (0.35, 0.4, 0.5, 0.75, 1.0, 1.05, 1.1, 1.2, 1.25, 1.5, 2.05, 2.1, 2.2)  # four-side clips: not tight
MIXED_TIGHT = 3  # crops per board with each side's own depth, 1 px..a quarter of a cell


def cuts(n: int, quick: bool) -> Iterator[tuple[float, bool]]:
    """(cells, keep_line) for every clip amount: whole cells, fractions, and at the grid lines."""
    wholes = range(n) if not quick else sorted({0, 1, n // 2, n - 1})
    for k in wholes:
        for f in FRACTIONS:
            yield k + f, False
        if k:
            yield float(k), True


def sweep_board(image: np.ndarray, columns: tuple, rows: tuple, n: int, partition: object,
                states: list[str] | None, quick: bool, label: str, counts: Counter) -> None:
    for places in PLACES:
        for cells, keep_line in cuts(n, quick):
            clipped = clip_image(image, columns, rows, places, cells, keep_line)
            if min(clipped.shape[:2]) < 20:
                continue
            result = clip_verdict(clipped, n, partition, states).kind
            counts[result] += 1
            if result == "wrong-confident":
                print(f"  WRONG+CONFIDENT {label} {'+'.join(places)} cells={cells} line={keep_line}")


def four_side_crops(
    columns: tuple, rows: tuple, rng: random.Random
) -> Iterator[tuple[str, dict[str, float]]]:
    """("tight" or "deep", px cut off the outer cells per side): 1 px and TIGHT fractions on all
    four sides alike, MIXED_TIGHT crops with each side's own depth, then the DEEP clips."""
    cell = float(np.median(np.asarray(columns[1]) - np.asarray(columns[0])))
    yield "tight", dict.fromkeys(FOUR, 1.0)
    for fraction in TIGHT:
        yield "tight", dict.fromkeys(FOUR, max(1.0, fraction * cell))
    for _ in range(MIXED_TIGHT):
        yield "tight", {side: rng.uniform(1.0, max(1.0, TIGHT[-1] * cell)) for side in FOUR}
    for cells in DEEP:
        k, f = int(cells), cells - int(cells)
        pitch = float(columns[0][1] - columns[0][0])
        yield "deep", dict.fromkeys(FOUR, k * pitch + f * cell)


def sweep_four_sides(image: np.ndarray, columns: tuple, rows: tuple, n: int, partition: object,
                     states: list[str] | None, label: str, counts: Counter) -> None:
    """The tight-crop set: counts under "tight-<verdict>" and "deep-<verdict>"."""
    rng = random.Random(label)
    for kind, depths in four_side_crops(columns, rows, rng):
        cropped = crop_into_cells(image, columns, rows, depths)
        if min(cropped.shape[:2]) < 20:
            continue
        result = clip_verdict(cropped, n, partition, states).kind
        counts[f"{kind}-{result}"] += 1
        if result == "wrong-confident" or (kind == "tight" and result != "exact"):
            what = ", ".join(f"{side} {px:.1f}" for side, px in depths.items())
            print(f"  {kind.upper()} {result.upper()} {label} px cut: {what}")


def sweep_screens(quick: bool) -> Counter:
    counts: Counter = Counter()
    labels = json.loads((SCREENS / "labels.json").read_text())
    for name, label in sorted(labels.items()):
        rgb = load_image(SCREENS / name).rgb
        partition = Puzzle.from_rows(label["regions"]).regions
        try:
            lattice = locate(shades_of(rgb))
        except BoardNotFound:  # refused whole (a crop that cuts the board): cut along a fitted grid
            lattice = fitted_lattice(rgb)
        counts["boards"] += 1
        columns, rows = (lattice.left, lattice.right), (lattice.top, lattice.bottom)
        sweep_board(rgb, columns, rows, label["n"], partition, None, quick, name, counts)
        sweep_four_sides(rgb, columns, rows, label["n"], partition, None, name, counts)
    return counts


def sweep_renders(quick: bool, thin_borders: bool = False, at_frame: bool = False) -> Counter:
    """Renders of sizes 7..14 at zoom 50..200%; `thin_borders`: region borders as thin as cell
    lines; `at_frame`: cropped tightly at the outer frame first (no page around the board)."""
    counts: Counter = Counter()
    widths = render.line_widths
    if thin_borders:  # region borders as thin as cell lines
        render.line_widths = lambda cell: (1, 1)
    try:
        for n in range(7, 15):
            for cell in (24, 36, 48, 72, 96):
                rng = random.Random(n * 1000 + cell)
                # a puzzle with one solution, as a level is: what a tight crop must show to be read
                regions = generate_puzzle(n, rng=n * 1000 + cell).regions
                states = ["".join(rng.choice(".....xQ") for _ in range(n)) for _ in range(n)]
                image = render_board(regions, states, cell=cell, dark=rng.random() < 0.3)
                lo, hi = cell_spans(n, cell)
                if at_frame:
                    m = margin_of(cell)
                    image, lo, hi = np.ascontiguousarray(image[m:-m, m:-m]), lo - m, hi - m
                spans = (lo, hi)
                counts["boards"] += 1
                label = f"render n={n} cell={cell} thin={thin_borders} at_frame={at_frame}"
                partition = Puzzle.from_region_grid(regions).regions
                sweep_board(image, spans, spans, n, partition, states, quick, label, counts)
                sweep_four_sides(image, spans, spans, n, partition, states, label, counts)
    finally:
        render.line_widths = widths
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders-only", action="store_true")
    parser.add_argument("--screens-only", action="store_true")
    parser.add_argument("--quick", action="store_true", help="whole cells 0, 1, n/2, n-1 only")
    args = parser.parse_args()
    sources = []
    if not args.renders_only and (SCREENS / "labels.json").exists():
        sources.append(("shared screenshots", lambda: sweep_screens(args.quick)))
    if not args.screens_only:
        sources.append(("renders 7..14 x zoom 50..200%", lambda: sweep_renders(args.quick)))
        sources.append(("renders, thin region borders", lambda: sweep_renders(args.quick, True)))
        sources.append(("renders cropped at the frame", lambda: sweep_renders(args.quick, at_frame=True)))
    for what, run in sources:
        start = time.perf_counter()
        counts = run()
        reads = sum(counts[k] for k in ("exact", "refused", "unsure-tight-crop", "wrong-unsure",
                                        "wrong-confident"))
        print(f"{what}: {counts['boards']} boards, {reads} clipped reads: {counts['exact']} exact, "
              f"{counts['refused']} refused, {counts['unsure-tight-crop']} unsure tight crops, "
              f"{counts['wrong-unsure']} wrong but unsure, "
              f"{counts['wrong-confident']} wrong but confident ({time.perf_counter() - start:.0f} s)")
        for kind, what in (("tight", "tight crops (1 px..1/4 cell, all four sides)"),
                           ("deep", "four-side clips deeper than a tight crop")):
            print(f"  {what}: {counts[kind + '-exact']} exact, {counts[kind + '-refused']} refused, "
                  f"{counts[kind + '-unsure-tight-crop']} unsure tight crops, "
                  f"{counts[kind + '-wrong-unsure']} wrong but unsure, "
                  f"{counts[kind + '-wrong-confident']} wrong but confident")
    return 0


if __name__ == "__main__":
    sys.exit(main())
