"""What a run says when it ends: the lines for people (`report_lines`) and the JSON record
(`result_json`), for `run` and for `demo`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the pipeline imports vision and OpenCV: only when a run has ended
    from queens_autosolve.autosolve.records import RunResult
    from queens_autosolve.capture.models import Frame
    from queens_autosolve.vision.reading import BoardReading


def result_json(result: RunResult) -> dict[str, object]:
    """The outcome for machines."""
    frame, reading = result.frame, result.reading
    return {
        "ok": result.ok,
        "outcome": result.outcome.name.lower(),
        "message": result.outcome.value,
        "n": reading.n,
        "dry_run": result.dry_run,
        "source": frame.source.value,
        "window": None if frame.window is None else {
            "title": frame.window.title, "left": frame.window.rect.left, "top": frame.window.rect.top,
            "width": frame.window.rect.width, "height": frame.window.rect.height,
        },
        "confidence": reading.confidence,
        "certain": reading.is_certain,
        "reasons": list(reading.reasons),
        "frame": reading.frame_note,
        "states": reading.state_rows(),
        "solutions": result.solved.count,
        "unique": result.solved.unique,
        "solution": None if result.solved.solution is None else [list(c) for c in result.solved.solution],
        "plan": None if result.plan is None else [
            {"cell": list(c.cell), "x": c.x, "y": c.y, "reason": c.reason} for c in result.plan
        ],
        "clicks": result.clicks,
        "rounds": [
            {"clicks": r.clicks, "gap": r.pace.gap, "settle": r.pace.settle,
             "differences": list(r.differences)}
            for r in result.rounds
        ],
        "verified": None if result.dry_run or not result.rounds else result.outcome.solved,
        "differences": list(result.differences),
        "timings": result.timings,
        "to_last_click": result.to_last_click,
    }


def reading_lines(frame: Frame, reading: BoardReading, if_uncertain: str) -> list[str]:
    """What was read and from where, how the frame was seen, and a warning for an uncertain
    reading saying what follows from it (`if_uncertain`)."""
    from queens_autosolve.vision.reading import TIGHT_LINE

    where = f"window {frame.window.title!r}" if frame.window else frame.source.value
    lines = [f"read a {reading.n}x{reading.n} board from the {where} (confidence {reading.confidence:.2f})"]
    if reading.tight_crop:
        lines.append(TIGHT_LINE)
    if not reading.is_certain:
        lines.append(reading.uncertain_line(if_uncertain))
    return lines


def report_lines(result: RunResult) -> list[str]:
    """The outcome for people: what was read, solved, clicked and checked, then the timings."""
    solved = result.solved
    lines = reading_lines(result.frame, result.reading, "no clicks planned")
    if solved.solution is None:
        lines.append("the board as read has no solution")
    else:
        uniqueness = "unique" if solved.unique else "NOT unique: clicked only with --any-solution"
        lines.append(f"solution ({uniqueness}):")
        lines += ["  " + row for row in solved.solution.grid(result.reading.n)]
    if result.dry_run and result.plan is not None:
        lines.append(f"plan: {len(result.plan)} click(s) (dry run: nothing clicked)")
        lines += ["  " + line for line in result.plan.describe()]
    elif not result.dry_run:
        lines += round_lines(result)
        lines.append(result.outcome.value + ("" if result.outcome.solved else ":"))
        lines += ["  " + d for d in result.differences]
    lines.append(timing_line(result))
    return lines


def round_lines(result: RunResult) -> list[str]:
    """How many clicks each round made, at what pace, and what it left wrong."""
    rounds = result.rounds
    if not rounds:
        return [f"clicked {result.clicks} time(s)"]
    lines = [
        f"round {i}: {r.clicks} click(s), {r.pace.describe()}"
        + (f"; {len(r.differences)} cell(s) still wrong" if r.differences else "")
        for i, r in enumerate(rounds, 1)
    ]
    if len(rounds) > 1 and result.outcome.solved:
        lines.append(f"the page took the clicks at {rounds[-1].pace.describe()}: next time try "
                     f"--delay {rounds[-1].pace.gap:g}")
    return lines


def timing_line(result: RunResult) -> str:
    from queens_autosolve.autosolve.records import STAGES

    parts = [f"{name} {result.timings[name] * 1000:.1f} ms" for name in STAGES if name in result.timings]
    total = sum(result.timings.values()) * 1000
    to_click = f"; window found -> last click {result.to_last_click * 1000:.1f} ms" if result.clicks else ""
    return f"timings: {', '.join(parts)}{to_click}; total {total:.1f} ms"
