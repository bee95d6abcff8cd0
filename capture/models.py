"""The records capture hands on: screen rectangles, monitors, windows and the `Frame` of pixels.

A `Frame` knows where its pixels were taken on screen and at which scale, so the actuator maps
image pixels to screen points without guessing (python-mss's ScreenShot does the same with `pos`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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
# How this tool's own windows (terminals running it, its message boxes) are titled.
TOOL_NAMES = ("queens-autosolve", "queens_autosolve")
# The four edges of a rectangle, as named in messages ("the board is cut off at the bottom").
EDGES = ("left", "top", "right", "bottom")


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in screen points (X11 root coordinates)."""

    left: int
    top: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    @property
    def empty(self) -> bool:
        return self.width <= 0 or self.height <= 0

    def intersection(self, other: Rect) -> Rect:
        left, top = max(self.left, other.left), max(self.top, other.top)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        return Rect(left, top, max(0, right - left), max(0, bottom - top))

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def edges_outside(self, within: Rect) -> tuple[str, ...]:
        """The edges of this rectangle that lie outside `within` (cut off when clipped to it)."""
        cut = (self.left < within.left, self.top < within.top,
               self.right > within.right, self.bottom > within.bottom)
        return tuple(edge for edge, out in zip(EDGES, cut) if out)

    def grown(self, margin: int) -> Rect:
        return Rect(self.left - margin, self.top - margin, self.width + 2 * margin, self.height + 2 * margin)

    @classmethod
    def around(cls, box: tuple[float, float, float, float]) -> Rect:
        """The smallest whole-point rectangle holding an (x, y, w, h) box of floats."""
        x, y, w, h = box
        left, top = int(np.floor(x)), int(np.floor(y))
        return cls(left, top, int(np.ceil(x + w)) - left, int(np.ceil(y + h)) - top)

    def as_mss(self) -> dict[str, int]:
        return {"left": self.left, "top": self.top, "width": self.width, "height": self.height}


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


@dataclass(frozen=True, eq=False)
class Frame:
    """Pixels grabbed from the screen (or read from a file) and where they came from.

    `pixels` is H x W x 3 RGB; for screen grabs it is a view of mss's BGRA buffer (no copy),
    which `bgra` holds. Image pixel (x, y) sits at screen point
    (left + x / scale, top + y / scale): `scale` is image pixels per screen point (1 on X11,
    2 on a HiDPI screenshot taken at double resolution).
    """

    pixels: np.ndarray
    left: int = 0
    top: int = 0
    scale: float = 1.0
    source: str = "image"  # "window", "screen" or "image"
    window: WindowRecord | None = None
    monitor: Monitor | None = None
    bgra: np.ndarray | None = None
    clipped: tuple[str, ...] = ()  # edges ("left", "top", "right", "bottom") the screen cut off

    @property
    def width(self) -> int:
        return int(self.pixels.shape[1])

    @property
    def height(self) -> int:
        return int(self.pixels.shape[0])

    @property
    def on_screen(self) -> bool:
        """Whether the pixels came from the live screen (so its points can be clicked)."""
        return self.source in ("window", "screen")

    @property
    def screen_rect(self) -> Rect:
        """The screen points the frame covers."""
        return Rect(self.left, self.top, round(self.width / self.scale), round(self.height / self.scale))

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """Screen point of image pixel (x, y)."""
        return self.left + x / self.scale, self.top + y / self.scale

    def to_image(self, x: float, y: float) -> tuple[float, float]:
        """Image pixel at screen point (x, y)."""
        return (x - self.left) * self.scale, (y - self.top) * self.scale

    def box_to_screen(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        """An (x, y, w, h) image-pixel box as an (x, y, w, h) box in screen points."""
        x, y = self.to_screen(box[0], box[1])
        return x, y, box[2] / self.scale, box[3] / self.scale
