"""Measure how clicks get lost on a real page under a real window manager, and what pacing stops it.

The practice page is shown in Chromium and Firefox under openbox (window decorated, moved to
300,120, a stand-in "terminal" window focused as when the user starts the tool), and a solution
is clicked the way actuator/clicker.py clicks (pyautogui on the display, PAUSE=0: XTest events
back to back), two clicks per queen cell, with one pacing per condition. After each run the
page's own report is compared with what was sent. Prints a table: per browser and condition,
the runs with lost or wrong clicks, and which click of the run the first wrong cell had.

    .venv/bin/python -m scripts.click_loss --runs 10 --budget 240
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from queens_autosolve.pages.browser import Chromium, Xvfb, wait_for_board
from queens_autosolve.pages.practice import PracticeServer, PracticeTimeout
from queens_autosolve.solver.generator import generate_puzzle
from queens_autosolve.solver.puzzle import Cell, Puzzle
from queens_autosolve.solver.search import solve
from tests.desktops import Firefox, Openbox
from tests.user_pointer import load_pyautogui

SCREEN = (1920, 1200)
OFFSET = (300, 120)  # where the decorated browser window is moved, as on a real desktop
TERMINAL = "Terminal stand-in"
GAPS_MS = (0, 2, 5, 10, 20, 50)


@dataclass(frozen=True)
class Pacing:
    """One way of spacing the clicks (seconds): `in_cell` between the two clicks of one cell,
    `between` after a cell's clicks, `settle` between the move onto a cell and its first press,
    `first_settle` the same for the first cell only, `hold` between each press and its release;
    `activate` focuses the browser first."""

    name: str
    in_cell: float = 0.0
    between: float = 0.0
    settle: float = 0.0
    first_settle: float = 0.0
    hold: float = 0.0
    activate: bool = False


# The places a gap is tried in, one at a time: each makes the condition of a gap of `ms` there.
GAP_PLACES: tuple[Callable[[int], Pacing], ...] = (
    lambda ms: Pacing(f"in-cell {ms} ms", in_cell=ms / 1000),
    lambda ms: Pacing(f"between cells {ms} ms", between=ms / 1000),
    lambda ms: Pacing(f"every click {ms} ms", in_cell=ms / 1000, between=ms / 1000),
    lambda ms: Pacing(f"move,sleep {ms} ms,press", settle=ms / 1000),
    lambda ms: Pacing(f"press,sleep {ms} ms,release", hold=ms / 1000),
)


def conditions(gaps_ms: tuple[int, ...]) -> list[Pacing]:
    """Gaps in one place at a time, then the mechanism checks (focus first, settle once)."""
    paces = [Pacing("none (as clicker.py)")]
    for gap_at in GAP_PLACES:
        paces += [gap_at(ms) for ms in gaps_ms if ms]
    paces.append(Pacing("activate window first", activate=True))
    paces.append(Pacing("settle 50 ms on 1st cell only", first_settle=0.05))
    return paces


@dataclass
class Tally:
    """Runs of one condition: how many lost clicks, and where the first wrong cell was."""

    runs: int = 0
    lost: int = 0
    first_wrong: Counter[int] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)


def xdotool(display: str, *args: str) -> str:
    env = {"DISPLAY": display, "PATH": "/usr/bin:/bin"}
    done = subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=10)
    return done.stdout.strip()


def window_id(display: str, name: str) -> str:
    found = xdotool(display, "search", "--name", name).split()
    if not found:
        raise RuntimeError(f"no window named {name!r}")
    return found[-1]


@contextmanager
def terminal_window(display: str) -> Iterator[str]:
    """A small window in the top-right corner, focused before each run like the user's terminal."""
    process = subprocess.Popen(
        ["xmessage", "-title", TERMINAL, "-geometry", "+1650+20", TERMINAL],
        env={"DISPLAY": display, "PATH": "/usr/bin:/bin"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            found = xdotool(display, "search", "--name", TERMINAL).split()
            if found:
                yield found[-1]
                return
            time.sleep(0.05)
        raise RuntimeError("the terminal stand-in did not appear")
    finally:
        process.terminate()
        process.wait(timeout=5)


def solution_cells(puzzle: Puzzle) -> list[Cell]:
    solution = solve(puzzle)
    if solution is None:
        raise RuntimeError(f"{puzzle.name} has no solution")
    return list(solution.queens)


def expected_states(n: int, queens: list[Cell]) -> tuple[str, ...]:
    return tuple("".join("Q" if (r, c) in queens else "." for c in range(n)) for r in range(n))


WINDOW_MANAGERS = ("openbox", "openbox-nograb", "none")
RC_XML = Path("/etc/xdg/openbox/rc.xml")


@contextmanager
def window_manager(display: str, wm: str) -> Iterator[None]:
    """openbox as installed, openbox without its Client-context mouse bindings (so it grabs no
    button on the browser window: no click-to-focus), or no window manager at all."""
    if wm == "none":
        yield
        return
    with tempfile.TemporaryDirectory(prefix="queens-openbox-") as folder:
        config = None
        if wm == "openbox-nograb":
            config = Path(folder) / "rc.xml"
            config.write_text(re.sub(r'<context name="Client">.*?</context>', "", RC_XML.read_text(),
                                     flags=re.S))
        with Openbox(display, config=config):
            yield


class Stage:
    """openbox on an Xvfb, one browser showing one practice page at a time, the terminal window."""

    def __init__(self, display: str, browser: str, terminal: str, managed: bool) -> None:
        self.display = display
        self.managed = managed
        self.kind = browser
        self.terminal = terminal
        self.browser: Chromium | Firefox | None = None

    def show(self, server: PracticeServer, n: int) -> None:
        """Show the page and move the window to OFFSET."""
        if self.browser is None:
            self.browser = (Chromium(self.display, position=OFFSET) if self.kind == "chromium"
                            else Firefox(self.display))
            self.browser.start(server.url)
        else:
            self.browser.open(server.url)
        server.wait_for_page(timeout=30)
        wait_for_board(self.display, n, chromium=self.browser, timeout=30)
        xdotool(self.display, "windowmove", "--sync", window_id(self.display, "Queens"), *map(str, OFFSET))
        time.sleep(0.3)

    def centres(self, n: int) -> dict[Cell, tuple[int, int]]:
        """Where each cell is on screen now (read again each run: a reload may move the page)."""
        from queens_autosolve.vision import read_board

        _, frame = wait_for_board(self.display, n, chromium=self.browser)
        reading = read_board(frame.rgb)
        return {(r, c): tuple(round(v) for v in frame.to_screen(*reading.centres[r][c]))  # type: ignore[misc]
                for r in range(n) for c in range(n)}

    def reset(self, server: PracticeServer) -> None:
        """Reload the page (F5 in the browser), then give the focus back to the terminal."""
        before = server.state().reports
        self.activate(window_id(self.display, "Queens"))
        xdotool(self.display, "key", "--clearmodifiers", "F5")
        server.wait_for(lambda s: s.reports > before and s.moves == 0, timeout=15)
        time.sleep(0.25)  # painted (the report comes from the drawn board) and settled
        self.activate(self.terminal)
        xdotool(self.display, "mousemove", "1700", "40")  # the pointer starts on the terminal
        time.sleep(0.05)

    def activate(self, window: str) -> None:
        """Focus `window` as a user would: through the window manager when there is one."""
        if self.managed:
            xdotool(self.display, "windowactivate", "--sync", window)
        else:
            xdotool(self.display, "windowfocus", "--sync", window)

    def stop(self) -> None:
        if self.browser is not None:
            self.browser.stop()


def click_solution(gui: object, points: list[tuple[int, int]], pace: Pacing) -> None:
    """Two clicks per queen cell (empty -> X -> queen), paced by `pace`; pyautogui as clicker.py."""
    for index, (x, y) in enumerate(points):
        settle = pace.first_settle if index == 0 and pace.first_settle else pace.settle
        if settle:
            gui.moveTo(x, y)  # type: ignore[attr-defined]
            time.sleep(settle)
        click_once(gui, x, y, pace.hold)
        if pace.in_cell:
            time.sleep(pace.in_cell)
        click_once(gui, x, y, pace.hold)
        if pace.between:
            time.sleep(pace.between)


def click_once(gui: object, x: int, y: int, hold: float) -> None:
    """One click as pyautogui makes it (move, press, release), the press held `hold` seconds."""
    if not hold:
        gui.click(x, y)  # type: ignore[attr-defined]
        return
    gui.mouseDown(x, y)  # type: ignore[attr-defined]
    time.sleep(hold)
    gui.mouseUp(x, y)  # type: ignore[attr-defined]


def judge(server: PracticeServer, want: tuple[str, ...], order: list[Cell], tally: Tally) -> None:
    """Compare the page's report with what was sent; count a loss and where it began."""
    try:
        state = server.wait_for(lambda s: s.states == want, timeout=1.5)
    except PracticeTimeout as exc:
        state = exc.state
    tally.runs += 1
    if state.states == want:
        return
    tally.lost += 1
    n = len(want)
    wrong = [(r, c) for r in range(n) for c in range(n) if state.states[r][c] != want[r][c]]
    queen_cells = [cell for cell in order if cell in wrong]
    if queen_cells:
        tally.first_wrong[order.index(queen_cells[0]) + 1] += 1
    for r, c in wrong:
        tally.kinds[f"{want[r][c]}->{state.states[r][c]}"] += 1


def measure_browser(browser: str, paces: list[Pacing], sizes: list[int], runs: int,
                    deadline: float, seed: int, wm: str) -> dict[str, Tally]:
    tallies = {pace.name: Tally() for pace in paces}
    with (Xvfb(size=SCREEN) as xvfb, window_manager(xvfb.display, wm),
          terminal_window(xvfb.display) as terminal):
        stage = Stage(xvfb.display, browser, terminal, managed=wm != "none")
        gui = load_pyautogui(xvfb.display)
        gui.FAILSAFE = True
        gui.PAUSE = 0.0
        try:
            for size_index, n in enumerate(sizes):
                puzzle = generate_puzzle(n, rng=random.Random(seed + n))
                queens = solution_cells(puzzle)
                want = expected_states(n, queens)
                order = sorted(queens)  # row by row, as a click plan goes
                with PracticeServer(puzzle, win_screen="none") as server:
                    stage.show(server, n)
                    share = runs // len(sizes) + (1 if size_index < runs % len(sizes) else 0)
                    for _ in range(share):
                        for pace in paces:
                            if time.monotonic() > deadline:
                                return tallies
                            stage.reset(server)
                            centres = stage.centres(n)
                            points = [centres[cell] for cell in order]
                            if pace.activate:
                                stage.activate(window_id(xvfb.display, "Queens"))
                            click_solution(gui, points, pace)
                            judge(server, want, order, tallies[pace.name])
        finally:
            stage.stop()
    return tallies


def print_table(results: dict[str, dict[str, Tally]], paces: list[Pacing]) -> None:
    browsers = list(results)
    header = "".join(f"{b + ' lost/runs':>20}" for b in browsers)
    print(f"{'pacing':34}{header}   #k x m: first wrong cell was the k-th clicked, m runs; kinds")
    for pace in paces:
        cells = []
        notes = []
        for browser in browsers:
            tally = results[browser][pace.name]
            cells.append(f"{tally.lost}/{tally.runs}".rjust(20))
            if tally.lost:
                where = ",".join(f"#{k}x{v}" for k, v in sorted(tally.first_wrong.items()))
                kinds = ",".join(f"{k}:{v}" for k, v in tally.kinds.most_common(3))
                notes.append(f"{browser[:2]} {where} {kinds}")
        print(f"{pace.name:34}" + "".join(cells) + "   " + "; ".join(notes))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="runs per condition and browser")
    parser.add_argument("--sizes", default="9,10,11")
    parser.add_argument("--browsers", default="chromium,firefox")
    parser.add_argument("--gaps", default=",".join(map(str, GAPS_MS)), help="gaps to try, ms")
    parser.add_argument("--only", default="", help="comma-separated condition name prefixes")
    parser.add_argument("--budget", type=float, default=240, help="seconds per browser at most")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--wm", choices=WINDOW_MANAGERS, default="openbox",
                        help="openbox; openbox-nograb: without its click-to-focus button grab; none")
    args = parser.parse_args(argv)
    paces = conditions(tuple(int(g) for g in args.gaps.split(",")))
    if args.only:
        prefixes = tuple(p.strip() for p in args.only.split(","))
        paces = [p for p in paces if p.name.startswith(prefixes)]
    sizes = [int(s) for s in args.sizes.split(",")]
    results: dict[str, dict[str, Tally]] = {}
    for browser in args.browsers.split(","):
        started = time.monotonic()
        results[browser] = measure_browser(browser, paces, sizes, args.runs,
                                           started + args.budget, args.seed, args.wm)
        print(f"# {browser}: {time.monotonic() - started:.0f} s, load {os.getloadavg()[0]:.1f}",
              file=sys.stderr, flush=True)
    print_table(results, paces)
    return 0


if __name__ == "__main__":
    sys.exit(main())
