"""Helpers for the live tests (the fixtures they use, xvfb, browser and the rest, are in
conftest.py): show a puzzle on the practice page, open other windows, drive xdotool.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from functools import partial

import numpy as np

from queens_autosolve.autosolve import onscreen
from queens_autosolve.capture import Desktop, Rect, WindowRecord
from queens_autosolve.pages.browser import Browser, Chromium, StageError, wait_for_board
from queens_autosolve.pages.practice import REGION_COLOURS, PageState, PracticeServer, PracticeTimeout
from queens_autosolve.solver.errors import QueensError
from queens_autosolve.solver.puzzle import Cell, Puzzle
from queens_autosolve.solver.search import search
from tests.desktops import Firefox
from tests.environment import OFFSET, require_tool
from tests.user_pointer import PyAutoGUI

# The browsers the live tests show pages in: both go to an address with `open`.
PageBrowser = Chromium | Firefox

# A 5x5 puzzle with one solution: (0,0) (1,2) (2,4) (3,1) (4,3).
FIVE = Puzzle.from_rows(["AAAAE", "ACCAE", "ACCEE", "DDCBB", "DDBBB"], name="five")
FIVE_ANSWER = [(0, 0), (1, 2), (2, 4), (3, 1), (4, 3)]

# Resolves once the page has been drawn twice more: what is on screen is what the page holds.
TWO_FRAMES = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"

@contextmanager
def practice_page(
    browser: PageBrowser,
    puzzle: Puzzle,
    *,
    dark: bool = False,
    locked: Sequence[Cell] | None = None,
    initial: Sequence[str] | None = None,
    whole_board: bool = True,
    **page_options: object,
) -> Iterator[PracticeServer]:
    """Serve `puzzle` on the practice page, show it in `browser` and wait until it is painted
    (vision reads an n x n board with certainty; with `whole_board` False, for boards the window
    cuts off, only a moment) and the page has reported its first state.
    `page_options` are PracticeServer's page options (win_screen="none", zoom=1.5, ...)."""
    options = dict(dark=dark, locked=locked, initial=initial, **page_options)
    with PracticeServer(puzzle, **options) as server:  # type: ignore[arg-type]
        try:
            _open_until_it_reports(browser, server)
            if whole_board:
                wait_for_board(browser.display, puzzle.n, chromium=browser)
            else:  # the window cuts the board off: its window is up and shows cells
                wait_for_window(browser.display, "Queens", contains=True)
                assert isinstance(browser, Chromium), "a board the window cuts off is shown in Chromium"
                wait_painted(browser)
                wait_until(lambda: shows_cells(browser.display), what="the board's cells on screen")
            yield server
        finally:
            browser.open("about:blank")  # no stale "Queens" window left for the next test


def _open_until_it_reports(browser: PageBrowser, server: PracticeServer) -> None:
    """Show the page and wait for its first report; once more if none comes. Setting up, not
    under test: Firefox, driven through its address bar on a busy machine, may change its title
    for an address it took only part of (seen once in a run of the suite on two workers)."""
    for again, timeout in enumerate((10, 20)):
        browser.open(server.url)
        try:
            server.wait_for(lambda state: state.reports > 0, timeout=timeout)
            return
        except PracticeTimeout:
            if again:
                raise


def photograph_page(
    browser: Chromium, server: PracticeServer, window: tuple[int, int], scale: float = 1.0
) -> bytes:
    """A PNG of the page `server` serves, shown in headless `browser` as a window of
    `window` CSS pixels at device scale `scale` would show it (set through DevTools, as
    --window-size and --force-device-scale-factor would, without starting a browser for it), once
    the page has reported its board and drawn it."""
    browser.open("about:blank")
    browser.call("Emulation.setDeviceMetricsOverride", width=window[0], height=window[1],
                 deviceScaleFactor=scale, mobile=False)
    browser.call("Emulation.setScrollbarsHidden", hidden=True)
    try:
        browser.call("Page.navigate", url=server.url)
        server.wait_for(lambda state: state.reports > 0, timeout=20)
        browser.call("Runtime.evaluate", expression=TWO_FRAMES, awaitPromise=True)
        return base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"])
    finally:  # the tab stays for the next page `open` shows: at the browser's own size again
        browser.call("Emulation.clearDeviceMetricsOverride")  # (scrollbars stay hidden)


def tab_urls(browser: Chromium) -> list[str]:
    """The addresses of the pages (tabs) `browser` holds."""
    assert browser.devtools is not None, "start() the browser first"
    targets = browser.devtools.call("Target.getTargets", {})["targetInfos"]
    return [t["url"] for t in targets if t["type"] == "page"]


