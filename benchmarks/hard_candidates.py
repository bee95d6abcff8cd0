"""Hard Star Battle candidates, chosen by the search nodes they cost (issue 34): make one puzzle a
seed with the generator and print each seed's nodes (as the product searches, root probing
included, and without the probing: the tree the propagation leaves) and, with the `bench` extra,
CaDiCaL's CPU time to find the answer and prove it unique; keep the puzzles whose search takes at
least --min-nodes (as the product searches) and CaDiCaL at least --min-sat-ms. A seed whose map
cannot be made is skipped, and the hard ones are written as they are found, so a run can be cut
short. Run from the project root::

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

from queens_autosolve.bench import peers
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.formats import format_puzzle
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
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


def sat_milliseconds(puzzle: Puzzle) -> float:
    """CaDiCaL's CPU time (ms) to count `puzzle`'s answers up to two (benchmarks/peers.py)."""
    start = time.process_time()
    peers.sat(puzzle)
    return (time.process_time() - start) * 1000


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--stars", type=int, required=True)
    parser.add_argument("--seeds", required=True, help="FIRST-LAST, both included")
    parser.add_argument("--min-nodes", type=int, default=300, help="our nodes, root probing included")
    parser.add_argument("--min-sat-ms", type=float, default=0.0,
                        help="CaDiCaL's CPU ms at least (needs the bench extra; 0: not run)")
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
        result = search(puzzle, limit=2)
        with without_probing():
            plain = search(puzzle, limit=2).nodes
        sat_ms = sat_milliseconds(puzzle) if args.min_sat_ms else 0.0
        print(f"seed {seed}: {result.nodes} nodes ({plain} without probing), CaDiCaL {sat_ms:.0f} ms, "
              f"made in {made:.1f} s", flush=True)
        if result.count == 1 and result.nodes >= args.min_nodes and sat_ms >= args.min_sat_ms:
            with open(args.out, "a") as out:
                out.write(format_puzzle(puzzle) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
