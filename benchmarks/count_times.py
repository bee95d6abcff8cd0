"""Per puzzle: how long `queens-autosolve solve --count` takes on it, the issue-34 targets (every
17x17 4-star puzzle in the repository under 0.3 s, 21x21 5-star under 0.1 s).

Two figures a puzzle, both CPU seconds (the machine is shared, so wall-clock time says little):
the search alone (`search(limit=2)` in this process, the best of --repeat runs) and the whole
command in a process of its own (user + system time of the child: start-up, imports, reading,
search, printing; one run a puzzle; its wall time beside it). The packages should be
byte-compiled first (`python -m compileall queens_autosolve`) where PYTHONDONTWRITEBYTECODE is
set, or each run compiles them again. Run from the project root::

    .venv/bin/python benchmarks/count_times.py games/stars4-17-hard.txt
    .venv/bin/python benchmarks/count_times.py --no-process --repeat 3 games/*.txt

Not a test: nothing here is imported by the product or by the test suite.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from queens_autosolve.solver.formats import read_puzzles
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import search

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ROOT / ".venv" / "bin" / "queens-autosolve"


def search_seconds(puzzle: Puzzle, repeat: int) -> tuple[float, int, int]:
    """The best CPU time of `repeat` searches for two answers, the nodes and the count."""
    best, nodes, count = float("inf"), 0, 0
    for _ in range(repeat):
        start = time.process_time()
        result = search(puzzle, limit=2)
        best = min(best, time.process_time() - start)
        nodes, count = result.nodes, result.count
    return best, nodes, count


def command_seconds(block: str) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of `solve --count` on one puzzle, in a process
    of its own."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as file:
        file.write(block + "\n")
        file.flush()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([str(COMMAND), "solve", "--count", file.name], check=True, capture_output=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="puzzle files")
    parser.add_argument("--repeat", type=int, default=1, help="searches a puzzle; the best counts")
    parser.add_argument("--no-process", action="store_true", help="the search alone, no command runs")
    args = parser.parse_args(argv)
    for path in args.files:
        puzzles = read_puzzles(str(path))
        blocks = path.read_text().strip().split("\n\n")  # one puzzle a block, as read_puzzles reads
        print(f"\n{path.name}\n  {'puzzle':<22} {'nodes':>6} {'search ms':>10} {'command CPU ms':>15}"
              f" {'wall ms':>8}")
        for puzzle, block in zip(puzzles, blocks):
            seconds, nodes, count = search_seconds(puzzle, args.repeat)
            cpu, wall = (0.0, 0.0) if args.no_process else command_seconds(block)
            whole = "" if args.no_process else f"{cpu * 1000:15.0f} {wall * 1000:8.0f}"
            unique = "" if count == 1 else f"  ({count} answers counted)"
            print(f"  {puzzle.name:<22} {nodes:>6} {seconds * 1000:10.1f} {whole}{unique}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
