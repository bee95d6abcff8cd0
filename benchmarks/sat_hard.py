"""Star Battle maps hard for CaDiCaL (issue 34): the generator's maps hardened and chosen by
CaDiCaL's conflicts (`peers.sat`, the same on every run) instead of our search's nodes, so that
the benchmark holds a hard set made against the peer beside the ones made against our solver
(games/stars4-17-harder.txt). Each puzzle keeps its seed's name and says `judge=sat` in its
header. Needs the optional extra `bench`. Run from the project root (games/regenerate.sh)::

    .venv/bin/python benchmarks/sat_hard.py --size 17 --stars 4 --harden 200 --seeds 3001-3016 \
        --keep 10 --out games/stars4-17-sathard.txt

Not a test: nothing here is imported by the product or by the test suite.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

from queens_autosolve.bench import peers
from queens_autosolve.solver.formats import format_puzzles
from queens_autosolve.solver.generator import generate_many, hardest
from queens_autosolve.solver.puzzle import Puzzle


@cache  # the progress line and `hardest` ask again for each map's last cost
def sat_cost(puzzle: Puzzle) -> tuple[int, int]:
    """CaDiCaL's answers (up to 2) and conflicts on `puzzle`: a `generator.Cost`."""
    answer = peers.sat(puzzle)
    return answer.count, answer.nodes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--stars", type=int, required=True)
    parser.add_argument("--seeds", required=True, help="FIRST-LAST, both included")
    parser.add_argument("--harden", type=int, default=200, help="border moves tried on each map")
    parser.add_argument("--keep", type=int, required=True, help="the hardest this many, by conflicts")
    parser.add_argument("--out", type=Path, required=True, help="the file written")
    args = parser.parse_args(argv)
    first, last = map(int, args.seeds.split("-"))

    def made(puzzle: Puzzle) -> None:
        print(f"{puzzle.name}: {sat_cost(puzzle)[1]} conflicts", flush=True)

    puzzles = generate_many(args.size, args.stars, range(first, last + 1), harden_tries=args.harden,
                            harden_cost=sat_cost, progress=made)
    kept = [replace(p, meta={**p.meta, "judge": "sat"}) for p in hardest(puzzles, args.keep, sat_cost)]
    args.out.write_text(format_puzzles(kept) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
