"""Capture: find the browser window showing the game on X11 and grab its pixels with mss.

``Desktop`` opens the display; ``find_window`` picks the game's window (`capture.windows`),
``grab_window``/``grab_screen`` return a `Frame` that knows its place on screen;
``load_image`` reads a screenshot file for offline use.
"""

from capture.desktop import Desktop, load_image
from capture.errors import (
    BoardNotVisibleError,
    CaptureError,
    ImageReadError,
    NoDisplayError,
    NotABrowserError,
    WaylandSessionError,
    WindowMinimisedError,
    WindowNotFoundError,
    WindowOffScreenError,
)
from capture.models import Frame, Monitor, Pointer, Rect, WindowRecord
from capture.windows import DEFAULT_TITLE, check_browser, choose_window, rank_windows

__all__ = [
    "DEFAULT_TITLE",
    "BoardNotVisibleError",
    "CaptureError",
    "Desktop",
    "Frame",
    "ImageReadError",
    "Monitor",
    "Pointer",
    "NoDisplayError",
    "NotABrowserError",
    "Rect",
    "WaylandSessionError",
    "WindowMinimisedError",
    "WindowNotFoundError",
    "WindowOffScreenError",
    "WindowRecord",
    "check_browser",
    "choose_window",
    "load_image",
    "rank_windows",
]
