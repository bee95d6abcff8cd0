"""The solver benchmark behind `queens-autosolve bench`: solve every puzzle of some files, check
each answer, time it, and time the plain backtracking baseline (benchmarks/baseline.py) on the
same puzzles for comparison.

Like Norvig's `solve_all`, it reports how many were solved and the mean and worst times, per
file and per board size. Wrong answers and wrong counts are failures, never just slow results.
"""

from __future__ import annotations

import signal
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from benchmarks.baseline import count_solutions as baseline_count
from solver.coach import CoachError, Grade, Tier, grade
from solver.formats import read_puzzles
from solver.puzzle import Puzzle, is_solution
from solver.search import search

LIMIT = 2  # counting to 2 proves an answer unique
GRADE_COLUMNS = [tier.short for tier in Tier] + ["not-unique"]  # the grade table's columns


@dataclass(frozen=True)
class Timing:
    """One puzzle, solved."""

    name: str
    n: int
    k: int
    seconds: float
    nodes: int
    count: int
    expected: int
    problem: str = ""  # empty when the answer checks out


@dataclass(frozen=True)
class BaselineRun:
    """The baseline on the first puzzles of a file, until its time budget ran out."""

    finished: int  # puzzles it counted completely
    seconds: float  # its time on those
    solver_seconds: float  # the solver's time on the same puzzles
    budget: float
    disagreements: tuple[str, ...] = ()  # puzzles where the two counts differ (a bug somewhere)

    @property
    def speedup(self) -> float | None:
        return self.seconds / self.solver_seconds if self.finished and self.solver_seconds else None


@dataclass(frozen=True)
class GradeRun:
    """The grades of the first puzzles of a file (solver.coach), until its time budget ran out.
    `grades` holds one entry per puzzle graded in file order: its Grade, or None when the puzzle
    has no single solution to coach towards."""

    grades: tuple[Grade | None, ...]
    puzzles: int  # in the file
    seconds: float
    budget: float | None

    def counts(self) -> dict[str, int]:
        """Puzzles per tier (short names, easiest first), then ``not unique``."""
        out = dict.fromkeys(GRADE_COLUMNS, 0)
        for g in self.grades:
            out[g.tier.short if g is not None else "not-unique"] += 1
        return out

    @property
    def graded(self) -> list[Grade]:
        return [g for g in self.grades if g is not None]


@dataclass(frozen=True)
class FileReport:
    path: str
    timings: tuple[Timing, ...]
    baseline: BaselineRun | None = None
    grading: GradeRun | None = None

    @property
    def failures(self) -> list[Timing]:
        return [t for t in self.timings if t.problem]

    @property
    def failed(self) -> bool:
        return bool(self.failures or (self.baseline and self.baseline.disagreements))


@dataclass(frozen=True)
class Summary:
    """Times (seconds) of a group of puzzles."""

    label: str
    puzzles: int
    mean: float
    median: float
    p99: float
    max: float
    total: float
    nodes: float  # mean nodes per puzzle
    failures: int = 0
    extra: dict[str, object] = field(default_factory=dict)


def expected_count(puzzle: Puzzle, limit: int = LIMIT) -> int:
    """The solution count the file promises (its ``solutionsCount``, else 1), capped at `limit`."""
    raw = puzzle.meta.get("solutionsCount", "1")
    try:
        return min(int(raw), limit)
    except ValueError:
        return 1


def time_puzzle(puzzle: Puzzle) -> Timing:
    """Solve with the count capped at 2, and say what is wrong with the result, if anything.
    Times are CPU seconds of this process: on a shared machine wall time mostly measures the
    neighbours."""
    start = time.process_time()
    result = search(puzzle, limit=LIMIT)
    seconds = time.process_time() - start
    expected = expected_count(puzzle)
    problem = ""
    if result.count != expected:
        problem = f"found {result.count} solution(s), expected {expected}"
    elif result.solution is not None and not is_solution(puzzle, result.solution):
        problem = f"answer {list(result.solution.queens)} breaks the rules"
    return Timing(puzzle.name, puzzle.n, puzzle.k, seconds, result.nodes, result.count, expected, problem)


def bench_file(
    path: str,
    *,
    baseline_budget: float | None = 3.0,
    progress: Callable[[Iterable[Puzzle]], Iterable[Puzzle]] = iter,
    grade_budget: float | None = None,
    grading: bool = False,
) -> FileReport:
    """Time the solver on every puzzle of `path`, then the baseline on as many as fit its budget;
    with `grading`, grade the puzzles too (as many as fit `grade_budget` CPU seconds; None: all)."""
    puzzles = read_puzzles(path)
    timings = tuple(time_puzzle(p) for p in progress(puzzles))
    baseline = None
    if baseline_budget is not None:
        baseline = run_baseline(puzzles, timings, baseline_budget)
    grades = grade_puzzles(puzzles, timings, grade_budget) if grading else None
    return FileReport(path, timings, baseline, grades)


