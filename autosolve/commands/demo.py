"""`queens-autosolve demo` (what `make demo` runs): the live solve, end to end, on the practice page.

Starts Xvfb when there is no display, serves the practice page, opens it in a real Chromium
window, lets the pipeline solve it with real clicks and asks the page whether it is solved.
Exit status 0 only when the page itself reports the puzzle solved.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the demo pulls in capture, vision and the practice server: only when it runs
    from autosolve.demo import DemoOutcome


def register(subparsers: argparse._SubParsersAction) -> None:
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
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from autosolve.demo import demo_puzzle, run_demo

    puzzle = demo_puzzle(args.size, args.puzzle, args.seed)

    def show(outcome: DemoOutcome) -> None:
        if args.json:
            print(json.dumps(outcome.to_json(), indent=2), flush=True)
            return
        print("\n".join(outcome.lines))
        setup = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in outcome.setup.items())
        print(f"setup: {setup}")
        verdict = "solved" if outcome.solved else "NOT solved"
        print(f"the practice page reports: {verdict} ({outcome.n}x{outcome.n})", flush=True)

    outcome = run_demo(puzzle, dark=args.dark, keep_open=args.keep_open, show=show)
    return 0 if outcome.solved else 1
