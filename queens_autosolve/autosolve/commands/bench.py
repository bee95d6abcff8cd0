"""`queens-autosolve bench`: solve every puzzle of the given files (by default games/ and the
shared levels and Star Battle sets), check every answer, and compare with plain backtracking and
with the peers of benchmarks/peers.py (CP-SAT and CaDiCaL from the optional `bench` extra, and a
propagation-only solver)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from queens_autosolve.autosolve.cli import time_limit
from queens_autosolve.autosolve.flags import COUNT_OR_ALL, POSITIVE_SECONDS, TIMEOUT
from queens_autosolve.autosolve.samples import sample_folder
from queens_autosolve.bench.peers import available, skipped_text, warm_up
from queens_autosolve.bench.report import format_report, report_json
from queens_autosolve.bench.times import FileReport, bench_file, default_files
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.puzzle import Puzzle


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="time the solver on puzzle files and check every answer",
        description="Solve every puzzle (counting to 2 to prove uniqueness), check each answer, "
        "print per-file and per-size times and each file's grade distribution (see solve --grade), "
        "and each file's times against plain backtracking and the peers: CP-SAT and CaDiCaL (from "
        "the optional extra `bench`) and a propagation-only solver, all counting "
        "to 2 on the same puzzles; exits 1 when any answer or count is wrong or a peer disagrees. "
        "With no FILES: games/*.txt and ../shared/data/{levels,starbattle}/*.txt.",
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="puzzle files (default: see above)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.add_argument("--no-baseline", action="store_true", help="skip the plain backtracking comparison")
    parser.add_argument(
        "--baseline-budget", type=POSITIVE_SECONDS, default=3.0, metavar="SECONDS",
        help="time the baseline may spend per file; it is compared on the puzzles it finished (default 3)",
    )
    parser.add_argument("--no-peers", action="store_true", help="skip the comparison with the peers")
    parser.add_argument(
        "--peer-sample", type=COUNT_OR_ALL, default=20, metavar="N",
        help="puzzles per file the peers run on, spread evenly over the file (default 20; 0: all)",
    )
    parser.add_argument(
        "--peer-budget", type=TIMEOUT, default=3.0, metavar="SECONDS",
        help="CPU time each peer may spend per file; the ratios are over the puzzles it finished "
        "(default 3; 0: no limit)",
    )
    parser.add_argument("--no-grade", action="store_true", help="skip the grade distribution")
    parser.add_argument(
        "--grade-budget", type=TIMEOUT, default=10.0, metavar="SECONDS",
        help="CPU time the grading may spend per file, puzzles in file order (default 10; 0: no limit)",
    )
    parser.add_argument(
        "--generate", type=_sizes, metavar="SIZES",
        help="time the generator instead: board sizes, comma-separated (e.g. 20,30); "
        "each seed's puzzle is proven unique and the same seeds are timed with the baseline generator",
    )
    parser.add_argument(
        "--stars", type=int, default=1, metavar="K", help="with --generate: queens per unit (default 1)"
    )
    parser.add_argument(
        "--seeds", type=int, default=5, metavar="N", help="with --generate: seeds 1..N per size (default 5)"
    )
    parser.add_argument(
        "--difficulty", choices=("easy", "medium", "hard"), default=None,
        help="with --generate: time making puzzles of this grade (generate --difficulty)",
    )
    parser.add_argument(
        "--timeout", type=TIMEOUT, default=0.0, metavar="SECONDS",
        help="give up after SECONDS in all (default 0: no limit; a benchmark takes as long as it takes)",
    )
    parser.set_defaults(func=run)


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give board sizes as numbers, e.g. 20,30") from None
    return sizes


def run(args: argparse.Namespace) -> int:
    with time_limit(args.timeout or None, "benchmarking", progress=False):
        return run_generator(args) if args.generate else run_files(args)


def run_files(args: argparse.Namespace) -> int:
    """`bench FILES`: the solver's tables."""
    files = args.files or default_files(sample_folder())
    if not files:
        raise QueensError(f"no puzzle files in {sample_folder()}: give FILE arguments")
    budget = None if args.no_baseline else args.baseline_budget
    peers, skipped = available() if not args.no_peers else ([], [])
    if skipped and args.json:  # the table says it otherwise
        print(skipped_text(skipped), file=sys.stderr, flush=True)
    warm_up(peers)
    reports: list[FileReport] = []
    for path in files:
        reports.append(bench_file(
            path, baseline_budget=budget, progress=_progress(path),
            grading=not args.no_grade, grade_budget=args.grade_budget or None,
            peers=peers, peer_sample=args.peer_sample, peer_budget=args.peer_budget or None,
        ))
        if not args.json:
            print(f"done {Path(path).name}: {len(reports[-1].timings)} puzzles", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(report_json(reports, skipped)))
    else:
        print(format_report(reports, peers, skipped))
    return 1 if any(r.failed for r in reports) else 0


def run_generator(args: argparse.Namespace) -> int:
    """`bench --generate`: the generator's table (see benchmarks/generate_times.py)."""
    from queens_autosolve.bench.generate_times import (
        bench_difficulty,
        bench_generator,
        format_runs,
        runs_json,
    )
    from queens_autosolve.solver.generator import check_size

    if args.files:
        raise QueensError("--generate times the generator and reads no files; drop the FILE arguments")
    if args.seeds < 1:
        raise QueensError(f"--seeds {args.seeds}: give at least 1")
    for n in args.generate:
        check_size(n, args.stars)
    report = (lambda _: None) if args.json else (lambda line: print(line, file=sys.stderr, flush=True))
    seeds = range(1, args.seeds + 1)
    if args.difficulty:
        runs = [bench_difficulty(n, args.stars, seeds, args.difficulty, progress=report)
                for n in args.generate]
    else:
        runs = [bench_generator(n, args.stars, seeds, baseline=not args.no_baseline, progress=report)
                for n in args.generate]
    print(json.dumps(runs_json(runs)) if args.json else format_runs(runs))
    return 1 if any(run.problems for run in runs) else 0


def _progress(path: str) -> Callable[[Iterable[Puzzle]], Iterable[Puzzle]]:
    """A tqdm bar on stderr when stderr is a terminal; otherwise no progress output."""
    if not sys.stderr.isatty():
        return lambda puzzles: puzzles

    from tqdm import tqdm

    def bar(puzzles: Iterable[Puzzle]) -> Iterable[Puzzle]:
        return tqdm(puzzles, desc=Path(path).name, unit="puzzle", leave=False, file=sys.stderr)

    return bar
