"""`queens-autosolve watch`: stay ready on the browser window and solve each fresh board the
moment it shows (LinkedIn's Start pressed, a new level, the practice page's Next puzzle).

One line per board met; Ctrl-C ends it with a summary line (exit status 130), once the board in
hand, if any, is done (a second Ctrl-C at once). With `--once` it
exits after the first board it solves or refuses, with `run`'s exit status (0 solved, 1 still
wrong after the last round, 2 a refusal, said in one line).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from queens_autosolve.autosolve.flags import add_any_window_argument, add_where_arguments

if TYPE_CHECKING:  # the loop imports vision and OpenCV: only when the command runs
    from queens_autosolve.autosolve.watch import BoardDone, Watcher


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "watch",
        help="stay ready and solve each Queens board the moment it appears",
        description="Watch the browser window showing Queens; each time a fresh board appears "
        "(Start pressed, a new puzzle), solve it as `run` does, with its safety rules, and go on "
        "watching. Boards already solved, met before or begun by hand are left alone.",
    )
    add_where_arguments(parser, screen="watch the whole screen instead of one window")
    parser.add_argument("--once", action="store_true",
                        help="exit after the first board solved (or refused), with run's exit status")
    parser.add_argument("--take-over", action="store_true",
                        help="also solve a board someone has begun (marks or queens on it)")
    add_any_window_argument(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per board (JSON Lines)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from queens_autosolve.autosolve.records import Options, Source
    from queens_autosolve.autosolve.watch import POLL, Verdict, Watcher
    from queens_autosolve.capture import open_desktop

    source = Source(window=args.window, screen=args.screen, display=args.display, desktop=args.desktop)
    options = Options(any_window=args.any_window)
    with open_desktop(source.display, source.desktop, will_click=True) as desktop:
        desktop.monitors()
        watcher = Watcher(desktop, source, options, take_over=args.take_over, say=_status)
        with ctrl_c_between_looks() as stopped:
            while not stopped.is_set():
                done = watcher.look()
                if done is not None:
                    _print(done, args.json)
                    if args.once and done.verdict is Verdict.FRESH:  # solved, or refused: run's status
                        return done.status
                stopped.wait(POLL)
        _summary(watcher, args.json)
        return 130


@contextmanager
def ctrl_c_between_looks() -> Iterator[threading.Event]:
    """Ctrl-C (SIGINT) sets the event the loop checks between looks, instead of raising wherever
    the loop is: raised inside a request to the display server, it could leave the connection
    locked, and closing it would then hang. A second Ctrl-C raises at once, as usual."""
    stopped = threading.Event()

    def stop(*_: object) -> None:
        stopped.set()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    before = signal.signal(signal.SIGINT, stop)
    try:
        yield stopped
    finally:
        signal.signal(signal.SIGINT, before)


def _status(line: str) -> None:
    """What it waits for goes to stderr: stdout holds one line per board."""
    print(line, file=sys.stderr, flush=True)


def _print(done: BoardDone, as_json: bool) -> None:
    print(json.dumps(done.to_json()) if as_json else done.line(), flush=True)


def _summary(watcher: Watcher, as_json: bool) -> None:
    line = watcher.tally.summary()
    if as_json:
        print(json.dumps({"summary": line, "boards": len(watcher.tally.boards)}), flush=True)
    else:
        print(line, flush=True)
