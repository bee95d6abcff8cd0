"""The GNOME desktop (`capture.desktop.DesktopSession` on mutter): pixels from a ScreenCast
stream, input through a RemoteDesktop session, both over D-Bus (jeepney, pure Python).

Mutter's own API (`org.gnome.Mutter.ScreenCast` and `org.gnome.Mutter.RemoteDesktop`, what the
GNOME portal is built on) is used where this process may call it: a headless mutter, or a
session that grants it. On a real GNOME desktop the portal (`capture.gnome_portal`) asks the
user once and hands over the same kind of stream.

Frames: mutter sends the monitor's picture to PipeWire; GStreamer's `pipewiresrc` (the system
packages `gstreamer1.0-pipewire` and `gstreamer1.0-tools`) runs in a `gst-launch-1.0` process kept
for the whole run, writing raw BGRx frames to a pipe that a thread reads, keeping the newest.
Mutter sends a frame whenever the monitor is repainted, so the newest frame is what the monitor
showed last, as late as the frame's trip (see `GnomeDesktop.grab`). The cursor is left out of the
stream (cursor-mode hidden).

What mutter does not tell another program, and so is not checked here (see the README):
- which window shows the board: there is no window list, so the "window" is the whole monitor
  and the board is found in its pixels, on every grab, like any other check of the guard
  (`actuator.guard`); whether it is a browser cannot be asked, `--window` cannot be honoured;
- where the pointer is: the pointer is where this session last put it, so a user moving the
  mouse is not seen unless it changes what the board shows (a hover tint on a cell the guard
  judges stops the clicks).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from queens_autosolve.capture.errors import CaptureError, WindowOffScreenError
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.models import (
    MONITOR_ROLE,
    Frame,
    FrameSource,
    Monitor,
    Placement,
    Pointer,
    WindowRecord,
)

if TYPE_CHECKING:
    from queens_autosolve.capture.gnome_area import AreaStart

BTN_LEFT = 0x110  # linux/input-event-codes.h
AXIS_VERTICAL, AXIS_HORIZONTAL = 0, 1  # NotifyPointerAxisDiscrete's axes
CURSOR_HIDDEN = 0  # ScreenCast cursor-mode: the pointer is not painted into the frames
# s from the warm-up move to the first press or wheel turn: one sooner is lost while the browser
# picks up the new input device, later still on a loaded machine (docs/notes.md)
WARM_UP = 0.5
F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)  # Linux; Python 3.10 names it
PIPE_SIZE = 1 << 20  # /proc/sys/fs/pipe-max-size, as root or not
FIRST_FRAME_TIMEOUT = 10.0  # s: gst-launch starts in about 0.3 s
MONITOR_TITLE = "the GNOME monitor {}"  # the one "window" there is
APT_GSTREAMER = "sudo apt-get install -y gstreamer1.0-tools gstreamer1.0-pipewire gstreamer1.0-plugins-base"

SCREENCAST = "org.gnome.Mutter.ScreenCast"
REMOTE_DESKTOP = "org.gnome.Mutter.RemoteDesktop"
PORTAL, PORTAL_PATH = "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop"
PORTAL_IFACE = "org.freedesktop.portal"
# What mutter answers a program it does not let use its own API (a real GNOME desktop): the
# portal is asked then.
NOT_FOR_US = ("ServiceUnknown", "AccessDenied", "UnknownMethod", "NameHasNoOwner")


class DBusError(CaptureError):
    """A D-Bus call failed: the message names the call and what mutter answered."""


class MutterBus:
    """One connection to the session bus, calling mutter's methods and waiting for its answers."""

    def __init__(self, address: str) -> None:
        from jeepney.io.blocking import open_dbus_connection

        try:
            self.connection = open_dbus_connection(bus=address, enable_fds=True)  # the portal's PipeWire fd
        except (OSError, ValueError, KeyError) as exc:
            raise CaptureError(f"cannot connect to the D-Bus session bus ({address}): {exc}; run this "
                               "inside the GNOME session (DBUS_SESSION_BUS_ADDRESS set)") from None

    def call(self, service: str, path: str, interface: str, method: str,
             signature: str | None = None, body: tuple[object, ...] = ()) -> tuple[object, ...]:
        from jeepney import DBusAddress, MessageType, new_method_call

        address = DBusAddress(path, bus_name=service, interface=interface)
        reply = self.connection.send_and_get_reply(new_method_call(address, method, signature, body),
                                                   timeout=5)
        if reply.header.message_type is MessageType.error:
            from jeepney.low_level import HeaderFields

            name = reply.header.fields.get(HeaderFields.error_name, "an error")
            detail = f": {reply.body[0]}" if reply.body else ""
            raise DBusError(f"{interface}.{method} answered {name}{detail}")
        return tuple(reply.body)

    def send(self, service: str, path: str, interface: str, method: str, signature: str,
             body: tuple[object, ...]) -> None:
        """Call without waiting for the answer (none is sent): mutter handles the calls of one
        connection in order, and its answer to an input event comes only once it is idle, 0.5-2 ms
        most of the time but up to 340 ms while it paints (measured on headless mutter)."""
        from jeepney import DBusAddress, new_method_call
        from jeepney.low_level import MessageFlag

        message = new_method_call(DBusAddress(path, bus_name=service, interface=interface), method,
                                  signature, body)
        message.header.flags |= MessageFlag.no_reply_expected
        self.connection.send(message)

    def get(self, service: str, path: str, interface: str, name: str) -> object:
        """The value of a D-Bus property."""
        body = self.call(service, path, "org.freedesktop.DBus.Properties", "Get", "ss", (interface, name))
        variant = body[0]  # (signature, value)
        assert isinstance(variant, tuple)
        return variant[1]

    def close(self) -> None:
        self.connection.close()


