"""A stage for live solves on Wayland: sway, headless (what `demo --desktop sway` starts when
there is no Wayland session, and what the sway tests use).

Started by root, it runs in a namespace of its own: sway 1.7 refuses to run as root, so it runs
as nobody, with a private XDG_RUNTIME_DIR (0700, nobody's), inside `unshare -m -n --fork` with a
private /tmp and its own loopback: its XWayland takes the first free X display number and its
lock files in /tmp, and there it never takes one an Xvfb of the suite (or another run) uses; the
folders of the host's /tmp that hold this program (a CI clone under /tmp, its venv) are bound
into it at the same paths. Started by anyone else (`demo --desktop sway` as a user), it runs as
that user with a private runtime directory and without XWayland, which is the only part that
would take anything shared: no namespace is needed (nor allowed: unshare and nsenter are root's).

The runtime directory lies outside /tmp (under /run), so the job's own process reaches the
Wayland and sway IPC sockets by path from outside the namespace (a Unix socket bound to a path
is reached through the file system, whatever the network namespace). Browsers run inside
(`enter`: nsenter into its mount and network namespaces), where XWayland's X socket is, and
the practice page's server listens inside too (`network`: its listening socket is made in the
stage's network namespace; the server's threads and its state stay in our process, so a test
reads the page's reports as it does on X11).
"""

from __future__ import annotations

import ctypes
import os
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from queens_autosolve.pages.browser import (
    CHROMIUM_WAYLAND,
    SCREEN,
    Chromium,
    MissingTool,
    StageError,
    find_chromium,
    stop_process,
    wait_for_board,
)

if TYPE_CHECKING:
    from queens_autosolve.autosolve.demo_run import DemoOutcome
    from queens_autosolve.solver.puzzle import Puzzle

APT_SWAY = "sudo apt-get update && sudo apt-get install -y sway xwayland"
NOBODY = 65534
CLONE_NEWNET = 0x40000000
# A screen copy waits for the output's next frame, hence 240 Hz by default (docs/wayland.md).
# Windows float where they are put (the tests move them with
# `swaymsg ... move position`), with no borders: the window's rectangle is the page's.
CONFIG = """\
output HEADLESS-1 mode {width}x{height}@{refresh}Hz position 0 0
default_border none
default_floating_border none
focus_follows_mouse no
for_window [app_id=".*"] floating enable, move position 0 0
for_window [class=".*"] floating enable, move position 0 0
"""


