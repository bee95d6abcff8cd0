"""The generator's benchmark: make puzzles for a run of seeds, prove each one unique, and time the
same seeds with the baseline generator (`ONE_AT_A_TIME`: a propagation after every cell that
joins a region instead of one per batch) in the same process.

Generation time varies a lot from seed to seed (a map that ends with many cells left over
needs many mending rounds), so the median over several seeds is the figure to read, with the
worst beside it.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from queens_autosolve.solver.errors import PuzzleFormatError
from queens_autosolve.solver.generator import BUDGETS, ONE_AT_A_TIME, Budgets, generate_puzzle
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import count_solutions


@dataclass(frozen=True)
class GeneratorRun:
    """CPU seconds per seed for one board size, and what went wrong (empty when all is well)."""

    n: int
    k: int
    seeds: tuple[int, ...]
    seconds: tuple[float, ...]
    baseline: tuple[float, ...] | None
    problems: tuple[str, ...] = ()
    difficulty: str = ""  # with `bench --generate --difficulty`: the grade asked for

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def speedup(self) -> float | None:
        """Baseline median over our median (None without a baseline or a measurable time)."""
        if not self.baseline or not self.median:
            return None
        return statistics.median(self.baseline) / self.median


def time_generation(n: int, k: int, seed: int, budgets: Budgets) -> tuple[float, Puzzle]:
    """CPU seconds to make the puzzle of `seed`, and the puzzle."""
    start = time.process_time()
    puzzle = generate_puzzle(n, k, rng=seed, budgets=budgets)
    return time.process_time() - start, puzzle


def problem_with(puzzle: Puzzle) -> str:
    """What is wrong with a generated puzzle: not valid, or not exactly one solution."""
    try:
        puzzle.validate()
    except PuzzleFormatError as error:
        return f"{puzzle.name}: {error}"
    count = count_solutions(puzzle, limit=2)
    return "" if count == 1 else f"{puzzle.name}: {count} solutions (expected 1)"


def bench_generator(
    n: int,
    k: int,
    seeds: Sequence[int],
    *,
    baseline: bool = True,
    progress: Callable[[str], None] = lambda _: None,
) -> GeneratorRun:
    """Generate one puzzle per seed (checking each) and, when `baseline`, the same seeds again
    with the baseline generator."""
    seconds, problems = _time_seeds(n, k, seeds, BUDGETS, "", progress)
    base: list[float] | None = None
    if baseline:
        base, more = _time_seeds(n, k, seeds, ONE_AT_A_TIME, "baseline", progress)
        problems += more
    return GeneratorRun(n, k, tuple(seeds), tuple(seconds), tuple(base) if base is not None else None,
                        tuple(problems))


DIFFICULTY_SEED_STEP = 1000  # seed s starts its search for the grade at s * 1000: no overlap


def bench_difficulty(
    n: int, k: int, seeds: Sequence[int], difficulty: str, *, progress: Callable[[str], None] = lambda _: None
) -> GeneratorRun:
    """CPU seconds to make a puzzle of `difficulty` (generate and grade from seed s * 1000 on,
    until one matches), per seed; the baseline is one plain puzzle from the same seed."""
    from queens_autosolve.solver.difficulty import Difficulty, generate_graded

    wanted = Difficulty(difficulty)
    seconds, base, problems = [], [], []
    for seed in seeds:
        start = time.process_time()
        graded = generate_graded(n, wanted, k=k, seed=seed * DIFFICULTY_SEED_STEP)
        seconds.append(time.process_time() - start)
        if problem := problem_with(graded.puzzle):
            problems.append(problem)
        spent, _ = time_generation(n, k, seed * DIFFICULTY_SEED_STEP, BUDGETS)
        base.append(spent)
        progress(f"{n}x{n} {difficulty} seed {seed}: {seconds[-1]:.2f} s ({graded.tries} made)")
    return GeneratorRun(n, k, tuple(seeds), tuple(seconds), tuple(base), tuple(problems), difficulty)


def _time_seeds(
    n: int, k: int, seeds: Sequence[int], budgets: Budgets, label: str, progress: Callable[[str], None]
) -> tuple[list[float], list[str]]:
    """CPU seconds per seed, and the problems found (each prefixed with `label`)."""
    seconds, problems = [], []
    for seed in seeds:
        spent, puzzle = time_generation(n, k, seed, budgets)
        seconds.append(spent)
        if problem := problem_with(puzzle):
            problems.append(f"{label} {problem}".lstrip())
        progress(f"{n}x{n} k={k} seed {seed}{', ' + label if label else ''}: {spent:.2f} s")
    return seconds, problems


HEADER = (
    f"{'board':<18} {'seeds':>5} {'median s':>9} {'mean':>7} {'max':>7} {'baseline median':>16} {'ratio':>6}"
)


def format_runs(runs: Sequence[GeneratorRun]) -> str:
    """The table, one row per size, then the problems or a line saying every puzzle checked out."""
    lines = ["generator (CPU seconds per puzzle, each proven unique)", HEADER]
    for run in runs:
        base = f"{statistics.median(run.baseline):16.2f}" if run.baseline else f"{'-':>16}"
        ratio = f"{run.speedup:5.1f}x" if run.speedup else f"{'-':>6}"
        board = f"{run.n}x{run.n} k={run.k}" + (f" {run.difficulty}" if run.difficulty else "")
        lines.append(
            f"{board:<18} {len(run.seeds):>5} {run.median:9.2f} "
            f"{statistics.fmean(run.seconds):7.2f} {max(run.seconds):7.2f} {base} {ratio}"
        )
    problems = [p for run in runs for p in run.problems]
    if problems:
        lines.append(f"\nFAILED: {len(problems)} puzzle(s)")
        lines += [f"  {p}" for p in problems]
    else:
        checked = sum(len(r.seeds) * (2 if r.baseline and not r.difficulty else 1) for r in runs)
        lines.append(f"all {checked} puzzles unique")
    if any(run.difficulty for run in runs):
        lines.append("baseline: one puzzle of any grade from the same seed (the cost of choosing by grade)")
    else:
        lines.append("baseline: the same seeds with every cell checked alone (a propagation per cell)")
    return "\n".join(lines)


def runs_json(runs: Sequence[GeneratorRun]) -> dict[str, object]:
    """The same figures for machines."""
    return {
        "generator": [
            {
                "n": r.n, "k": r.k, "seeds": list(r.seeds), "seconds": list(r.seconds),
                "median": r.median, "baseline": list(r.baseline) if r.baseline else None,
                "speedup": r.speedup, "problems": list(r.problems), "difficulty": r.difficulty or None,
            }
            for r in runs
        ]
    }
