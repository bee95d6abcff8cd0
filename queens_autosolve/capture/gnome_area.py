"""A screen cast of one area of the GNOME monitor (mutter's `RecordArea`): the board and a margin
around it, for the checks between clicks.

Mutter sends a frame of the whole monitor whenever it repaints; with software rendering such a
frame (8 MB at 1920x1080, through PipeWire, GStreamer and a pipe) is slow enough to make, and
comes rarely enough, that the guard saw a reloaded page late (docs/wayland.md has the figures).
A cast of the board's area alone makes frames a few times smaller. It runs in a ScreenCast
session of its own, beside the monitor's (which the input's coordinates belong to). Mutter's
own API only: the portal of a real GNOME desktop casts monitors and windows, not areas.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

from queens_autosolve.capture.errors import CaptureError
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.gnome import CURSOR_HIDDEN, SCREENCAST, FrameStream, MutterBus, stream_node

# The margin on every side, as a share of the area's larger side: the reads after the clicks take
# a margin of page around the board (a tenth of its side), and these grabs come from here too.
AREA_MARGIN = 0.15


def area_around(wanted: Rect, monitor: Rect) -> Rect:
    """`wanted` and AREA_MARGIN around it, within `monitor`, in even sizes."""
    margin = round(AREA_MARGIN * max(wanted.width, wanted.height)) + 4
    area = wanted.grown(margin).intersection(monitor)
    return Rect(area.left, area.top, area.width - area.width % 2, area.height - area.height % 2)


@dataclass
class AreaCast:
    """A started cast of `rect` (desktop coordinates), in a ScreenCast session of its own on a
    D-Bus connection of its own, and the stream of its frames."""

    bus: MutterBus
    session: str  # the ScreenCast session's object path
    rect: Rect
    stream: FrameStream

    @classmethod
    def start(cls, address: str, area: Rect, env: Mapping[str, str]) -> AreaCast:
        bus = MutterBus(address)
        interface = f"{SCREENCAST}.Session"
        try:
            (session,) = bus.call(SCREENCAST, "/org/gnome/Mutter/ScreenCast", SCREENCAST, "CreateSession",
                                  "a{sv}", ({},))
            (stream,) = bus.call(SCREENCAST, str(session), interface, "RecordArea", "iiiia{sv}",
                                 (area.left, area.top, area.width, area.height,
                                  {"cursor-mode": ("u", CURSOR_HIDDEN)}))
            node = stream_node(bus, str(stream),
                               lambda: bus.call(SCREENCAST, str(session), interface, "Start"))
            return cls(bus, str(session), area, FrameStream(node, area.width, area.height, env))
        except BaseException:
            bus.close()  # mutter ends the session with the connection
            raise

    def stop(self) -> None:
        self.stream.stop()
        self.bus.close()


class AreaStart:
    """An area cast being started on a thread of its own: its D-Bus calls and the wait for
    PipeWire's stream take a tenth of a second that the job spends solving meanwhile. The thread
    lives until `stop`: the stream's reader dies with the thread that started it."""

    def __init__(self, address: str, wanted: Rect, monitor: Rect, env: Mapping[str, str]) -> None:
        self.rect = area_around(wanted, monitor)
        self.cast: AreaCast | None = None
        self.failed = False
        self._started = threading.Event()
        self._ended = threading.Event()
        self._thread = threading.Thread(target=self._start, args=(address, dict(env)), name="area-cast",
                                        daemon=True)
        self._thread.start()

    def _start(self, address: str, env: dict[str, str]) -> None:
        try:
            self.cast = AreaCast.start(address, self.rect, env)
        except CaptureError:  # no area cast on this mutter: the monitor's serves every grab
            self.failed = True
        finally:
            self._started.set()
        self._ended.wait()

    def covers(self, rect: Rect) -> bool:
        return self.rect.intersection(rect) == rect

    def stream(self) -> FrameStream | None:
        """The area's stream once it has its first frame, else None (not yet, or never)."""
        if not self._started.is_set() or self.cast is None or not self.cast.stream.has_frame():
            return None
        return self.cast.stream

    def stop(self) -> None:
        self._started.wait()
        if self.cast is not None:
            self.cast.stop()
        self._ended.set()
        self._thread.join()