def grade_puzzles(puzzles: Sequence[Puzzle], timings: Sequence[Timing], budget: float | None) -> GradeRun:
    """Grade the puzzles in file order until `budget` CPU seconds are spent (None: no limit).
    A puzzle that would overrun is cut off (as the baseline is) and left ungraded."""
    grades: list[Grade | None] = []
    spent = 0.0
    for puzzle, timing in zip(puzzles, timings):
        left = None if budget is None else budget - spent
        if left is not None and left <= 0:
            break
        if timing.count != 1:
            grades.append(None)
            continue
        found: list[Grade] = []

        def work(p: Puzzle = puzzle, out: list[Grade] = found) -> None:
            out.append(_grade(p))

        start = time.process_time()
        done = _within(left, work) if left is not None else _run(work)
        spent += time.process_time() - start
        if not done:
            break
        grades.append(found[0])
    return GradeRun(tuple(grades), len(puzzles), spent, budget)


def _grade(puzzle: Puzzle) -> Grade:
    try:
        return grade(puzzle)
    except CoachError:  # the count said one solution; the coach counts again and must agree
        raise AssertionError(f"{puzzle.name}: the coach and the bench disagree on the count") from None


def _run(work: Callable[[], object]) -> bool:
    work()
    return True


def run_baseline(puzzles: Sequence[Puzzle], timings: Sequence[Timing], budget: float) -> BaselineRun:
    """Count with the plain backtracker, in file order, until `budget` seconds are spent. The
    baseline is exponential on big star boards, so a puzzle that would overrun is cut off
    (by a timer signal where we can set one) and left out of the comparison. Its counts are
    also checked against the solver's."""
    spent = counted = solver_spent = 0.0
    finished = 0
    disagreements = []
    for puzzle, timing in zip(puzzles, timings):
        left = budget - spent
        if left <= 0:
            break
        counts: list[int] = []
        start = time.process_time()
        done = _within(left, partial(_count_into, counts, puzzle))
        took = time.process_time() - start
        spent += took
        if not done:
            break
        finished += 1
        counted += took
        solver_spent += timing.seconds
        if counts[0] != timing.count:
            disagreements.append(f"{puzzle.name}: baseline counts {counts[0]}, solver {timing.count}")
    return BaselineRun(finished, counted, solver_spent, budget, tuple(disagreements))


class _OutOfTime(Exception):
    pass


def _count_into(counts: list[int], puzzle: Puzzle) -> None:
    """The baseline's solution count for `puzzle` (up to LIMIT), appended to `counts`."""
    counts.append(baseline_count(puzzle, LIMIT)[0])


