"""Region shapes: LinkedIn's levels beside our generated puzzles, as a markdown table (the one in
games/README.md comes from here).

Run from the project root::

    .venv/bin/python benchmarks/region_shapes.py [--seeds 10] [--sizes 7,8,9,10,11]

The LinkedIn sets are read from ../shared/data/levels (skipped with a note when absent); the
generated puzzles are made here, seeds 1..S for each size, and the puzzle files in games/ are
read as they are. Not a test: nothing here is imported by the product or by the test suite.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from queens_autosolve.solver.formats import read_puzzles
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.shapes import TABLE_HEAD, region_shapes, summarise

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ROOT.parent / "shared" / "data" / "levels"
LEVEL_SETS = ("linkedin-official", "linkedin-bonus", "linkedin-2026", "community")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--sizes", default="7,8,9,10,11")
    args = parser.parse_args()
    sizes = [int(v) for v in args.sizes.split(",")]
    rows = []
    for name in LEVEL_SETS:
        path = LEVELS / f"{name}.txt"
        if not path.exists():
            print(f"(no {path}: {name} left out)")
            continue
        puzzles = [p for p in read_puzzles(str(path)) if p.k == 1]
        rows.append(summarise(map(region_shapes, puzzles)).row(name))
    start = time.process_time()
    made = [generate_puzzle(n, rng=random.Random(seed)) for n in sizes for seed in range(1, args.seeds + 1)]
    spent = time.process_time() - start
    rows.append(summarise(map(region_shapes, made)).row(f"generated {args.sizes} x {args.seeds} seeds"))
    games = [p for path in sorted((ROOT / "games").glob("queens-*.txt")) for p in read_puzzles(str(path))]
    rows.append(summarise(map(region_shapes, games)).row("games/queens-*.txt"))
    print(TABLE_HEAD)
    print("\n".join(rows))
    each = spent / len(made) * 1000
    print(f"\ngenerating {len(made)} puzzles took {spent:.1f} s of CPU ({each:.0f} ms each)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
