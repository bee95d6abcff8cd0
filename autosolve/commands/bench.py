"""`queens-autosolve bench`: solve every puzzle of the given files (by default games/ and the
shared levels and Star Battle sets), check every answer, and compare with plain backtracking."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

import autosolve
from solver.bench import FileReport, bench_file, default_files, format_report, report_json
from solver.errors import QueensError
from solver.puzzle import Puzzle

REPO = Path(autosolve.__file__).resolve().parents[1]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="time the solver on puzzle files and check every answer",
        description="Solve every puzzle (counting to 2 to prove uniqueness), check each answer, "
        "and print per-file and per-size times; exits 1 when any answer or count is wrong. "
        "With no FILES: games/*.txt and ../shared/data/{levels,starbattle}/*.txt.",
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="puzzle files (default: see above)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.add_argument("--no-baseline", action="store_true", help="skip the plain backtracking comparison")
    parser.add_argument(
        "--baseline-budget", type=float, default=3.0, metavar="SECONDS",
        help="time the baseline may spend per file; it is compared on the puzzles it finished (default 3)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    files = args.files or default_files(REPO)
    if not files:
        raise QueensError("no puzzle files: give FILE arguments, or add games/*.txt or ../shared/data")
    budget = None if args.no_baseline else args.baseline_budget
    if budget is not None and budget <= 0:
        raise QueensError(f"--baseline-budget {budget:g}: give a positive number of seconds")
    reports: list[FileReport] = []
    for path in files:
        reports.append(bench_file(path, baseline_budget=budget, progress=_progress(path)))
        if not args.json:
            print(f"done {Path(path).name}: {len(reports[-1].timings)} puzzles", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(report_json(reports)))
    else:
        print(format_report(reports))
    return 1 if any(r.failed for r in reports) else 0


def _progress(path: str):  # noqa: ANN202 - returns the identity or tqdm
    """A tqdm bar on stderr when stderr is a terminal; otherwise no progress output."""
    if not sys.stderr.isatty():
        return iter

    from tqdm import tqdm

    def bar(puzzles: Iterable[Puzzle]) -> Iterable[Puzzle]:
        return tqdm(puzzles, desc=Path(path).name, unit="puzzle", leave=False, file=sys.stderr)

    return bar
