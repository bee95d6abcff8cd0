"""pyautogui as a user's tools click: the tests and scripts that press on the page the way
another program would (the product presses through XTest itself, capture/x11.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from Xlib.display import Display

# pyautogui imports these only to offer message boxes (through tkinter), screenshots and its
# mouse-info window, none of which the tests use; hidden while it loads, they cost no time.
UNUSED_BY_US = ("pymsgbox", "pyscreeze", "mouseinfo")


class PyAutoGUI(Protocol):
    """The part of the pyautogui module this project uses (the module itself fits it, checked
    where `load_pyautogui` returns it)."""

    FAILSAFE: bool
    PAUSE: float

    def click(self, x: int | None = None, y: int | None = None, clicks: int = 1,
              interval: float = 0.0) -> None: ...

    def moveTo(self, x: int | None = None, y: int | None = None) -> None: ...

    def mouseDown(self, x: int | None = None, y: int | None = None) -> None: ...

    def mouseUp(self, x: int | None = None, y: int | None = None) -> None: ...

    def scroll(self, clicks: float) -> None: ...

    def hscroll(self, clicks: float) -> None: ...


def load_pyautogui(display: str, connection: Display | None = None) -> PyAutoGUI:
    """pyautogui, sending its events to X11 display `display`; through `connection` when given
    (an open Xlib connection to `display`, which pyautogui then shares)."""
    before = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display  # read by pyautogui's X11 backend on import
    hidden = [name for name in UNUSED_BY_US if name not in sys.modules]
    for name in hidden:
        # None in sys.modules is how Python blocks an import (it raises ImportError); typeshed types
        # the table as modules only
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        with _connections_given(connection):
            import pyautogui
    finally:  # leave the environment and the module table as they were
        for name in hidden:
            del sys.modules[name]
        if before is None:
            del os.environ["DISPLAY"]
        else:
            os.environ["DISPLAY"] = before

    backend = getattr(pyautogui, "_pyautogui_x11", None)  # private: not in pyautogui's stubs
    current = getattr(backend, "_display", None)
    if backend is None or current is None:
        return pyautogui
    if connection is not None:
        backend._display = connection
    elif not _connected_to(current, display):
        # Imported earlier for another X server (tests start one Xvfb per module, and a display
        # number can be reused by a new server after the old one stopped), or through a
        # connection since closed: rebind it.
        backend._display = Display(display)
    return pyautogui


@contextmanager
def _connections_given(connection: Display | None) -> Iterator[None]:
    """While pyautogui's X11 backend is imported (it opens its connection then), opening a
    connection gives `connection` instead (None: a new one, as usual)."""
    if connection is None:
        yield
        return
    import Xlib.display

    real = Xlib.display.Display
    setattr(Xlib.display, "Display", lambda *_args, **_kwargs: connection)  # noqa: B010
    try:
        yield
    finally:
        setattr(Xlib.display, "Display", real)  # noqa: B010


def _connected_to(connection: Display, display: str) -> bool:
    """Whether an Xlib connection is to `display` and its server still answers."""
    from Xlib import error

    if connection.get_display_name() != display:
        return False
    try:
        connection.get_input_focus()
    except (error.ConnectionClosedError, OSError):
        return False
    return True
