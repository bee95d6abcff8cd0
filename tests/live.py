"""Shared fixtures for the live tests: one Xvfb and one Chromium per test module, real windows.

A test module imports the fixtures it uses (``from live import xvfb, browser``); each module gets
its own display, so modules cannot disturb each other's windows. Without Xvfb or Chromium the
tests skip, except in CI (`require_tool`), where that is a failure.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest
from conftest import require_tool

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
) -> Iterator[object]:
    """Serve `puzzle` on the practice page, show it in `browser` and wait until it is painted
    (vision reads an n x n board with certainty) and the page has reported its first state."""
    from autosolve.practice.server import PracticeServer

    with PracticeServer(puzzle, dark=dark, locked=locked, initial=initial) as server:
        browser.open(server.url)
        try:
            server.wait_for(lambda state: state.reports > 0, timeout=20)
            wait_for_board(browser.display, puzzle.n, chromium=browser)
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


def _wait_for_title(display: str, title: str, timeout: float = 10.0) -> None:
    from capture import Desktop

    deadline = time.monotonic() + timeout
    with Desktop(display) as desktop:
        while time.monotonic() < deadline:
            if any(r.title == title and r.viewable for r in desktop.windows(title)):
                return
            time.sleep(0.05)
    raise AssertionError(f"window {title!r} did not appear")
