"""Harness for `watch` against the practice page's start screen, for the live tests and
scripts/bench_live.py: `watch` as a user starts it from a terminal, its lines collected as they
come, and the page's Start and Next puzzle pressed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from queens_autosolve.capture import Desktop
from queens_autosolve.pages.browser import Chromium

ROOT = Path(__file__).resolve().parent.parent
START_BLUE = (10, 102, 194)  # the Start button's colour (style.css, button.start)


@dataclass
class WatchProcess:
    """`queens-autosolve watch ARGS` on `display`, stdout and stderr lines gathered by threads."""

    display: str
    args: tuple[str, ...] = ()
    out: list[str] = field(default_factory=list)
    err: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
        env["DISPLAY"] = self.display
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


def start_button(display: str, title: str = "Queens") -> tuple[int, int]:
    """The screen point at the middle of the practice page's Start button (the largest patch of
    its blue: the page's logo is the same blue)."""
    import cv2

    with Desktop(display) as desktop:
        frame = desktop.grab_window(desktop.find_window(title))
    rgb = np.asarray(frame.rgb).astype(np.int16)
    mask = (np.abs(rgb - np.array(START_BLUE, np.int16)).max(axis=2) <= 2).astype(np.uint8)
    count, _, stats, centres = cv2.connectedComponentsWithStats(mask)
    if count < 2:
        raise AssertionError("no Start button on screen")
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y = centres[biggest]
    return frame.left + int(x), frame.top + int(y)


def press_next_puzzle(browser: Chromium) -> None:
    """The page's Next puzzle button, pressed from DevTools (the next board shows in place)."""
    browser.evaluate("document.getElementById('next-puzzle-now').click()")