@dataclass(frozen=True)
class CastSession:
    """A started RemoteDesktop session with its ScreenCast of one monitor."""

    remote: str  # the RemoteDesktop session's object path
    stream: str  # the ScreenCast stream's object path (input coordinates are relative to it)
    node: int  # the PipeWire node the frames come from
    rect: Rect  # the monitor, in the desktop's coordinates
    name: str  # the monitor's connector ("Meta-0", "DP-1")
    portal: bool = False  # through the xdg portal: `remote` is the portal's session handle
    pipewire_fd: int | None = None  # the portal's PipeWire connection (None: the session's daemon)

    def input_call(self, method: str, *values: object) -> tuple[str, str, str, str, str, tuple[object, ...]]:
        """Service, path, interface, method, signature and body of one input event: `method` one
        of the Notify* names with its values, (x, y), (button, pressed) or (axis, steps), which
        mutter's session and the portal take alike but for their first arguments."""
        if method == "NotifyPointerMotionAbsolute":
            stream: tuple[object, ...] = (self.node,) if self.portal else (self.stream,)
            signature, values = "udd" if self.portal else "sdd", (*stream, *values)
        elif method == "NotifyPointerButton":
            signature, values = ("iu", (values[0], int(bool(values[1])))) if self.portal else ("ib", values)
        else:
            signature = "ui"
        if self.portal:
            return (PORTAL, PORTAL_PATH, f"{PORTAL_IFACE}.RemoteDesktop", method, f"oa{{sv}}{signature}",
                    (self.remote, {}, *values))
        return REMOTE_DESKTOP, self.remote, f"{REMOTE_DESKTOP}.Session", method, signature, values


