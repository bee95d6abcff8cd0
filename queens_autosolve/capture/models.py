"""The records capture hands on: monitors, windows and the `Frame` of pixels (`Rect` lives in
`capture.geometry`).

A `Frame` knows where its pixels were taken on screen and at which scale, so the actuator maps
image pixels to screen points without guessing (python-mss's ScreenShot does the same with `pos`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

import numpy as np

from queens_autosolve.capture.geometry import (
    Rect,  # also imported from here: `from capture.models import Rect`
)

# WM_CLASS names (lower case) of web browsers, the windows we expect the game in.
BROWSER_CLASSES = (
    "chromium", "chromium-browser", "google-chrome", "chrome", "firefox", "firefox-esr", "navigator",
    "brave-browser", "microsoft-edge", "vivaldi", "opera", "epiphany", "librewolf", "waterfox",
    "falkon", "qutebrowser", "midori", "yandex-browser", "thorium-browser",
)
# WM_CLASS names of terminals: we never click into one, whatever its title says.
TERMINAL_CLASSES = (
    "xterm", "uxterm", "urxvt", "rxvt", "gnome-terminal", "gnome-terminal-server", "konsole",
    "xfce4-terminal", "terminator", "tilix", "alacritty", "kitty", "wezterm", "foot", "st",
    "st-256color", "lxterminal", "mate-terminal", "qterminal", "sakura", "guake", "tilda", "yakuake",
    "terminology", "cool-retro-term", "kgx", "ptyxis", "ghostty", "org.wezfurlong.wezterm",
)
# The role of a record that stands for a whole monitor, where the desktop lists no windows (GNOME:
# the one monitor cast, which the board must be on).
MONITOR_ROLE = "monitor"
# How this tool's own windows (terminals running it, its message boxes) are titled.
TOOL_NAMES = ("queens-autosolve", "queens_autosolve")
@dataclass(frozen=True)
class Pointer:
    """Where the mouse pointer is: root coordinates, and whether it is on the screen asked about
    (with several X screens it may sit on another one, where these coordinates mean nothing)."""

    x: int
    y: int
    on_screen: bool

    def at(self, x: int, y: int) -> bool:
        return self.on_screen and (self.x, self.y) == (x, y)


@dataclass(frozen=True)
class Monitor:
    """One monitor as mss numbers them (1 is the first real monitor; 0 is all of them)."""

    index: int
    rect: Rect


@dataclass(frozen=True)
class Placement:
    """Where a window is on screen and whether it is shown (mapped, not minimised): what the checks
    between clicks ask of it, in a few round trips (a `WindowRecord` takes about ten)."""

    rect: Rect
    shown: bool


@dataclass(frozen=True)
class WindowRecord:
    """A top-level X11 window as the window finder sees it.

    `stacking` orders windows bottom (0) to top; `viewable` is X11's map state (the window and
    its ancestors mapped); `minimised` is an iconic WM_STATE or _NET_WM_STATE_HIDDEN.
    """

    wid: int
    title: str
    rect: Rect
    wm_class: tuple[str, ...] = ()
    role: str = ""
    stacking: int = 0
    viewable: bool = True
    minimised: bool = False
    other_desktop: bool = False  # hidden because it is on another desktop (workspace)

    @property
    def is_browser(self) -> bool:
        # Chromium names the instance "chromium (/path/to/profile)" for non-default profiles.
        names = {part.lower().split(" (")[0] for part in self.wm_class}
        return self.role.lower() == "browser" or bool(names & set(BROWSER_CLASSES))

    @property
    def is_terminal(self) -> bool:
        names = {part.lower() for part in self.wm_class}
        return bool(names & set(TERMINAL_CLASSES))

    @property
    def mentions_tool(self) -> bool:
        title = self.title.lower()
        return any(name in title for name in TOOL_NAMES)


class FrameSource(Enum):
    """Where a frame's pixels came from."""

    WINDOW = "window"
    SCREEN = "screen"
    IMAGE = "image"  # a file: nothing on it can be clicked


