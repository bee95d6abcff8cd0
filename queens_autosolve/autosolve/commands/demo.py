"""`queens-autosolve demo` (what `make demo` runs): the live solve, end to end, on the practice page.

Starts Xvfb when there is no display, serves the practice page, opens it in a real Chromium
window, lets the pipeline solve it with real clicks and asks the page whether it is solved.
Exit status 0 only when the page itself reports the puzzle solved.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.generator import check_size
from queens_autosolve.solver.puzzle import Puzzle
from queens_autosolve.solver.search import count_solutions
from queens_autosolve.vision.sizes import MAX_N, MIN_N

if TYPE_CHECKING:  # the demo pulls in capture, vision and the practice server: only when it runs
    from queens_autosolve.autosolve.demo_run import DemoOutcome

# The desktops `demo --desktop` plays on, each started when none of its kind is there.
DEMO_DESKTOPS = ("x11", "sway", "gnome")
PROGRAM = "queens-autosolve"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="solve the practice page live in Chromium (starts Xvfb when there is no display)",
        description="Serve the practice page, open it in Chromium, solve it with real clicks and "
        "print the outcome (as the page reports it) and the timings.",
    )
    board = parser.add_mutually_exclusive_group()
    board.add_argument("--size", type=int, default=9, metavar="N", help="a generated N x N board (default 9)")
    board.add_argument("--puzzle", metavar="FILE", help="play the first puzzle in FILE instead")
    parser.add_argument("--seed", type=int, help="seed for the generated board")
    parser.add_argument("--dark", action="store_true", help="the page in dark mode")
    parser.add_argument("--keep-open", action="store_true",
                        help="leave the page and browser up until Ctrl-C")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.add_argument("--desktop", choices=DEMO_DESKTOPS, default="x11",
                        help="the desktop to play on, started headless when there is none of its kind "
                        "(default x11: Xvfb; sway: a headless sway, root only; gnome: a headless mutter)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    if args.puzzle is None:
        check_playable_size(args.size)
    from queens_autosolve.autosolve.demo_run import demo_puzzle, run_demo

    puzzle = demo_puzzle(args.size, args.puzzle, args.seed)
    if args.puzzle is not None:
        check_playable(puzzle, args.puzzle)

    def show(outcome: DemoOutcome) -> None:
        if args.json:
            print(json.dumps(outcome.to_json(), indent=2), flush=True)
            return
        print("\n".join(outcome.lines))
        setup = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in outcome.setup.items())
        print(f"setup: {setup}")
        verdict = "solved" if outcome.solved else "NOT solved"
        print(f"the practice page reports: {verdict} ({outcome.n}x{outcome.n})", flush=True)
        if outcome.solved and not args.keep_open:
            print("\n".join(next_steps(command_name())), flush=True)

    outcome = run_demo(puzzle, dark=args.dark, keep_open=args.keep_open, show=show, desktop=args.desktop)
    return 0 if outcome.solved else 1


def command_name() -> str:
    """How the user can start this command again: its name where the shell finds it, else its
    path (`make demo` runs .venv/bin/queens-autosolve, which is not on the PATH)."""
    started = Path(sys.argv[0])
    found = shutil.which(PROGRAM)
    if started.name == PROGRAM and started.is_file():
        if found and Path(found).resolve() == started.resolve():
            return PROGRAM
        return shortest_path(started)
    return PROGRAM if found else f"{shortest_path(Path(sys.executable))} -m queens_autosolve"


def shortest_path(path: Path) -> str:
    return min(str(path), os.path.relpath(path), key=len)


def next_steps(command: str) -> list[str]:
    """What to try after a solved demo: the page in the user's own browser, then the real thing."""
    return [
        "",
        "next, try:",
        f"  {command} practice            # the page in your own browser; leave it open, then",
        f"  {command}                     # solves the board it shows (or LinkedIn's Queens board)",
        f"  {command} demo --size 14 --dark",
        f"  {command} solve --sample queens-09 --explain",
        f"  {command} --help",
    ]


def check_playable_size(n: int) -> None:
    check_size(n)
    if not MIN_N <= n <= MAX_N:
        raise QueensError(f"--size {n}: the screen reader reads boards of {MIN_N}x{MIN_N} to {MAX_N}x{MAX_N}")


def check_playable(puzzle: Puzzle, source: str) -> None:
    """Refuse at once a puzzle the live solve cannot finish: the pipeline clicks only a unique
    answer, and reads only boards of MIN_N..MAX_N cells a side (one queen per unit)."""
    name = puzzle.name or source
    if not MIN_N <= puzzle.n <= MAX_N:
        raise QueensError(
            f"{name}: {puzzle.n}x{puzzle.n}; the demo plays boards of {MIN_N}x{MIN_N} to {MAX_N}x{MAX_N}"
        )
    if puzzle.k != 1 or puzzle.rule != "touch":
        raise QueensError(f"{name}: the demo plays LinkedIn Queens (k=1, rule=touch), not k={puzzle.k}, "
                          f"rule={puzzle.rule}")
    solutions = count_solutions(puzzle, limit=2)
    if solutions != 1:
        what = "has no solution" if solutions == 0 else "has more than one solution"
        raise QueensError(f"{name}: {what}; the demo needs a puzzle with exactly one")
