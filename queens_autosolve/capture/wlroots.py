"""The wlroots desktop (`capture.desktop.DesktopSession` on sway and the other compositors that
offer wlroots' protocols: river, Hyprland, labwc, wayfire): pixels through
`zwlr_screencopy_manager_v1`, the pointer, the buttons and the wheel through
`zwlr_virtual_pointer_manager_v1` (pywayland; the protocol modules come from
`capture.wlr_protocols`), windows from sway's IPC tree.

Without sway's IPC (any other compositor) no window list is known: each output stands for a
window, as GNOME's monitor does (`MONITOR_ROLE`), placed by xdg-output, and the board is found in
an output's pixels (`find_window` gives the first; `run` and `hint` read the others in turn when it
shows none); the checks between clicks see only those pixels (a window over the board shows
there), and the focus going elsewhere is not seen.

Every window goes through these, XWayland ones included: inside a Wayland session an X11 grab of
an XWayland window ignores what covers it and XTest clicks reach it under a native window, so the
X11 path is never trusted here. The compositor's capture shows what the user sees.

What Wayland does not tell a client: where the pointer is. `pointer` knows only where this desktop
put it; `moved_by_someone_else` sees the user take over when the seat's focus goes to a window
this run did not click (a click or a keyboard switch elsewhere), not a bare pointer motion. Every
click is sent as a move to its cell first, so a click never lands where the user left the pointer.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from queens_autosolve.capture.errors import CaptureError, NoDisplayError, WindowOffScreenError
from queens_autosolve.capture.geometry import Rect
from queens_autosolve.capture.models import (
    MONITOR_ROLE,
    Frame,
    FrameSource,
    Monitor,
    Placement,
    Pointer,
    WindowRecord,
    round_half_away,
)
from queens_autosolve.capture.screencopy import ScreenCopy
from queens_autosolve.capture.sway_windows import FocusWatch, SwayWindows
from queens_autosolve.capture.windows import choose_window

BUTTON_LEFT = 0x110  # linux/input-event-codes.h BTN_LEFT
PRESSED, RELEASED = 1, 0
AXIS_VERTICAL, AXIS_HORIZONTAL, AXIS_SOURCE_WHEEL = 0, 1, 0
NOTCH = 15.0  # the axis value of one wheel notch, as libinput reports a mouse wheel
# s from the warm-up move to the first press or wheel turn: the first click through a new virtual
# pointer is lost while the browser takes the new device (docs/wayland.md: the gaps measured)
WARM_UP = 0.03
# The warm-up move's extent: it goes to the layout's bottom-right corner before the outputs are
# known, one part in CORNER from the edge (under a pixel for any screen narrower than that).
CORNER = 1 << 16
OUTPUT_TITLE = "the output {}"  # an output standing for a window (no sway IPC: no window list)
MODE_CURRENT = 0x1  # wl_output.mode's flag of the mode in use


@dataclass(frozen=True)
class Output:
    """One wl_output with its place in the layout (logical points) and its scale (its pixels per
    point: 1.25, 1.5, 2 on a scaled output)."""

    proxy: Any
    rect: Rect
    scale: float = 1.0
    name: str = ""
    transform: int = 0  # wl_output.transform: 1-3 turned by 90, 180, 270 degrees, 4-7 mirrored first


class WlrootsDesktop:
    """A wlroots Wayland session (default: $WAYLAND_DISPLAY; sway's IPC at $SWAYSOCK, if set).

    >>> with WlrootsDesktop() as desktop:                # doctest: +SKIP
    ...     frame = desktop.grab_window(desktop.find_window())
    """

    def __init__(self, env: Mapping[str, str] | None = None, *, will_click: bool = False) -> None:
        """`will_click`: `prepare_input` as the desktop opens, its warm-up move sent as soon as the
        Wayland connection is up, before sway's IPC and the shared memory are set up: the
        compositor has drawn the move by the first grab, which then waits for no frame of its
        own (a grab right after the move waited 3-7 ms for the frame, against 2.5 ms)."""
        self.env = os.environ if env is None else env
        self.display, self.registry, self.globals = _connect(self.env)
        self._pointer: Any = None
        self.placed: Pointer | None = None
        self._own_focus: set[int] = set()  # windows focused by this run's own clicks, or before it
        self._focus_watch: FocusWatch | None = None  # sway's focus events, from prepare_input on
        self._prepared = False
        self._taken_by: list[int] = []  # windows the focus went to that this run did not click
        self._warm_since = 0.0  # when the warm-up move was sent
        try:
            if will_click:
                self._warm_up_pointer()
            self.sway = SwayWindows.connect(self.env) if self.env.get("SWAYSOCK") else None
            self.outputs = self._bind_outputs()
        except BaseException:
            self.display.disconnect()  # explicitly: pywayland crashes at interpreter exit otherwise
            raise
        largest = 4 * max(round(o.rect.width * o.scale) * round(o.rect.height * o.scale)
                          for o in self.outputs)  # bytes of the biggest output's pixels
        self.copies = ScreenCopy(self.display, self._bind("zwlr_screencopy_manager_v1"), self._bind("wl_shm"),
                                 largest)
        if will_click:
            self.prepare_input()

    def __enter__(self) -> WlrootsDesktop:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self._pointer is not None:
            self._pointer.destroy()
            self._pointer = None
        self.copies.close()
        if self._focus_watch is not None:
            self._focus_watch.close()
        self.display.flush()
        self.display.disconnect()  # explicitly: pywayland crashes at interpreter exit otherwise
        if self.sway is not None:
            self.sway.close()

    # --- the Wayland globals -------------------------------------------------------------------

    def _bind(self, interface: str, version: int = 1) -> Any:
        """The first global of `interface` the compositor offers, at `version` or the one offered
        if lower (1 is all this desktop uses of the wlr protocols: no screencopy damage or dmabuf
        events, no virtual pointer bound to an output; xdg-output's 2 names the outputs)."""
        from pywayland.protocol import wayland

        from queens_autosolve.capture.wlr_protocols import protocol_modules

        screencopy, pointer, xdg_output = protocol_modules()
        classes = {"zwlr_screencopy_manager_v1": screencopy.ZwlrScreencopyManagerV1,
                   "zwlr_virtual_pointer_manager_v1": pointer.ZwlrVirtualPointerManagerV1,
                   "zxdg_output_manager_v1": xdg_output.ZxdgOutputManagerV1,
                   "wl_shm": wayland.WlShm}
        name, offered = self.globals[interface][0]
        return self.registry.bind(name, classes[interface], min(version, offered))

    def _bind_outputs(self) -> list[Output]:
        """Every active output with its place in the layout: sway's, matched by name (wl_output
        version 4), or else xdg-output's. wlroots puts every output at (0, 0) in wl_output's own
        geometry, so a place names only one."""
        from pywayland.protocol import wayland

        named: dict[int, str] = {}
        pixels: dict[int, tuple[int, int]] = {}  # each output's current mode, in pixels
        turned: dict[int, int] = {}  # each output's transform

        def geometry(out: Any, *values: Any) -> None:
            turned[id(out)] = int(values[-1])  # after x, y, size in mm, subpixel, make and model

        def mode(out: Any, flags: Any, width: int, height: int, _refresh: int) -> None:
            if int(flags) & MODE_CURRENT:
                pixels[id(out)] = (width, height)

        proxies = []
        for number, version in self.globals.get("wl_output", []):
            proxy = self.registry.bind(number, wayland.WlOutput, min(version, 4))
            proxy.dispatcher["name"] = lambda out, name: named.__setitem__(id(out), name)
            proxy.dispatcher["mode"] = mode
            proxy.dispatcher["geometry"] = geometry
            proxies.append(proxy)
        self.display.roundtrip()
        if self.sway is not None:
            outputs = self._placed_by_sway(proxies, named)
        else:
            outputs = self._placed_by_xdg_output(proxies, named, pixels)
        if not outputs:
            raise NoDisplayError("the Wayland compositor shows no active output to grab")
        return [replace(output, transform=turned.get(id(output.proxy), 0)) for output in outputs]

    def _placed_by_sway(self, proxies: list[Any], named: dict[int, str]) -> list[Output]:
        assert self.sway is not None
        shown = self.sway.outputs()
        by_name = {o.name: o for o in shown}
        if len(proxies) == len(shown) == 1 and not named:  # a compositor without the name event
            named[id(proxies[0])] = shown[0].name
        return [Output(p, by_name[named[id(p)]].rect, by_name[named[id(p)]].scale, named[id(p)])
                for p in proxies if named.get(id(p)) in by_name]

    def _placed_by_xdg_output(self, proxies: list[Any], named: dict[int, str],
                              pixels: dict[int, tuple[int, int]]) -> list[Output]:
        """Each output's logical place and size from xdg-output; its scale is its mode's pixels
        over that size (wl_output's own scale is a whole number: 2 for an output scaled by 1.5)."""
        if "zxdg_output_manager_v1" not in self.globals:
            raise NoDisplayError("the Wayland compositor does not offer zxdg_output_manager_v1, which says "
                                 "where its outputs lie; without sway's IPC the wlroots desktop needs it")
        manager = self._bind("zxdg_output_manager_v1", 2)
        placed: list[dict[str, Any]] = []
        for proxy in proxies:
            facts: dict[str, Any] = {"proxy": proxy, "name": named.get(id(proxy), "")}
            xdg = manager.get_xdg_output(proxy)
            xdg.dispatcher["logical_position"] = lambda _o, x, y, f=facts: f.__setitem__("at", (x, y))
            xdg.dispatcher["logical_size"] = lambda _o, w, h, f=facts: f.__setitem__("size", (w, h))
            xdg.dispatcher["name"] = lambda _o, name, f=facts: f.__setitem__("name", f["name"] or name)
            placed.append(facts)
        self.display.roundtrip()
        manager.destroy()
        return [Output(f["proxy"], Rect(*f["at"], *f["size"]), _scale(pixels.get(id(f["proxy"])), f["size"]),
                       f["name"]) for f in placed if "at" in f and f.get("size", (0, 0))[0] > 0]

    # --- windows ---------------------------------------------------------------------------

    def windows(self, title: str | None = None) -> list[WindowRecord]:
        """sway's windows; without its IPC, the outputs standing for windows (`_output_records`)."""
        if self.sway is None:
            return self._output_records() if title is None else []
        return self.sway.windows(title)

    def _output_records(self) -> list[WindowRecord]:
        return [WindowRecord(wid=i + 1, title=OUTPUT_TITLE.format(o.name or i + 1), rect=o.rect,
                             role=MONITOR_ROLE, stacking=i) for i, o in enumerate(self.outputs)]

    def find_window(self, title: str | None = None, any_window: bool = False) -> WindowRecord:
        """The window to play in (see `capture.windows.choose_window`); focus on it from now on
        is this run's own doing (its clicks give it). Without sway's IPC: the first output."""
        if self.sway is None:
            if title is not None:
                raise CaptureError(f"--window {title!r}: without sway's IPC the tool cannot see window "
                                   "titles (this compositor lists no windows to other programs); leave "
                                   "--window out: the board is found on the whole output")
            return self._output_records()[0]
        window = choose_window(self.windows(), title, any_window)
        self._own_focus.add(window.wid)
        return window

    def refresh(self, window: WindowRecord) -> WindowRecord | None:
        return next((r for r in self.windows() if r.wid == window.wid), None)

    def placement(self, window: WindowRecord) -> Placement | None:
        now = self.refresh(window)
        return None if now is None else Placement(now.rect, now.viewable and not now.minimised)

    def windows_above(self, window: WindowRecord) -> list[WindowRecord]:
        """The windows over `window` (none known without sway's IPC: only the pixels show one)."""
        if self.sway is None:
            return []
        records = self.windows()
        me = next((r for r in records if r.wid == window.wid), window)
        return [r for r in records if r.stacking > me.stacking and r.viewable and r.title]

    def window_at(self, x: float, y: float) -> WindowRecord | None:
        shown = [r for r in self.windows() if r.viewable and not r.minimised and r.rect.contains(x, y)]
        return max(shown, key=lambda r: r.stacking, default=None)

    def window_manager(self) -> str | None:
        """None: no window manager holds a press back here, what the clicks' pace asks (an X11 one
        that grabs presses to focus, as openbox, needs a gap between a cell's two clicks). The
        compositor hands the virtual pointer's events to the window in order: 0 of 264 clicks lost
        with no gap (12 runs, 11x11)."""
        return None

    # --- pixels ----------------------------------------------------------------------------

    def monitors(self) -> list[Monitor]:
        """Every output; index 0 is the bounding box of all of them (as on X11)."""
        rects = [o.rect for o in self.outputs]
        return [Monitor(0, _bounding(rects)), *(Monitor(i + 1, r) for i, r in enumerate(rects))]

    def grab(self, rect: Rect, *, source: FrameSource, window: WindowRecord | None = None) -> Frame:
        """The pixels of `rect` as the compositor shows them, from the output showing most of it
        (clipped to that output: `Frame.clipped` names the edges it cut off)."""
        output = max(self.outputs, key=lambda o: _area(o.rect.intersection(rect)))
        visible = rect.intersection(output.rect)
        if visible.empty:
            raise WindowOffScreenError(
                f"the window {window.title if window else ''!r} at {rect} lies outside the screen "
                f"{self.monitors()[0].rect}; move it onto the screen"
            )
        raw = self._capture(output, visible)
        index = self.outputs.index(output) + 1
        return Frame(raw=raw, rect=visible, source=source, window=window,
                     monitor=Monitor(index, output.rect), clipped=rect.edges_outside(output.rect),
                     output_scale=output.scale)

    def _capture(self, output: Output, rect: Rect) -> np.ndarray:
        """One screen copy of `rect` (layout points) of `output`: H x W x 4, B G R X, as the
        output shows it. A turned or mirrored output (a monitor in portrait) is copied whole,
        turned upright (`upright`) and cut to `rect`: compositors disagree on where a region of
        such an output lies (sway 1.7 copied the part mirrored across the output from it, on a
        turn of 90 degrees; Hyprland has it open as a bug), not on the whole output."""
        left, top = rect.left - output.rect.left, rect.top - output.rect.top
        index = self.outputs.index(output)
        if not output.transform:
            return self.copies.grab(output.proxy, (index, left, top, rect.width, rect.height))
        whole = upright(self.copies.grab(output.proxy, (index, 0, 0, output.rect.width, output.rect.height)),
                        output.transform)
        x0, y0 = round_half_away(left * output.scale), round_half_away(top * output.scale)
        x1 = round_half_away((left + rect.width) * output.scale)
        y1 = round_half_away((top + rect.height) * output.scale)
        return np.ascontiguousarray(whole[y0:y1, x0:x1])

    def will_grab(self, rect: Rect) -> None:
        """Nothing to prepare: a screen copy of any region waits for the same next frame."""

    def grab_window(self, window: WindowRecord) -> Frame:
        return self.grab(window.rect, source=FrameSource.WINDOW, window=window)

    def grab_screen(self) -> Frame:
        return self.grab(self.monitors()[0].rect, source=FrameSource.SCREEN)

    # --- the pointer, the buttons, the wheel --------------------------------------------------

    def pointer(self) -> Pointer:
        """Where this desktop last put the pointer; before that, unknown (Wayland tells a client
        where the pointer is only over its own windows): `on_screen` False."""
        return self.placed if self.placed is not None else Pointer(0, 0, False)

    def prepare_input(self) -> None:
        """Create the virtual pointer and warm it up (`_warm_up_pointer`, unless done as the
        desktop opened); the first press or wheel turn waits until WARM_UP has passed since
        (`_warmed`), so reading the board meanwhile costs nothing. From here on sway's focus
        events are watched."""
        if self._prepared:
            return
        self._prepared = True
        if self._pointer is None:
            self.copies.input_sent()
            self._warm_up_pointer()
        if self.sway is not None:
            self._focus_watch = FocusWatch(self.sway.path)
        screen = self.monitors()[0].rect
        self.placed = Pointer(screen.left + screen.width - 1, screen.top + screen.height - 1, True)

    def _warm_up_pointer(self) -> None:
        """The virtual pointer, and its warm-up move to the bottom-right corner of the outputs'
        layout (away from any board; an absolute move spans the layout's bounding box)."""
        manager = self._bind("zwlr_virtual_pointer_manager_v1")
        self._pointer = manager.create_virtual_pointer(None)
        self._pointer.motion_absolute(_now_ms(), CORNER - 1, CORNER - 1, CORNER, CORNER)
        self._pointer.frame()
        self.display.flush()
        self._warm_since = time.monotonic()

    def _warmed(self) -> None:
        self.prepare_input()
        time.sleep(max(0.0, self._warm_since + WARM_UP - time.monotonic()))

    def move_pointer(self, x: int, y: int, *, before: Pointer | None = None,
                     click_follows: bool = False) -> Pointer:
        """Move the pointer to (x, y). The compositor does not report where it went: the move is
        trusted (a virtual pointer's absolute motion is not held back by anything). With
        `click_follows` the move goes out with the click's own events, in one message: each
        message wakes sway and the browser, and on two cores a cell's three messages cost a
        frame of the output now and then (docs/wayland.md)."""
        if self._pointer is None:
            self.prepare_input()
        screen = self.monitors()[0].rect
        self.copies.input_sent()
        self._pointer.motion_absolute(_now_ms(), x - screen.left, y - screen.top, screen.width, screen.height)
        self._pointer.frame()
        if not click_follows:
            self.display.flush()
        self.placed = Pointer(x, y, True)
        return self.placed

    def moved_by_someone_else(self) -> Pointer | None:
        """Where the pointer was left, marked off screen, once the seat's focus is on a window this
        run did not click (the user clicked or switched elsewhere); None otherwise. A bare motion
        of the user's pointer is not seen (see the module's docstring)."""
        if self.placed is None or self._focus_watch is None:
            return None
        self._taken_by.extend(f for f in self._focus_watch.focused_since() if f not in self._own_focus)
        if not self._taken_by:
            return None
        return Pointer(self.placed.x, self.placed.y, False)

    def click(self, x: int, y: int, times: int = 1) -> None:
        """`times` left clicks at (x, y): the move there again, then a press and a release each,
        each in a frame, all in one message with the copy the guard grabs next. The window
        clicked takes the focus: that is this run's doing (`find_window` names it; with
        --screen, the window under the first click does)."""
        if not self._own_focus:
            clicked = self.window_at(x, y)
            self._own_focus.add(clicked.wid if clicked is not None else 0)
        self._warmed()
        pointer = self._pointer
        screen = self.monitors()[0].rect
        pointer.motion_absolute(_now_ms(), x - screen.left, y - screen.top, screen.width, screen.height)
        pointer.frame()
        for _ in range(times):
            pointer.button(_now_ms(), BUTTON_LEFT, PRESSED)
            pointer.frame()
            pointer.button(_now_ms(), BUTTON_LEFT, RELEASED)
            pointer.frame()
        self.copies.ask_ahead()  # after the clicks' events: the guard's next grab, on its way now
        self.display.flush()

    def wheel(self, down: int = 0, right: int = 0) -> None:
        self._warmed()
        self.copies.input_sent()
        for axis, notches in ((AXIS_VERTICAL, down), (AXIS_HORIZONTAL, right)):
            if notches:
                self._pointer.axis_source(AXIS_SOURCE_WHEEL)
                self._pointer.axis_discrete(_now_ms(), axis, NOTCH * notches, notches)
                self._pointer.frame()
        self.display.flush()


def _connect(env: Mapping[str, str]) -> tuple[Any, Any, dict[str, list[tuple[int, int]]]]:
    """The Wayland connection, its registry and the globals it offers (interface -> [(name,
    version)]); a NoDisplayError naming what is missing when it is not a wlroots session."""
    from pywayland.client import Display

    name = env.get("WAYLAND_DISPLAY", "")
    if not name.startswith("/"):
        if not env.get("XDG_RUNTIME_DIR"):  # libwayland would print its own line about it, and fail
            shown = name or "wayland-0"
            raise NoDisplayError(f"XDG_RUNTIME_DIR is not set, so the Wayland display {shown!r} cannot be "
                                 "found; run this inside your desktop session")
        name = os.path.join(env["XDG_RUNTIME_DIR"], name or "wayland-0")
    display = Display(name)
    try:
        display.connect()
    except Exception as exc:  # pywayland raises ValueError (or its own) when the socket refuses
        raise NoDisplayError(f"cannot connect to the Wayland display {name!r} ({exc}); check "
                             "WAYLAND_DISPLAY and that the compositor runs") from None
    registry = display.get_registry()
    offered: dict[str, list[tuple[int, int]]] = {}
    registry.dispatcher["global"] = (
        lambda _r, number, interface, version: offered.setdefault(interface, []).append((number, version)))
    display.roundtrip()
    missing = [g for g in WLROOTS_GLOBALS if g not in offered]
    if missing:
        display.disconnect()
        raise NoDisplayError(f"the Wayland compositor does not offer {' and '.join(missing)}, which the "
                             "wlroots desktop needs (sway, river, Hyprland, labwc and wayfire do)")
    return display, registry, offered


WLROOTS_GLOBALS = ("zwlr_screencopy_manager_v1", "zwlr_virtual_pointer_manager_v1", "wl_shm", "wl_output")


def offers_wlroots_globals(env: Mapping[str, str]) -> bool:
    """Whether the Wayland compositor of `env` offers screencopy and the virtual pointer."""
    try:
        display, _, _ = _connect(env)
    except NoDisplayError:
        return False
    display.disconnect()
    return True


def _now_ms() -> int:
    return int(time.monotonic() * 1000) & 0xFFFFFFFF


# wl_output.transform -> (quarter turns counter-clockwise for np.rot90, mirrored left to right
# first): what undoes it, bringing a screen copy (which comes in the output's own buffer
# orientation) to the way the output shows it. The transform turns the picture counter-clockwise
# into the buffer (mirrored first for 4-7), so a turn is undone clockwise, and mirrored then
# turned back as far as it went (sway's "transform 90", a monitor turned to portrait, is 3 here).
UPRIGHT = {0: (0, False), 1: (3, False), 2: (2, False), 3: (1, False),
           4: (0, True), 5: (1, True), 6: (2, True), 7: (3, True)}


def upright(pixels: np.ndarray, transform: int) -> np.ndarray:
    """`pixels` of a screen copy of an output whose wl_output transform is `transform` (a monitor
    turned to portrait, or mirrored), turned the way the output shows them: a copy comes in the
    output's own buffer orientation, as grim also turns it.

    >>> upright(np.arange(6).reshape(2, 3), 2).tolist()
    [[5, 4, 3], [2, 1, 0]]
    """
    turns, mirrored = UPRIGHT.get(transform, (0, False))
    if mirrored:
        pixels = pixels[:, ::-1]
    return np.ascontiguousarray(np.rot90(pixels, turns)) if turns or mirrored else pixels


def _scale(pixels: tuple[int, int] | None, size: tuple[int, int]) -> float:
    """Pixels per logical point of an output whose mode is `pixels` and whose logical size is
    `size` (either way round: an output turned by 90 degrees swaps its mode's sides).

    >>> _scale((2880, 1800), (1920, 1200)), _scale((1080, 1920), (1920, 1080)), _scale(None, (800, 600))
    (1.5, 1.0, 1.0)
    """
    if not pixels or not max(size):
        return 1.0
    return max(pixels) / max(size)


def _area(rect: Rect) -> int:
    return 0 if rect.empty else rect.width * rect.height


def _bounding(rects: list[Rect]) -> Rect:
    left, top = min(r.left for r in rects), min(r.top for r in rects)
    right = max(r.left + r.width for r in rects)
    bottom = max(r.top + r.height for r in rects)
    return Rect(left, top, right - left, bottom - top)
