"""The X11 plumbing under `capture.x11`, through python-xlib: is there a display, which windows
exist, where are they.

Windows are listed bottom to top: from the window manager's _NET_CLIENT_LIST_STACKING when there
is one, else from the root's children (XQueryTree returns them in stacking order), looking one
level into window-manager frames for the client window inside.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from Xlib import X, Xatom, error
from Xlib import ext as xlib_extensions
from Xlib.display import Display
from Xlib.xobject.drawable import Window

from queens_autosolve.capture.errors import NoDisplayError, WaylandSessionError
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.models import Placement, WindowRecord

_ICONIC_STATE = 3  # ICCCM WM_STATE value of a minimised window
ALL_DESKTOPS = 0xFFFFFFFF  # _NET_WM_DESKTOP of a window shown on every desktop (EWMH)


def is_wayland_session(env: Mapping[str, str]) -> bool:
    return bool(env.get("WAYLAND_DISPLAY")) or env.get("XDG_SESSION_TYPE", "").lower() == "wayland"


def runs_on_xwayland(name: str) -> bool:
    """Whether X11 display `name` is a Wayland compositor's XWayland (its RandR outputs are named
    XWAYLAND0, ...). A connection of its own with every extension: asked only in a Wayland session."""
    try:
        display = Display(name)
    except (error.DisplayError, error.ConnectionClosedError, OSError):
        return False
    try:
        if not display.has_extension("RANDR"):
            return False
        resources = display.screen().root.xrandr_get_screen_resources()
        names = [display.xrandr_get_output_info(output, resources.config_timestamp).name
                 for output in resources.outputs]
        return any(name.startswith("XWAYLAND") for name in names)
    finally:
        display.close()


def display_name(env: Mapping[str, str] | None = None) -> str:
    """The X11 display to use, or an error that says why there is none and what to do."""
    env = os.environ if env is None else env
    name = env.get("DISPLAY", "")
    if name:
        return name
    if is_wayland_session(env):
        raise WaylandSessionError(
            "this is a Wayland session without X11 (DISPLAY is not set): windows of other programs "
            "cannot be found or clicked; log in with an X11 session (e.g. 'Ubuntu on Xorg') or "
            "run the browser under XWayland with DISPLAY set"
        )
    raise NoDisplayError(
        "no X11 display (DISPLAY is not set): run this on the desktop where the browser is open, "
        "or try `queens-autosolve demo`, which starts its own Xvfb"
    )


# The X extensions this project uses through python-xlib: XTEST, for the pointer moves, the
# presses and the wheel (mss grabs through its own connection). On connecting, python-xlib imports
# and sets up a module for every extension the server offers, with a round trip each: 15 on
# Xvfb, 20-30 ms of every run's start.
USED_EXTENSIONS = frozenset({"XTEST"})


def open_display(name: str) -> Display:
    """Connect to X server `name`, setting up only USED_EXTENSIONS; a refused or absent server is
    a NoDisplayError."""
    try:
        with _extensions_limited_to(USED_EXTENSIONS):
            return Display(name)
    except (error.DisplayError, error.ConnectionClosedError, OSError) as exc:
        raise NoDisplayError(
            f"cannot connect to X11 display {name!r} ({exc}); check DISPLAY and that the X server "
            "is running (`xdpyinfo` should work)"
        ) from None


@contextmanager
def _extensions_limited_to(names: frozenset[str]) -> Iterator[None]:
    """While a Display connects, python-xlib's table of the extensions it knows lists only `names`."""
    every = getattr(xlib_extensions, "__extensions__")  # noqa: B009  (not in python-xlib's stubs)
    setattr(xlib_extensions, "__extensions__", [(ext, module) for ext, module in every if ext in names])  # noqa: B010
    try:
        yield
    finally:
        setattr(xlib_extensions, "__extensions__", every)  # noqa: B010


