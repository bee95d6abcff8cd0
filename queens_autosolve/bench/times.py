"""The solver benchmark behind `queens-autosolve bench`: solve every puzzle of some files, check
each answer, time it, and time the plain backtracking baseline (benchmarks/baseline.py) and the
peers (benchmarks/peers.py: CP-SAT, CaDiCaL, propagation only) on the same puzzles for comparison.

Like Norvig's `solve_all`, it reports how many were solved and the mean and worst times, per
file and per board size. Wrong answers and wrong counts are failures, never just slow results.
"""

from __future__ import annotations

import signal
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from queens_autosolve.bench.baseline import count_solutions as baseline_count
from queens_autosolve.bench.peers import Answer, Peer
from queens_autosolve.solver.coach import CoachError, Grade, Tier, grade
from queens_autosolve.solver.formats import read_puzzles
from queens_autosolve.solver.puzzle import Puzzle, is_solution
from queens_autosolve.solver.search import SearchResult, search

LIMIT = 2  # counting to 2 proves an answer unique
GRADE_COLUMNS = [tier.short for tier in Tier] + ["not-unique"]  # the grade table's columns


def cpu_time() -> float:
    """CPU seconds of this thread, where all the work runs (CP-SAT with one worker solves in the
    calling thread: measured, its thread and process times agree). Not `time.process_time`: once
    a process-wide CPU timer has been armed (the budgets' ITIMER_PROF, see `_within`), Linux
    reads the process clock in whole scheduler ticks, and a 0.5 ms solve timed 0.0 or 4 ms."""
    return time.thread_time()


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
    cut_seconds: float = 0.0  # its time on the puzzle its budget ran out on (0: none did)
    cut_solver_seconds: float = 0.0  # the solver's on that puzzle
    puzzles: int = 0  # in the file

    @property
    def speedup(self) -> float | None:
        return self.seconds / self.solver_seconds if self.finished and self.solver_seconds else None

    @property
    def bound(self) -> float | None:
        """On the puzzle it was cut off on, the least its ratio can be."""
        return _ratio(self.cut_seconds, self.cut_solver_seconds)


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
class PeerRun:
    """One peer on a sample of a file's puzzles, with ours timed again on each of them in the same
    loop (so a burst of load on the machine hits both alike). The peer stops on the file when its
    CPU budget runs out: the puzzle it was on is cut off and left out of the ratios."""

    peer: str
    sample: int  # puzzles it was given
    seconds: tuple[float, ...]  # its time on each puzzle it finished
    ours: tuple[float, ...]  # ours on the same puzzles
    budget: float | None
    settled: int | None = None  # puzzles it finished in one node, no guess needed (peers with nodes)
    disagreements: tuple[str, ...] = ()
    cut_seconds: float = 0.0  # its time on the puzzle its budget ran out on (0: none did)
    cut_ours: float = 0.0  # ours on that puzzle

    @property
    def cut_off(self) -> bool:
        return bool(self.cut_seconds)

    @property
    def finished(self) -> int:
        return len(self.seconds)

    @property
    def mean_ratio(self) -> float | None:
        """Its mean time over ours on the same puzzles."""
        return _ratio(sum(self.seconds), sum(self.ours))

    @property
    def max_ratio(self) -> float | None:
        """Its worst time over our worst time, on the same puzzles."""
        return _ratio(max(self.seconds, default=0.0), max(self.ours, default=0.0))

    @property
    def bound(self) -> float | None:
        """On the puzzle it was cut off on, the least its ratio can be."""
        return _ratio(self.cut_seconds, self.cut_ours)


def _ratio(theirs: float, ours: float) -> float | None:
    return theirs / ours if theirs and ours else None