def start_cast(bus: MutterBus, connector: str = "") -> CastSession:
    """Create and start a RemoteDesktop session with a ScreenCast of the monitor `connector`
    ("": the primary one); return once PipeWire has the stream's node."""
    (remote,) = bus.call(REMOTE_DESKTOP, "/org/gnome/Mutter/RemoteDesktop", REMOTE_DESKTOP, "CreateSession")
    remote_iface = f"{REMOTE_DESKTOP}.Session"
    session_id = bus.get(REMOTE_DESKTOP, str(remote), remote_iface, "SessionId")
    (cast,) = bus.call(SCREENCAST, "/org/gnome/Mutter/ScreenCast", SCREENCAST, "CreateSession", "a{sv}",
                       ({"remote-desktop-session-id": ("s", session_id)},))
    (stream,) = bus.call(SCREENCAST, str(cast), f"{SCREENCAST}.Session", "RecordMonitor", "sa{sv}",
                         (connector, {"cursor-mode": ("u", CURSOR_HIDDEN)}))
    node = stream_node(bus, str(stream), lambda: bus.call(REMOTE_DESKTOP, str(remote), remote_iface, "Start"))
    parameters = bus.get(SCREENCAST, str(stream), f"{SCREENCAST}.Stream", "Parameters")
    assert isinstance(parameters, dict)
    (left, top), (width, height) = parameters["position"][1], parameters["size"][1]
    name = parameters.get("output-name", ("s", connector or "primary"))[1]
    return CastSession(str(remote), str(stream), node, Rect(left, top, width, height), name)


def stream_node(bus: MutterBus, stream: str, start: Callable[[], object]) -> int:
    """Call `start` (which starts the session of the ScreenCast `stream`) and return the PipeWire
    node mutter then announces for the stream."""
    from jeepney import MatchRule, message_bus

    rule = MatchRule(type="signal", interface=f"{SCREENCAST}.Stream", member="PipeWireStreamAdded",
                     path=stream)
    bus.connection.send_and_get_reply(message_bus.AddMatch(rule))
    with bus.connection.filter(rule) as queue:
        start()
        try:
            signal = bus.connection.recv_until_filtered(queue, timeout=5)
        except TimeoutError:
            raise CaptureError("mutter started the screen cast but PipeWire gave it no stream within 5 s; "
                               "is PipeWire running in this session?") from None
    return int(signal.body[0])


class FrameStream:
    """The newest frame of a PipeWire video stream, read by `gst-launch-1.0` (pipewiresrc) into a
    pipe and from there by a thread of ours. `pipewire_fd`: the portal's PipeWire connection
    (None: the session's PipeWire daemon, as found through XDG_RUNTIME_DIR)."""

    def __init__(self, node: int, width: int, height: int, env: Mapping[str, str],
                 pipewire_fd: int | None = None) -> None:
        binary = shutil.which("gst-launch-1.0")
        if binary is None:
            raise CaptureError(f"GStreamer's gst-launch-1.0 is not installed; install: {APT_GSTREAMER}")
        self.width, self.height = width, height
        self.frame_size = width * height * 4
        self._newest: np.ndarray | None = None
        self._count = 0
        self._ready = threading.Condition()
        source = ["pipewiresrc", f"path={node}"]
        if pipewire_fd is not None:
            source.append(f"fd={pipewire_fd}")
        self.process = subprocess.Popen(
            # videoconvert passes BGRx through untouched (mutter's format here) and converts another
            [*_dies_with_this_thread(), binary, "-q", *source, "!", "videoconvert", "!",
             f"video/x-raw,format=BGRx,width={width},height={height}", "!", "fdsink", "sync=false"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=dict(env), start_new_session=True,
            pass_fds=() if pipewire_fd is None else (pipewire_fd,),
        )
        self._reader = threading.Thread(target=self._read_frames, name="pipewire-frames", daemon=True)
        self._reader.start()

    def _read_frames(self) -> None:
        pipe = self.process.stdout
        assert pipe is not None
        with contextlib.suppress(OSError):  # a bigger pipe: fewer switches between gst-launch and us
            fcntl.fcntl(pipe.fileno(), F_SETPIPE_SZ, PIPE_SIZE)
        while True:
            buffer = bytearray(self.frame_size)
            view, got = memoryview(buffer), 0
            while got < self.frame_size:
                chunk = os.readv(pipe.fileno(), [view[got:]])
                if not chunk:
                    with self._ready:
                        self._ready.notify_all()
                    return
                got += chunk
            frame = np.frombuffer(buffer, dtype=np.uint8).reshape(self.height, self.width, 4)
            with self._ready:
                self._newest, self._count = frame, self._count + 1
                self._ready.notify_all()

    def newest(self, timeout: float = FIRST_FRAME_TIMEOUT) -> np.ndarray:
        """The newest whole frame (H x W x 4, BGRx), waiting for the first one."""
        with self._ready:
            if self._newest is None:
                self._ready.wait_for(lambda: self._newest is not None or self.process.poll() is not None,
                                     timeout)
            if self._newest is None:
                raise CaptureError(f"no frame came from the screen cast within {timeout:g} s "
                                   "(gst-launch-1.0 pipewiresrc ! videoconvert); are gstreamer1.0-pipewire "
                                   "and gstreamer1.0-plugins-base installed?")
            return self._newest

    def has_frame(self, timeout: float = 0.0) -> bool:
        """Whether a frame has come, waiting up to `timeout` seconds for the first."""
        with self._ready:
            return self._ready.wait_for(lambda: self._newest is not None or self.process.poll() is not None,
                                        timeout) and self._newest is not None

    @property
    def frames(self) -> int:
        """How many frames have come so far."""
        return self._count

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, 15)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait()
        self._reader.join(timeout=5)  # it ends at the pipe's end; then the pipe can be closed
        if self.process.stdout is not None:
            self.process.stdout.close()


