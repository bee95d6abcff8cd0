"""Shared test fixtures: the live fixtures, found by name: one Xvfb and one Chromium for the
whole run, real windows.

Starting a display and a browser takes about two seconds, so the modules share them: each test
shows its own page (`Chromium.open`, which closes every other tab) and puts back what it
moves (windows, zoom). Conditions that need a display or a browser of their own (openbox,
Firefox, two X screens, a scale factor, a small window) have their own fixtures or start their
own. Without Xvfb or Chromium the live tests skip, except in CI (`require_tool`), where that is a
failure. Where the data is and which tools the machine has: environment.py; the helpers the
live tests call (practice_page, xdotool, ...): live.py.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from queens_autosolve.pages.browser import Chromium, Xvfb
from tests.click_recorder import ClickRecorder
from tests.desktops import Firefox, Openbox
from tests.environment import (
    DESKTOP,
    OFFSET,
    have_chromium,
    have_firefox,
    have_openbox,
    have_xvfb,
    require_tool,
)
from tests.live import wait_for_window

# `make test` runs the suite on pytest-xdist workers, a module at a time (--dist loadfile): a
# module's tests share one worker, so its module-scoped displays and browsers start once. Not
# --dist loadgroup: on pytest 9.2 it ignores xdist_group marks (pytest-xdist issue #1386), and
# the openbox display with its Firefox was started on both workers.


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C as from a terminal, in this process and every program a test starts: a run in the
    background (`make test &`, a CI runner's shell) inherits SIGINT ignored, Python then leaves it
    ignored in every child, and a test's Ctrl-C to `practice` never reached it."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


# A test that takes a display or a browser is live (marked e2e), whatever its module: `make check`
# runs the rest, the fast inner loop, and `make test` runs everything.
LIVE_FIXTURES = frozenset({
    "xvfb", "shared_browser", "browser", "openbox_xvfb", "openbox_chromium", "openbox_firefox",
    "bare_firefox", "two_screens", "sent_clicks", "click_recorder",
})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if LIVE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.e2e)
    items[:] = longest_modules_first(items)


# What a live test (or the wheel's install) costs against an offline one, for the order below: it
# waits for browsers, displays or pip (seconds); an offline one mostly takes a fraction of a second.
LIVE_WEIGHT = 50


def longest_modules_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The tests, each module's in its own order, the modules by their expected cost, the
    costliest first. `make test` hands out whole modules (--dist loadfile, with xdist's own
    ordering by test count turned off): a long live module started last keeps the other workers
    idle until it ends, one started first runs beside the rest."""
    cost: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::")[0]
        slow = item.get_closest_marker("e2e") or item.get_closest_marker("wheel")
        cost[module] = cost.get(module, 0) + (LIVE_WEIGHT if slow else 1)
    return sorted(items, key=lambda item: -cost[item.nodeid.split("::")[0]])


# --- a bare display and Chromium on it, shared by every module ---------------------------------


@pytest.fixture(scope="session")
def xvfb() -> Iterator[Xvfb]:
    """One X display for the run (1920x1080, no window manager)."""
    require_tool(have_xvfb(), "Xvfb")
    with Xvfb() as server:
        yield server


@pytest.fixture(scope="session")
def shared_browser(xvfb: Xvfb) -> Iterator[Chromium]:
    """One real Chromium window (1200x1040 at 0,0) on the shared display, for the whole run."""
    require_tool(have_chromium(), "Chromium")
    with Chromium(xvfb.display).start("about:blank") as chromium:
        yield chromium


@pytest.fixture
def browser(shared_browser: Chromium) -> Iterator[Chromium]:
    """The shared Chromium, for one test: a test shows its page with `Chromium.open` (which
    closes other tabs) and whatever it leaves is replaced by about:blank after it."""
    from tests.live import tab_urls

    yield shared_browser
    if shared_browser.process is not None and tab_urls(shared_browser) != ["about:blank"]:
        shared_browser.open("about:blank")


@pytest.fixture(scope="session")
def headless() -> Iterator[Chromium]:
    """A headless Chromium (900x1100 CSS pixels, no display: the offline page tests), driven over
    DevTools, one for the run on each worker (the practice and game-page modules all use it; a
    start is about a CPU-second). A test shows its page in it (`Chromium.open` or a navigation)
    and puts back what else it changes (the game page's device metrics)."""
    require_tool(have_chromium(), "Chromium")
    with Chromium("", size=(900, 1100), headless=True, extra_args=("--hide-scrollbars",)) as chromium:
        yield chromium.start("about:blank")


# --- conditions we did not design: a window manager, Firefox, two X screens -----------------


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
    with Chromium(openbox_xvfb.display, position=OFFSET).start("about:blank") as chromium:
        yield chromium


@pytest.fixture(scope="module")
def openbox_firefox(openbox_xvfb: Xvfb) -> Iterator[Firefox]:
    """Firefox under openbox (fresh profile); each page it shows is typed into its address bar."""
    require_tool(have_firefox(), "Firefox")
    with Firefox(openbox_xvfb.display, in_place=True).start("about:blank") as firefox:
        wait_for_window(openbox_xvfb.display, "Mozilla Firefox", timeout=30, contains=True)
        yield firefox


@pytest.fixture(scope="module")
def bare_firefox() -> Iterator[Firefox]:
    """Firefox on a display of its own with no window manager, each page typed into its address
    bar: clicks reach it as sent. Under openbox, on a loaded machine, a double click with no gap
    lost one of its clicks 8 times in 110 (openbox's click-to-focus takes every press first); on
    a bare display none in 85."""
    require_tool(have_xvfb(), "Xvfb")
    require_tool(have_firefox() and shutil.which("xdotool") is not None, "Firefox and xdotool")
    with Xvfb() as server, Firefox(server.display, in_place=True).start("about:blank") as firefox:
        wait_for_window(server.display, "Mozilla Firefox", timeout=30, contains=True)
        yield firefox


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
    with Chromium(two_screens.screen(1)).start("about:blank") as chromium:
        yield chromium


@dataclass(frozen=True)
class SentClick:
    """One press or release of a mouse button that this process sent through the X11 desktop
    (`X11Desktop._press`, where the clicker's clicks and the wheel's notches end)."""

    name: str  # "press" or "release"
    x: int
    y: int
    button: object
    at: float  # time.perf_counter() when it was sent


@pytest.fixture
def sent_clicks(xvfb: Xvfb, monkeypatch: pytest.MonkeyPatch) -> list[SentClick]:
    """Every button press and release this process sends through the X11 desktop's XTest
    presses, recorded (and still sent) with where the pointer was put for it. A test that says
    nothing was clicked checks it here, where a click would start, with no waiting."""
    from queens_autosolve.capture.x11 import X11Desktop

    sent: list[SentClick] = []
    real = X11Desktop._press

    def recorded(desktop: X11Desktop, button: int) -> None:
        x, y = (desktop.placed.x, desktop.placed.y) if desktop.placed is not None else (-1, -1)
        sent.append(SentClick("press", x, y, button, time.perf_counter()))
        sent.append(SentClick("release", x, y, button, time.perf_counter()))
        real(desktop, button)

    monkeypatch.setattr(X11Desktop, "_press", recorded)
    return sent


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
            assert process.stdout is not None and process.stderr is not None  # both piped
            ready = process.stdout.readline()
            assert ready.strip() == "ready", f"the click recorder did not start: {process.stderr.read()}"
            yield recorder
        finally:
            process.terminate()
            process.wait(timeout=5)