class WindowLister:
    """Reads top-level windows and their properties from one X11 connection."""

    def __init__(self, display: Display, screen: int | None = None) -> None:
        self.display = display
        self.root = display.screen(screen).root
        self._atoms: dict[str, int] = {}

    def atom(self, name: str) -> int:
        if name not in self._atoms:
            self._atoms[name] = self.display.intern_atom(name)
        return self._atoms[name]

    def client_windows(self) -> list[Window]:
        """Top-level client windows, bottom to top."""
        stacking = self.root.get_full_property(self.atom("_NET_CLIENT_LIST_STACKING"), Xatom.WINDOW)
        if stacking is not None and len(stacking.value):
            return [self.display.create_resource_object("window", wid) for wid in stacking.value]
        return list(self._clients_from_tree())

    def _clients_from_tree(self) -> Iterator[Window]:
        wm_state = self.atom("WM_STATE")
        for child in self.root.query_tree().children:
            try:
                if self.title(child) or child.get_full_property(wm_state, X.AnyPropertyType):
                    yield child
                    continue
                # A window manager's frame: the client (with WM_STATE) is inside.
                for inner in child.query_tree().children:
                    if inner.get_full_property(wm_state, X.AnyPropertyType):
                        yield inner
                        break
            except error.XError:
                continue  # the window went away while we looked

    def title(self, window: Window) -> str:
        prop = window.get_full_property(self.atom("_NET_WM_NAME"), self.atom("UTF8_STRING"))
        if prop is not None and prop.value:
            value = prop.value
            return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
        name = window.get_wm_name()
        if isinstance(name, bytes):
            return name.decode("latin-1")
        return name or ""

    def rect(self, window: Window) -> Rect:
        """The window's area in root coordinates (translate_coords: parents and frames included)."""
        geometry = window.get_geometry()
        origin = self.root.translate_coords(window, 0, 0)
        return Rect(int(origin.x), int(origin.y), int(geometry.width), int(geometry.height))

    def record(self, window: Window, stacking: int = 0, title: str | None = None) -> WindowRecord:
        """Everything the window chooser needs about one window."""
        title = self.title(window) if title is None else title
        wm_class = window.get_wm_class() or ()
        role_prop = window.get_full_property(self.atom("WM_WINDOW_ROLE"), X.AnyPropertyType)
        role = role_prop.value if role_prop is not None else b""
        role = role.decode("latin-1") if isinstance(role, bytes) else str(role)
        state = window.get_wm_state()
        net_state = window.get_full_property(self.atom("_NET_WM_STATE"), Xatom.ATOM)
        hidden = net_state is not None and self.atom("_NET_WM_STATE_HIDDEN") in net_state.value
        minimised = hidden or (state is not None and state.state == _ICONIC_STATE)
        viewable = window.get_attributes().map_state == X.IsViewable
        other_desktop = minimised and self.on_other_desktop(window)
        return WindowRecord(
            wid=window.id,
            title=title,
            rect=self.rect(window),
            wm_class=tuple(wm_class),
            role=role,
            stacking=stacking,
            viewable=viewable,
            minimised=minimised,
            other_desktop=other_desktop,
        )

    def on_other_desktop(self, window: Window) -> bool:
        """Whether the window manager shows `window` on another desktop (workspace) than the
        current one (window managers hide such windows as if minimised)."""
        ours = window.get_full_property(self.atom("_NET_WM_DESKTOP"), Xatom.CARDINAL)
        shown = self.root.get_full_property(self.atom("_NET_CURRENT_DESKTOP"), Xatom.CARDINAL)
        if ours is None or shown is None or not len(ours.value) or not len(shown.value):
            return False
        return int(ours.value[0]) not in (int(shown.value[0]), ALL_DESKTOPS)

    def windows(self, title: str | None = None) -> list[WindowRecord]:
        """Records of every named top-level window, bottom to top.

        Only windows whose title contains `title` (any, when None) are looked at closely (a few
        round trips each); the others get a title-only record with an empty rect, which the
        window chooser ignores.
        """
        records = []
        for stacking, window in enumerate(self.client_windows()):
            try:
                name = self.title(window)
                if not name:
                    continue
                if title is None or title.lower() in name.lower():
                    records.append(self.record(window, stacking, name))
                else:
                    records.append(WindowRecord(wid=window.id, title=name, rect=Rect(0, 0, 0, 0),
                                                stacking=stacking))
            except error.XError:
                continue
        return records

    def windows_above(self, wid: int) -> list[WindowRecord]:
        """Viewable named windows stacked above window `wid` (all of them when it is not listed)."""
        clients = self.client_windows()
        ids = [w.id for w in clients]
        above = clients[ids.index(wid) + 1 :] if wid in ids else clients
        records = []
        for stacking, window in enumerate(above, start=len(clients) - len(above)):
            try:
                record = self.record(window, stacking)
            except error.XError:
                continue
            if record.viewable and record.title:
                records.append(record)
        return records

    def refresh(self, wid: int) -> WindowRecord | None:
        """A fresh record of window `wid`, or None when it no longer exists."""
        window = self.display.create_resource_object("window", wid)
        try:
            return self.record(window)
        except error.XError:
            return None

    def placement(self, wid: int) -> Placement | None:
        """Where window `wid` is and whether it is shown, in four round trips (the check made
        before every click); None when it no longer exists."""
        window = self.display.create_resource_object("window", wid)
        try:
            rect = self.rect(window)
            mapped = window.get_attributes().map_state == X.IsViewable
            net_state = window.get_full_property(self.atom("_NET_WM_STATE"), Xatom.ATOM)
        except error.XError:
            return None
        hidden = net_state is not None and self.atom("_NET_WM_STATE_HIDDEN") in net_state.value
        return Placement(rect, mapped and not hidden)

    def window_manager(self) -> str | None:
        """The name of the window manager managing this screen ('' when it gives none), None when
        there is none: it says so by _NET_SUPPORTING_WM_CHECK on the root window (EWMH)."""
        check = self.root.get_full_property(self.atom("_NET_SUPPORTING_WM_CHECK"), Xatom.WINDOW)
        if check is None or not len(check.value):
            return None
        try:
            return self.title(self.display.create_resource_object("window", int(check.value[0])))
        except error.XError:
            return ""
