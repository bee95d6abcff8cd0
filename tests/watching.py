"""Harness for `watch` against the practice page's start screen, for the live tests and
scripts/bench_live.py: `watch` as a user starts it from a terminal (on an X11 display, or in a
Wayland session), its lines collected as they come, and the page's Start and Next puzzle pressed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from queens_autosolve.capture import open_desktop
from queens_autosolve.pages.browser import Chromium
from queens_autosolve.pages.practice import PageState, PracticeServer
from queens_autosolve.solver.errors import QueensError

ROOT = Path(__file__).resolve().parent.parent
START_BLUE = (10, 102, 194)  # the Start button's colour (style.css, button.start)


@dataclass
class WatchProcess:
    """`queens-autosolve watch ARGS` on X11 display `display`, or in the Wayland session whose
    variables are `session` (then from its terminal: no DISPLAY), stdout and stderr lines
    gathered by threads."""

    display: str
    args: tuple[str, ...] = ()
    session: Mapping[str, str] | None = None
    out: list[str] = field(default_factory=list)
    err: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK")}
        env.update(self.session if self.session is not None else {"DISPLAY": self.display})
        self.process = subprocess.Popen(
            [sys.executable, "-m", "queens_autosolve", "watch", *self.args], env=env, cwd=ROOT, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=_gather, args=(stream, lines), daemon=True).start()

    def wait_for_line(self, text: str, *, stream: str = "out", since: int = 0, timeout: float = 20.0) -> str:
        """The first line of `stream` ("out" or "err") holding `text`, from its line `since` on;
        AssertionError after `timeout` s, showing what came."""
        lines = self.out if stream == "out" else self.err
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in lines[since:]:
                if text in line:
                    return line
            if self.process.poll() is not None and time.monotonic() > deadline - timeout + 1:
                time.sleep(0.2)  # let the threads take the last lines
                found = [line for line in lines[since:] if text in line]
                if found:
                    return found[0]
                break
            time.sleep(0.02)
        raise AssertionError(f"watch wrote no line with {text!r}; out: {self.out}; err: {self.err}")

    def interrupt(self, timeout: float = 20.0) -> int:
        """Ctrl-C, as in a terminal; the exit status."""
        self.process.send_signal(signal.SIGINT)
        return self.wait(timeout)

    def wait(self, timeout: float = 20.0) -> int:
        status = self.process.wait(timeout=timeout)
        time.sleep(0.2)  # the reader threads take the last lines
        return status

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def _gather(stream: object, lines: list[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        lines.append(line.rstrip("\n"))


def start_button(display: str, title: str = "Queens", *, desktop: str = "x11",
                 session: Mapping[str, str] | None = None) -> tuple[int, int]:
    """The screen point at the middle of the practice page's Start button (the largest patch of
    its blue: the page's logo is the same blue), on X11 display `display` or on the Wayland
    `desktop` ("wlroots", "gnome") of `session`."""
    import cv2

    from queens_autosolve.capture.wlroots import WlrootsDesktop

    with open_desktop(display or None, desktop, session) as opened:
        lists_windows = desktop == "x11" or (desktop == "wlroots" and bool((session or {}).get("SWAYSOCK")))
        if lists_windows or not isinstance(opened, WlrootsDesktop):
            frames = [opened.grab_window(opened.find_window(title if lists_windows else None))]
        else:  # no window list: each output, as a user looks at each monitor
            frames = [opened.grab_window(output) for output in opened.windows()]
    for frame in frames:
        rgb = np.asarray(frame.rgb).astype(np.int16)
        mask = (np.abs(rgb - np.array(START_BLUE, np.int16)).max(axis=2) <= 2).astype(np.uint8)
        count, _, stats, centres = cv2.connectedComponentsWithStats(mask)
        if count >= 2:
            biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
            x, y = frame.to_screen(*centres[biggest])
            return int(x), int(y)
    raise AssertionError("no Start button on screen")


def click_at(x: int, y: int, display: str, *, desktop: str = "x11",
             session: Mapping[str, str] | None = None) -> None:
    """A real click at screen point (x, y): xdotool on X11, the desktop's own virtual pointer on
    Wayland (sway's wlr virtual pointer, mutter's remote desktop)."""
    if desktop == "x11":
        subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], check=True,
                       env={"DISPLAY": display, "PATH": "/usr/bin:/bin"}, timeout=10)
        return
    with open_desktop(None, desktop, session, will_click=True) as opened:
        opened.move_pointer(x, y)
        time.sleep(0.1)  # a new virtual pointer's first click may be lost without (capture/wlroots.py)
        opened.click(x, y)
        time.sleep(0.1)  # the press and release taken before the device goes with the connection


def press_start(server: PracticeServer, display: str, *, desktop: str = "x11",
                session: Mapping[str, str] | None = None) -> None:
    """Click Start as a user does, and again when the page did not take it: a window just opened
    may show its page, or take clicks, a moment after it first reports (seen on a loaded machine;
    on a fresh sway the session's first click or two reach no window)."""
    where: dict[str, Any] = {"desktop": desktop, "session": session}
    for _ in range(4):
        deadline = time.monotonic() + 10
        while not has_start_button(display, **where):
            if time.monotonic() > deadline:
                raise AssertionError("no Start button on screen within 10 s")
            time.sleep(0.05)
        click_at(*start_button(display, **where), display, **where)
        try:
            server.wait_for(lambda s: s.started, timeout=3)
            return
        except TimeoutError:
            continue
    raise AssertionError("the page never took the click on Start")


def has_start_button(display: str, **where: Any) -> bool:
    """Whether a window titled Queens shows the Start button (a new window takes the page's title late)."""
    try:
        start_button(display, **where)
    except (AssertionError, QueensError):
        return False
    return True


def press_next_puzzle(browser: Chromium) -> None:
    """The page's Next puzzle button, pressed from DevTools (the next board shows in place)."""
    browser.evaluate("document.getElementById('next-puzzle-now').click()")


def is_solved_board(board: int, state: PageState) -> bool:
    """Whether the page shows board number `board` (0 the first), solved: for `server.wait_for`."""
    return state.board == board and state.solved