@dataclass(frozen=True)
class FileReport:
    path: str
    timings: tuple[Timing, ...]
    baseline: BaselineRun | None = None
    grading: GradeRun | None = None
    peers: tuple[PeerRun, ...] = ()

    @property
    def failures(self) -> list[Timing]:
        return [t for t in self.timings if t.problem]

    @property
    def disagreements(self) -> list[str]:
        """Where the baseline or a peer found another count or answer than the solver."""
        out = list(self.baseline.disagreements) if self.baseline else []
        return out + [d for run in self.peers for d in run.disagreements]

    @property
    def failed(self) -> bool:
        return bool(self.failures or self.disagreements)


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
    Times are CPU seconds (`cpu_time`): on a shared machine wall time mostly measures the
    neighbours."""
    start = cpu_time()
    result = search(puzzle, limit=LIMIT)
    seconds = cpu_time() - start
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
    peers: Sequence[Peer] = (),
    peer_sample: int = 20,
    peer_budget: float | None = 3.0,
) -> FileReport:
    """Time the solver on every puzzle of `path`, then the baseline on as many as fit its budget;
    with `grading`, grade the puzzles too (as many as fit `grade_budget` CPU seconds; None: all);
    with `peers`, run each on `peer_sample` puzzles spread over the file (0: all of them) or as
    many as fit `peer_budget` CPU seconds a peer (None: no limit)."""
    puzzles = read_puzzles(path)
    timings = tuple(time_puzzle(p) for p in progress(puzzles))
    baseline = None
    if baseline_budget is not None:
        baseline = run_baseline(puzzles, timings, baseline_budget)
    grades = grade_puzzles(puzzles, timings, grade_budget) if grading else None
    compared = run_peers(spread(puzzles, peer_sample), peers, peer_budget) if peers else ()
    return FileReport(path, timings, baseline, grades, compared)


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

        start = cpu_time()
        done = _within(left, work) if left is not None else _run(work)
        spent += cpu_time() - start
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
    cut = (0.0, 0.0)
    for puzzle, timing in zip(puzzles, timings):
        left = budget - spent
        if left <= 0:
            break
        counts: list[int] = []
        start = cpu_time()
        done = _within(left, partial(_count_into, counts, puzzle))
        took = cpu_time() - start
        spent += took
        if not done:
            cut = (took, timing.seconds)
            break
        finished += 1
        counted += took
        solver_spent += timing.seconds
        if counts[0] != timing.count:
            disagreements.append(f"{puzzle.name}: baseline counts {counts[0]}, solver {timing.count}")
    return BaselineRun(finished, counted, solver_spent, budget, tuple(disagreements), *cut, len(puzzles))


def spread(puzzles: Sequence[Puzzle], sample: int) -> list[Puzzle]:
    """`sample` puzzles evenly spaced over the file, the first included (all when `sample` is 0 or
    at least the file): the files are often sorted by size or difficulty, so not the top ones."""
    if sample <= 0 or sample >= len(puzzles):
        return list(puzzles)
    return [puzzles[i * len(puzzles) // sample] for i in range(sample)]


class _PeerTally:
    """One peer's results on one file so far."""

    def __init__(self, peer: Peer, budget: float | None) -> None:
        self.peer = peer
        self.left = budget
        self.seconds: list[float] = []
        self.ours: list[float] = []
        self.settled = 0 if peer.nodes else None
        self.cut: tuple[float, float] | None = None  # its time and ours on the puzzle it was cut off on
        self.disagreements: list[str] = []

    def attempt(self, puzzle: Puzzle) -> tuple[Answer | None, float]:
        """The peer's answer (None: cut off by its budget) and CPU time on `puzzle`."""
        answers: list[Answer] = []

        def work() -> None:
            with keeping_sigint():
                answers.append(self.peer.count(puzzle))

        start = cpu_time()
        done = _within(self.left, work) if self.left is not None else _run(work)
        took = cpu_time() - start
        if self.left is not None:
            self.left -= took
        return (answers[0] if done else None), took

    def record(
        self, puzzle: Puzzle, answer: Answer | None, took: float, ours: SearchResult, ours_took: float
    ) -> None:
        if answer is None:
            self.cut = (took, ours_took)
            return
        self.seconds.append(took)
        self.ours.append(ours_took)
        if self.settled is not None:
            self.settled += answer.nodes == 1
        problem = peer_problem(puzzle, answer, ours)
        if problem:
            self.disagreements.append(f"{puzzle.name}: {self.peer.name} {problem}")

    @property
    def stopped(self) -> bool:
        return self.cut is not None or (self.left is not None and self.left <= 0)

    def result(self, sample: int, budget: float | None) -> PeerRun:
        return PeerRun(self.peer.name, sample, tuple(self.seconds), tuple(self.ours), budget, self.settled,
                       tuple(self.disagreements), *(self.cut or (0.0, 0.0)))


