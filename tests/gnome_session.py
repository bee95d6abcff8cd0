"""The GNOME test environment: a headless mutter (autosolve.mutter: its own D-Bus bus, PipeWire
and Wayland socket in a runtime directory of its own, no X11) with a native Wayland Chromium in
it, the practice page shown there, and the command run inside that session.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from queens_autosolve.capture.models import Frame
from queens_autosolve.pages.browser import CHROMIUM_WAYLAND, Chromium, wait_for_board
from queens_autosolve.pages.mutter import HeadlessMutter, missing_programs
from queens_autosolve.pages.practice import PracticeServer
from queens_autosolve.solver.puzzle import Puzzle
from tests.environment import require_tool
from tests.live import _open_until_it_reports


@dataclass
class GnomeStage:
    """A running headless GNOME session and the Chromium window in it."""

    mutter: HeadlessMutter
    chromium: Chromium

    @property
    def env(self) -> dict[str, str]:
        return self.mutter.env


@contextmanager
def gnome_stage() -> Iterator[GnomeStage]:
    """The session and its browser, stopped at the end (a missing program skips, or fails in CI)."""
    missing = missing_programs()
    require_tool(not missing, " ".join(missing))
    with HeadlessMutter() as mutter:
        chromium = Chromium("", extra_args=CHROMIUM_WAYLAND, environment=mutter.env)
        chromium.start("about:blank")
        try:
            yield GnomeStage(mutter, chromium)
        finally:
            chromium.stop()


@contextmanager
def page_on_gnome(stage: GnomeStage, puzzle: Puzzle,
                  **page_options: object) -> Iterator[tuple[PracticeServer, Frame]]:
    """`puzzle` on the practice page in the session's Chromium, painted and read; the server and
    the frame the board was first read from."""
    with PracticeServer(puzzle, **page_options) as server:  # type: ignore[arg-type]
        try:
            _open_until_it_reports(stage.chromium, server)
            _, frame = wait_for_board("", puzzle.n, chromium=stage.chromium, desktop="gnome", env=stage.env)
            yield server, frame
        finally:
            stage.chromium.open("about:blank")


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "queens_autosolve", *args]


def run_in(stage: GnomeStage, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`queens-autosolve ARGS` as a user of the session runs it."""
    return subprocess.run(command(*args), env=stage.env, capture_output=True, text=True, timeout=timeout)


def start_in(stage: GnomeStage, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(command(*args), env=stage.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def without_any_desktop() -> dict[str, str]:
    """Our environment with no X11 display and no Wayland or GNOME session named."""
    names = ("DISPLAY", "WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE",
             "DBUS_SESSION_BUS_ADDRESS")
    return {name: value for name, value in os.environ.items() if name not in names}
