"""A stage for the live solve: a virtual X display (Xvfb) and a real Chromium window on it.

`make demo` and the end-to-end tests use these: `Xvfb` starts a server on a free display number
(Xvfb's own -displayfd picks it and says when it accepts connections); `Chromium` opens a page
in a real (not headless) window with a throw-away profile and can switch it to another page
through its DevTools HTTP endpoint, so one browser serves many tests; `run_demo` puts the
practice page, the browser and the pipeline together.
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from capture import Desktop, Frame, WindowRecord
from solver.errors import QueensError
from solver.puzzle import Puzzle

if TYPE_CHECKING:
    from typing import Self  # Python 3.11; annotations only

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
    """The display or the browser did not come up in time."""


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


@dataclass
class Browser:
    """A real browser window on X display `display`, with a fresh profile deleted on stop."""

    display: str
    size: tuple[int, int] = WINDOW
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)
    profile: Path | None = field(default=None, init=False)

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


@dataclass
class Chromium(Browser):
    """A real Chromium window; `scale` sets the device scale factor (HiDPI: 1.5 draws
    everything 1.5 times larger)."""

    position: tuple[int, int] = (0, 0)
    scale: float | None = None
    extra_args: tuple[str, ...] = ()

    def start(self, url: str) -> Chromium:
        binary = find_chromium()
        self.profile = Path(tempfile.mkdtemp(prefix="queens-chromium-"))
        args = [binary, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}",
                f"--window-position={self.position[0]},{self.position[1]}",
                f"--window-size={self.size[0]},{self.size[1]}", "--new-window",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0"]
        if os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
        if self.scale:
            args.append(f"--force-device-scale-factor={self.scale}")
        args += [*self.extra_args, url]
        env = dict(os.environ, DISPLAY=self.display)
        self.process = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        return self

    # --- DevTools HTTP endpoint: switch pages without restarting the browser -----------------

    def devtools_port(self, timeout: float = 15.0) -> int:
        """The DevTools port Chromium chose (it writes it to DevToolsActivePort in the profile)."""
        assert self.profile is not None, "start() first"
        marker = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if marker.exists():
                first = marker.read_text().split("\n", 1)[0].strip()
                if first.isdigit():
                    return int(first)
            self._check_alive()
            time.sleep(0.05)
        raise StageError(f"Chromium did not open its DevTools port within {timeout:g}s")

    def _devtools(self, path: str, method: str = "GET") -> object:
        request = urllib.request.Request(f"http://127.0.0.1:{self.devtools_port()}{path}", method=method)
        with urllib.request.urlopen(request, timeout=5) as response:
            body = response.read()
        try:
            return json.loads(body)
        except ValueError:
            return body.decode("utf-8", "replace")

    def tabs(self) -> list[dict[str, str]]:
        return [t for t in self._devtools("/json/list") if t.get("type") == "page"]  # type: ignore[union-attr]

    def open(self, url: str) -> None:
        """Show `url` in a new tab (in front) and close every other tab."""
        old = self.tabs()
        self._devtools("/json/new?" + urllib.parse.quote(url, safe=":/?=&"), method="PUT")
        for tab in old:
            self._devtools(f"/json/close/{tab['id']}")

    def _check_alive(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            status = self.process.returncode
            raise StageError(f"Chromium exited with status {status} (display {self.display})")


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
                   chromium: Chromium | None = None) -> tuple[WindowRecord, Frame]:
    """Wait until a window titled `title` shows an n x n board that vision reads with certainty."""
    from vision import BoardNotFound, read_board

    deadline = time.monotonic() + timeout
    last = "no window yet"
    with Desktop(display) as desktop:
        while time.monotonic() < deadline:
            if chromium is not None:
                chromium._check_alive()
            try:
                window = desktop.find_window(title)
                frame = desktop.grab_window(window)
                reading = read_board(frame.rgb)
                if reading.n == n and reading.is_certain:
                    return window, frame
                last = f"read {reading.n}x{reading.n}, confidence {reading.confidence:.2f}"
            except (QueensError, BoardNotFound) as exc:
                last = str(exc)
            time.sleep(0.1)
    raise StageError(f"the board did not appear within {timeout:g}s ({last})")


# --- the demo ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DemoOutcome:
    """How the demo went: `solved` is what the practice page itself reported."""

    solved: bool
    n: int
    timings: dict[str, float]
    setup: dict[str, float]
    display: str
    url: str
    lines: tuple[str, ...]
    page_states: tuple[str, ...]
    error: str = ""

    def to_json(self) -> dict[str, object]:
        return {"solved": self.solved, "n": self.n, "timings": self.timings, "setup": self.setup,
                "display": self.display, "url": self.url, "page_states": list(self.page_states),
                "error": self.error or None}


def demo_puzzle(size: int, puzzle_file: str | None, seed: int | None = None) -> Puzzle:
    """The board to play: the first puzzle in `puzzle_file`, or a fresh unique n x n one."""
    if puzzle_file:
        from solver.formats import read_puzzles

        return read_puzzles(puzzle_file)[0]
    from solver.generate import generate_puzzle

    return generate_puzzle(size, rng=random.Random(seed))


def run_demo(
    puzzle: Puzzle,
    *,
    dark: bool = False,
    keep_open: bool = False,
    show: Callable[[DemoOutcome], None] | None = None,
) -> DemoOutcome:
    """Serve the practice page, open it in Chromium (starting Xvfb when there is no display),
    solve it live with the pipeline and ask the page whether it is solved.

    `show` gets the outcome as soon as it is known (before --keep-open holds everything up).
    """
    from autosolve.commands.run import report_lines
    from autosolve.pipeline import Options, Source, run
    from autosolve.practice.server import PracticeServer, PracticeTimeout

    setup: dict[str, float] = {}
    _terminate_cleanly()
    xvfb = None
    display = os.environ.get("DISPLAY", "")
    start = time.perf_counter()
    if not display:
        find_chromium()  # fail before starting anything
        xvfb = Xvfb().start()
        display = xvfb.display
        setup["xvfb"] = time.perf_counter() - start
    chromium = Chromium(display)
    try:
        with PracticeServer(puzzle, dark=dark) as server:
            start = time.perf_counter()
            chromium.start(server.url)
            wait_for_board(display, puzzle.n, chromium=chromium)
            setup["chromium"] = time.perf_counter() - start
            timings: dict[str, float] = {}
            error = ""
            try:
                result = run(Source(display=display), Options())
                timings, lines = result.timings, tuple(report_lines(result))
                state = server.wait_for(solved=True, timeout=3.0)
            except QueensError as exc:  # reported in the outcome (and --json) rather than raised
                error, lines, state = str(exc), (f"error: {exc}",), server.state()
            except PracticeTimeout as exc:
                state = exc.state
            outcome = DemoOutcome(
                solved=state.solved, n=puzzle.n, timings=timings, setup=setup, display=display,
                url=server.url, lines=lines, page_states=state.states, error=error,
            )
            if show is not None:
                show(outcome)
            if keep_open:
                _hold(outcome)
            return outcome
    finally:
        chromium.stop()
        if xvfb is not None:
            xvfb.stop()


def _terminate_cleanly() -> None:
    """Make SIGTERM (kill, a CI timeout) unwind like Ctrl-C, so Chromium and Xvfb are stopped."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, interrupt)
        # A shell starts background jobs with SIGINT ignored; --keep-open must still stop on it.
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _hold(outcome: DemoOutcome) -> None:
    """--keep-open: keep the page served (and the browser up) until Ctrl-C."""
    print(f"page {outcome.url} on display {outcome.display} left open; press Ctrl-C to close",
          file=sys.stderr, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