class Sway:
    """sway headless in its own mount and network namespace, stopped on exit.

    >>> with Sway() as sway:                            # doctest: +SKIP
    ...     print(sway.wayland_display, sway.swaysock)
    """

    def __init__(
        self, size: tuple[int, int] = SCREEN, timeout: float = 10.0, refresh: int = 240,
        isolated: bool | None = None,
    ) -> None:
        self.size = size
        # in its own namespaces, as nobody, with XWayland (root only; the default for root), or
        # as this user without XWayland
        self.isolated = os.geteuid() == 0 if isolated is None else isolated
        self.refresh = refresh  # Hz: a grab waits for the output's next frame
        self.timeout = timeout
        self.runtime: Path | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.wayland_display = ""
        self.swaysock = ""
        self._x_display = ""

    @property
    def env(self) -> dict[str, str]:
        """What a client of this session (the job, a browser) needs in its environment."""
        return {"WAYLAND_DISPLAY": self.wayland_display, "SWAYSOCK": self.swaysock,
                "XDG_RUNTIME_DIR": str(self.runtime), "XDG_CURRENT_DESKTOP": "sway",
                "XDG_SESSION_TYPE": "wayland"}

    def start(self) -> Sway:
        check_can_start(self.isolated)
        self.runtime = Path(tempfile.mkdtemp(prefix="queens-sway-", dir=runtime_parent(self.isolated)))
        width, height = self.size
        config = CONFIG.format(width=width, height=height, refresh=self.refresh)
        (self.runtime / "config").write_text(config if self.isolated else config + "xwayland disable\n")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.runtime),
               "XDG_RUNTIME_DIR": str(self.runtime), "WLR_BACKENDS": "headless",
               "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"}
        command = ["sway", "-c", f"{self.runtime}/config"]
        if self.isolated:
            os.chown(self.runtime, NOBODY, NOBODY)
            inside = (f"{private_tmp(self.runtime / 'host-tmp')} && ip link set lo up && "
                      f"exec setpriv --reuid={NOBODY} --regid={NOBODY} --clear-groups {shlex.join(command)}")
            command = ["unshare", "-m", "-n", "--fork", "sh", "-c", inside]
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self) -> None:
        """Wait until sway's IPC answers (0.1-0.2 s) and its Wayland socket is there."""
        import i3ipc

        assert self.runtime is not None and self.process is not None
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise StageError(f"sway exited with status {self.process.returncode} at start")
            sockets = sorted(self.runtime.glob("sway-ipc.*.sock"))
            displays = sorted(p for p in self.runtime.glob("wayland-*") if not p.name.endswith(".lock"))
            if sockets and displays:
                try:
                    i3ipc.Connection(socket_path=str(sockets[0])).get_version()
                except (OSError, ConnectionError):
                    pass
                else:
                    self.swaysock, self.wayland_display = str(sockets[0]), str(displays[0])
                    return
            time.sleep(0.02)
        raise StageError(f"sway did not start within {self.timeout:g}s")

    def enter(self) -> tuple[str, ...]:
        """The command prefix that runs a program inside the stage's namespaces (none unisolated)."""
        assert self.process is not None, "start() sway first"
        if not self.isolated:
            return ()
        return ("nsenter", f"--target={self.process.pid}", "--mount", "--net", "--")

    def x_display(self, timeout: float = 10.0) -> str:
        """The X display name of sway's XWayland, inside the namespace (':0' there, as its /tmp
        holds no other server), open to root's clients too: XWayland, started by sway as nobody,
        lets in only nobody's (xhost, run as nobody, adds root)."""
        assert self.process is not None, "start() sway first"
        if not self.isolated:
            raise StageError("this sway runs without XWayland (started by a user, not isolated)")
        if self._x_display:
            return self._x_display
        sockets = Path(f"/proc/{self.process.pid}/root/tmp/.X11-unix")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            names = sorted(p.name for p in sockets.glob("X*")) if sockets.exists() else []
            if names:
                name = ":" + names[0][1:]
                subprocess.run([*self.enter(), "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}",
                                "--clear-groups", "xhost", "+si:localuser:root"],
                               env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DISPLAY": name},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout,
                               check=True)
                self._x_display = name
                return name
            time.sleep(0.05)
        raise StageError(f"sway's XWayland did not start within {timeout:g}s")

    @contextmanager
    def network(self) -> Iterator[None]:
        """While inside, sockets this thread makes belong to the stage's network namespace."""
        assert self.process is not None, "start() sway first"
        with network_namespace_of(self.process.pid) if self.isolated else nullcontext():
            yield

    def swaymsg(self, *command: str) -> None:
        """Run a sway command (e.g. "[app_id=chromium] move position 100 50")."""
        import i3ipc

        replies = i3ipc.Connection(socket_path=self.swaysock).command(" ".join(command))
        failed = [r.error for r in replies if not r.success]
        if failed:
            raise StageError(f"swaymsg {' '.join(command)}: {'; '.join(str(f) for f in failed)}")

    def stop(self) -> None:
        stop_process(self.process)
        self.process = None
        self._x_display = ""
        if self.runtime is not None:
            shutil.rmtree(self.runtime, ignore_errors=True)
            self.runtime = None

    def __enter__(self) -> Sway:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


def check_can_start(isolated: bool = True) -> None:
    """MissingTool (with the command that installs it), or StageError for an isolated stage
    asked of anyone but root, before starting."""
    if shutil.which("sway") is None:
        raise MissingTool(f"sway is not installed; install it with: {APT_SWAY} (or run: make system-deps)")
    if isolated and os.geteuid() != 0:
        raise StageError("a headless sway in a mount and network namespace of its own needs root")


def runtime_parent(isolated: bool = True) -> str:
    """Where the runtime directory goes: isolated, anywhere but /tmp, which the namespace
    replaces; else in the user's own runtime directory where there is one."""
    if not isolated:
        return os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    return "/run" if os.access("/run", os.W_OK) else "/var/tmp"


