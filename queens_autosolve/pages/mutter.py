"""A stage for live solves on GNOME: a headless mutter (no GPU needed) with its own D-Bus session
bus and PipeWire, as `demo --desktop gnome` and the GNOME tests use it.

Everything lives in a fresh runtime directory of its own (XDG_RUNTIME_DIR, mode 0700): the bus
socket, PipeWire's socket and the Wayland socket. Mutter runs without X11 (--no-x11), so it takes
no X display number and no lock file in /tmp: nothing collides with an Xvfb or another
compositor on the machine. `env` is the environment of a program inside that session.

>>> with HeadlessMutter() as gnome:               # doctest: +SKIP
...     subprocess.run(["chromium", "--ozone-platform=wayland"], env=gnome.env)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from queens_autosolve.pages.browser import SCREEN, MissingTool, StageError, stop_process

if TYPE_CHECKING:
    pass

# Debian package names of the programs the stage runs (scripts/system-deps.sh installs them).
PROGRAMS = {"dbus-daemon": "dbus", "pipewire": "pipewire", "wireplumber": "wireplumber",
            "mutter": "mutter", "gst-launch-1.0": "gstreamer1.0-tools"}
WAYLAND_NAME = "wayland-queens"
MUTTER_NAME = "org.gnome.Mutter.ScreenCast"  # on the bus once mutter can cast its monitor


def missing_programs() -> list[str]:
    """The Debian packages of the programs the stage needs and this machine lacks."""
    return [package for program, package in PROGRAMS.items() if shutil.which(program) is None]


class HeadlessMutter:
    """mutter --headless with a virtual monitor, its session bus, PipeWire and WirePlumber
    (which mutter's screen cast needs to set up its stream), all stopped on exit."""

    def __init__(self, size: tuple[int, int] = SCREEN, timeout: float = 15.0) -> None:
        self.size = size
        self.timeout = timeout
        self.runtime = Path()
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def bus(self) -> str:
        return f"unix:path={self.runtime / 'bus'}"

    @property
    def env(self) -> dict[str, str]:
        """The environment of a program in this session (no X11 display: a Wayland session)."""
        env = {name: value for name, value in os.environ.items() if name != "DISPLAY"}
        env.update(XDG_RUNTIME_DIR=str(self.runtime), DBUS_SESSION_BUS_ADDRESS=self.bus,
                   WAYLAND_DISPLAY=WAYLAND_NAME, XDG_SESSION_TYPE="wayland", XDG_CURRENT_DESKTOP="GNOME")
        return env

    def start(self) -> HeadlessMutter:
        missing = missing_programs()
        if missing:
            raise MissingTool(f"the headless GNOME stage needs {', '.join(missing)}; install with: sudo "
                              f"apt-get install -y {' '.join(missing)} (or run: make system-deps)")
        self.runtime = Path(tempfile.mkdtemp(prefix="queens-gnome-"))
        self.runtime.chmod(0o700)
        try:
            self._spawn(["dbus-daemon", "--session", "--nofork", f"--address={self.bus}"])
            self._wait_for(lambda: (self.runtime / "bus").exists(), "the D-Bus session bus")
            self._spawn(["pipewire"])
            self._wait_for(lambda: (self.runtime / "pipewire-0").exists(), "PipeWire")
            self._spawn(["wireplumber"])
            width, height = self.size
            self._spawn(["mutter", "--headless", "--virtual-monitor", f"{width}x{height}", "--wayland",
                         "--no-x11", f"--wayland-display={WAYLAND_NAME}"])
            self._wait_for(self._mutter_ready, "mutter")
        except BaseException:
            self.stop()
            raise
        return self

    def _spawn(self, command: list[str]) -> None:
        self.processes.append(subprocess.Popen(
            command, env=self.env, cwd=self.runtime, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,  # a Ctrl-C in the terminal is ours to handle
        ))

    def _mutter_ready(self) -> bool:
        """Mutter has its Wayland socket and its screen cast on the bus."""
        if not (self.runtime / WAYLAND_NAME).exists():
            return False
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection

        bus = DBusAddress("/org/freedesktop/DBus", bus_name="org.freedesktop.DBus",
                          interface="org.freedesktop.DBus")
        with open_dbus_connection(bus=self.bus) as connection:
            reply = connection.send_and_get_reply(new_method_call(bus, "NameHasOwner", "s", (MUTTER_NAME,)))
        return bool(reply.body and reply.body[0])

    def _wait_for(self, ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + self.timeout
        while not ready():
            for process in self.processes:
                if process.poll() is not None:
                    name = Path(str(process.args[0])).name  # type: ignore[index]  # a list, see _spawn
                    raise StageError(f"{name} exited with status {process.returncode} while "
                                     f"starting the headless GNOME session")
            if time.monotonic() > deadline:
                raise StageError(f"{what} did not start within {self.timeout:g}s")
            time.sleep(0.05)

    def stop(self) -> None:
        for process in reversed(self.processes):
            stop_process(process)
        self.processes = []
        if self.runtime != Path():
            shutil.rmtree(self.runtime, ignore_errors=True)
            self.runtime = Path()

    def __enter__(self) -> HeadlessMutter:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