@dataclass(frozen=True, eq=False)
class Frame:
    """Pixels grabbed from the screen (or read from a file) and where they came from.

    As python-mss's ScreenShot: `raw`, H x W x 4 BGRA as mss grabs it (for screen grabs a view
    of mss's buffer, no copy), and `rect`, the screen points it covers, are the one truth; `rgb`
    is computed from `raw` on first use and kept. Image pixel (x, y) sits at screen point
    (left + x / scale, top + y / scale): `scale` is image pixels per screen point (1 on X11,
    2 on a HiDPI screenshot taken at double resolution). A file has rect (0, 0, W, H).
    `output_scale`: the scale of the output the pixels came from when the desktop says it (a
    Wayland output scaled by 1.25 or 1.5): then exact, where width / rect.width is rounded; the
    compositor puts the grab's first pixel at round(left * scale) of the output's pixels.
    """

    raw: np.ndarray
    rect: Rect
    source: FrameSource = FrameSource.IMAGE
    window: WindowRecord | None = None
    monitor: Monitor | None = None
    clipped: tuple[str, ...] = ()  # edges ("left", "top", "right", "bottom") the screen cut off
    jpeg_quality: int | None = None  # a JPEG file's quality (1..100, from its tables), else None
    output_scale: float | None = None

    @classmethod
    def from_rgb(
        cls, rgb: np.ndarray, rect: Rect | None = None, source: FrameSource = FrameSource.IMAGE,
        jpeg_quality: int | None = None,
    ) -> Frame:
        """A frame of an H x W x 3 RGB array (an image file, a test's picture); `rect`
        defaults to (0, 0, W, H): one image pixel per screen point."""
        import cv2  # not at import: a live run converts only the other way, in `rgb`

        height, width = rgb.shape[:2]
        raw = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2BGRA)
        frame = cls(raw, rect or Rect(0, 0, width, height), source, jpeg_quality=jpeg_quality)
        frame.__dict__["rgb"] = rgb  # fills the `rgb` cache: no conversion back
        return frame

    @cached_property
    def rgb(self) -> np.ndarray:
        """H x W x 3 RGB, what vision reads. cv2 converts the contiguous BGRA buffer several
        times faster than numpy copies a reversed-channel view of it."""
        import cv2

        return cv2.cvtColor(self.raw, cv2.COLOR_BGRA2RGB)

    @property
    def width(self) -> int:
        return int(self.raw.shape[1])

    @property
    def height(self) -> int:
        return int(self.raw.shape[0])

    @property
    def left(self) -> int:
        return self.rect.left

    @property
    def top(self) -> int:
        return self.rect.top

    @property
    def scale(self) -> float:
        """Image pixels per screen point."""
        if self.output_scale is not None:
            return self.output_scale
        return self.width / self.rect.width if self.rect.width else 1.0

    def _origin(self) -> tuple[float, float]:
        """Where pixel (0, 0) lies in the screen's own pixels: left and top on the output times
        the scale, rounded half away from zero as wlroots rounds a copied box's edges."""
        base = self.monitor.rect if self.monitor is not None else Rect(0, 0, 0, 0)
        scale = self.scale
        return (base.left * scale + round_half_away((self.left - base.left) * scale),
                base.top * scale + round_half_away((self.top - base.top) * scale))

    @property
    def on_screen(self) -> bool:
        """Whether the pixels came from the live screen (so its points can be clicked)."""
        return self.source is not FrameSource.IMAGE

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """Screen point of image pixel (x, y)."""
        left, top = self._origin()
        return (left + x) / self.scale, (top + y) / self.scale

    def to_image(self, x: float, y: float) -> tuple[float, float]:
        """Image pixel at screen point (x, y)."""
        left, top = self._origin()
        return x * self.scale - left, y * self.scale - top

    def box_to_screen(self, box: Rect) -> Rect:
        """An image-pixel box as the smallest whole box of screen points holding it."""
        x, y = self.to_screen(box.left, box.top)
        return Rect.around(x, y, box.width / self.scale, box.height / self.scale)


def round_half_away(value: float) -> int:
    """C's round(): halves away from zero (Python's round() takes them to the even side)."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))