def peer_problem(puzzle: Puzzle, answer: Answer, ours: SearchResult) -> str:
    """What is wrong with a peer's answer, taking ours (checked against the file) as right."""
    if answer.count != ours.count:
        return f"counts {answer.count}, solver {ours.count}"
    if answer.solution is not None and not is_solution(puzzle, answer.solution):
        return f"answer {list(answer.solution.queens)} breaks the rules"
    if ours.count == 1 and answer.solution != ours.solution:
        return "finds another unique answer than the solver"
    return ""


def run_peers(puzzles: Sequence[Puzzle], peers: Sequence[Peer], budget: float | None) -> tuple[PeerRun, ...]:
    """Each peer, and ours again, on each puzzle in turn, who goes first changing from puzzle to
    puzzle (no order bias); a peer whose budget ran out sits out the rest of the file."""
    tallies = [_PeerTally(peer, budget) for peer in peers]
    for i, puzzle in enumerate(puzzles):
        active = [t for t in tallies if not t.stopped]
        if not active:
            break
        order: list[_PeerTally | None] = [None, *active]  # None: ours
        turn = i % len(order)
        ours: tuple[SearchResult, float] | None = None
        outcomes: list[tuple[_PeerTally, tuple[Answer | None, float]]] = []
        for entry in order[turn:] + order[:turn]:
            if entry is None:
                ours = _timed_search(puzzle)
            else:
                outcomes.append((entry, entry.attempt(puzzle)))
        assert ours is not None
        for tally, outcome in outcomes:
            tally.record(puzzle, *outcome, *ours)
    return tuple(t.result(len(puzzles), budget) for t in tallies)


def _timed_search(puzzle: Puzzle) -> tuple[SearchResult, float]:
    start = cpu_time()
    result = search(puzzle, limit=LIMIT)
    return result, cpu_time() - start


class _OutOfTime(Exception):
    pass


def _count_into(counts: list[int], puzzle: Puzzle) -> None:
    """The baseline's solution count for `puzzle` (up to LIMIT), appended to `counts`."""
    counts.append(baseline_count(puzzle, LIMIT)[0])


@contextmanager
def keeping_sigint() -> Iterator[None]:
    """Run the code inside, then put back Python's Ctrl-C handler, whatever the code did with it:
    CP-SAT's C++ solver installs its own handler for a solve and leaves SIGINT at the system's
    default after it, so a Ctrl-C later in `bench` killed the process without a word."""
    handler = signal.getsignal(signal.SIGINT)
    try:
        yield
    finally:
        if handler is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, handler)


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


def default_files(samples: Path) -> list[str]:
    """The sample puzzles (games/*.txt), then, beside a source checkout, ../shared/data/levels/*.txt
    and starbattle/*.txt when present. In a checkout `samples` is its games/ folder, so the
    shared data is two levels up; an installed copy has none there."""
    shared = samples.resolve().parents[1] / "shared" / "data"
    files: list[Path] = sorted(samples.glob("*.txt"))
    for folder in ("levels", "starbattle"):
        files += sorted((shared / folder).glob("*.txt"))
    return [str(f) for f in files]
