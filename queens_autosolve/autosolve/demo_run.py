"""`make demo`: the practice page, a real Chromium window and the pipeline put together.

`run_demo` serves the page, opens it in Chromium (on a fresh Xvfb when there is no display; the
stage is autosolve/browser.py), solves it live and asks the page whether it is solved.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

from queens_autosolve.pages.browser import CHROMIUM_WAYLAND, Chromium, Xvfb, find_chromium, wait_for_board
from queens_autosolve.pages.mutter import HeadlessMutter
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.puzzle import Puzzle

if TYPE_CHECKING:  # the pipeline and the page's server load only when the demo runs
    from queens_autosolve.autosolve.records import Source
    from queens_autosolve.pages.practice import PracticeServer

@dataclass(frozen=True)
class DemoOutcome:
    """How the demo went: `solved` is what the practice page itself reported."""

    solved: bool
    n: int
    timings: dict[str, float]
    setup: dict[str, float]
    display: str
    url: str
    lines: tuple[str, ...]
    page_states: tuple[str, ...]
    error: str = ""

    def to_json(self) -> dict[str, object]:
        return {"solved": self.solved, "n": self.n, "timings": self.timings, "setup": self.setup,
                "display": self.display, "url": self.url, "page_states": list(self.page_states),
                "error": self.error or None}


def demo_puzzle(size: int, puzzle_file: str | None, seed: int | None = None) -> Puzzle:
    """The board to play: the first puzzle in `puzzle_file`, or a fresh unique n x n one."""
    if puzzle_file:
        from queens_autosolve.solver.formats import read_puzzles

        return read_puzzles(puzzle_file)[0]
    from queens_autosolve.solver.generator import generate_puzzle

    return generate_puzzle(size, rng=random.Random(seed))


def run_demo(
    puzzle: Puzzle,
    *,
    dark: bool = False,
    keep_open: bool = False,
    show: Callable[[DemoOutcome], None] | None = None,
    desktop: str = "x11",
) -> DemoOutcome:
    """Serve the practice page, open it in Chromium (starting Xvfb when there is no display),
    solve it live with the pipeline and ask the page whether it is solved. `desktop`: "x11",
    "sway" or "gnome" (`demo --desktop`), the desktop to play on (and to start when there is
    none: Xvfb for x11, a headless sway for sway, a headless mutter for gnome).

    `show` gets the outcome as soon as it is known (before --keep-open holds everything up).
    """
    if desktop == "sway":
        from queens_autosolve.pages.sway import run_sway_demo

        return run_sway_demo(puzzle, dark=dark, keep_open=keep_open, show=show)
    from queens_autosolve.autosolve.records import Source
    from queens_autosolve.pages.practice import PracticeServer

    setup: dict[str, float] = {}
    terminate_cleanly()
    xvfb = gnome = None
    display = os.environ.get("DISPLAY", "")
    start = time.perf_counter()
    if desktop == "gnome":
        find_chromium()
        gnome = _gnome_session()
        display = os.environ.get("WAYLAND_DISPLAY", "wayland-0")
        setup["mutter"] = time.perf_counter() - start
    elif not display:
        find_chromium()  # fail before starting anything
        xvfb = Xvfb().start()
        display = xvfb.display
        setup["xvfb"] = time.perf_counter() - start
    chromium = Chromium("", extra_args=CHROMIUM_WAYLAND) if desktop == "gnome" else Chromium(display)
    try:
        with PracticeServer(puzzle, dark=dark) as server:
            start = time.perf_counter()
            chromium.start(server.url)
            wait_for_board(display, puzzle.n, chromium=chromium,
                           desktop="gnome" if desktop == "gnome" else "x11")
            setup["chromium"] = time.perf_counter() - start
            source = Source(desktop="gnome") if desktop == "gnome" else Source(display=display)
            return solve_live(server, source, puzzle.n, setup, display, show=show, keep_open=keep_open)
    finally:
        chromium.stop()
        if xvfb is not None:
            xvfb.stop()
        if gnome is not None:
            gnome.stop()


def _gnome_session() -> HeadlessMutter | None:
    """Make this process part of a GNOME session: the one it runs in, or a headless mutter
    started now (returned, to be stopped), whose bus, runtime directory and Wayland display go
    into our environment for Chromium and the pipeline."""
    from queens_autosolve.capture.desktop import choose_desktop

    with suppress(QueensError):
        if choose_desktop(None, "auto", os.environ) == "gnome" and os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            return None
    gnome = HeadlessMutter().start()
    os.environ.update(gnome.env)
    os.environ.pop("DISPLAY", None)
    return gnome


def solve_live(
    server: PracticeServer, source: Source, n: int, setup: dict[str, float], display: str, *,
    show: Callable[[DemoOutcome], None] | None, keep_open: bool,
) -> DemoOutcome:
    """Run the pipeline on the page `server` serves, shown on `source`'s desktop, and ask the page
    whether it is solved; an error of the run is reported in the outcome (and --json)."""
    from queens_autosolve.autosolve.pipeline import run
    from queens_autosolve.autosolve.records import Options
    from queens_autosolve.autosolve.run_report import report_lines
    from queens_autosolve.pages.practice import PracticeTimeout

    timings: dict[str, float] = {}
    error = ""
    try:
        result = run(source, Options())
        timings, lines = result.timings, tuple(report_lines(result))
        state = server.wait_for(solved=True, timeout=3.0)
    except QueensError as exc:
        error, lines, state = str(exc), (f"error: {exc}",), server.state()
    except PracticeTimeout as exc:
        state = exc.state
    outcome = DemoOutcome(
        solved=state.solved, n=n, timings=timings, setup=setup, display=display, url=server.url,
        lines=lines, page_states=state.states, error=error,
    )
    if show is not None:
        show(outcome)
    if keep_open:
        hold(outcome)
    return outcome


def terminate_cleanly() -> None:
    """Make SIGTERM (kill, a CI timeout) unwind like Ctrl-C, so Chromium and Xvfb are stopped."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, interrupt)
        # A shell starts background jobs with SIGINT ignored; --keep-open must still stop on it.
        signal.signal(signal.SIGINT, signal.default_int_handler)


def hold(outcome: DemoOutcome) -> None:
    """--keep-open: keep the page served (and the browser up) until Ctrl-C."""
    print(f"page {outcome.url} on display {outcome.display} left open; press Ctrl-C to close",
          file=sys.stderr, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
