"""Shared fixtures for the live tests: one Xvfb and one Chromium per test module, real windows.

A test module imports the fixtures it uses (``from live import xvfb, browser``); each module gets
its own display, so modules cannot disturb each other's windows. Without Xvfb or Chromium the
tests skip, except in CI (`require_tool`), where that is a failure.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import require_tool
from desktops import FIREFOX_NAMES, Firefox, Openbox

from autosolve.demo import CHROMIUM_NAMES, Chromium, Xvfb, wait_for_board
from solver.puzzle import Cell, Puzzle


def have_xvfb() -> bool:
    return shutil.which("Xvfb") is not None


def have_chromium() -> bool:
    return any(shutil.which(name) for name in CHROMIUM_NAMES)


@pytest.fixture(scope="module")
def xvfb() -> Iterator[Xvfb]:
    """A fresh X display for this module."""
    require_tool(have_xvfb(), "Xvfb")
    with Xvfb() as server:
        yield server


@pytest.fixture(scope="module")
def browser(xvfb: Xvfb) -> Iterator[Chromium]:
    """One real Chromium window (1200x1040 at 0,0) on this module's display."""
    require_tool(have_chromium(), "Chromium")
    chromium = Chromium(xvfb.display).start("about:blank")
    chromium.devtools_port()  # wait until it is up
    try:
        yield chromium
    finally:
        chromium.stop()


@contextmanager
def practice_page(
    browser: Chromium,
    puzzle: Puzzle,
    *,
    dark: bool = False,
    locked: Sequence[Cell] | None = None,
    initial: Sequence[str] | None = None,
    whole_board: bool = True,
    **page_options: object,
) -> Iterator[object]:
    """Serve `puzzle` on the practice page, show it in `browser` and wait until it is painted
    (vision reads an n x n board with certainty; with `whole_board` False, for boards the window
    cuts off, only a moment) and the page has reported its first state.
    `page_options` are PracticeServer's page options (win_screen="none", zoom=1.5, ...)."""
    from autosolve.practice.server import PracticeServer

    options = dict(dark=dark, locked=locked, initial=initial, **page_options)
    with PracticeServer(puzzle, **options) as server:  # type: ignore[arg-type]
        browser.open(server.url)
        try:
            server.wait_for(lambda state: state.reports > 0, timeout=20)
            if whole_board:
                wait_for_board(browser.display, puzzle.n, chromium=browser)
            else:
                time.sleep(0.5)  # painted
            yield server
        finally:
            browser.open("about:blank")  # no stale "Queens" window left for the next test


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
        _wait_for_title(display, text)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=5)


def xdotool(display: str, *args: str) -> None:
    """Run xdotool on `display` (move windows, press keys as a user would)."""
    require_tool(shutil.which("xdotool") is not None, "xdotool")
    env = {"DISPLAY": display, "PATH": "/usr/bin:/bin"}
    subprocess.run(["xdotool", *args], env=env, check=True, timeout=10)


def _wait_for_title(display: str, title: str, timeout: float = 10.0, contains: bool = False) -> None:
    from capture import Desktop

    deadline = time.monotonic() + timeout
    with Desktop(display) as desktop:
        while time.monotonic() < deadline:
            if any((contains or r.title == title) and r.viewable for r in desktop.windows(title)):
                return
            time.sleep(0.05)
    raise AssertionError(f"window {title!r} did not appear")


# --- conditions we did not design: a window manager, Firefox, two X screens -----------------

DESKTOP = (1920, 1200)  # room for the 1200x1040 window below a title bar at OFFSET
OFFSET = (300, 120)  # where a decorated browser window is moved, as on a real desktop


def have_openbox() -> bool:
    return shutil.which("openbox") is not None and shutil.which("xdotool") is not None


def have_firefox() -> bool:
    return any(shutil.which(name) for name in FIREFOX_NAMES)


@pytest.fixture(scope="module")
def openbox_xvfb() -> Iterator[Xvfb]:
    """A display of its own with openbox managing it: decorated windows, click-to-focus (openbox
    grabs the left button on every client window), placement by the window manager."""
    require_tool(have_xvfb(), "Xvfb")
    require_tool(have_openbox(), "openbox and xdotool")
    with Xvfb(size=DESKTOP) as server, Openbox(server.display):
        yield server


@pytest.fixture(scope="module")
def openbox_chromium(openbox_xvfb: Xvfb) -> Iterator[Chromium]:
    """Chromium under openbox, its decorated window asked for at OFFSET."""
    require_tool(have_chromium(), "Chromium")
    chromium = Chromium(openbox_xvfb.display, position=OFFSET).start("about:blank")
    chromium.devtools_port()
    try:
        yield chromium
    finally:
        chromium.stop()


@pytest.fixture(scope="module")
def openbox_firefox(openbox_xvfb: Xvfb) -> Iterator[Firefox]:
    """Firefox under openbox (fresh profile); each page it shows restarts it (about 3 s)."""
    require_tool(have_firefox(), "Firefox")
    firefox = Firefox(openbox_xvfb.display).start("about:blank")
    try:
        _wait_for_title(openbox_xvfb.display, "Mozilla Firefox", timeout=30, contains=True)
        yield firefox
    finally:
        firefox.stop()


def place_window(display: str, n: int, at: tuple[int, int] = OFFSET, title: str = "Queens") -> None:
    """Move the window titled `title` so its frame is at `at`, as a user drags it, and wait until
    the n x n board there reads with certainty again."""
    xdotool(display, "search", "--name", title, "windowmove", "--sync", str(at[0]), str(at[1]))
    window, _ = wait_for_board(display, n, title)
    assert window.rect.left >= at[0] and window.rect.top >= at[1], f"window not moved: {window.rect}"


@pytest.fixture(scope="module")
def two_screens() -> Iterator[Xvfb]:
    """A display with two X screens (:N.0 and :N.1), no window manager."""
    require_tool(have_xvfb(), "Xvfb")
    with Xvfb(screens=2) as server:
        yield server


@pytest.fixture(scope="module")
def screen1_chromium(two_screens: Xvfb) -> Iterator[Chromium]:
    """Chromium on the second X screen (DISPLAY=:N.1)."""
    require_tool(have_chromium(), "Chromium")
    chromium = Chromium(two_screens.screen(1)).start("about:blank")
    chromium.devtools_port()
    try:
        yield chromium
    finally:
        chromium.stop()


@dataclass
class ClickRecorder:
    """A window covering one X screen that writes down every button press it gets."""

    display: str
    path: Path

    def presses(self) -> list[tuple[int, int, int]]:
        """(x, y, button) of each press so far, in root coordinates of its screen."""
        lines = self.path.read_text().split()
        return [tuple(map(int, lines[i:i + 3])) for i in range(0, len(lines), 3)]  # type: ignore[misc]


@pytest.fixture
def click_recorder(two_screens: Xvfb) -> Iterator[ClickRecorder]:
    """The click recorder on screen 0 of `two_screens`: a test asserts no click ever reached it."""
    with tempfile.TemporaryDirectory(prefix="queens-recorder-") as folder:
        recorder = ClickRecorder(two_screens.screen(0), Path(folder) / "presses.txt")
        recorder.path.touch()
        script = Path(__file__).with_name("click_recorder.py")
        process = subprocess.Popen([sys.executable, str(script), recorder.display, str(recorder.path)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            ready = process.stdout.readline() if process.stdout else ""
            assert ready.strip() == "ready", f"the click recorder did not start: {process.stderr.read()}"
            yield recorder
        finally:
            process.terminate()
            process.wait(timeout=5)
