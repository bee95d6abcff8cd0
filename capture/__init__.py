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

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from capture.desktop import DesktopSession, open_desktop
    from capture.errors import (
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
    from capture.geometry import Rect
    from capture.image_file import load_image
    from capture.models import Frame, FrameSource, Monitor, Pointer, WindowRecord
    from capture.windows import DEFAULT_TITLE, check_browser, choose_window, rank_windows
    from capture.x11 import Desktop, X11Desktop

# Each public name and the module that holds it.
_HOMES = {
    "Desktop": "capture.x11",
    "X11Desktop": "capture.x11",
    "DesktopSession": "capture.desktop",
    "open_desktop": "capture.desktop",
    "BoardNotVisibleError": "capture.errors",
    "CaptureError": "capture.errors",
    "ImageReadError": "capture.errors",
    "NoDisplayError": "capture.errors",
    "NotABrowserError": "capture.errors",
    "UnsupportedDesktopError": "capture.errors",
    "WaylandSessionError": "capture.errors",
    "WindowMinimisedError": "capture.errors",
    "WindowNotFoundError": "capture.errors",
    "WindowOffScreenError": "capture.errors",
    "Rect": "capture.geometry",
    "load_image": "capture.image_file",
    "Frame": "capture.models",
    "FrameSource": "capture.models",
    "Monitor": "capture.models",
    "Pointer": "capture.models",
    "WindowRecord": "capture.models",
    "DEFAULT_TITLE": "capture.windows",
    "check_browser": "capture.windows",
    "choose_window": "capture.windows",
    "rank_windows": "capture.windows",
}

__all__ = [
    "BoardNotVisibleError",
    "CaptureError",
    "DEFAULT_TITLE",
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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'capture' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # once: later lookups do not come back here
    return value
