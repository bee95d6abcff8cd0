"""Calibration sweep of the vision layer's confidence: read many boards whose truth is known and
count, per source and kind, the readings that are exact and certain, refused or uncertain (safe:
nothing is clicked), and WRONG but confident (the actuator would click on a misreading: must be
none). Then a histogram of the confidence of exact and of wrong readings.

    .venv/bin/python -m scripts.calibrate_vision [--renders 40] [--quick]

Sources: the real screenshots in ../shared/data/screens (labels.json), clean and with overlays;
the project's renders (tests/render.py) at 50%..200% zoom with region borders 1..9 px, dark pages,
hover, X marks, crowns, and overlays (tooltips over 1-4 cells, black and white pointers at 1x and
2x, a semi-transparent dialog over part of the board), clips (square crops cutting the board at
an edge or corner), rescales and JPEG. Every image is read as a still (`read_board(still=True)`),
as image files are: a tight crop is read, below the click threshold, rather than refused.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from queens_autosolve.capture import load_image
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.regions import random_regions
from queens_autosolve.vision import CONFIDENT, BoardNotFound, BoardReading, read_board
from tests.render import (
    draw_dialog,
    draw_pointer,
    draw_tooltip,
    render_board_lines,
)

ROOT = Path(__file__).resolve().parents[1]

SCREENS = ROOT.parent / "shared" / "data" / "screens"
TOOLTIP_COLOURS = ((40, 40, 40), (255, 255, 255), (255, 243, 176), (10, 102, 194))


@dataclass(frozen=True)
class Truth:
    """What a case shows: size, region partition, and the cell states when known."""

    n: int
    regions: tuple[tuple[int, ...], ...]
    states: tuple[str, ...] | None


@dataclass(frozen=True)
class Case:
    source: str  # "real" or "render"
    kind: str  # "clean", "tooltip", "pointer", "dialog", "clip", "rescale+jpeg", "zoom/border"
    name: str
    image: np.ndarray
    truth: Truth
    reading: BoardReading | None = None  # its reading, when already taken (clean images): not taken again


@dataclass(frozen=True)
class Outcome:
    case: Case
    verdict: str  # "exact", "safe", "WRONG"
    confidence: float | None  # None: refused
    right: bool
    why: str


def partition(regions: object) -> tuple[tuple[int, ...], ...]:
    return Puzzle.from_region_grid(regions).regions  # type: ignore[arg-type]


def judge(case: Case) -> Outcome:
    """Read a case and say whether the reading is exact and certain, safe, or wrong but confident."""
    try:
        reading = read_board(case.image, still=True) if case.reading is None else case.reading
    except BoardNotFound as exc:
        return Outcome(case, "safe", None, False, str(exc))
    truth = case.truth
    right = reading.n == truth.n and partition(reading.regions) == truth.regions
    if right and truth.states is not None:
        right = tuple(reading.state_rows()) == truth.states
    if right and reading.is_certain:
        verdict = "exact"
    elif right or reading.confidence < CONFIDENT:
        verdict = "safe"
    else:
        verdict = "WRONG"
    return Outcome(case, verdict, reading.confidence, right, "; ".join(reading.reasons))


# --- overlays ---------------------------------------------------------------------------------------


def cell_box(
    centres: list[list[tuple[float, float]]], pitch: float, cells: list[tuple[int, int]]
) -> tuple[int, int, int, int]:
    """An (x, y, w, h) box over the given cells, reaching about a third into each."""
    xs = [centres[r][c][0] for r, c in cells]
    ys = [centres[r][c][1] for r, c in cells]
    x0, y0 = int(min(xs) - 0.3 * pitch), int(min(ys) - 0.25 * pitch)
    return x0, y0, int(max(xs) + 0.3 * pitch) - x0, int(max(ys) + 0.25 * pitch) - y0


Centres = list[list[tuple[float, float]]]


def overlays(
    image: np.ndarray, centres: Centres, pitch: float, rng: random.Random
) -> Iterator[tuple[str, str, np.ndarray]]:
    """The overlaid copies of a board image: (kind, detail, image)."""
    n = len(centres)
    for colour in TOOLTIP_COLOURS:
        r, c = rng.randrange(n), rng.randrange(max(1, n - 3))
        span = rng.randint(1, 4)
        out = image.copy()
        draw_tooltip(out, cell_box(centres, pitch, [(r, c), (r, min(n - 1, c + span - 1))]), colour)
        yield "tooltip", f"{colour} over {span} cell(s) at r{r + 1}c{c + 1}", out
    for black in (True, False):
        for scale in (1.0, 2.0):
            r, c = rng.randrange(n), rng.randrange(n)
            x, y = centres[r][c]
            jitter = pitch * 0.3
            out = image.copy()
            tip = (x + rng.uniform(-jitter, jitter), y + rng.uniform(-jitter, jitter))
            draw_pointer(out, tip, scale, black)
            yield "pointer", f"{'black' if black else 'white'} {scale:.0f}x at r{r + 1}c{c + 1}", out
    out = image.copy()
    h, w = out.shape[:2]
    x0, y0 = centres[n // 2][n // 3]
    shade = rng.choice(((255, 255, 255), (0, 0, 0)))
    draw_dialog(out, (int(x0), int(y0), w - int(x0), h - int(y0)), shade, 0.55)
    yield "dialog", "semi-transparent over the lower right", out


def clips(image: np.ndarray, centres: Centres, pitch: float) -> Iterator[tuple[str, np.ndarray]]:
    """Square crops that cut the board: through an outer column, a corner, a middle line."""
    h, w = image.shape[:2]
    n = len(centres)
    side = int(min(h, w) * 0.8)
    x_last = int(centres[0][n - 1][0])
    yield "cut right", image[:side, :x_last]
    yield "cut corner", image[int(centres[1][0][1]) :, int(centres[0][1][0]) :]
    mid = int(centres[n // 2][0][1])
    yield "cut middle", image[:mid, :]


def rescaled(image: np.ndarray, factor: float, quality: int) -> np.ndarray:
    how = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    out = cv2.resize(image, None, fx=factor, fy=factor, interpolation=how)
    buffer = io.BytesIO()
    Image.fromarray(out).save(buffer, "JPEG", quality=quality)
    return np.asarray(Image.open(buffer).convert("RGB"))


# --- sources ------------------------------------------------------------------------------------------


def real_cases(rng: random.Random, overlay: bool = True, only: str | None = None) -> Iterator[Case]:
    """The shared screenshots (or the one named `only`), clean and overlaid; their truth is the
    label, with the cell states of the clean reading where the label has none (only when that
    reading was exact)."""
    labels_path = SCREENS / "labels.json"
    if not labels_path.exists():
        return
    for name, label in sorted(json.loads(labels_path.read_text()).items()):
        if only is not None and name != only:
            continue
        image = load_image(SCREENS / name).rgb
        regions = partition(Puzzle.from_rows(label["regions"]).regions)
        states = None
        try:
            clean = read_board(image, still=True)
        except BoardNotFound:
            clean = None
        if label["state"] == "solved" and clean is not None:
            queens = {tuple(q) for q in label["queens"]}
            if set(clean.queens()) == queens:
                states = tuple(clean.state_rows())
        elif clean is not None and partition(clean.regions) == regions:
            states = tuple(clean.state_rows())
        truth = Truth(label["n"], regions, states)
        yield Case("real", "clean", name, image, truth, clean)
        if clean is None or not overlay:
            continue
        centres = [list(row) for row in clean.centres]
        pitch = (centres[0][-1][0] - centres[0][0][0]) / (clean.n - 1)
        for kind, detail, out in overlays(image, centres, pitch, rng):
            yield Case("real", kind, f"{name} {detail}", out, truth)
        for detail, out in clips(image, centres, pitch):
            yield Case("real", "clip", f"{name} {detail}", np.ascontiguousarray(out), truth)


def random_states(n: int, rng: random.Random, marks: str = ".....xxQL") -> tuple[str, ...]:
    return tuple("".join(rng.choice(marks) for _ in range(n)) for _ in range(n))


ZOOM_CELLS = (24, 32, 36, 48, 64, 72, 96)  # 50% .. 200% of the 48 px cell
BORDERS = (1, 2, 3, 5, 7, 9)


def zoom_border_cases(seeds: int) -> Iterator[Case]:
    """The zoom x border width matrix: every cell size with every region border width."""
    for cell in ZOOM_CELLS:
        for thick in BORDERS:
            for seed in range(seeds):
                rng = random.Random(cell * 1000 + thick * 10 + seed)
                n = rng.randint(6, 11)
                regions = random_regions(n, rng)
                states = random_states(n, rng)
                thin = 1 if cell < 72 else rng.choice((1, 2))
                image = render_board_lines(
                    regions, states, cell=cell, thin=thin, thick=max(thin, thick), dark=seed % 2 == 1,
                    hover=(rng.randrange(n), rng.randrange(n)) if seed % 3 == 0 else None,
                )
                yield Case("render", f"zoom {cell * 100 // 48}% border {thick}px", f"seed {seed}", image,
                           Truth(n, partition(regions), states))


def render_cases(count: int, rng: random.Random) -> Iterator[Case]:
    """Random renders, clean, overlaid, clipped, rescaled and JPEG'd."""
    for i in range(count):
        n = rng.randint(5, 12)
        regions = random_regions(n, rng)
        gold = rng.random() < 0.2
        states = random_states(n, rng, "QQxx......" if gold else ".....xxQL")
        cell = rng.choice(ZOOM_CELLS)
        thick = rng.choice([b for b in BORDERS if b <= max(2, cell // 6)])  # as pages scale them
        thin = 1 if cell < 72 else rng.choice((1, 2))
        hover = (rng.randrange(n), rng.randrange(n)) if rng.random() < 0.3 else None
        dark = rng.random() < 0.4
        image = render_board_lines(regions, states, cell=cell, thin=thin, thick=max(thin, thick),
                                   dark=dark, gold=gold, hover=hover)
        truth = Truth(n, partition(regions), states)
        name = f"#{i} cell {cell} border {thick}" + (" gold" if gold else "")
        try:
            clean = read_board(image, still=True)
        except BoardNotFound:
            yield Case("render", "clean", name, image, truth)
            continue
        yield Case("render", "clean", name, image, truth, clean)
        centres = [list(row) for row in clean.centres]
        pitch = (centres[0][-1][0] - centres[0][0][0]) / (n - 1)
        for kind, detail, out in overlays(image, centres, pitch, rng):
            yield Case("render", kind, f"#{i} {detail}", out, truth)
        for detail, out in clips(image, centres, pitch):
            yield Case("render", "clip", f"#{i} {detail}", np.ascontiguousarray(out), truth)
        factor = rng.uniform(0.6, 1.6)
        if cell * factor >= 20:
            out = rescaled(image, factor, rng.choice((70, 85)))
            yield Case("render", "rescale+jpeg", f"#{i} x{factor:.2f}", out, truth)


# --- report -------------------------------------------------------------------------------------------


def table(outcomes: list[Outcome]) -> str:
    counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for outcome in outcomes:
        counts[outcome.case.source, outcome.case.kind][outcome.verdict] += 1
    lines = [f"{'source':8} {'kind':24} {'exact+certain':>14} {'refused/unsure':>15} {'WRONG+confident':>16}"]
    for (source, kind), count in sorted(counts.items()):
        lines.append(f"{source:8} {kind:24} {count['exact']:>14} {count['safe']:>15} {count['WRONG']:>16}")
    return "\n".join(lines)


def histogram(outcomes: list[Outcome]) -> str:
    bins = [f"{b / 10:.1f}" for b in range(10)]
    right: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    for outcome in outcomes:
        if outcome.confidence is None:
            continue
        key = bins[min(9, int(outcome.confidence * 10))]
        (right if outcome.right else wrong)[key] += 1
    lines = ["confidence   exact readings   wrong readings"]
    lines += [f"{key}-{float(key) + 0.1:.1f}   {right[key]:>14}   {wrong[key]:>14}" for key in bins]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=40, help="random renders (each with overlays)")
    parser.add_argument("--matrix-seeds", type=int, default=2, help="boards per zoom x border width")
    parser.add_argument("--no-real", action="store_true", help="skip the shared screenshots")
    args = parser.parse_args()
    rng = random.Random(7)
    cases: list[Iterator[Case]] = [zoom_border_cases(args.matrix_seeds), render_cases(args.renders, rng)]
    if not args.no_real:
        cases.insert(0, real_cases(rng))
    outcomes = [judge(case) for source in cases for case in source]
    for outcome in outcomes:
        if outcome.verdict == "WRONG":
            case = outcome.case
            print(f"WRONG {outcome.confidence:.2f}: {case.source} {case.kind} {case.name}")
    print(table(outcomes))
    print(histogram(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
