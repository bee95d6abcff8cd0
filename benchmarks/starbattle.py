"""Star Battle benchmark: our solver against CP-SAT (OR-Tools) and a SAT solver (CaDiCaL via
python-sat), each asked to find the answer and prove it unique, on the shared sets and ours;
with the ablations (--ablate, --trials) and the solver of an earlier commit (--before) beside it.
The peers and their one model of the rules are benchmarks/peers.py, shared with
`queens-autosolve bench`, which prints the ratios for every set; this script is the deeper look.

Run from the project root (the baselines need the optional extra: ``pip install -e '.[bench]'``)::

    .venv/bin/python benchmarks/starbattle.py                # every set, baselines on a sample
    .venv/bin/python benchmarks/starbattle.py --ablate       # also: each rule left out in turn
    .venv/bin/python benchmarks/starbattle.py --trials       # also: the trial rule in the search

Times are CPU seconds (`time.process_time`; CP-SAT runs with one worker), since the machine is
shared. Every variant of our solver and every baseline runs in this one process, puzzle after
puzzle, so their ratios are measured under the same load. "before" is the solver of git commit
0fe93c5 (before issue 12), loaded beside today's (`--before REF`: the modules of
SOLVER_MODULES that existed at REF).
Not a test: nothing here is imported by the product or by the test suite.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from queens_autosolve.bench import peers
from queens_autosolve.bench.peers import Answer
from queens_autosolve.solver.formats import read_puzzles
from queens_autosolve.solver.propagate import DEFAULT_RULES, RULES_MANY, RuleSet, cut_regions
from queens_autosolve.solver.puzzle import Puzzle, is_solution
from queens_autosolve.solver.search import search

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
LINKEDIN = [SHARED / "levels" / "linkedin-official.txt", SHARED / "levels" / "linkedin-bonus.txt"]
STAR_SETS = sorted(
    (SHARED / "starbattle").glob("*.txt"), key=lambda p: [int(x) for x in p.stem.split("-")[:2]]
)
OUR_SETS = [ROOT / "games" / name for name in (
    "stars4-17-hard.txt", "stars4-17-harder.txt", "stars4-17-sathard.txt", "stars5-21-hard.txt")
]


@dataclass(frozen=True)
class Run:
    """One solver on one puzzle: CPU seconds, search nodes (0 for the baselines), solutions
    counted up to two, and whether the first one checks out."""

    seconds: float
    nodes: int
    count: int
    correct: bool


Solver = Callable[[Puzzle], Run]


# --- our solver and its variants ----------------------------------------------------------------


def ours(puzzle: Puzzle, rules: RuleSet | None = None) -> Run:
    start = time.process_time()
    result = search(puzzle, limit=2) if rules is None else search(puzzle, limit=2, rules=rules)
    seconds = time.process_time() - start
    correct = result.solution is not None and is_solution(puzzle, result.solution)
    return Run(seconds, result.nodes, result.count, correct)


def ours_without(rule: str) -> Solver:
    """Our solver with one k>1 deduction rule left out."""
    rules = DEFAULT_RULES.without(rule)
    return lambda puzzle: ours(puzzle, rules)


def ours_with_confine(puzzle: Puzzle) -> Run:
    """Our solver with confine in the search too (see propagate.RULES_WIDE and RULES_CUTS)."""
    return ours(puzzle, WITH_CONFINE)


WITH_CONFINE = replace(DEFAULT_RULES, wide=RULES_MANY, cuts=(*RULES_MANY, cut_regions))


def ours_with_trials(depth: int) -> Solver:
    """Our solver running the `trial` rule at nodes down to `depth` (the search runs none)."""
    # looked up when run: --before swaps in the solver modules of another commit
    search_module: Any = sys.modules["queens_autosolve.solver.search"]

    def run(puzzle: Puzzle) -> Run:
        saved = search_module.TRIAL_DEPTH
        search_module.TRIAL_DEPTH = depth
        try:
            return ours(puzzle)
        finally:
            search_module.TRIAL_DEPTH = saved

    return run


BEFORE = "0fe93c5"  # the commit before issue 12: the solver "before" is measured at


# The solver's modules in import order: each may import the ones before it.
SOLVER_MODULES = (
    "board", "wording", "patterns", "branching", "block_rules", "unit_rules", "cut_rules", "place_rules",
    "propagate", "search",
)


def solver_at(ref: str) -> Solver | None:
    """Our solver as it was at git commit `ref`: its modules of SOLVER_MODULES that existed then,
    loaded beside today's under other names (the rest of solver/ they import is shared). None
    without git."""
    texts = {}
    for name in SOLVER_MODULES:
        for path in (f"queens_autosolve/solver/{name}.py", f"solver/{name}.py"):  # after, before the move
            try:
                shown = subprocess.run(["git", "show", f"{ref}:{path}"], cwd=ROOT, check=True,
                                       capture_output=True, text=True).stdout
            except (OSError, subprocess.CalledProcessError):
                continue
            texts[name] = shown.replace("from solver.", "from queens_autosolve.solver.")
            break
    if "search" not in texts:
        return None
    loaded: list[str] = []
    for name, text in texts.items():
        for done in loaded:
            text = text.replace(f"from queens_autosolve.solver.{done} import",
                                f"from before_{ref}_{done} import")
        _load(f"before_{ref}_{name}", text)
        loaded.append(name)
    old_search = sys.modules[f"before_{ref}_search"]

    def run(puzzle: Puzzle) -> Run:
        start = time.process_time()
        result = old_search.search(puzzle, limit=2)
        seconds = time.process_time() - start
        correct = result.solution is not None and is_solution(puzzle, result.solution)
        return Run(seconds, result.nodes, result.count, correct)

    return run


def _load(name: str, text: str) -> types.ModuleType:
    module = types.ModuleType(name)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    exec(compile(text, f"<{name}>", "exec"), module.__dict__)
    return module


# --- the baselines ------------------------------------------------------------------------------


def timed(count: Callable[[Puzzle], Answer]) -> Solver:
    """A peer of benchmarks/peers.py (CP-SAT, SAT: the one model `bench` uses too), timed."""

    def run(puzzle: Puzzle) -> Run:
        start = time.process_time()
        answer = count(puzzle)
        seconds = time.process_time() - start
        correct = answer.solution is not None and is_solution(puzzle, answer.solution)
        return Run(seconds, 0, answer.count, correct)

    return run


# --- tables -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    solver: str
    puzzles: int
    unique: int  # solved correctly and proven unique
    mean: float
    median: float
    worst: float
    nodes_mean: float
    nodes_max: int


def summarize(name: str, runs: Sequence[Run]) -> Summary:
    ms = [r.seconds * 1000 for r in runs]
    nodes = [r.nodes for r in runs]
    return Summary(
        name, len(runs), sum(r.correct and r.count == 1 for r in runs),
        statistics.fmean(ms), statistics.median(ms), max(ms), statistics.fmean(nodes), max(nodes),
    )


def measure(
    puzzles: Sequence[Puzzle], solvers: dict[str, Solver], sample: dict[str, int], *, each: bool = False
) -> dict[str, Summary]:
    """Each solver on each puzzle, the solvers interleaved puzzle by puzzle (so a burst of load on
    the machine hits them alike); `sample[name]` caps how many puzzles that solver gets. Rows keep
    the order of `solvers`."""
    runs: dict[str, list[Run]] = {name: [] for name in solvers}
    names = list(solvers)
    gc.freeze()  # the puzzles and caches so far: out of the collections below, which stay cheap
    for i, puzzle in enumerate(puzzles):
        turn = i % len(names)  # who goes first changes from puzzle to puzzle: no order bias
        for name in names[turn:] + names[:turn]:
            if i < sample.get(name, len(puzzles)):
                gc.collect()  # nobody pays for the garbage another solver left behind
                runs[name].append(solvers[name](puzzle))
        if each:  # one line a puzzle: each solver's nodes and CPU ms
            print(f"  #{i:<4}" + "".join(
                f"  {name}: {r[-1].nodes:>5} nodes {r[-1].seconds * 1000:7.1f} ms"
                for name, r in runs.items() if len(r) == i + 1), flush=True)
    return {name: summarize(name, r) for name, r in runs.items() if r}


def table(label: str, summaries: dict[str, Summary]) -> str:
    """One set's rows; `x ours` is a row's mean and max over ours on the same puzzles."""
    lines = [f"\n{label}",
             f"  {'solver':<28} {'puzzles':>7} {'unique':>7} {'mean ms':>9} {'median':>9} {'max ms':>9} "
             f"{'nodes':>7} {'max':>6} {'mean x ours':>12} {'max x ours':>11}"]
    ours_by_count = {
        s.puzzles: s for name, s in summaries.items() if name == "ours" or name.startswith("ours (first")
    }
    for s in summaries.values():
        mean_ratio = max_ratio = ""
        base = ours_by_count.get(s.puzzles)
        if base is not None and base is not s:
            mean_ratio, max_ratio = f"{s.mean / base.mean:.2f}", f"{s.worst / base.worst:.2f}"
        lines.append(
            f"  {s.solver:<28} {s.puzzles:>7} {s.unique:>7} {s.mean:>9.2f} {s.median:>9.2f} {s.worst:>9.1f} "
            f"{s.nodes_mean:>7.1f} {s.nodes_max:>6} {mean_ratio:>12} {max_ratio:>11}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max", type=int, default=0, help="at most this many puzzles per set (0: all)")
    parser.add_argument("--sample", type=int, default=200,
                        help="CP-SAT, SAT and the --ablate variants on at most this many puzzles a set")
    parser.add_argument("--no-baselines", action="store_true", help="only our solver")
    parser.add_argument("--ablate", action="store_true", help="also run ours with each k>1 rule left out")
    parser.add_argument("--sets", nargs="*", type=Path,
                        help="puzzle files (default: the shared sets, games/, LinkedIn)")
    parser.add_argument("--linkedin", action="store_true", help="the LinkedIn levels too, with --sets")
    parser.add_argument("--trials", action="store_true",
                        help="also run ours with the trial rule in the search (root; every node)")
    parser.add_argument("--each", action="store_true", help="also a line per puzzle: nodes and ms")
    parser.add_argument("--before", default=BEFORE, metavar="REF",
                        help=f"git commit whose solver to measure as 'before' (default {BEFORE}; '': none)")
    args = parser.parse_args(argv)
    old = solver_at(args.before) if args.before else None
    before = {f"before ({args.before})": old} if old else {}
    files = args.sets or [*STAR_SETS, *[p for p in OUR_SETS if p.exists()]]
    if not args.no_baselines:
        peers.warm_up([peer for peer in peers.PEERS if peer.needs])  # CP-SAT and SAT: not timed
    for path in files:
        puzzles = read_puzzles(str(path))
        if args.max:
            puzzles = puzzles[: args.max]
        solvers = {"ours": ours, **before}
        if args.trials and puzzles[0].k > 1:
            solvers["ours, trials at the root"] = ours_with_trials(0)
            solvers["ours, trials at every node"] = ours_with_trials(1 << 20)
        if not args.no_baselines:
            solvers |= {"CP-SAT (1 worker)": timed(peers.cp_sat), "SAT (CaDiCaL 1.9.5)": timed(peers.sat)}
        if args.ablate and puzzles[0].k > 1:
            lean = puzzles[0].k >= DEFAULT_RULES.lean_from_k  # the search runs without confine
            left_out = [rule for rule in ABLATED if not (lean and rule == "confine")]
            solvers |= {f"without {rule}": ours_without(rule) for rule in left_out}
            if lean:
                solvers["with confine"] = ours_with_confine
        sample = {name: args.sample for name in solvers
                  if name.startswith(("CP-SAT", "SAT", "without", "with confine"))}
        if sample and args.sample < len(puzzles):
            solvers[f"ours (first {args.sample})"] = ours
            sample[f"ours (first {args.sample})"] = args.sample
        summaries = measure(puzzles, solvers, sample, each=args.each)
        print(table(f"{path.name} (n={puzzles[0].n}, k={puzzles[0].k})", summaries), flush=True)
    if args.linkedin or not args.sets:
        linkedin = [p for f in LINKEDIN for p in read_puzzles(str(f))]
        if args.max:
            linkedin = linkedin[: args.max]
        summaries = measure(linkedin, {"ours": ours, **before}, {})
        label = "LinkedIn levels (official + bonus; k=1, where trial does not run)"
        print(table(label, summaries), flush=True)
    return 0


ABLATED = (
    "cover_regions", "count_blocks", "squeeze_units", "confine", "cut_regions", "drop_unsupported",
    "settle_placements",
)

if __name__ == "__main__":
    sys.exit(main())
