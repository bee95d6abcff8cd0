"""A stage for live solves: a virtual X display (Xvfb) and a real Chromium window on it.

The demo, the live tests and the live benchmarks use these. `Xvfb` starts a server on a free
display number (Xvfb's own -displayfd picks it and says when it accepts connections). `Chromium`
shows a page in a real (or headless) window with a throw-away profile and switches pages through
`DevTools`, the protocol on a pipe, so one browser serves many tests. `wait_for_board` waits
until a window shows a board that vision reads.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from queens_autosolve.solver.errors import QueensError

if TYPE_CHECKING:  # the screen stack loads only when a wait needs it: starting a stage does not
    from typing_extensions import Self  # typing.Self is Python 3.11; annotations only

    from queens_autosolve.capture import Frame, WindowRecord

APT_XVFB = "sudo apt-get update && sudo apt-get install -y xvfb"
APT_CHROMIUM = "sudo apt-get update && sudo apt-get install -y chromium"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SCREEN = (1920, 1080)
WINDOW = (1200, 1040)  # tall enough for a 14x14 board with the page's header above it

# Quiet, private, repeatable: no sync, no first-run pages, no network chatter, no GPU in Xvfb,
# no infobar (--test-type) that would push the page down after we read it.
CHROMIUM_FLAGS = (
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-gpu", "--disable-features=Translate,MediaRouter",
    "--password-store=basic", "--no-default-browser-check", "--test-type",
    "--disable-session-crashed-bubble", "--hide-crash-restore-bubble", "--disable-notifications",
)


class MissingTool(QueensError):
    """Xvfb or Chromium is not installed; the message has the command that installs it."""


class StageError(QueensError):
    """The display or the browser did not come up, or stopped answering, in time."""


def find_chromium() -> str:
    """The Chromium (or Chrome) executable, or MissingTool with the apt command."""
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    raise MissingTool(
        f"Chromium is not installed; install it with: {APT_CHROMIUM} (or run: make system-deps)"
    )


def find_xvfb() -> str:
    path = shutil.which("Xvfb")
    if path is None:
        raise MissingTool(f"Xvfb is not installed; install it with: {APT_XVFB} (or run: make system-deps)")
    return path


class Xvfb:
    """A virtual X server on a free display number, stopped on exit.

    Not pyvirtualdisplay: it would not start Xvfb in a session of its own (a Ctrl-C in the
    terminal is ours to handle) and would not save code for -displayfd with several screens.

    >>> with Xvfb() as xvfb:                # doctest: +SKIP
    ...     print(xvfb.display)             # ':1'
    """

    def __init__(self, size: tuple[int, int] = SCREEN, timeout: float = 10.0, screens: int = 1) -> None:
        if screens < 1:
            raise ValueError(f"an X server has at least one screen, not {screens}")
        self.size = size
        self.timeout = timeout
        self.screens = screens
        self.display = ""
        self.process: subprocess.Popen[bytes] | None = None

    def screen(self, number: int) -> str:
        """The display name of screen `number` (":5.1"); `display` itself means screen 0."""
        if not 0 <= number < self.screens:
            raise ValueError(f"screen {number}: this server has screens 0 to {self.screens - 1}")
        return f"{self.display}.{number}"

    def start(self) -> Xvfb:
        binary = find_xvfb()
        read_end, write_end = os.pipe()
        width, height = self.size
        screen_args = [arg for number in range(self.screens)
                       for arg in ("-screen", str(number), f"{width}x{height}x24")]
        try:
            self.process = subprocess.Popen(
                [binary, "-displayfd", str(write_end), *screen_args, "-nolisten", "tcp"],
                pass_fds=(write_end,),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C in the terminal is ours to handle, not Xvfb's
            )
        finally:
            os.close(write_end)
        try:
            number = self._read_display_number(read_end)
        finally:
            os.close(read_end)
        self.display = f":{number}"
        return self

    def _read_display_number(self, fd: int) -> str:
        """Xvfb writes the display number once it accepts connections (-displayfd)."""
        deadline = time.monotonic() + self.timeout
        data = b""
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(0.0, left))
            chunk = os.read(fd, 16) if ready else b""
            if not chunk:
                self.stop()
                raise StageError(f"Xvfb did not start within {self.timeout:g}s")
            data += chunk
        return data.decode().strip()

    def stop(self) -> None:
        stop_process(self.process)
        self.process = None

    def __enter__(self) -> Xvfb:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


# Chromium as a native Wayland client (no GPU here: CHROMIUM_FLAGS has --disable-gpu).
CHROMIUM_WAYLAND = ("--ozone-platform=wayland",)

@dataclass
class Browser:
    """A real browser window on X display `display`, with a fresh profile deleted on stop."""

    display: str
    size: tuple[int, int] = WINDOW
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)
    profile: Path | None = field(default=None, init=False)

    def check_alive(self) -> None:
        """StageError when the browser has exited."""
        if self.process is not None and self.process.poll() is not None:
            name = type(self).__name__
            raise StageError(f"{name} exited with status {self.process.returncode} (display {self.display})")

    def stop(self) -> None:
        stop_process(self.process)
        self.process = None
        if self.profile is not None:
            shutil.rmtree(self.profile, ignore_errors=True)
            self.profile = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


class DevTools:
    """Chromium's DevTools protocol on the pipe of ``--remote-debugging-pipe`` (stdlib only, no
    port to find): JSON commands go to the browser's fd 3 and answers come back on its fd 4, each
    message ended by a NUL byte. We enable no domain, so nothing arrives but answers and the odd
    event, which `call` skips."""

    def __init__(self, timeout: float = 15.0) -> None:
        self.timeout = timeout
        self._theirs_in, self._commands = os.pipe()
        self._answers, self._theirs_out = os.pipe()
        self._buffer = b""
        self._last_id = 0

    def plumb(self) -> None:
        """In the browser's process, before it runs: its pipe ends as fds 3 and 4."""
        os.dup2(self._theirs_in, 3)
        os.dup2(self._theirs_out, 4)

    def started(self) -> None:
        """In ours, once the browser runs: its ends are its own now."""
        os.close(self._theirs_in)
        os.close(self._theirs_out)

    def call(self, method: str, params: dict[str, object], session: str = "") -> dict[str, Any]:
        """Send one command (to the page attached as `session`, else to the browser) and return
        its result; StageError when the browser answers with an error, closes the pipe or keeps
        quiet for `timeout` seconds."""
        self._last_id += 1
        message: dict[str, object] = {"id": self._last_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        try:
            os.write(self._commands, json.dumps(message).encode() + b"\0")
        except (BrokenPipeError, OSError) as exc:
            raise StageError(f"Chromium closed its DevTools pipe ({method})") from exc
        deadline = time.monotonic() + self.timeout
        while True:
            answer = self._read(method, deadline)
            if answer.get("id") == self._last_id:
                if "error" in answer:
                    raise StageError(f"DevTools {method}: {answer['error'].get('message', answer['error'])}")
                return cast("dict[str, Any]", answer["result"])

    def _read(self, method: str, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._answers], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise StageError(f"Chromium did not answer {method} within {self.timeout:g}s")
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                raise StageError(f"Chromium closed its DevTools pipe ({method})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return cast("dict[str, Any]", json.loads(message))

    def close(self) -> None:
        os.close(self._commands)
        os.close(self._answers)


@dataclass
class Chromium(Browser):
    """A real Chromium window; `scale` sets the device scale factor (HiDPI: 1.5 draws
    everything 1.5 times larger); `headless` draws it nowhere (no display needed).
    `start` returns once the browser answers on its DevTools pipe."""

    position: tuple[int, int] = (0, 0)
    scale: float | None = None
    extra_args: tuple[str, ...] = ()
    headless: bool = False
    # a command prefix to start it through (a Wayland stage's `enter`) and variables to add to
    # its environment (WAYLAND_DISPLAY and the like; with WAYLAND_DISPLAY and no `display`, the
    # DISPLAY it would inherit is dropped: a Wayland browser must not fall back to an X server)
    launcher: tuple[str, ...] = ()
    environment: dict[str, str] = field(default_factory=dict)
    devtools: DevTools | None = field(default=None, init=False)
    session: str = field(default="", init=False)  # the page `open` showed last, attached
    target: str = field(default="", init=False)  # and its target id

    def start(self, url: str) -> Self:
        binary = find_chromium()
        self.profile = Path(tempfile.mkdtemp(prefix="queens-chromium-"))
        args = [*self.launcher, binary, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}",
                f"--window-position={self.position[0]},{self.position[1]}",
                f"--window-size={self.size[0]},{self.size[1]}", "--new-window", "--remote-debugging-pipe"]
        if self.headless:
            args.append("--headless")
        if os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
        if self.scale:
            args.append(f"--force-device-scale-factor={self.scale}")
        args += [*self.extra_args, url]
        env = {**os.environ, **self.environment}
        if "WAYLAND_DISPLAY" in self.environment and not self.display:
            env.pop("DISPLAY", None)
        if self.display:
            env["DISPLAY"] = self.display
        self.devtools = DevTools()
        self.process = subprocess.Popen(
            args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            preexec_fn=self.devtools.plumb, pass_fds=(3, 4),  # the pipe's ends as its fds 3 and 4
        )
        self.devtools.started()
        try:
            self._browser_call("Browser.getVersion")
        except StageError:
            self.stop()
            raise
        return self

    def open(self, url: str) -> None:
        """Show `url` in front and attach to its tab (`call` and `evaluate` talk to it), closing
        every other tab. When the tab `open` showed last is the only one, it goes to `url`
        itself: a new tab starts a renderer. Showing a 9x9 practice page and then about:blank
        took Chromium 0.42 s of CPU in new tabs, 0.23 s in one tab, and the tests show a page
        170 times. What a DevTools command set on that tab (an Emulation override) stays set.
        Once `open("about:blank")` returns, the page before has gone (`_wait_for_blank`)."""
        pages = [t["targetId"] for t in self._browser_call("Target.getTargets")["targetInfos"]
                 if t["type"] == "page"]
        if self.session and pages == [self.target]:
            if url != "about:blank":  # a page to look at comes in front, as a new tab does
                self.call("Page.bringToFront")
            self.call("Page.navigate", url=url)
            if url == "about:blank":
                self._wait_for_blank()
            return
        target = self._browser_call("Target.createTarget", url=url)["targetId"]
        for target_id in pages:
            self._browser_call("Target.closeTarget", targetId=target_id)
        self._wait_for_only(target)
        self.session = self._browser_call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.target = target

    def _wait_for_blank(self, timeout: float = 5.0) -> None:
        """Wait until the tab's navigation to about:blank has committed: no window is left titled
        as the page before, as when its tab is closed. That took about 0.1 s here (30 of 30 within
        0.16 s). Until then the tab may list the address of the page before, or none (a check
        of it then navigated to about:blank a second time), and its session answers "Not
        attached to an active page"."""
        deadline = time.monotonic() + timeout
        while True:
            with suppress(StageError):  # not attached yet; a browser that died is named below
                history = self.call("Page.getNavigationHistory")
                if history["entries"][history["currentIndex"]]["url"] == "about:blank":
                    return
            self.check_alive()
            if time.monotonic() > deadline:
                raise StageError(f"Chromium did not leave its page for about:blank within {timeout:g}s")
            time.sleep(0.02)

    def _wait_for_only(self, target: str, timeout: float = 5.0) -> None:
        """Wait until `target` is the only tab left. Chromium closes tabs asynchronously: one
        still listed would be closed again by the next `open` ("No target with given id found",
        seen when pages follow each other quickly) and the new tab may not take input yet."""
        deadline = time.monotonic() + timeout
        while True:
            pages = [t["targetId"] for t in self._browser_call("Target.getTargets")["targetInfos"]
                     if t["type"] == "page"]
            if pages == [target]:
                return
            if time.monotonic() > deadline:
                raise StageError(f"Chromium still shows {len(pages)} tabs {timeout:g}s after closing others")
            time.sleep(0.01)

    def call(self, method: str, **params: object) -> dict[str, Any]:
        """One DevTools command to the page `open` showed last."""
        if not self.session:
            raise StageError(f"{method}: open() a page first")
        assert self.devtools is not None
        return self.devtools.call(method, params, self.session)

    def evaluate(self, expression: str) -> object:
        """The value of a JavaScript expression on the page (JSON-like values only)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    def _browser_call(self, method: str, **params: object) -> dict[str, Any]:
        if self.devtools is None:
            raise StageError(f"{method}: start() the browser first")
        try:
            return self.devtools.call(method, params)
        except StageError:
            self.check_alive()  # the better message, when it died
            raise

    def stop(self) -> None:
        if self.devtools is not None:
            self.devtools.close()
            self.devtools = None
        self.session = self.target = ""
        singleton = self._singleton_folder()
        super().stop()
        if singleton is not None:
            shutil.rmtree(singleton, ignore_errors=True)

    def _singleton_folder(self) -> Path | None:
        """The folder Chromium made in the temporary directory for the socket that keeps a second
        browser off its profile (the profile's SingletonSocket links to it). A stopped Chromium
        leaves it behind, one a start; moving TMPDIR into the profile instead made the socket's
        path too long for a deep TMPDIR (over 108 bytes: Chromium exits)."""
        if self.profile is None:
            return None
        try:
            target = Path(os.readlink(self.profile / "SingletonSocket")).parent
        except OSError:
            return None
        return target if target.name.startswith("org.chromium.Chromium.") else None


def stop_process(process: subprocess.Popen[bytes] | None) -> None:
    """End a process we started, and its children (it leads its own session)."""
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=5)
    except (ProcessLookupError, PermissionError):
        return
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)


def wait_for_board(display: str, n: int, title: str = "Queens", timeout: float = 20.0,
                   chromium: Browser | None = None, desktop: str = "x11",
                   env: Mapping[str, str] | None = None) -> tuple[WindowRecord, Frame]:
    """Wait until a window titled `title` shows an n x n board that vision reads with certainty
    (failing at once if `chromium`, the browser showing it, exits). `desktop` "wlroots" or
    "gnome": look in the Wayland session of `env` (default ours) instead of X11 display `display`;
    on GNOME, whose mutter names no windows, the whole monitor is looked at."""
    from queens_autosolve.capture import Desktop, open_desktop
    from queens_autosolve.vision import BoardNotFound, read_board

    deadline = time.monotonic() + timeout
    last = "no window yet"
    named = None if desktop == "gnome" else title
    opened = Desktop(display) if desktop == "x11" else open_desktop(None, desktop, env)
    with opened as session:
        while time.monotonic() < deadline:
            if chromium is not None:
                chromium.check_alive()
            try:
                window = session.find_window(named)
                frame = session.grab_window(window)
                reading = read_board(frame.rgb)
                if reading.n == n and reading.is_certain:
                    return window, frame
                last = f"read {reading.n}x{reading.n}, confidence {reading.confidence:.2f}"
            except (QueensError, BoardNotFound) as exc:
                last = str(exc)
            time.sleep(0.1)
    raise StageError(f"the board did not appear within {timeout:g}s ({last})")
