"""Benchmark of the vision layer: accuracy on the shared screenshots and on the project's renders,
and the time to read a 1920x1080 screenshot and a board crop (median of repeated reads).

    .venv/bin/python scripts/bench_vision.py [--repeat 30]

Targets (issue 3): a 1920x1080 screenshot under 40 ms median, a board crop under 15 ms. Wall
time depends on what else the machine runs, so CPU time per read is reported beside it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solver.puzzle import Puzzle  # noqa: E402
from solver.regions import random_regions  # noqa: E402
from vision import BoardNotFound, load_image, read_board, read_image  # noqa: E402
from vision.render import render_board  # noqa: E402

SCREENS = ROOT.parent / "shared" / "data" / "screens"


def timed(read: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of `read`, after one warm-up call."""
    read()
    wall, cpu = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        read()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def report(what: str, read: Callable[[], object], repeat: int) -> None:
    wall, cpu = timed(read, repeat)
    print(f"{what}: median {wall:.1f} ms wall, {cpu:.1f} ms CPU")


def shared_accuracy() -> str:
    labels_path = SCREENS / "labels.json"
    if not labels_path.exists():
        return f"shared screens: skipped ({SCREENS} absent)"
    labels = json.loads(labels_path.read_text())
    exact = certain = 0
    for name, label in sorted(labels.items()):
        try:
            reading = read_image(SCREENS / name)
        except BoardNotFound as exc:
            print(f"  {name}: {exc}")
            continue
        ok = Puzzle.from_region_grid(reading.regions).regions == Puzzle.from_rows(label["regions"]).regions
        if label["state"] == "solved":
            ok &= sorted(reading.queens()) == sorted(tuple(q) for q in label["queens"])
        exact += ok
        certain += ok and reading.is_certain
        if not ok:
            print(f"  {name}: misread")
    return f"shared screens: {exact}/{len(labels)} read exactly, {certain} of them certain"


def render_accuracy() -> str:
    total = exact = 0
    for n in range(5, 19):
        for cell in (24, 36, 48, 72, 96):
            rng = random.Random(n * 1000 + cell)
            regions = random_regions(n, rng)
            states = ["".join(rng.choice(".....xQL") for _ in range(n)) for _ in range(n)]
            image = render_board(regions, states, cell=cell, dark=rng.random() < 0.5,
                                 hover=(rng.randrange(n), rng.randrange(n)))
            total += 1
            try:
                reading = read_board(image)
            except BoardNotFound:
                continue
            truth = Puzzle.from_region_grid(regions).regions
            same = Puzzle.from_region_grid(reading.regions).regions == truth
            exact += same and reading.state_rows() == states and reading.is_certain
    return f"renders (sizes 5..18 x zoom 50..200%): {exact}/{total} exact and certain"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(1)
    regions = random_regions(10, rng)
    states = ["Q.x......."] + ["." * 10] * 9
    page = render_board(regions, states, cell=56, page=True, canvas=(1920, 1080))
    crop = render_board(regions, states, cell=56)
    report("1920x1080 page screenshot", lambda: read_board(page), args.repeat)
    report(f"board crop {crop.shape[1]}x{crop.shape[0]}", lambda: read_board(crop), args.repeat)
    if (SCREENS / "EmmettMyer__boards_test17.png").exists():
        real = load_image(SCREENS / "EmmettMyer__boards_test17.png")
        report(f"real crop {real.shape[1]}x{real.shape[0]}", lambda: read_board(real), args.repeat)
    print(shared_accuracy())
    print(render_accuracy())
    return 0


if __name__ == "__main__":
    sys.exit(main())
