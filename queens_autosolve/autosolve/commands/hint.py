"""`queens-autosolve hint`: read the board in the browser window (or a screenshot) with the
player's queens and X marks, and say what is wrong on it, or else the next deduction a person can
follow from it; `--apply` makes just that step on the board (its X marks, or its one queen) with
the same safety rules as `run`.

Exit status: 0 advice given (and with --apply, the step made and seen on the board); 1 --apply
made no move (mistakes to fix first, or the next step is a guess) or the board does not show the
step after the clicks; 2 a problem to fix first, in one line.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from queens_autosolve.autosolve.flags import DELAY, add_any_window_argument, add_where_arguments

if TYPE_CHECKING:  # the coach's live glue imports vision and OpenCV: only when the command runs
    from queens_autosolve.autosolve.live_coach import HintResult


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "hint",
        help="the mistakes on the Queens board on screen, or the next deduction to make",
        description="Read the board in the browser window (or --image), with your queens and X "
        "marks, and print your mistakes or else the next step a person can follow from the board as "
        "it stands: the rule, the cells, and the X marks or the queen it lets you place.",
    )
    add_where_arguments(parser, image="read a screenshot file instead")
    parser.add_argument("--apply", action="store_true",
                        help="make the step on the board: click its X marks, or its queen")
    parser.add_argument("--delay", type=DELAY, default=0.0, metavar="S", help="seconds between clicks")
    add_any_window_argument(parser)
    parser.add_argument("--json", action="store_true",
                        help="print {mistakes: [...], step: {rule, cells, marks, queen, text}, ...}")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from queens_autosolve.autosolve.live_coach import hint, nothing_to_apply, report_lines
    from queens_autosolve.autosolve.records import Source

    source = Source(window=args.window, image=args.image, display=args.display, desktop=args.desktop)
    result = hint(source, apply=args.apply, any_window=args.any_window, delay=args.delay)
    refused = nothing_to_apply(result.advice) if args.apply else None
    if args.json:
        print(json.dumps(result_json(result, refused)))
    else:
        print("\n".join(report_lines(result) + ([refused] if refused else [])))
    if refused or (result.applied is not None and not result.applied.shown):
        return 1
    return 0


def result_json(result: HintResult, refused: str | None) -> dict[str, object]:
    reading = result.reading
    data = result.advice.to_json()
    data.update({
        "n": reading.n,
        "confidence": reading.confidence,
        "certain": reading.is_certain,
        "reasons": list(reading.reasons),
        "states": reading.state_rows(),
        "applied": result.applied.to_json() if result.applied is not None else None,
        "not_applied": refused,
    })
    return data
