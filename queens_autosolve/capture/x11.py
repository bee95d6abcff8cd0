"""The X11 desktop (`capture.desktop.DesktopSession` on X11): one open display to find the game's
window on, grab its pixels with mss, and move the pointer, press and turn the wheel with XTest.

Keeping the connections open across capture, the pre-click check and verification saves a
reconnect per stage. Only the window's rectangle is grabbed (clipped to the screen), so a grab
of a browser window costs a few milliseconds.

The tests and scripts that click as a user's tools do use pyautogui (tests/user_pointer.py).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import mss
import numpy as np
from Xlib import X
from Xlib.ext.xtest import fake_input

from queens_autosolve.capture.errors import (
    CaptureError,
    WindowMinimisedError,
    WindowNotFoundError,
    WindowOffScreenError,
)
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.models import Frame, FrameSource, Monitor, Placement, Pointer, WindowRecord
from queens_autosolve.capture.windows import DEFAULT_TITLE, choose_window
from queens_autosolve.capture.x11_windows import WindowLister, display_name, is_wayland_session, open_display

# X pointer buttons: the left one, and the wheel's four directions (each notch a press and release).
LEFT_BUTTON, WHEEL_UP, WHEEL_DOWN, WHEEL_LEFT, WHEEL_RIGHT = 1, 4, 5, 6, 7
# Seconds a pointer move may wait in the X server's queue while a window manager holds the
# pointer frozen after a press (openbox does, to focus and raise the window clicked).
POINTER_WAIT = 0.5


class X11Desktop:
    """An X11 display (default: $DISPLAY) with its windows, monitors, pointer and buttons.

    >>> with X11Desktop() as desktop:                   # doctest: +SKIP
    ...     frame = desktop.grab_window(desktop.find_window())
    """

    def __init__(self, display: str | None = None, env: Mapping[str, str] | None = None) -> None:
        self.env = os.environ if env is None else env
        self.name = display or display_name(self.env)
        self.display = open_display(self.name)
        self.lister = WindowLister(self.display)
        self.screen_number = self.display.get_default_screen()
        self.root = self.display.screen().root
        self._mss: mss.MSS | None = None
        # where `move_pointer` last put the pointer (None: not moved yet): a pointer found
        # anywhere else has been moved by someone else since, most likely the user
        self.placed: Pointer | None = None

    def __enter__(self) -> X11Desktop:
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
            with sonames_by_dlopen():
                self._mss = mss.MSS(display=self.name)
        return self._mss

    def windows(self, title: str | None = None) -> list[WindowRecord]:
        return self.lister.windows(title)

    def find_window(self, title: str | None = None, any_window: bool = False) -> WindowRecord:
        """The window to play in (see `capture.windows.choose_window`)."""
        records = self.windows(title or DEFAULT_TITLE)
        try:
            try:
                return choose_window(records, title, any_window)
            except WindowNotFoundError:
                # Look at every window closely, so the error lists only those really on screen.
                return choose_window(self.windows(), title, any_window)
        except WindowNotFoundError as exc:
            if is_wayland_session(self.env):
                raise WindowNotFoundError(
                    f"{exc} (this is a Wayland session: a browser running as a native Wayland "
                    "client is invisible to X11; start it with --ozone-platform=x11 or log in with X11)"
                ) from None
            elsewhere = self.matches_on_other_screens(title or DEFAULT_TITLE)
            if elsewhere:
                raise WindowNotFoundError(f"{exc}; {elsewhere}") from None
            raise

    def matches_on_other_screens(self, title: str) -> str:
        """A sentence about the other X screens of this display ('' when it has one): which of
        them show a matching browser window. X screens are separate worlds, each read and
        clicked through its own display name (":0.1")."""
        others = [n for n in range(self.display.screen_count()) if n != self.screen_number]
        if not others:
            return ""
        found = []
        for number in others:
            try:
                choose_window(WindowLister(self.display, number).windows(title), title)
            except (WindowNotFoundError, WindowMinimisedError):
                continue
            found.append(self.screen_name(number))
        names = ", ".join(self.screen_name(n) for n in others)
        if not found:
            return f"this display has other X screens ({names}), and none of them shows one either"
        return f"the display has other X screens, and {found[0]} shows one: run with --display {found[0]}"

    def screen_name(self, number: int) -> str:
        """The display name that selects X screen `number` of this display (":1" -> ":1.1")."""
        base = self.name.rsplit(".", 1)[0] if "." in self.name.rsplit(":", 1)[-1] else self.name
        return f"{base}.{number}"

    def refresh(self, window: WindowRecord) -> WindowRecord | None:
        """The window as it is now (None when it was closed)."""
        return self.lister.refresh(window.wid)

    def window_manager(self) -> str | None:
        """The window manager's name ('' unnamed), None when no window manager runs."""
        return self.lister.window_manager()

    def placement(self, window: WindowRecord) -> Placement | None:
        """Where the window is now and whether it is shown (None when it was closed): a quicker
        question than `refresh`."""
        return self.lister.placement(window.wid)

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

    def grab(self, rect: Rect, *, source: FrameSource, window: WindowRecord | None = None) -> Frame:
        """The pixels of `rect` (clipped to the screen) as a Frame; `Frame.clipped` names the
        edges of `rect` the screen cut off (anything near them may be cut too)."""
        screen = self.monitors()[0].rect
        visible = rect.intersection(screen)
        if visible.empty:
            raise WindowOffScreenError(
                f"the window {window.title if window else ''!r} at {rect} lies outside the screen "
                f"{screen}; move it onto the screen"
            )
        shot = self.screenshots.grab(visible.as_mss())
        return Frame(
            # a view of mss's BGRA buffer (__array_interface__), H x W x 4: no copy; more pixels
            # than points where screenshots are in device pixels (the frame's scale)
            raw=np.asarray(shot),
            rect=visible,
            source=source,
            window=window,
            monitor=self.monitor_of(visible),
            clipped=rect.edges_outside(screen),
        )

    # --- the pointer, on this display's own X screen ------------------------------------------

    def pointer(self) -> Pointer:
        """Where the pointer is now, and whether it is on this X screen at all."""
        reply = self.root.query_pointer()
        return Pointer(int(reply.root_x), int(reply.root_y), bool(reply.same_screen))

    def move_pointer(
        self, x: int, y: int, wait: float = POINTER_WAIT, before: Pointer | None = None,
        click_follows: bool = False,
    ) -> Pointer:
        """Move the pointer to (x, y) on THIS X screen and return where it then is.

        An XTest motion event moves the pointer as a mouse would, but only on the screen it is
        already on (Xvfb ignores the root named in the event); a warp to
        our root window first brings it over from another X screen. The XTest presses that
        follow at the same point then land on this screen.

        A window manager that grabs button presses (openbox, to focus and raise the window
        clicked) freezes the pointer until it has replayed the press: the move then waits in
        the server's queue and the pointer still shows where it was. So while it has not left
        its old place we wait, up to `wait` seconds; a pointer found anywhere else was moved by
        someone else. `before`: where the pointer was just found on this screen, when the caller
        knows (saves a round trip to the X server per cell clicked).

        The question where the pointer is then goes after the move on the same connection, so
        the server answers it only once it has handled the move: no separate sync is needed.
        (`click_follows` changes nothing here: the move is checked, so it goes out first.)"""
        before = before if before is not None else self.pointer()
        if not before.on_screen:
            self.root.warp_pointer(x, y)
        else:
            fake_input(self.display, X.MotionNotify, x=x, y=y, root=self.root)
        deadline = time.monotonic() + wait
        while True:
            now = self.pointer()
            if now.at(x, y):
                self.placed = now
            if now.at(x, y) or now != before or time.monotonic() >= deadline:
                return now
            time.sleep(0.002)

    def moved_by_someone_else(self) -> Pointer | None:
        """Where the pointer is, if it is no longer where `move_pointer` last put it: the user
        has taken the mouse (or another program moved it). None while it is still there, and
        before this desktop has moved it at all."""
        if self.placed is None:
            return None
        now = self.pointer()
        return None if now == self.placed else now

    def pointer_held_elsewhere(self) -> bool:
        """Whether another program holds the pointer (an active grab: a screen locker's, or a
        drag under way), so that a click now would go to it, not to the window under the
        pointer. Asked by taking the pointer for an instant and giving it straight back."""
        status = self.root.grab_pointer(False, 0, X.GrabModeAsync, X.GrabModeAsync, X.NONE, X.NONE,
                                        X.CurrentTime)
        if status == X.GrabSuccess:
            self.display.ungrab_pointer(X.CurrentTime)
            self.display.flush()
        return status in (X.AlreadyGrabbed, X.GrabFrozen)

    # --- the buttons and the wheel, through XTest on this display's own connection ----------

    def will_grab(self, rect: Rect) -> None:
        """Nothing to prepare: an X11 grab of any rectangle is as quick."""

    def prepare_input(self) -> None:
        """Refuse now, before any click, an X server without the XTEST extension (the presses
        go through it; the server listed its extensions when the display was opened)."""
        if not self.display.has_extension("XTEST"):
            raise CaptureError(f"the X server {self.name} offers no XTEST extension, through which the "
                               "clicks are made; nothing clicked (start it with XTEST enabled)")

    def click(self, x: int, y: int, times: int = 1) -> None:
        """`times` left clicks where `move_pointer` has just put the pointer, (x, y): XTest
        presses and releases sent together, without waiting for the server. The next question to
        it (where the pointer is, before the next cell) follows them on the same connection, so
        it is answered only once they are handled."""
        for _ in range(times):
            self._press(LEFT_BUTTON)

    def wheel(self, down: int = 0, right: int = 0) -> None:
        """Turn the mouse wheel where the pointer is: `down` notches towards the bottom of the
        page (negative: the top), `right` notches sideways towards the right (negative: left)."""
        for notches, forward, back in ((down, WHEEL_DOWN, WHEEL_UP), (right, WHEEL_RIGHT, WHEEL_LEFT)):
            for _ in range(abs(notches)):
                self._press(forward if notches > 0 else back)
        self.display.sync()

    def _press(self, button: int) -> None:
        fake_input(self.display, X.ButtonPress, button)
        fake_input(self.display, X.ButtonRelease, button)
        self.display.flush()

    def window_at(self, x: float, y: float) -> WindowRecord | None:
        """The topmost viewable window at root point (x, y), or None (bare desktop)."""
        records = [r for r in self.lister.windows() if r.title]
        for record in sorted(records, key=lambda r: r.stacking, reverse=True):
            full = self.lister.refresh(record.wid)
            if full is not None and full.viewable and not full.minimised and full.rect.contains(x, y):
                return full
        return None

    def grab_window(self, window: WindowRecord) -> Frame:
        return self.grab(window.rect, source=FrameSource.WINDOW, window=window)

    def grab_screen(self) -> Frame:
        return self.grab(self.monitors()[0].rect, source=FrameSource.SCREEN)