def _within(seconds: float, work: Callable[[], object]) -> bool:
    """Run `work`; False when it was cut off after `seconds` of CPU time (only on the main thread
    of a Unix process, where a timer signal can interrupt it; elsewhere it runs to the end)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        work()
        return True

    def stop(signum: int, frame: object) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        work()
        return True
    except _OutOfTime:
        return False
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def summarize(label: str, timings: Sequence[Timing]) -> Summary:
    times = sorted(t.seconds for t in timings)
    if not times:
        return Summary(label, 0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    return Summary(
        label=label,
        puzzles=len(times),
        mean=statistics.fmean(times),
        median=statistics.median(times),
        p99=p99,
        max=times[-1],
        total=sum(times),
        nodes=statistics.fmean(t.nodes for t in timings),
        failures=sum(1 for t in timings if t.problem),
    )


def by_size(reports: Sequence[FileReport]) -> list[Summary]:
    groups: dict[tuple[int, int], list[Timing]] = {}
    for report in reports:
        for t in report.timings:
            groups.setdefault((t.n, t.k), []).append(t)
    return [summarize(f"{n}x{n} k={k}", groups[n, k]) for n, k in sorted(groups)]


def default_files(repo: Path) -> list[str]:
    """games/*.txt, then ../shared/data/levels/*.txt and starbattle/*.txt when present."""
    shared = repo.parent / "shared" / "data"
    files: list[Path] = sorted((repo / "games").glob("*.txt"))
    for folder in ("levels", "starbattle"):
        files += sorted((shared / folder).glob("*.txt"))
    return [str(f) for f in files]


# --- output -----------------------------------------------------------------------------------


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f}"


def _row(s: Summary) -> str:
    return (
        f"{s.label:<28} {s.puzzles:>6} {_ms(s.mean)} {_ms(s.median)} {_ms(s.p99)} {_ms(s.max)} "
        f"{s.total:8.2f} {s.nodes:8.1f}"
    )


HEADER = (
    f"{'':<28} {'count':>6} {'mean ms':>8} {'median':>8} {'p99':>8} {'max':>8} {'total s':>8} {'nodes':>8}"
)


def baseline_text(run: BaselineRun | None) -> str:
    if run is None:
        return ""
    if not run.finished:
        return f"vs plain backtracking: it finished no puzzle within its {run.budget:g} s budget"
    ratio = run.speedup
    if not ratio:  # one side took no measurable CPU time: no ratio worth printing
        faster = "no measurable difference"
    elif ratio >= 1:
        faster = f"solver {ratio:.1f}x faster"
    else:
        faster = f"baseline {1 / ratio:.1f}x faster"
    return (
        f"vs plain backtracking: {faster} on the {run.finished} puzzle(s) from the top of the file that "
        f"the baseline finished in its {run.budget:g} s budget "
        f"({run.seconds:.2f} s vs {run.solver_seconds:.3f} s)"
    )


def format_report(reports: Sequence[FileReport]) -> str:
    """The human-readable table: per file (with the baseline), per size, total, failures."""
    lines = ["per file (times are CPU time of this process)", HEADER]
    for report in reports:
        lines.append(_row(summarize(Path(report.path).name, report.timings)))
        if report.baseline is not None:
            lines.append(f"{'':<29}{baseline_text(report.baseline)}")
    lines += ["", "per size", HEADER]
    lines += [_row(s) for s in by_size(reports)]
    everything = [t for r in reports for t in r.timings]
    lines += ["", _row(summarize("total", everything))]
    if any(r.grading for r in reports):
        lines += ["", *format_grades(reports)]
    failures = [f"{r.path}: {t.name}: {t.problem}" for r in reports for t in r.failures]
    failures += [f"{r.path}: {d}" for r in reports if r.baseline for d in r.baseline.disagreements]
    if failures:
        lines.append(f"\nFAILED: {len(failures)} puzzle(s)")
        lines += [f"  {line}" for line in failures]
    else:
        lines.append(f"all {len(everything)} puzzles solved and checked")
    return "\n".join(lines)


def format_grades(reports: Sequence[FileReport]) -> list[str]:
    """The grade distribution per file: puzzles per tier (the hardest deduction their hints need
    from the empty board), mean steps, deepest trial."""
    header = f"{'':<28} {'graded':>7} " + " ".join(f"{c:>{len(c)}}" for c in GRADE_COLUMNS)
    lines = ["grades per file (puzzles by the hardest tier of deduction they need)",
             header + f" {'steps':>6} {'depth':>6}"]
    for report in reports:
        run = report.grading
        if run is None:
            continue
        counts = run.counts()
        graded = f"{len(run.grades)}" + ("" if len(run.grades) == run.puzzles else f"/{run.puzzles}")
        steps = statistics.fmean(g.steps for g in run.graded) if run.graded else 0.0
        depth = max((g.trial_depth for g in run.graded), default=0)
        cells = " ".join(f"{counts[c]:>{len(c)}}" for c in GRADE_COLUMNS)
        lines.append(f"{Path(report.path).name:<28} {graded:>7} {cells} {steps:6.1f} {depth:>6}")
        if len(run.grades) < run.puzzles:
            lines.append(f"{'':<29}graded the first {len(run.grades)} of {run.puzzles} puzzles in its "
                         f"{run.budget:g} s budget (--grade-budget)")
    return lines


def grades_json(run: GradeRun) -> dict[str, object]:
    return {
        "graded": len(run.grades), "puzzles": run.puzzles, "seconds": run.seconds, "budget": run.budget,
        "counts": run.counts(),
        "mean_steps": statistics.fmean(g.steps for g in run.graded) if run.graded else None,
        "max_trial_depth": max((g.trial_depth for g in run.graded), default=0),
    }


def report_json(reports: Sequence[FileReport]) -> dict[str, object]:
    """The same figures for machines (times in seconds)."""

    def summary(s: Summary) -> dict[str, object]:
        return {
            "label": s.label, "puzzles": s.puzzles, "mean": s.mean, "median": s.median, "p99": s.p99,
            "max": s.max, "total": s.total, "nodes": s.nodes, "failures": s.failures,
        }

    files = []
    for r in reports:
        entry = summary(summarize(r.path, r.timings))
        entry["path"] = r.path
        if r.baseline is not None:
            entry["baseline"] = {
                "finished": r.baseline.finished, "seconds": r.baseline.seconds,
                "solver_seconds": r.baseline.solver_seconds, "budget": r.baseline.budget,
                "speedup": r.baseline.speedup, "disagreements": list(r.baseline.disagreements),
            }
        if r.grading is not None:
            entry["grades"] = grades_json(r.grading)
        files.append(entry)
    everything = [t for r in reports for t in r.timings]
    return {
        "files": files,
        "sizes": [summary(s) for s in by_size(reports)],
        "total": summary(summarize("total", everything)),
        "failures": [
            {"path": r.path, "name": t.name, "problem": t.problem, "count": t.count, "expected": t.expected}
            for r in reports for t in r.failures
        ],
    }