@contextmanager
def xmessage(display: str, text: str, at: tuple[int, int] = (0, 0)) -> Iterator[subprocess.Popen[bytes]]:
    """A real non-browser window titled `text` with its top-left corner at `at`."""
    require_tool(shutil.which("xmessage") is not None, "xmessage (x11-utils)")
    process = subprocess.Popen(
        ["xmessage", "-title", text, "-geometry", f"+{at[0]}+{at[1]}", text],
        env={"DISPLAY": display, "PATH": "/usr/bin:/bin"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_window(display, text)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=5)


def xdotool(display: str, *args: str) -> None:
    """Run xdotool on `display` (move windows, press keys as a user would)."""
    require_tool(shutil.which("xdotool") is not None, "xdotool")
    env = {"DISPLAY": display, "PATH": "/usr/bin:/bin"}
    subprocess.run(["xdotool", *args], env=env, check=True, timeout=10)


def place_window(display: str, n: int, at: tuple[int, int] = OFFSET, title: str = "Queens") -> None:
    """Move the window titled `title` so its frame is at `at`, as a user drags it, and wait until
    the n x n board there reads with certainty again."""
    xdotool(display, "search", "--name", title, "windowmove", "--sync", str(at[0]), str(at[1]))
    window, _ = wait_for_board(display, n, title)
    assert window.rect.left >= at[0] and window.rect.top >= at[1], f"window not moved: {window.rect}"


def wait_for_page(browser: Chromium, expression: str, timeout: float) -> object:
    """Poll a JavaScript `expression` in the page `browser` shows until it is truthy; its value,
    or AssertionError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = browser.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {timeout:g} s waiting for {expression}")
        time.sleep(0.05)


def wait_until(condition: Callable[[], object], timeout: float = 10.0, what: str = "the condition") -> None:
    """Poll `condition` until it holds; AssertionError naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not hold within {timeout:g}s")
        time.sleep(0.05)


def shows_cells(display: str) -> bool:
    """Whether the Queens window on `display` shows a grid of cells, whole or cut off (a new
    window can report its frames drawn before the X server shows them)."""
    from queens_autosolve.capture import Desktop
    from queens_autosolve.vision import BoardCutOff, BoardNotFound, read_board

    with Desktop(display) as desktop:
        frame = desktop.grab_window(desktop.find_window())
    try:
        read_board(frame.rgb)
    except BoardCutOff:
        return True
    except BoardNotFound as exc:
        return "no grid of square cells" not in str(exc) and "blank" not in str(exc)
    return True


def post(server: PracticeServer, path: str, body: object, timeout: float = 60) -> tuple[int, dict]:
    """POST `body` as JSON to the practice server: the status and the JSON answer."""
    import http.client
    import json

    connection = http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def wait_painted(browser: Chromium) -> None:
    """Return once the page in `browser` has drawn two more frames: the screen shows what it holds."""
    browser.call("Runtime.evaluate", expression=TWO_FRAMES, awaitPromise=True)


# --- the practice page found by its palette colours, no vision: the page itself under test ---


PALETTE = np.array([int(colour[1:], 16) for colour in REGION_COLOURS])


@contextmanager
def shown(browser: Chromium, puzzle: Puzzle, **options: object) -> Iterator[PracticeServer]:
    """The page in `browser`, reported and painted; no vision needed (thin borders and zoom are
    what the reader may not take yet), the board is found by its palette colours."""
    with PracticeServer(puzzle, **options) as server:  # type: ignore[arg-type]
        browser.open(server.url)
        try:
            server.wait_for_page(timeout=20)
            wait_for_board_box(browser)
            yield server
        finally:
            browser.open("about:blank")


def wait_for_board_box(browser: Browser, timeout: float = 10.0) -> None:
    """Wait until the Queens window is up and shows a board."""
    wait_until(lambda: _shows_board(browser), timeout, what="the practice page's board on screen")


def _shows_board(browser: Browser) -> bool:
    try:
        return board_box(grab(browser)[0]) is not None
    except QueensError:  # no Queens window yet (the tab is still loading)
        return False


def grab(browser: Browser) -> tuple[np.ndarray, tuple[int, int]]:
    """The Queens window's pixels (RGB) and the screen position of its top-left pixel."""
    from queens_autosolve.capture import Desktop

    with Desktop(browser.display) as desktop:
        frame = desktop.grab_window(desktop.find_window("Queens"))
    return np.array(frame.rgb), (frame.left, frame.top)


def palette_mask(pixels: np.ndarray) -> np.ndarray:
    rgb = pixels.astype(np.int64)
    return np.isin(rgb[..., 0] << 16 | rgb[..., 1] << 8 | rgb[..., 2], PALETTE)


def board_box(pixels: np.ndarray) -> tuple[int, int, int, int] | None:
    """(x, y, width, height) of the main board: the first tall run of rows full of palette colour
    (the small example boards further down are narrower and come later)."""
    mask = palette_mask(pixels)
    rows = np.nonzero(mask.sum(axis=1) > 60)[0]
    if len(rows) == 0:
        return None
    gaps = np.nonzero(np.diff(rows) > 8)[0]
    top, bottom = rows[0], rows[gaps[0]] if len(gaps) else rows[-1]
    cols = np.nonzero(mask[top : bottom + 1].any(axis=0))[0]
    return int(cols[0]), int(top), int(cols[-1] - cols[0] + 1), int(bottom - top + 1)


def cell_centre(
    box: tuple[int, int, int, int], n: int, cell: tuple[int, int], at: tuple[int, int]
) -> tuple[int, int]:
    """The screen point at the centre of `cell` of the board at `box` in a window grabbed at `at`."""
    x, y, w, h = box
    return at[0] + int(x + (cell[1] + 0.5) * w / n), at[1] + int(y + (cell[0] + 0.5) * h / n)


def clicker(browser: Browser) -> PyAutoGUI:
    """pyautogui on the test's display, with no pause between events (as actuator/clicker.py)."""
    from tests.user_pointer import load_pyautogui

    gui = load_pyautogui(browser.display)
    gui.PAUSE = 0
    gui.FAILSAFE = False
    return gui


def one_more_press_counted(
    gui: PyAutoGUI, server: PracticeServer, cell: Cell, point: tuple[int, int]
) -> PageState:
    """Press the empty `cell` (at screen `point`) once and return the page's state once it shows
    the X mark there: presses reach the page in order, so every earlier one is counted by then."""
    gui.click(*point)
    return server.wait_for(lambda s: s.states[cell[0]][cell[1]] == "x", timeout=5)


# --- a slow run changed under: the window or the page changes while the tool clicks ---------

DELAY = "0.3"  # s between clicks: the run lasts seconds, as a slow page's rounds do
CHANGE_AFTER = 4  # page moves before the change is made
QUIET = 0.6  # s without a report from the page: it has reported every click it took


@dataclass(frozen=True)
class Changed:
    """A run changed under: the tool's exit status and output, the page's state at the end,
    the clicks the tool says it made, and the cells it meant to click."""

    returncode: int
    stderr: str
    state: PageState
    clicks: int
    meant: frozenset[tuple[int, int]]


def start_run(display: str, *args: str, delay: str = DELAY) -> subprocess.Popen[str]:
    """`queens-autosolve run` (`delay` s between clicks: slow) on `display`, as from a terminal."""
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env["DISPLAY"] = display
    return subprocess.Popen([sys.executable, "-m", "queens_autosolve",
                             "run", "--delay", delay, *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run_changed_under(
    browser: PageBrowser, display: str, puzzle: Puzzle,
    change: Callable[[PracticeServer, WindowRecord, Rect], AbstractContextManager[object]],
) -> Changed:
    """Show `puzzle`, start a slow run, and once the page has counted CHANGE_AFTER moves, make
    `change` (a context: it is undone on leaving) and wait for the run to end."""
    with practice_page(browser, puzzle, win_screen="none") as server, Desktop(display) as desktop:
        window = desktop.find_window()
        run = start_run(display)
        try:
            wait_until(lambda: server.state().moves >= CHANGE_AFTER, timeout=30, what="the first clicks")
            with change(server, window, board_rect(desktop, window)):
                out, err = run.communicate(timeout=60)
                wait_until(lambda: time.time() - server.state().updated_at > QUIET, timeout=10,
                           what="the page reporting every click made")
                state = server.state()
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
    print(out, err)
    answer = search(puzzle).solution
    assert answer is not None, "the puzzle has no solution"
    meant = frozenset(answer.queens)
    return Changed(run.returncode, err, state, clicks_made(err), meant)


def board_rect(desktop: Desktop, window: WindowRecord) -> Rect:

    frame = onscreen.grab(desktop, window)
    return onscreen.board_on_screen(frame, onscreen.read(frame))


def clicks_made(stderr: str) -> int:
    """The clicks the tool says it made before it stopped."""
    found = re.search(r"stopped after (\d+) of \d+ clicks", stderr)
    return int(found.group(1)) if found else -1


def marked_cells(state: PageState) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(state.states) for c, s in enumerate(row) if s in "xQ"}


def assert_stopped_at_once(done: Changed, says: str) -> None:
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "nothing more was clicked" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert CHANGE_AFTER <= done.clicks < 2 * len(done.meant), done.stderr
    assert done.state.moves == done.clicks, (done.state.moves, done.stderr)
    assert marked_cells(done.state) <= done.meant, done.state.states


@contextmanager
def moved_by_a_cell(display: str, window: WindowRecord, board: Rect, n: int) -> Iterator[None]:
    """The window moved right and down by about a cell (a window manager places it as it likes),
    then back where it was."""
    pitch = board.width // n
    with Desktop(display) as desktop:
        xdotool(display, "windowmove", "--relative", str(window.wid), str(pitch), str(pitch))
        try:
            wait_until(lambda: rect_now(desktop, window).left > window.rect.left, what="the window moved")
            yield
        finally:
            move_window_to(desktop, window, window.rect)


def rect_now(desktop: Desktop, window: WindowRecord) -> Rect:
    """Where `window` is now (AssertionError if it closed)."""
    now = desktop.refresh(window)
    assert now is not None, f"the window {window.title!r} closed"
    return now.rect


def has_moved_from(desktop: Desktop, window: WindowRecord, was: Rect) -> bool:
    return rect_now(desktop, window) != was


def move_window_to(desktop: Desktop, window: WindowRecord, rect: Rect) -> None:
    """Move `window` until its client area is at `rect`'s corner. xdotool moves a window that
    openbox manages by more than it is asked (it counts the frame's decorations again: Firefox
    went (+2, +40) further on every move): what it adds is measured, then taken off."""
    drift = (0, 0)
    for _ in range(4):
        now = rect_now(desktop, window)
        if (now.left, now.top) == (rect.left, rect.top):
            return
        asked = (rect.left - now.left - drift[0], rect.top - now.top - drift[1])
        xdotool(desktop.name, "windowmove", "--relative", str(window.wid), str(asked[0]), str(asked[1]))
        wait_until(partial(has_moved_from, desktop, window, now), timeout=2, what="the window moving back")
        moved = rect_now(desktop, window)
        drift = (moved.left - now.left - asked[0], moved.top - now.top - asked[1])
    raise AssertionError(f"the window could not be put back at {rect}: it is at {desktop.refresh(window)}")


# --- the pointer left resting on the board, as after pressing the page's Start button -------

TOOLTIP_MS = 400  # the practice page's tooltip comes this long after the pointer stops on a cell


@dataclass(frozen=True)
class Rested:
    """A run started with the pointer resting on the board: its exit status and output, the
    page's state, the tool's report (--json) and where the pointer was before and after."""

    returncode: int
    report: dict[str, object]
    stderr: str
    state: PageState
    pointer_before: tuple[int, int]
    pointer_after: tuple[int, int]


def run_with_the_pointer_on_the_board(
    browser: PageBrowser, display: str, puzzle: Puzzle, **page_options: object
) -> Rested:
    """Show `puzzle` (hover tint and tooltip on, and `page_options`), rest the pointer on the
    middle cell until its tooltip is up, then run the tool as from a terminal."""
    import json


    with (practice_page(browser, puzzle, tooltip_ms=TOOLTIP_MS, **page_options) as server,  # type: ignore[arg-type]
          Desktop(display) as desktop):
        frame = onscreen.grab(desktop, desktop.find_window())
        reading = onscreen.read(frame)
        middle = reading.centres[puzzle.n // 2][puzzle.n // 2]
        x, y = (round(v) for v in frame.to_screen(*middle))
        xdotool(display, "mousemove", str(x), str(y))
        time.sleep(2 * TOOLTIP_MS / 1000)  # the tooltip is up
        run = start_run(display, "--json", delay="0")
        out, err = run.communicate(timeout=60)
        state = server.wait_for(solved=True, timeout=5) if run.returncode == 0 else server.state()
        after = desktop.pointer()
    print(out, err)
    report = json.loads(out) if out.strip() else {}
    return Rested(run.returncode, report, err, state, (x, y), (after.x, after.y))


def assert_solved_and_pointer_back(done: Rested, *, rounds: int = 3) -> None:
    """Solved in at most `rounds` rounds, nothing refused, the pointer put back."""
    assert done.returncode == 0 and done.state.solved, done.stderr or done.report
    made = done.report["rounds"]
    assert isinstance(made, list) and len(made) <= rounds, made
    assert done.pointer_after == done.pointer_before


def _titled(name: str, title: str, contains: bool) -> bool:
    """Whether a window named `name` is the one titled `title` (with `contains`: whose title
    contains it, in any case, as the window lister matches)."""
    return title.lower() in name.lower() if contains else name == title


def wait_for_window(display: str, title: str, timeout: float = 10.0, contains: bool = False) -> None:
    """Wait until a viewable window is titled `title` (with `contains`, a title containing it)."""
    deadline = time.monotonic() + timeout
    with Desktop(display) as desktop:
        while time.monotonic() < deadline:
            if any(_titled(r.title, title, contains) and r.viewable for r in desktop.windows(title)):
                return
            time.sleep(0.05)
    raise StageError(f"no window titled {title!r} appeared within {timeout:g}s")
