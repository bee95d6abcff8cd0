"""The desktop seam: `DesktopSession`, every question and every input the main job puts to the
desktop it runs on, and `open_desktop`, which picks the desktop's implementation.

One implementation file per desktop: `capture.x11` (python-xlib with XTest, and mss) and
`capture.wlroots` (sway and other wlroots compositors: wlr screencopy and the wlr virtual pointer
through pywayland, and sway's IPC where there is one)
and `capture.gnome` (mutter's screen cast and remote desktop over D-Bus). The
pipeline, the coach, the clicker and the guard type against `DesktopSession` only, so a Wayland
desktop (wlroots, GNOME) is one more file, not a change to them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from queens_autosolve.capture.errors import UnsupportedDesktopError

if TYPE_CHECKING:  # the command line reads DESKTOPS at start: no numpy, no Xlib for that
    from queens_autosolve.capture.geometry import Rect
    from queens_autosolve.capture.models import Frame, FrameSource, Monitor, Placement, Pointer, WindowRecord

# The names `--desktop` takes; "auto" picks from the session.
DESKTOPS = ("auto", "x11", "wlroots", "gnome")
IMPLEMENTED = ("x11", "wlroots", "gnome")
# Wayland compositors by the name they give in XDG_CURRENT_DESKTOP, lower case, and their family.
WLROOTS_COMPOSITORS = ("sway", "river", "wayfire", "labwc", "cage", "dwl", "hyprland")
WORKS_TODAY = ("today the tool works in an X11 session (e.g. 'Ubuntu on Xorg'), in sway and the "
               "compositors that offer wlroots' screen copy and virtual pointer (--desktop wlroots) and on "
               "GNOME (--desktop gnome): log in with one of those and run it there")


class DesktopSession(Protocol):
    """One open desktop: its windows, its pixels, its pointer, its buttons and wheel.

    Windows and points are in the desktop's own coordinates (screen points). A frame knows where
    it was taken (`Frame.rect`, `Frame.scale`), so the clicks never guess coordinates."""

    @property
    def placed(self) -> Pointer | None:
        """Where `move_pointer` last put the pointer (None: not moved yet)."""

    def __enter__(self) -> DesktopSession: ...

    def __exit__(self, *_: object) -> None: ...

    # --- windows ---------------------------------------------------------------------------

    def find_window(self, title: str | None = None, any_window: bool = False) -> WindowRecord:
        """The browser window to play in, or an error that says what was seen and what to do."""

    def refresh(self, window: WindowRecord) -> WindowRecord | None:
        """The window as it is now, in full (None: closed)."""

    def placement(self, window: WindowRecord) -> Placement | None:
        """Whether the window is still here, shown and where (None: closed): the quick check."""

    def windows_above(self, window: WindowRecord) -> list[WindowRecord]:
        """The shown named windows stacked above `window` (they may cover part of it)."""

    def window_at(self, x: float, y: float) -> WindowRecord | None:
        """The topmost shown window at (x, y), or None (bare desktop)."""

    def window_manager(self) -> str | None:
        """The window manager's name ('' unnamed), None when none runs."""

    # --- pixels ----------------------------------------------------------------------------

    def monitors(self) -> list[Monitor]:
        """Every monitor; index 0 is the bounding box of all of them."""

    def grab(self, rect: Rect, *, source: FrameSource, window: WindowRecord | None = None) -> Frame:
        """The pixels of `rect`, clipped to the screen."""

    def grab_window(self, window: WindowRecord) -> Frame: ...

    def will_grab(self, rect: Rect) -> None:
        """The job will grab `rect` (the board) again and again from now on, between its clicks: a
        desktop that can serve such grabs faster gets ready now (GNOME: a cast of that area)."""

    def grab_screen(self) -> Frame: ...

    # --- the pointer, the buttons, the wheel --------------------------------------------------

    def pointer(self) -> Pointer:
        """Where the pointer is now, and whether it is on this desktop's screen at all."""

    def move_pointer(self, x: int, y: int, *, before: Pointer | None = None,
                     click_follows: bool = False) -> Pointer:
        """Move the pointer to (x, y) and return where it then is (`before`: where it was just
        found, when the caller knows). `click_follows`: a click at (x, y) comes next, at once; a
        desktop whose click carries its own move may send this one with it (wlroots)."""

    def moved_by_someone_else(self) -> Pointer | None:
        """Where the pointer is, if no longer where `move_pointer` last put it; None otherwise."""

    def prepare_input(self) -> None:
        """Make the buttons and the wheel ready now, outside the timed stages."""

    def click(self, x: int, y: int, times: int = 1) -> None:
        """`times` left clicks at (x, y), where `move_pointer` has just put the pointer, one
        after the other with no gap (a cell's empty -> X -> queen)."""

    def wheel(self, down: int = 0, right: int = 0) -> None:
        """Turn the wheel where the pointer is: notches towards the bottom, and the right, of
        the page (negative: the top, the left)."""


@runtime_checkable
class KnowsPointerHeld(Protocol):
    """A desktop that can tell when another program holds the pointer, as a screen locker does
    (X11: an active grab): `watch` then waits instead of clicking into the lock."""

    def pointer_held_elsewhere(self) -> bool: ...


