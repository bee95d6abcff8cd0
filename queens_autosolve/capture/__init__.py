"""Capture: the desktop the game is on: find the browser window, grab its pixels, move the
pointer, click and turn the wheel there.

``DesktopSession`` (`capture.desktop`) is every verb the job uses; ``open_desktop`` picks the
implementation (`capture.x11`, whose ``X11Desktop`` is also ``Desktop``); ``find_window`` picks
the game's window (`capture.windows`), ``grab_window``/``grab_screen`` return a `Frame` that
knows its place on screen; ``load_image`` reads a screenshot file into a `Frame` for offline use.

The names below load on first use (PEP 562): `capture.geometry` (`Rect`), `capture.models`
(`Frame`) and `capture.image_file` (`load_image`) stay importable without Xlib and mss, which
only the X11 desktop needs. Vision, used offline, imports just those.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from queens_autosolve.lazy import lazy_names

if TYPE_CHECKING:
    from queens_autosolve.capture.desktop import DesktopSession, open_desktop
    from queens_autosolve.capture.errors import (
        BoardNotVisibleError,
        CaptureError,
        ImageReadError,
        NoDisplayError,
        NotABrowserError,
        UnsupportedDesktopError,
        WaylandSessionError,
        WindowMinimisedError,
        WindowNotFoundError,
        WindowOffScreenError,
    )
    from queens_autosolve.capture.geometry import Rect
    from queens_autosolve.capture.image_file import load_image
    from queens_autosolve.capture.models import Frame, FrameSource, Monitor, Pointer, WindowRecord
    from queens_autosolve.capture.windows import DEFAULT_TITLE, check_browser, choose_window, rank_windows
    from queens_autosolve.capture.x11 import Desktop, X11Desktop

# Each public name and the module that holds it.
_HOMES = {
    "Desktop": "queens_autosolve.capture.x11",
    "X11Desktop": "queens_autosolve.capture.x11",
    "DesktopSession": "queens_autosolve.capture.desktop",
    "open_desktop": "queens_autosolve.capture.desktop",
    "BoardNotVisibleError": "queens_autosolve.capture.errors",
    "CaptureError": "queens_autosolve.capture.errors",
    "ImageReadError": "queens_autosolve.capture.errors",
    "NoDisplayError": "queens_autosolve.capture.errors",
    "NotABrowserError": "queens_autosolve.capture.errors",
    "UnsupportedDesktopError": "queens_autosolve.capture.errors",
    "WaylandSessionError": "queens_autosolve.capture.errors",
    "WindowMinimisedError": "queens_autosolve.capture.errors",
    "WindowNotFoundError": "queens_autosolve.capture.errors",
    "WindowOffScreenError": "queens_autosolve.capture.errors",
    "Rect": "queens_autosolve.capture.geometry",
    "load_image": "queens_autosolve.capture.image_file",
    "Frame": "queens_autosolve.capture.models",
    "FrameSource": "queens_autosolve.capture.models",
    "Monitor": "queens_autosolve.capture.models",
    "Pointer": "queens_autosolve.capture.models",
    "WindowRecord": "queens_autosolve.capture.models",
    "DEFAULT_TITLE": "queens_autosolve.capture.windows",
    "check_browser": "queens_autosolve.capture.windows",
    "choose_window": "queens_autosolve.capture.windows",
    "rank_windows": "queens_autosolve.capture.windows",
}

__all__ = [
    "DEFAULT_TITLE",
    "BoardNotVisibleError",
    "CaptureError",
    "Desktop",
    "DesktopSession",
    "Frame",
    "FrameSource",
    "ImageReadError",
    "Monitor",
    "NoDisplayError",
    "NotABrowserError",
    "Pointer",
    "Rect",
    "UnsupportedDesktopError",
    "WaylandSessionError",
    "WindowMinimisedError",
    "WindowNotFoundError",
    "WindowOffScreenError",
    "WindowRecord",
    "X11Desktop",
    "check_browser",
    "choose_window",
    "load_image",
    "open_desktop",
    "rank_windows",
]

__getattr__ = lazy_names(__name__, _HOMES)
