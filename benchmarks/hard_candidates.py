"""Hard Star Battle candidates, chosen by the search nodes they cost (issue 34): make one puzzle a
seed with the generator and print each seed's nodes, keeping the puzzles whose search (without
the root probing of solver.search, so the count is the tree the propagation leaves) takes at
least --min-nodes. Unlike `queens-autosolve generate --hard`, a seed whose random answer cannot
be placed (QueensError) is skipped instead of ending the run, and the hard ones are written as
they are found, so a run can be cut short. Run from the project root::

    .venv/bin/python benchmarks/hard_candidates.py --size 17 --stars 4 --seeds 2001-2300 \
        --min-nodes 300 --out hard.txt

Not a test: nothing here is imported by the product or by the test suite.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.formats import format_puzzle
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.search import search

# `solver.search` is also the name of the function
SEARCH_MODULE: Any = sys.modules["queens_autosolve.solver.search"]


@contextmanager
def without_probing() -> Iterator[None]:
    saved = SEARCH_MODULE.PROBE_FROM_K
    SEARCH_MODULE.PROBE_FROM_K = 1 << 30
    try:
        yield
    finally:
        SEARCH_MODULE.PROBE_FROM_K = saved


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--stars", type=int, required=True)
    parser.add_argument("--seeds", required=True, help="FIRST-LAST, both included")
    parser.add_argument("--min-nodes", type=int, default=300)
    parser.add_argument("--out", required=True, help="file the hard puzzles are appended to")
    args = parser.parse_args(argv)
    first, last = map(int, args.seeds.split("-"))
    for seed in range(first, last + 1):
        start = time.process_time()
        try:
            puzzle = generate_puzzle(args.size, args.stars, rng=seed)
        except QueensError as error:
            print(f"seed {seed}: skipped ({error})", flush=True)
            continue
        made = time.process_time() - start
        with without_probing():
            result = search(puzzle, limit=2)
        print(f"seed {seed}: {result.nodes} nodes, made in {made:.1f} s", flush=True)
        if result.count == 1 and result.nodes >= args.min_nodes:
            with open(args.out, "a") as out:
                out.write(format_puzzle(puzzle) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