def open_desktop(display: str | None = None, desktop: str = "auto",
                 env: Mapping[str, str] | None = None, *, will_click: bool = False) -> DesktopSession:
    """The desktop to work on: `desktop` one of DESKTOPS; "auto" is X11, unless the session is
    Wayland and no X11 display was named (`display`, from --display): GNOME there is "gnome". A
    desktop that is not implemented yet is an UnsupportedDesktopError naming it and what works today.
    `will_click`: the job will click, so the input is made ready as the desktop opens
    (`DesktopSession.prepare_input`), as early as the desktop allows.

    >>> with open_desktop() as session:                 # doctest: +SKIP
    ...     frame = session.grab_window(session.find_window())
    """
    env = os.environ if env is None else env
    chosen = choose_desktop(display, desktop, env)  # one of IMPLEMENTED, or an error
    if chosen == "wlroots":
        from queens_autosolve.capture.wlroots import (
            WlrootsDesktop,  # pywayland: only for a wlroots session
        )

        return WlrootsDesktop(env, will_click=will_click)
    session: DesktopSession
    if chosen == "gnome":
        from queens_autosolve.capture.gnome import GnomeDesktop  # jeepney, GStreamer: only once it is opened

        session = GnomeDesktop(env)
    else:
        from queens_autosolve.capture.x11 import X11Desktop  # Xlib, mss: only once a desktop is opened

        x11 = X11Desktop(display, env)
        refuse_xwayland(x11.name, env, x11.close)
        session = x11
    if will_click:
        try:
            session.prepare_input()
        except BaseException:
            session.__exit__(None, None, None)
            raise
    return session


def refuse_xwayland(name: str, env: Mapping[str, str], close: Callable[[], None]) -> None:
    """Inside a Wayland session, refuse an X11 display that is its XWayland (after `close`): an
    X11 grab there ignores the windows over the browser, and X11 clicks reach it under them."""
    from queens_autosolve.capture.x11_windows import is_wayland_session, runs_on_xwayland

    if not is_wayland_session(env) or not runs_on_xwayland(name):
        return
    close()
    instead = ("run it without --desktop x11 and --display: the wlroots desktop drives XWayland windows "
               "through the compositor" if env.get("SWAYSOCK") else WORKS_TODAY)
    raise UnsupportedDesktopError(
        f"the X11 display {name} is this Wayland session's XWayland, where an X11 grab ignores the "
        f"windows over the browser and X11 clicks reach it under them, so nothing is clicked through "
        f"it; {instead}"
    )


def choose_desktop(display: str | None, desktop: str, env: Mapping[str, str]) -> str:
    """The name of the desktop implementation `open_desktop` opens, or an UnsupportedDesktopError."""
    if desktop not in DESKTOPS:
        raise UnsupportedDesktopError(f"unknown desktop {desktop!r}; choose one of {', '.join(DESKTOPS)}")
    if desktop == "auto":
        from queens_autosolve.capture.x11_windows import is_wayland_session

        if display is not None or not is_wayland_session(env):
            return "x11"
        if is_wlroots_session(env):
            return "wlroots"
        compositor = compositor_name(env)
        if is_gnome(compositor):
            return "gnome"
        lacking = (" that offers no wlroots screen copy or virtual pointer (the tool's way to see and "
                   "click there)") if family_of(compositor) else ""
        raise UnsupportedDesktopError(
            f"this is a Wayland session ({compositor}{family_of(compositor)}){lacking}, which the tool "
            f"cannot drive yet; {WORKS_TODAY}"
        )
    if desktop not in IMPLEMENTED:
        raise UnsupportedDesktopError(
            f"--desktop {desktop} is not supported yet; {WORKS_TODAY} (--desktop x11)"
        )
    if desktop == "wlroots" and not env.get("WAYLAND_DISPLAY"):
        raise UnsupportedDesktopError(
            "--desktop wlroots needs a Wayland session (WAYLAND_DISPLAY set), and this is none; run it "
            "from inside sway or another wlroots compositor, or try `queens-autosolve demo --desktop sway`"
        )
    return desktop


def is_wlroots_session(env: Mapping[str, str]) -> bool:
    """Whether the Wayland session is one the wlroots desktop drives: the compositor offers
    screencopy and the virtual pointer (the globals tell the truth, whatever XDG_CURRENT_DESKTOP
    says; GNOME's and KDE's offer neither). sway's IPC (SWAYSOCK) adds its window list."""
    from queens_autosolve.capture.wlroots import offers_wlroots_globals

    return offers_wlroots_globals(env)


def compositor_name(env: Mapping[str, str]) -> str:
    """The Wayland compositor's name as the session gives it, or 'compositor unknown'."""
    return env.get("XDG_CURRENT_DESKTOP") or env.get("XDG_SESSION_DESKTOP") or "compositor unknown"


def is_gnome(compositor: str) -> bool:
    """Whether XDG_CURRENT_DESKTOP names GNOME ("GNOME", "ubuntu:GNOME", "GNOME-Classic:GNOME")."""
    return "gnome" in compositor.lower().split(":")


def family_of(compositor: str) -> str:
    """', a wlroots compositor' when it is one (the desktop it will need), else ''."""
    names = compositor.lower().split(":")  # XDG_CURRENT_DESKTOP may list several: "ubuntu:GNOME"
    return ", a wlroots compositor" if any(name in WLROOTS_COMPOSITORS for name in names) else ""
