"""The main job in one straight line: capture -> read -> solve -> plan -> click -> verify.

Each stage is a function that can be called on its own (the tests do, to stop between stages);
`run` calls them in order, times each one and refuses to click unless the reading is certain,
the solution unique, and the window where it was when it was read with nothing over the board.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from actuator.clicker import click_plan, load_pyautogui
from actuator.errors import UnsafeToClick
from actuator.plan import ClickPlan, plan_clicks
from actuator.safety import check_certain, check_not_covered, check_unique, check_window_unchanged
from capture import BoardNotVisibleError, Desktop, Frame, Rect, WindowRecord, load_image
from solver.puzzle import Cell, Puzzle, Solution, cell_name
from solver.search import search
from vision import BoardNotFound, BoardReading, read_board

# Stages in the order they run; the timing breakdown is printed in this order.
STAGES = ("connect", "find window", "grab", "read", "solve", "plan", "click", "verify")
# The stages between "window found" and "last click" (the 150 ms target).
TO_LAST_CLICK = ("grab", "read", "solve", "plan", "click")


@dataclass(frozen=True)
class Source:
    """Where the board comes from: a window by title (default), the whole screen, or a file."""

    window: str | None = None
    screen: bool = False
    image: Path | None = None
    display: str | None = None

    @property
    def live(self) -> bool:
        return self.image is None


@dataclass(frozen=True)
class Options:
    """How to run: `delay` seconds between clicks, `verify_timeout` for the page to repaint."""

    dry_run: bool = False
    delay: float = 0.0
    verify: bool = True
    verify_timeout: float = 2.0


@dataclass(frozen=True)
class Solved:
    """The puzzle read off the board and what the solver made of it (count stops at 2)."""

    puzzle: Puzzle
    solution: Solution | None
    count: int
    nodes: int

    @property
    def unique(self) -> bool:
        return self.count == 1


@dataclass(frozen=True)
class Verification:
    """The board read again after clicking: does it show the solution, and if not what differs."""

    solved: bool
    differences: tuple[str, ...]
    attempts: int
    reading: BoardReading | None = None


@dataclass
class Stopwatch:
    """Seconds per stage, in the order the stages ran."""

    seconds: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start


@dataclass(frozen=True)
class RunResult:
    """Everything one run found and did."""

    frame: Frame
    reading: BoardReading
    solved: Solved
    plan: ClickPlan | None
    clicks: int
    verification: Verification | None
    timings: dict[str, float]
    dry_run: bool

    @property
    def to_last_click(self) -> float:
        return sum(self.timings.get(name, 0.0) for name in TO_LAST_CLICK)

    @property
    def ok(self) -> bool:
        """Dry run: a unique solution was found. Live: the board now shows it (or was not checked)."""
        if self.dry_run:
            return self.solved.unique
        return self.verification is None or self.verification.solved


# --- the stages ----------------------------------------------------------------------------


def find_window(desktop: Desktop, title: str | None = None) -> WindowRecord:
    """The browser window showing the game (default: a browser window titled "Queens")."""
    return desktop.find_window(title)


def grab(desktop: Desktop, window: WindowRecord | None) -> Frame:
    """The window's pixels (or the whole screen's when `window` is None)."""
    return desktop.grab_screen() if window is None else desktop.grab_window(window)


def read(frame: Frame) -> BoardReading:
    """The board in `frame`; a window without a visible board is a BoardNotVisibleError."""
    try:
        return read_board(frame.pixels)
    except BoardNotFound as exc:
        if frame.source == "image":
            raise
        where = f"the window {frame.window.title!r}" if frame.window else "the screen"
        raise BoardNotVisibleError(
            f"{where} shows no Queens board ({exc}); press Start or close the tutorial, bring the "
            "Queens tab to the front and scroll the whole board into view; nothing was clicked"
        ) from None


def solve(reading: BoardReading) -> Solved:
    """Solve the board as read, counting answers up to 2 to know whether it is unique."""
    puzzle = reading.puzzle()
    puzzle.validate()
    result = search(puzzle, limit=2)
    return Solved(puzzle, result.solution, result.count, result.nodes)


def plan(reading: BoardReading, solved: Solved, frame: Frame) -> ClickPlan:
    """The clicks from what the board shows to the solution, at screen points."""
    if solved.solution is None:
        raise UnsafeToClick("the board as read has no solution; nothing to plan")
    return plan_clicks(reading, solved.solution, frame)


def click(desktop: Desktop, frame: Frame, clicks: ClickPlan, *, delay: float = 0.0) -> int:
    """Make the clicks, after checking (as late as possible) that the window has not moved and
    that no other window covers the board."""
    if not frame.on_screen:
        raise UnsafeToClick("the board came from an image file; there is nothing on screen to click")

    def window_still_there() -> None:
        if frame.window is not None:
            check_window_unchanged(frame.window, desktop.refresh(frame.window))
            check_not_covered(clicks.box, desktop.windows_above(frame.window))

    return click_plan(clicks, display=desktop.name, delay=delay, before_first=window_still_there)


def verify(
    desktop: Desktop,
    frame: Frame,
    solution: Solution,
    *,
    board: tuple[float, float, float, float] | None = None,
    timeout: float = 2.0,
) -> Verification:
    """Read the board again until it shows `solution` or `timeout` passes (the page repaints).

    With `board` (the board's screen box, as planned) only the board and a margin are grabbed:
    a smaller image reads faster, and the page around the board does not matter here.
    """
    deadline = time.monotonic() + timeout
    attempts = 0
    differences: tuple[str, ...] = ()
    reading = None
    area = _around(board, frame.screen_rect) if board is not None else None
    while True:
        attempts += 1
        try:
            if area is None:
                again = grab(desktop, frame.window)
            else:
                again = desktop.grab(area, source=frame.source, window=frame.window)
            reading = read(again)
            differences = board_differences(reading, solution.queens)
        except BoardNotVisibleError as exc:
            reading, differences = None, (f"board no longer visible: {exc}",)
        if not differences:
            return Verification(True, (), attempts, reading)
        if time.monotonic() >= deadline:
            return Verification(False, differences, attempts, reading)
        time.sleep(0.01)


def _around(box: tuple[float, float, float, float], within: Rect) -> Rect:
    """`box` grown by a tenth of its size on every side (vision wants some page around the
    board), kept within `within`."""
    x, y, w, h = box
    margin = max(w, h) / 10
    grown = Rect(int(x - margin), int(y - margin), int(w + 2 * margin) + 1, int(h + 2 * margin) + 1)
    return grown.intersection(within)


def board_differences(reading: BoardReading, queens: tuple[Cell, ...] | list[Cell]) -> tuple[str, ...]:
    """How the board differs from the solution `queens`, one sentence per cell (empty: it matches)."""
    wanted = set(queens)
    shown = set(reading.queens())
    out = []
    for r, c in sorted(wanted | shown):
        if (r, c) in wanted and (r, c) not in shown:
            state = reading.states[r][c].value if r < reading.n and c < reading.n else "off board"
            out.append(f"{cell_name((r, c))} should hold a queen but shows {state!r}")
        elif (r, c) not in wanted:
            out.append(f"{cell_name((r, c))} holds a queen that is not in the solution")
    return tuple(out)


# --- the whole run -------------------------------------------------------------------------


def run(source: Source, options: Options | None = None) -> RunResult:
    """Capture, read, solve, plan, click and verify; the safety checks stop it before clicking."""
    options = options or Options()
    if not source.live:
        return _run_offline(source)
    watch = Stopwatch()
    with watch.stage("connect"):
        desktop = Desktop(source.display)
    with desktop:
        with watch.stage("connect"):
            desktop.monitors()  # opens mss now, not inside the timed grab
            if not options.dry_run:
                load_pyautogui(desktop.name)  # its import takes tens of ms: not inside the click stage
        window = None
        if not source.screen:
            with watch.stage("find window"):
                window = find_window(desktop, source.window)
        with watch.stage("grab"):
            frame = grab(desktop, window)
        with watch.stage("read"):
            reading = read(frame)
        with watch.stage("solve"):
            solved = solve(reading)
        if options.dry_run:
            return _dry_result(frame, reading, solved, watch)
        check_certain(reading)
        check_unique(solved.count)
        with watch.stage("plan"):
            clicks = plan(reading, solved, frame)
        with watch.stage("click"):
            made = click(desktop, frame, clicks, delay=options.delay)
        verification = None
        if options.verify and solved.solution is not None:
            with watch.stage("verify"):
                verification = verify(desktop, frame, solved.solution, board=clicks.box,
                                      timeout=options.verify_timeout)
    return RunResult(frame, reading, solved, clicks, made, verification, dict(watch.seconds), False)


def _dry_result(frame: Frame, reading: BoardReading, solved: Solved, watch: Stopwatch) -> RunResult:
    clicks = None
    if solved.solution is not None:
        with watch.stage("plan"):
            clicks = plan(reading, solved, frame)
    return RunResult(frame, reading, solved, clicks, 0, None, dict(watch.seconds), True)


def _run_offline(source: Source) -> RunResult:
    """--image: read and solve a screenshot; planning shows the clicks, nothing is clicked."""
    watch = Stopwatch()
    assert source.image is not None
    with watch.stage("grab"):
        frame = load_image(source.image)
    with watch.stage("read"):
        reading = read(frame)
    with watch.stage("solve"):
        solved = solve(reading)
    return _dry_result(frame, reading, solved, watch)
