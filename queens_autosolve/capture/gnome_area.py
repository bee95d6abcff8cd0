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

from collections.abc import Mapping
from dataclasses import dataclass

from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.gnome import CURSOR_HIDDEN, SCREENCAST, FrameStream, MutterBus, stream_node

# The margin on every side, as a share of the area's larger side: the reads after the clicks take
# a margin of page around the board (a tenth of its side), and these grabs come from here too.
AREA_MARGIN = 0.15
FIRST_AREA_FRAME = 2.0  # s: the longest the first press waits for the area's first frame


@dataclass
class AreaCast:
    """A started cast of `rect` (desktop coordinates) and the stream of its frames."""

    session: str  # the ScreenCast session's object path
    rect: Rect
    stream: FrameStream

    @classmethod
    def start(cls, bus: MutterBus, wanted: Rect, monitor: Rect, env: Mapping[str, str]) -> AreaCast:
        """Cast `wanted` and AREA_MARGIN around it, within `monitor`."""
        margin = round(AREA_MARGIN * max(wanted.width, wanted.height)) + 4
        area = wanted.grown(margin).intersection(monitor)
        area = Rect(area.left, area.top, area.width - area.width % 2, area.height - area.height % 2)
        interface = f"{SCREENCAST}.Session"
        (session,) = bus.call(SCREENCAST, "/org/gnome/Mutter/ScreenCast", SCREENCAST, "CreateSession",
                              "a{sv}", ({},))
        try:
            (stream,) = bus.call(SCREENCAST, str(session), interface, "RecordArea", "iiiia{sv}",
                                 (area.left, area.top, area.width, area.height,
                                  {"cursor-mode": ("u", CURSOR_HIDDEN)}))
            node = stream_node(bus, str(stream),
                               lambda: bus.call(SCREENCAST, str(session), interface, "Start"))
            return cls(str(session), area, FrameStream(node, area.width, area.height, env))
        except BaseException:
            bus.call(SCREENCAST, str(session), interface, "Stop")
            raise

    def covers(self, rect: Rect) -> bool:
        return self.rect.intersection(rect) == rect

    def stop(self, bus: MutterBus) -> None:
        self.stream.stop()
        bus.call(SCREENCAST, self.session, f"{SCREENCAST}.Session", "Stop")