def _dies_with_this_thread() -> list[str]:
    """The command prefix that has what it starts killed when the thread starting it ends
    (util-linux's setpriv, PR_SET_PDEATHSIG), so a run killed outright (SIGKILL: no chance to
    stop anything) leaves no screen-cast reader behind: mutter ending the cast with the run's
    D-Bus connection did not always end it (the area cast's reader outlived 1 of 3 runs killed
    on a loaded machine, and one in a suite run).
    A stream must therefore be started by a thread that lives as long as it."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "KILL", "--"] if setpriv else []


class GnomeDesktop:
    """One monitor of a GNOME (mutter) session: its pixels and the pointer's moves, buttons and
    wheel. The monitor is the one "window" (mutter lists no windows to other programs)."""

    def __init__(self, env: Mapping[str, str] | None = None, connector: str = "") -> None:
        env = os.environ if env is None else env
        address = env.get("DBUS_SESSION_BUS_ADDRESS", "")
        if not address:
            raise CaptureError("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set): run this "
                               "inside the GNOME session, or try `queens-autosolve demo --desktop gnome`")
        self.bus = MutterBus(address)
        try:
            self.cast = self._start(connector)
            rect = self.cast.rect
            stream = FrameStream(self.cast.node, rect.width, rect.height, env, self.cast.pipewire_fd)
        except BaseException:
            self.bus.close()
            raise
        self.stream = stream  # its first frame comes 0.3-0.5 s later (see prepare_input)
        self.monitor = WindowRecord(wid=0, title=MONITOR_TITLE.format(self.cast.name), rect=rect,
                                    role=MONITOR_ROLE)
        self.placed: Pointer | None = None
        self._warm, self._warm_since = False, 0.0
        self.area: AreaStart | None = None  # the cast of the part of the monitor the checks grab
        self._areas = not self.cast.portal  # whether to cast areas: mutter's own API only
        self._env = env
        self._bus_address = address

    def _start(self, connector: str) -> CastSession:
        """Mutter's own API where it lets us use it (a headless mutter); else the portal, which asks
        the user once (capture.gnome_portal)."""
        try:
            return start_cast(self.bus, connector)
        except DBusError as exc:
            if not any(name in str(exc) for name in NOT_FOR_US):
                raise
        from queens_autosolve.capture.gnome_portal import start_portal_cast

        try:
            return start_portal_cast(self.bus)
        except DBusError as exc:
            if not any(name in str(exc) for name in NOT_FOR_US):
                raise
        raise CaptureError("neither mutter's screen cast nor the desktop portal answers on this session bus: "
                           "this is no GNOME session (or xdg-desktop-portal is not running); run the tool in "
                           "your GNOME session, or choose the desktop with --desktop")

    def __enter__(self) -> GnomeDesktop:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the streams and the sessions (mutter ends them when our connection closes)."""
        if self.area is not None:
            self.area.stop()
        self.stream.stop()
        self.bus.close()

    # --- windows: the monitor is the only one known ---------------------------------------------

    def find_window(self, title: str | None = None, any_window: bool = False) -> WindowRecord:
        """The monitor: the board is found in its pixels. A title cannot be matched: mutter tells
        no other program which windows it shows."""
        if title is not None:
            raise CaptureError(f"--window {title!r}: on GNOME the tool cannot see window titles (mutter "
                               "lists no windows to other programs); leave --window out: the board is "
                               "found on the whole monitor")
        return self.monitor

    def refresh(self, window: WindowRecord) -> WindowRecord | None:
        return self.monitor

    def placement(self, window: WindowRecord) -> Placement | None:
        return Placement(self.monitor.rect, True)

    def windows_above(self, window: WindowRecord) -> list[WindowRecord]:
        """None known: a window over the board shows only in the pixels (the guard's checks)."""
        return []

    def window_at(self, x: float, y: float) -> WindowRecord | None:
        return self.monitor if self.monitor.rect.contains(x, y) else None

    def window_manager(self) -> str | None:
        return "mutter"

    # --- pixels ----------------------------------------------------------------------------------

    def monitors(self) -> list[Monitor]:
        """Index 0, all monitors, is the one cast here (mss's convention), as is 1."""
        return [Monitor(0, self.monitor.rect), Monitor(1, self.monitor.rect)]

    def grab(self, rect: Rect, *, source: FrameSource, window: WindowRecord | None = None) -> Frame:
        """The pixels of `rect` (clipped to the monitor) from the newest frame of a stream: the cast
        of the area the checks grab when it covers `rect` (see `_stream_for`), else the monitor's.

        The newest frame is what mutter last painted and sent, later than the screen shows it:
        on the headless mutter here (software rendering) a page's change reached the monitor's
        cast a good part of a second after Chromium painted it, the area's sooner
        (docs/wayland.md). So the checks before each click see the page that late."""
        screen = self.monitor.rect
        visible = rect.intersection(screen)
        if visible.empty:
            raise WindowOffScreenError(f"{rect} lies outside the monitor {screen}; nothing to grab there")
        stream, origin = self._stream_for(visible)
        whole = stream.newest()
        x, y = visible.left - origin.left, visible.top - origin.top
        return Frame(
            raw=whole[y : y + visible.height, x : x + visible.width],  # a view: frames are never written
            rect=visible, source=source, window=window, monitor=Monitor(1, screen),
            clipped=rect.edges_outside(screen),
        )

    def will_grab(self, rect: Rect) -> None:
        """Start the cast of `rect`'s area now (see `_stream_for`), so its first frame comes while
        the job solves and the warm-up runs out, not in the guard's first check."""
        visible = rect.intersection(self.monitor.rect)
        covered = self.area is not None and self.area.covers(visible)
        if not visible.empty and visible != self.monitor.rect and not covered:
            self._start_area(visible)

    def _stream_for(self, visible: Rect) -> tuple[FrameStream, Rect]:
        """The stream to grab `visible` from, and the rectangle its frames show. A part of the
        monitor (the guard's checks before each click, the reads after the clicks) comes from a
        cast of that part and a margin (`gnome_area`, mutter's own API only; only `will_grab`
        starts one) once it has its first frame, 0.2-0.5 s after it starts: no grab waits for it.
        The monitor's cast serves until then, every grab the area does not cover (watch's looks
        between boards) and every grab of the whole monitor, which also ends the area's cast."""
        if visible != self.monitor.rect:
            covered = self.area is not None and self.area.covers(visible)
            stream = self.area.stream() if self.area is not None and covered else None
            if self.area is not None and stream is not None:
                return stream, self.area.rect
        elif self.area is not None:  # back to the whole monitor (watch between boards): the area
            self.area.stop()         # cast would only cost mutter's painting
            self.area = None
        return self._monitor_stream(), self.monitor.rect

    def _start_area(self, visible: Rect) -> None:
        """Start casting `visible` and a margin (its first frame comes 0.2-0.5 s later), unless an
        area cast failed before on this mutter."""
        from queens_autosolve.capture.gnome_area import AreaStart

        if self.area is not None:
            self._areas = not self.area.failed
            self.area.stop()
            self.area = None
        if self._areas:
            self.area = AreaStart(self._bus_address, visible, self.monitor.rect, self._env)

    def _monitor_stream(self) -> FrameStream:
        """The monitor's cast (started again if its gst-launch ended)."""
        if self.stream.process.poll() is not None:
            cast = self.cast
            self.stream = FrameStream(cast.node, cast.rect.width, cast.rect.height, self._env,
                                      cast.pipewire_fd)
        return self.stream

    def grab_window(self, window: WindowRecord) -> Frame:
        return self.grab(window.rect, source=FrameSource.WINDOW, window=window)

    def grab_screen(self) -> Frame:
        return self.grab(self.monitor.rect, source=FrameSource.SCREEN)

    # --- the pointer, the buttons, the wheel ------------------------------------------------------

    def pointer(self) -> Pointer:
        """Where this session last put the pointer; before any move it is unknown (off screen)."""
        return self.placed or Pointer(0, 0, on_screen=False)

    def move_pointer(self, x: int, y: int, *, before: Pointer | None = None,
                     click_follows: bool = False) -> Pointer:
        at = (float(x - self.monitor.rect.left), float(y - self.monitor.rect.top))  # stream coordinates
        self._remote("NotifyPointerMotionAbsolute", *at)
        self.placed = Pointer(x, y, on_screen=True)
        return self.placed

    def moved_by_someone_else(self) -> Pointer | None:
        """Never known here: mutter does not say where the pointer is (see the module's doc)."""
        return None

    def prepare_input(self) -> None:
        """The warm-up move (to the monitor's bottom right corner, away from any board and from
        GNOME's hot corner); the first press waits until WARM_UP has passed since, so the wait for
        the stream's first frame and the reading in between cost nothing. Called again (the
        clicks about to start), it waits out what is left of WARM_UP: then the guard's check
        before the first click comes after the wait, not before it."""
        if self._warm:
            self._warmed()
            return
        rect = self.monitor.rect
        self.move_pointer(rect.right - 2, rect.bottom - 2)
        self._warm, self._warm_since = True, time.monotonic()
        self.stream.newest()  # the stream's first frame meanwhile, outside the timed stages

    def _warmed(self) -> None:
        if not self._warm:
            self.prepare_input()
        time.sleep(max(0.0, self._warm_since + WARM_UP - time.monotonic()))

    def click(self, x: int, y: int, times: int = 1) -> None:
        self._warmed()
        for _ in range(times):
            self._remote("NotifyPointerButton", BTN_LEFT, True)
            self._remote("NotifyPointerButton", BTN_LEFT, False)

    def wheel(self, down: int = 0, right: int = 0) -> None:
        self._warmed()
        if down:
            self._remote("NotifyPointerAxisDiscrete", AXIS_VERTICAL, down)
        if right:
            self._remote("NotifyPointerAxisDiscrete", AXIS_HORIZONTAL, right)

    def _remote(self, method: str, *values: object) -> None:
        """One input event. The first one waits for the answer (a refused session or stream is an
        error then, before any click); the others do not (see `MutterBus.send`)."""
        call = self.cast.input_call(method, *values)
        if self._warm:
            self.bus.send(*call)
        else:
            self.bus.call(*call)
