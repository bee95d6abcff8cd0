"""`queens-autosolve [run]`: find the Queens tab, read the board, solve it, click the queens in, check.

Exit status: 0 solved, already solved, or the page shows its win screen (with --dry-run: a unique
solution found); 1 the board still differs from the solution after the last round (or the dry run
found no unique solution); 2 a problem to fix first (no display, no window, no board visible, an
uncertain reading...), said in one line: nothing was clicked unless the line says so.
"""

from __future__ import annotations

import argparse
import json

from queens_autosolve.autosolve.flags import DELAY, POSITIVE, add_any_window_argument, add_where_arguments


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run",
        help="solve the Queens board in the browser window on screen (the default command)",
        description="Find the browser window showing LinkedIn Queens (or the practice page), read "
        "the board, solve it, click the queens in and check the page shows the solution.",
    )
    add_where_arguments(parser, screen="read the whole screen instead of one window",
                        image="read a screenshot file (nothing is clicked)")
    parser.add_argument("--dry-run", action="store_true",
                        help="do everything but click; print the solution and the plan")
    parser.add_argument("--delay", type=DELAY, default=0.0, metavar="S",
                        help="seconds between clicks in the first round (default 0: as fast as the page "
                        "takes them; a round that leaves cells wrong makes the next one slower)")
    parser.add_argument("--rounds", type=POSITIVE, default=3, metavar="R",
                        help="read-plan-click rounds at most, while the board differs (default 3)")
    parser.add_argument("--scroll", action="store_true",
                        help="scroll the page with the mouse wheel until the whole board is in view")
    add_any_window_argument(parser)
    parser.add_argument("--any-solution", action="store_true",
                        help="a puzzle with several solutions: click one of them (for pages that take any "
                        "valid placement) instead of refusing")
    parser.add_argument("--no-verify", action="store_true", help="do not read the board again after clicking")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from queens_autosolve.autosolve.pipeline import run
    from queens_autosolve.autosolve.records import AlreadyWon, Options, Source
    from queens_autosolve.autosolve.run_report import report_lines, result_json

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
