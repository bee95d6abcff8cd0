"""The output of `queens-autosolve bench` (benchmarks/solve_times.py measures): the tables of
times per file and per size, the ratios against the baseline and the peers, the grades, and the
same as JSON."""

from __future__ import annotations

import statistics
import textwrap
from collections.abc import Sequence
from pathlib import Path

from queens_autosolve.bench.peers import Peer, skipped_text
from queens_autosolve.bench.times import (
    GRADE_COLUMNS,
    BaselineRun,
    FileReport,
    GradeRun,
    PeerRun,
    Summary,
    by_size,
    summarize,
)


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
        f"vs plain backtracking: {faster} "
        f"(baseline {run.seconds * 1000:.2f} ms, solver {run.solver_seconds * 1000:.2f} ms) "
        f"on the {run.finished} puzzle(s) from the top of the file it finished in its {run.budget:g} s budget"
    )


def format_report(
    reports: Sequence[FileReport], peers: Sequence[Peer] = (), skipped: Sequence[Peer] = ()
) -> str:
    """The human-readable table: per file (with the baseline), per size, total, grades, the
    peers (`peers` ran, `skipped` did not), failures."""
    lines = ["per file (times are CPU time of the thread solving)", HEADER]
    for report in reports:
        lines.append(_row(summarize(Path(report.path).name, report.timings)))
        if report.baseline is not None:
            lines.append(f"  {baseline_text(report.baseline)}")
    lines += ["", "per size", HEADER]
    lines += [_row(s) for s in by_size(reports)]
    everything = [t for r in reports for t in r.timings]
    lines += ["", _row(summarize("total", everything))]
    if any(r.grading for r in reports):
        lines += ["", *format_grades(reports)]
    if peers or skipped:
        lines += ["", *format_peers(reports, peers, skipped)]
    lines = fit(lines)  # the failures below name files: their lines are never cut
    failures = [f"{r.path}: {t.name}: {t.problem}" for r in reports for t in r.failures]
    failures += [f"{r.path}: {d}" for r in reports for d in r.disagreements]
    if failures:
        lines.append(f"\nFAILED: {len(failures)} puzzle(s)")
        lines += [f"  {line}" for line in failures]
    else:
        ran = {"the baseline": any(r.baseline for r in reports), "the peers": bool(peers)}
        others = [who for who, did in ran.items() if did]
        agreed = f" ({' and '.join(others)} agreeing)" if others else ""
        lines.append(f"all {len(everything)} puzzles solved and checked{agreed}")
    return "\n".join(lines)


WIDTH = 120  # the report's widest line: tables are laid out within it, sentences are wrapped to it


def fit(lines: Sequence[str], width: int = WIDTH) -> list[str]:
    """The lines with every sentence longer than `width` wrapped, its later lines indented two
    more than its first (table rows are laid out to fit and stay as they are)."""
    fitted: list[str] = []
    for line in lines:
        if len(line) <= width:
            fitted.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()))
        fitted += textwrap.wrap(line.strip(), width, initial_indent=indent, subsequent_indent=indent + "  ")
    return fitted


def format_peers(reports: Sequence[FileReport], peers: Sequence[Peer], skipped: Sequence[Peer]) -> list[str]:
    """One row per file: our mean and worst time, then each peer's time over ours on the same
    puzzles, and the plain backtracker's."""
    columns = [*peers, *skipped]
    runs = next((r.peers for r in reports if r.peers), ())
    budget = f"{runs[0].budget:g} s" if runs and runs[0].budget is not None else "no limit"
    lines = [
        "against the peers: each one's CPU time over ours on the same puzzles, in this process, all "
        "counting to 2 (mean: total time over total time; max: worst over worst; above 1: ours is faster)",
        *(f"  {p.name}: {p.title}" for p in columns),
        "  backtracking: the plain baseline, from the top of each file",
        f"  peers on: puzzles spread over the file (--peer-sample); each peer gets {budget} of CPU a file "
        "(--peer-budget), then stops: [n] it finished only n; >r it finished none, r is the least its "
        "ratio is on the one it was cut off on",
    ]
    if skipped:
        lines.append(skipped_text(skipped))
    lines.append("  in each peer's column: mean/max ratio; in backtracking's: the ratio of the totals "
                 "[finished/puzzles]")
    header = f"{'':<18} {'board':<9} {'puzzles':>7} {'mean ms':>8} {'max ms':>8} {'peers on':>8}"
    for peer in columns:
        header += f" {peer.name:>{_peer_width(peer)}}" + (f" {'settled':>7}" if peer.nodes else "")
    lines.append(header + f" {'backtracking':>12}")
    for report in reports:
        lines.append(_peer_row(report, columns, {p.name for p in skipped}))
    return lines