# The X11 desktop by the name the tests, the scripts and the browser helpers have always used.
Desktop = X11Desktop


# The sonames of the X libraries mss loads, fixed by their ABI (Debian, Fedora, Arch alike).
X_SONAMES = {
    "X11": "libX11.so.6", "Xfixes": "libXfixes.so.3", "Xrandr": "libXrandr.so.2",
    "xcb": "libxcb.so.1", "xcb-randr": "libxcb-randr.so.0", "xcb-render": "libxcb-render.so.0",
    "xcb-shm": "libxcb-shm.so.0", "xcb-xfixes": "libxcb-xfixes.so.0",
}


@contextmanager
def sonames_by_dlopen() -> Iterator[None]:
    """While mss starts, `ctypes.util.find_library` answers for the X libraries by opening their
    soname directly, and asks the system only when that fails.

    mss looks up eight libraries, and on Linux each lookup runs `ldconfig -p` in a subprocess:
    70-110 ms of a run's start, more than grabbing and reading the board together."""
    original = ctypes.util.find_library

    def find_library(name: str) -> str | None:
        soname = X_SONAMES.get(name)
        if soname is not None:
            try:
                ctypes.CDLL(soname)
            except OSError:
                pass
            else:
                return soname
        return original(name)

    ctypes.util.find_library = find_library
    try:
        yield
    finally:
        ctypes.util.find_library = original
