"""`Desktop`: one open X11 display to find the game's window on and grab its pixels with mss.

Keeping the connections open across capture, the pre-click check and verification saves a
reconnect per stage. Only the window's rectangle is grabbed (clipped to the screen), so a grab
of a browser window costs a few milliseconds.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import mss
import numpy as np

from capture.errors import ImageReadError, WindowNotFoundError, WindowOffScreenError
from capture.models import Frame, Monitor, Rect, WindowRecord
from capture.windows import DEFAULT_TITLE, choose_window
from capture.x11 import WindowLister, display_name, is_wayland_session, open_display


class Desktop:
    """An X11 display (default: $DISPLAY) with its windows and monitors.

    >>> with Desktop() as desktop:                      # doctest: +SKIP
    ...     frame = desktop.grab_window(desktop.find_window())
    """

    def __init__(self, display: str | None = None, env: Mapping[str, str] | None = None) -> None:
        self.env = os.environ if env is None else env
        self.name = display or display_name(self.env)
        self.display = open_display(self.name)
        self.lister = WindowLister(self.display)
        self._mss: mss.MSS | None = None

    def __enter__(self) -> Desktop:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self._mss is not None:
            self._mss.close()
            self._mss = None
        self.display.close()

    @property
    def screenshots(self) -> mss.MSS:
        if self._mss is None:
            self._mss = mss.MSS(display=self.name)
        return self._mss

    def windows(self, title: str | None = None) -> list[WindowRecord]:
        return self.lister.windows(title)

    def find_window(self, title: str | None = None) -> WindowRecord:
        """The window to play in (see `capture.windows.choose_window`)."""
        records = self.windows(title or DEFAULT_TITLE)
        try:
            try:
                return choose_window(records, title)
            except WindowNotFoundError:
                # Look at every window closely, so the error lists only those really on screen.
                return choose_window(self.windows(), title)
        except WindowNotFoundError as exc:
            if is_wayland_session(self.env):
                raise WindowNotFoundError(
                    f"{exc} (this is a Wayland session: a browser running as a native Wayland "
                    "client is invisible to X11; start it with --ozone-platform=x11 or log in with X11)"
                ) from None
            raise

    def refresh(self, window: WindowRecord) -> WindowRecord | None:
        """The window as it is now (None when it was closed)."""
        return self.lister.refresh(window.wid)

    def windows_above(self, window: WindowRecord) -> list[WindowRecord]:
        """The viewable named windows stacked above `window` (they may cover part of it)."""
        return self.lister.windows_above(window.wid)

    def monitors(self) -> list[Monitor]:
        """Every monitor; index 0 is the bounding box of all of them (mss convention)."""
        return [
            Monitor(i, Rect(m["left"], m["top"], m["width"], m["height"]))
            for i, m in enumerate(self.screenshots.monitors)
        ]

    def monitor_of(self, rect: Rect) -> Monitor:
        """The monitor showing most of `rect`."""
        monitors = self.monitors()
        real = monitors[1:] or monitors
        return max(real, key=lambda m: (m.rect.intersection(rect).width * m.rect.intersection(rect).height))

    def grab(self, rect: Rect, *, source: str, window: WindowRecord | None = None) -> Frame:
        """The pixels of `rect` (clipped to the screen) as a Frame."""
        screen = self.monitors()[0].rect
        visible = rect.intersection(screen)
        if visible.empty:
            raise WindowOffScreenError(
                f"the window {window.title if window else ''!r} at {rect} lies outside the screen "
                f"{screen}; move it onto the screen"
            )
        shot = self.screenshots.grab(visible.as_mss())
        bgra = np.asarray(shot)  # a view of mss's buffer (__array_interface__), H x W x 4
        scale = shot.width / visible.width  # 1 on X11; more where screenshots are in device pixels
        return Frame(
            pixels=bgra[..., 2::-1],  # RGB view of the BGRA buffer: no copy
            left=visible.left,
            top=visible.top,
            scale=scale,
            source=source,
            window=window,
            monitor=self.monitor_of(visible),
            bgra=bgra,
        )

    def grab_window(self, window: WindowRecord) -> Frame:
        return self.grab(window.rect, source="window", window=window)

    def grab_screen(self) -> Frame:
        return self.grab(self.monitors()[0].rect, source="screen")


def load_image(path: str | Path) -> Frame:
    """A screenshot file as a Frame (offline: nothing on it can be clicked)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            rgb = np.asarray(image.convert("RGB"))
    except FileNotFoundError:
        raise ImageReadError(f"{path}: no such file; give a screenshot (PNG or JPEG)") from None
    except (UnidentifiedImageError, OSError) as exc:
        raise ImageReadError(f"{path}: cannot read it as an image ({exc}); give a PNG or JPEG") from None
    return Frame(pixels=rgb, source="image")
