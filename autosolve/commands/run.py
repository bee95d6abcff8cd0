"""`queens-autosolve [run]`: find the Queens tab, read the board, solve it, click the queens in, check.

Exit status: 0 solved, already solved, or the page shows its win screen (with --dry-run: a unique
solution found); 1 the board still differs from the solution after the last round (or the dry run
found no unique solution); 2 a problem to fix first (no display, no window, no board visible, an
uncertain reading...), said in one line: nothing was clicked unless the line says so.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from autosolve.flags import DELAY, POSITIVE
from capture.desktop import DESKTOPS

if TYPE_CHECKING:  # the pipeline imports vision and OpenCV: only when the command runs
    from autosolve.pipeline import RunResult


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="solve the Queens board in the browser window on screen (the default command)",
        description="Find the browser window showing LinkedIn Queens (or the practice page), read "
        "the board, solve it, click the queens in and check the page shows the solution.",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--window", metavar="TITLE", help="the window whose title contains TITLE "
                       "(default: a browser window titled 'Queens')")
    where.add_argument("--screen", action="store_true", help="read the whole screen instead of one window")
    where.add_argument("--image", metavar="FILE", type=Path,
                       help="read a screenshot file (nothing is clicked)")
    parser.add_argument("--display", metavar="NAME", help="X11 display (default: $DISPLAY)")
    parser.add_argument("--desktop", choices=DESKTOPS, default="auto",
                        help="the desktop to work on (default auto: X11, unless the session is Wayland, "
                        "which is not supported yet)")
    parser.add_argument("--dry-run", action="store_true",
                        help="do everything but click; print the solution and the plan")
    parser.add_argument("--delay", type=DELAY, default=0.0, metavar="S",
                        help="seconds between clicks in the first round (default 0: as fast as the page "
                        "takes them; a round that leaves cells wrong makes the next one slower)")
    parser.add_argument("--rounds", type=POSITIVE, default=3, metavar="R",
                        help="read-plan-click rounds at most, while the board differs (default 3)")
    parser.add_argument("--scroll", action="store_true",
                        help="scroll the page with the mouse wheel until the whole board is in view")
    parser.add_argument("--any-window", action="store_true",
                        help="allow clicking a window that is not a web browser (on purpose only)")
    parser.add_argument("--any-solution", action="store_true",
                        help="a puzzle with several solutions: click one of them (for pages that take any "
                        "valid placement) instead of refusing")
    parser.add_argument("--no-verify", action="store_true", help="do not read the board again after clicking")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from autosolve.pipeline import AlreadyWon, Options, Source, run

    source = Source(window=args.window, screen=args.screen, image=args.image, display=args.display,
                    desktop=args.desktop)
    options = Options(dry_run=args.dry_run or args.image is not None, delay=args.delay,
                      verify=not args.no_verify, rounds=args.rounds, any_window=args.any_window,
                      scroll=args.scroll, any_solution=args.any_solution)
    try:
        result = run(source, options)
    except AlreadyWon as won:
        answer = {"ok": True, "outcome": "already_solved", "message": str(won), "clicks": 0}
        print(json.dumps(answer, indent=2) if args.json else str(won))
        return 0
    print(json.dumps(result_json(result), indent=2) if args.json else "\n".join(report_lines(result)))
    return 0 if result.ok else 1


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


def report_lines(result: RunResult) -> list[str]:
    """The outcome for people: what was read, solved, clicked and checked, then the timings."""
    from vision.reading import TIGHT_LINE

    frame, reading, solved = result.frame, result.reading, result.solved
    where = f"window {frame.window.title!r}" if frame.window else frame.source.value
    lines = [f"read a {reading.n}x{reading.n} board from the {where} (confidence {reading.confidence:.2f})"]
    if reading.tight_crop:
        lines.append(TIGHT_LINE)
    if not reading.is_certain:
        lines.append(reading.uncertain_line("no clicks planned"))
    if solved.solution is None:
        lines.append("the board as read has no solution")
    else:
        uniqueness = "unique" if solved.unique else "NOT unique: clicked only with --any-solution"
        lines.append(f"solution ({uniqueness}):")
        lines += ["  " + row for row in solved.solution.grid(reading.n)]
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
    from autosolve.pipeline import STAGES

    parts = [f"{name} {result.timings[name] * 1000:.1f} ms" for name in STAGES if name in result.timings]
    total = sum(result.timings.values()) * 1000
    to_click = f"; window found -> last click {result.to_last_click * 1000:.1f} ms" if result.clicks else ""
    return f"timings: {', '.join(parts)}{to_click}; total {total:.1f} ms"