@contextmanager
def network_namespace_of(pid: int) -> Iterator[None]:
    """Switch this thread into process `pid`'s network namespace, and back after."""
    libc = ctypes.CDLL(None, use_errno=True)
    own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    theirs = os.open(f"/proc/{pid}/ns/net", os.O_RDONLY)
    try:
        if libc.setns(theirs, CLONE_NEWNET) != 0:
            raise StageError(f"cannot enter sway's network namespace: {os.strerror(ctypes.get_errno())}")
        try:
            yield
        finally:
            if libc.setns(own, CLONE_NEWNET) != 0:  # every later socket of this thread would be theirs
                raise StageError(f"cannot leave sway's network namespace: {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(own)
        os.close(theirs)




def run_sway_demo(
    puzzle: Puzzle, *, dark: bool = False, keep_open: bool = False,
    show: Callable[[DemoOutcome], None] | None = None,
) -> DemoOutcome:
    """`demo --desktop sway`: the practice page in a native Wayland Chromium on sway, solved by the
    pipeline through the wlroots desktop. In a sway session (SWAYSOCK and WAYLAND_DISPLAY set) it
    plays there; otherwise it starts a headless `Sway` of its own (as a user: without XWayland)."""
    from queens_autosolve.autosolve.demo_run import terminate_cleanly

    terminate_cleanly()
    setup: dict[str, float] = {}
    if os.environ.get("SWAYSOCK") and os.environ.get("WAYLAND_DISPLAY"):
        return _demo_on(None, puzzle, dark=dark, keep_open=keep_open, show=show, setup=setup)
    find_chromium()  # fail before starting anything
    start = time.perf_counter()
    with Sway() as sway:
        setup["sway"] = time.perf_counter() - start
        os.environ.update(sway.env)  # the pipeline opens the desktop of this process's session
        return _demo_on(sway, puzzle, dark=dark, keep_open=keep_open, show=show, setup=setup)


def _demo_on(
    sway: Sway | None, puzzle: Puzzle, *, dark: bool, keep_open: bool,
    show: Callable[[DemoOutcome], None] | None, setup: dict[str, float],
) -> DemoOutcome:
    from queens_autosolve.autosolve.demo_run import solve_live
    from queens_autosolve.autosolve.records import Source
    from queens_autosolve.pages.practice import PracticeServer

    session = dict(os.environ) if sway is None else sway.env
    chromium = Chromium("", extra_args=CHROMIUM_WAYLAND, launcher=sway.enter() if sway else (),
                        environment=session)
    try:
        with (sway.network() if sway else nullcontext()):  # the page's socket where the browser is
            server = PracticeServer(puzzle, dark=dark).start()
        with server:
            start = time.perf_counter()
            chromium.start(server.url)
            wait_for_board("", puzzle.n, chromium=chromium, desktop="wlroots", env=session)
            setup["chromium"] = time.perf_counter() - start
            return solve_live(server, Source(desktop="wlroots"), puzzle.n, setup,
                              session.get("WAYLAND_DISPLAY", ""), show=show, keep_open=keep_open)
    finally:
        chromium.stop()


def private_tmp(hold: Path) -> str:
    """The shell commands that give the namespace an empty /tmp of its own, in which the folders
    of the host's /tmp that hold this program (its venv, its source checkout, e.g. a CI clone
    under /tmp) stay where they are: what runs inside (`enter`) starts from the same paths."""
    import sys

    import queens_autosolve

    needed = {Path(sys.prefix).resolve(), Path(queens_autosolve.__file__).resolve().parents[1]}
    kept = sorted({Path("/tmp", path.relative_to("/tmp").parts[0]) for path in needed
                   if path.is_relative_to("/tmp") and path != Path("/tmp")})
    held = shlex.quote(str(hold))
    steps = [f"mkdir -p {held}", f"mount --bind /tmp {held}", "mount -t tmpfs -o mode=1777 tmpfs /tmp"]
    for folder in kept:
        inner, outer = shlex.quote(str(folder)), shlex.quote(str(hold / folder.name))
        steps += [f"mkdir -p {inner}", f"mount --bind {outer} {inner}"]
    return " && ".join(steps)