def _peer_row(report: FileReport, columns: Sequence[Peer], skipped: set[str]) -> str:
    summary = summarize(Path(report.path).name, report.timings)
    first = report.timings[0] if report.timings else None
    board = f"{first.n}x{first.n} k={first.k}" if first else ""
    by_name = {run.peer: run for run in report.peers}
    sample = f"{report.peers[0].sample}" if report.peers else "-"
    label = Path(report.path).stem[:18]  # no ".txt": the set names fit the narrow column whole
    row = (f"{label:<18} {board:<9} {summary.puzzles:>7} {summary.mean * 1000:>8.2f} "
           f"{summary.max * 1000:>8.2f} {sample:>8}")
    for peer in columns:
        run = by_name.get(peer.name)
        cell = _peer_cell(run) if run else ("skipped" if peer.name in skipped else "-")
        row += f" {cell:>{_peer_width(peer)}}"
        if peer.nodes:
            row += f" {f'{run.settled}/{run.finished}' if run else '-':>7}"
    return row + f" {_baseline_cell(report.baseline):>12}"


def _peer_width(peer: Peer) -> int:
    """A peer's column: its name, and room for a cell like "12.3/45.6 [19]"."""
    return max(len(peer.name), 11)


def _times(ratio: float | None) -> str:
    if ratio is None:
        return "-"
    return f"{ratio:.0f}" if ratio >= 100 else f"{ratio:.1f}" if ratio >= 1 else f"{ratio:.2f}"


def _peer_cell(run: PeerRun) -> str:
    if not run.finished:
        return f">{_times(run.bound)} [0]" if run.cut_off else "-"
    text = f"{_times(run.mean_ratio)}/{_times(run.max_ratio)}"
    return text if run.finished == run.sample else f"{text} [{run.finished}]"


def _baseline_cell(run: BaselineRun | None) -> str:
    if run is None:
        return "-"
    done = f"[{run.finished}/{run.puzzles}]"
    if not run.finished:
        return f">{_times(run.bound)} {done}" if run.cut_seconds else f"- {done}"
    return f"{_times(run.speedup)} {done}"


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


def peer_json(run: PeerRun) -> dict[str, object]:
    return {
        "peer": run.peer, "sample": run.sample, "finished": run.finished, "budget": run.budget,
        "seconds": sum(run.seconds), "ours_seconds": sum(run.ours), "max": max(run.seconds, default=0.0),
        "ours_max": max(run.ours, default=0.0), "mean_ratio": run.mean_ratio, "max_ratio": run.max_ratio,
        "settled": run.settled, "cut_off": run.cut_off, "cut_off_bound": run.bound,
        "disagreements": list(run.disagreements),
    }


def report_json(reports: Sequence[FileReport], skipped: Sequence[Peer] = ()) -> dict[str, object]:
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
                "puzzles": r.baseline.puzzles, "cut_off_bound": r.baseline.bound,
            }
        if r.grading is not None:
            entry["grades"] = grades_json(r.grading)
        if r.peers:
            entry["peers"] = [peer_json(run) for run in r.peers]
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
        "disagreements": [{"path": r.path, "problem": d} for r in reports for d in r.disagreements],
        "peers_skipped": [p.name for p in skipped],
    }
