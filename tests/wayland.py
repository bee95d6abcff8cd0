"""The sway test environment (tests/test_e2e_sway.py, scripts/bench_live.py --desktop sway): the
product's headless `Sway` stage (autosolve/sway.py: sway as nobody in its own mount and network
namespace) with browsers inside it: Chromium native (Wayland), Chromium on sway's XWayland, Firefox
native; a non-browser window (xmessage, on XWayland); the practice page served inside; and
`queens-autosolve run` started against the session, as a user in sway would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from queens_autosolve.capture.wlroots import WlrootsDesktop
from queens_autosolve.pages.browser import CHROMIUM_WAYLAND, Chromium, wait_for_board
from queens_autosolve.pages.practice import PracticeServer
from queens_autosolve.pages.sway import Sway
from queens_autosolve.solver.puzzle import Puzzle
from tests.desktops import Firefox, find_firefox
from tests.environment import require_root, require_tool
from tests.live import wait_until


def require_sway() -> None:
    """Skip without sway, except in CI: there a failure. Root gets a stage in namespaces of its
    own with XWayland; anyone else one without XWayland (see `require_xwayland`)."""
    require_tool(shutil.which("sway") is not None and shutil.which("Xwayland") is not None,
                 "sway and Xwayland (packages sway, xwayland)")


def require_xwayland(sway: Sway) -> None:
    """Skip a test that needs the stage's XWayland where it has none (started by a user, not root)."""
    if not sway.isolated:
        require_root("the sway stage runs XWayland only in namespaces of its own")


def native_chromium(sway: Sway) -> Chromium:
    """A Chromium drawing through Wayland (`--ozone-platform=wayland`) inside the stage."""
    return Chromium("", extra_args=CHROMIUM_WAYLAND, launcher=sway.enter(), environment=sway.env)


def xwayland_chromium(sway: Sway) -> Chromium:
    """A Chromium drawing through X11 on sway's XWayland (an X11 window in a Wayland session)."""
    require_xwayland(sway)
    env = {**sway.env, "DISPLAY": sway.x_display()}
    env.pop("WAYLAND_DISPLAY")
    return Chromium("", extra_args=("--ozone-platform=x11",), launcher=sway.enter(), environment=env)


class WaylandFirefox(Firefox):
    """Firefox native on Wayland (MOZ_ENABLE_WAYLAND=1) inside the stage, showing one URL (given at
    start: the X11 address-bar typing of `Firefox.open` needs xdotool). Its profile lies in the
    stage's runtime directory, which the namespace shares (its /tmp is private)."""

    def start_in(self, sway: Sway, url: str) -> WaylandFirefox:
        assert sway.runtime is not None
        self.profile = Path(tempfile.mkdtemp(prefix="firefox-", dir=sway.runtime))
        self._write_profile()
        self.log = self.profile / "stderr.log"
        args = [*sway.enter(), find_firefox(), "--no-remote", "--new-instance", "--profile",
                str(self.profile), "--width", str(self.size[0]), "--height", str(self.size[1]), url]
        # Firefox as root refuses a runtime directory of another user's (nobody's, sway's): it
        # gets one of its own; WAYLAND_DISPLAY is a full path, so it still finds sway
        runtime = tempfile.mkdtemp(prefix="runtime-", dir=sway.runtime)
        env = {**os.environ, **sway.env, "XDG_RUNTIME_DIR": runtime, "MOZ_ENABLE_WAYLAND": "1",
               "MOZ_CRASHREPORTER_DISABLE": "1", "MOZ_DISABLE_AUTO_SAFE_MODE": "1"}
        env.pop("DISPLAY", None)
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=log,
                                            start_new_session=True)
        return self


@contextmanager
def served(sway: Sway, puzzle: Puzzle, **options: object) -> Iterator[PracticeServer]:
    """The practice page for `puzzle`, listening inside the stage's network namespace."""
    with sway.network():
        server = PracticeServer(puzzle, **options).start()  # type: ignore[arg-type]
    with server:
        yield server


@contextmanager
def page_in(sway: Sway, browser: Chromium, puzzle: Puzzle, whole_board: bool = True,
            **options: object) -> Iterator[PracticeServer]:
    """`puzzle` on the practice page in `browser` (started on it, or switched to it), painted
    (with `whole_board` False, for a board the window cuts off: reported, and a moment)."""
    with served(sway, puzzle, **options) as server:
        if browser.process is None:
            browser.start(server.url)
        else:
            browser.open(server.url)
        server.wait_for(lambda state: state.reports > 0, timeout=20)
        if whole_board:
            wait_for_board("", puzzle.n, chromium=browser, desktop="wlroots", env=sway.env)
        else:
            settle(1.0)
        try:
            yield server
        finally:
            browser.open("about:blank")


def run_cli(sway: Sway, *args: str, timeout: float = 60,
            ipc: bool = True) -> subprocess.CompletedProcess[str]:
    """`queens-autosolve run` in the sway session, as from a terminal in it (no X11 display).
    `ipc` False: SWAYSOCK left out, as in a wlroots compositor that is not sway (the same
    protocols, no window list)."""
    env = session_env(sway)
    if not ipc:
        del env["SWAYSOCK"]
    return subprocess.run([sys.executable, "-m", "queens_autosolve", "run", *args], env=env,
                          capture_output=True, text=True, timeout=timeout)


def start_cli(sway: Sway, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "queens_autosolve", "run", *args], env=session_env(sway),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def session_env(sway: Sway) -> dict[str, str]:
    return {**without_a_session(), **sway.env}


def without_a_session() -> dict[str, str]:
    """Our environment with no X11 display and no Wayland or sway session named."""
    return {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK")}


@contextmanager
def xmessage(sway: Sway, text: str, at: tuple[int, int]) -> Iterator[subprocess.Popen[bytes]]:
    """A real non-browser window (xmessage, on sway's XWayland) titled `text`, floated at `at`."""
    require_tool(shutil.which("xmessage") is not None, "xmessage (x11-utils)")
    require_xwayland(sway)
    env = {**os.environ, "DISPLAY": sway.x_display()}
    process = subprocess.Popen([*sway.enter(), "xmessage", "-title", text, "-geometry", "400x300", text],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        with WlrootsDesktop(sway.env) as desktop:
            wait_until(lambda: any(w.title == text for w in desktop.windows()), what=f"the window {text!r}")
        sway.swaymsg(f'[title="^{text}$"]', "move", "position", str(at[0]), str(at[1]))
        yield process
    finally:
        process.terminate()
        process.wait(timeout=5)


def wait_for_title(sway: Sway, title: str, timeout: float = 30) -> None:
    with WlrootsDesktop(sway.env) as desktop:
        wait_until(lambda: any(title in w.title for w in desktop.windows()), timeout=timeout,
                   what=f"a window titled {title!r}")


def settle(seconds: float = 0.3) -> None:
    """Let sway and the browser redraw after a window was moved (a frame or two)."""
    time.sleep(seconds)
