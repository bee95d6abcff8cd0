"""Making the clicks with pyautogui: every point checked against the board box, the pointer put on
the right X screen and checked there before each cell, the clicks stopped as soon as someone else
moves the mouse (stricter than pyautogui's corner fail-safe, which it replaces), at a pace that
can slow down when a page drops clicks.

pyautogui is imported lazily because it connects to $DISPLAY when imported; `load_pyautogui`
points it at the display we captured from.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING, Protocol, cast

from actuator.errors import ClickAborted, ClickOutsideBoard
from actuator.plan import ClickPlan
from capture.models import Pointer
from solver.puzzle import Cell

if TYPE_CHECKING:
    from Xlib.display import Display

# The gap a round that left cells wrong starts the next one with, when it clicked with none.
FIRST_SLOWER_GAP = 0.02
# pyautogui imports these only to offer message boxes (through tkinter), screenshots and its
# mouse-info window, none of which we use; it imports each inside try/except ImportError, so
# hiding them while it loads takes about 60 ms off every run (measured: 99 -> 34 ms).
UNUSED_BY_US = ("pymsgbox", "pyscreeze", "mouseinfo")
MAX_GAP = 0.25  # seconds: slower than a person; a page that drops clicks at this pace is broken
# s between the two clicks of a cell (empty -> X -> queen) under a window manager: openbox takes
# every press first (click-to-focus), and with none between them the first round lost a cell's
# second click in 16 of 40 runs (Chromium 4 of 20, Firefox 12 of 20, practice page 7x7-16x16);
# with 20 ms, in 0 of 40
WM_PAIR_GAP = 0.02


@dataclass(frozen=True)
class Pace:
    """How fast to click: `gap` seconds after every click (also between the two clicks of one
    cell), `settle` seconds between moving onto a cell and pressing, and at least `pair_gap`
    seconds between the two clicks of one cell.

    A page may drop clicks that come too close together (a busy page, or a window manager that
    grabs the pointer for a moment), so a round that leaves cells wrong makes the next one slower.
    """

    gap: float = 0.0
    settle: float = 0.0
    pair_gap: float = 0.0

    def slower(self) -> Pace:
        """Twice the gaps (a first step from zero), up to MAX_GAP."""
        gap = min(MAX_GAP, max(2 * self.gap, FIRST_SLOWER_GAP))
        settle = min(MAX_GAP, max(2 * self.settle, FIRST_SLOWER_GAP / 2))
        return Pace(gap, settle, self.pair_gap)

    @classmethod
    def for_desktop(cls, gap: float, window_manager: str | None) -> Pace:
        """The first round's pace: `gap` (--delay), and under a window manager WM_PAIR_GAP between
        the two clicks of a cell."""
        return cls(gap, pair_gap=0.0 if window_manager is None else WM_PAIR_GAP)

    def describe(self) -> str:
        if not self.gap and not self.settle:
            pace = "as fast as possible"
        else:
            pace = f"{self.gap * 1000:.0f} ms between clicks, {self.settle * 1000:.0f} ms after each move"
        if self.pair_gap > self.gap:
            pace += f", {self.pair_gap * 1000:.0f} ms between a cell's two clicks (a window manager runs)"
        return pace


class PointerControl(Protocol):
    """Moves the pointer on the X screen the board was read from, and tells when someone else
    has moved it since (`capture.Desktop` is one)."""

    def move_pointer(self, x: int, y: int, *, before: Pointer | None = None) -> Pointer: ...

    def moved_by_someone_else(self) -> Pointer | None: ...


class Guard(Protocol):
    """Checks, before a click, that the board is still where and what it was when the clicks
    were planned (`actuator.guard.BoardGuard` is one); raises to stop the clicks."""

    def check(self, done: int, planned: int, pointer_on: Cell | None, next_cell: Cell | None) -> None: ...


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


class PressBackend(Protocol):
    """The part of pyautogui's platform backend (`pyautogui.platformModule`) the clicks use: one
    left click at (x, y), a motion there, a press, a motion, a release (an X round trip each)."""

    def _click(self, x: int, y: int, button: str) -> None: ...


def load_pyautogui(display: str, connection: Display | None = None) -> PyAutoGUI:
    """pyautogui, sending its events to X11 display `display`; through `connection` when given
    (an open Xlib connection to `display`, which pyautogui then shares: opening one of its own
    costs a round trip per extension the X server offers, 5-10 ms of every run)."""
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
        from Xlib.display import Display

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


def check_inside_board(plan: ClickPlan) -> None:
    """Every planned point lies inside the board box, or nothing is clicked at all."""
    for click in plan:
        if not plan.inside_board(click.x, click.y):
            raise ClickOutsideBoard(f"{click.describe()} is outside the board {plan.box}; nothing clicked")


def click_plan(
    plan: ClickPlan,
    *,
    display: str,
    pointer: PointerControl,
    pace: Pace = Pace(),
    guard: Guard | None = None,
) -> int:
    """Click every point of `plan` at `pace`; return how many clicks were made.

    For each cell the pointer is first moved there on the board's own X screen (`pointer`) and
    must be found there: if it is not (another screen, or someone moving the mouse), clicking
    stops. Before that, it must still be where this run left it: a user who takes the mouse
    while the tool clicks stops it at the next cell (ClickAborted), wherever they move it; the
    tool never pulls the pointer back from them. `guard` checks the window and the board before
    every cell, and before every click when they are spaced out (`pace`), the last thing before
    the pointer moves or presses: what changed stops the clicks before the next one.
    """
    check_inside_board(plan)
    backend = press_backend(load_pyautogui(display))
    done, planned = 0, len(plan)
    last: Cell | None = None
    point: tuple[int, int] | None = None
    # A cell's clicks go together: one pointer move for both clicks of empty -> X -> queen.
    for cell, group in groupby(plan, key=lambda click: click.cell):
        clicks = list(group)
        x, y = clicks[0].x, clicks[0].y
        _check_left_alone(pointer, f"{done} of {planned}")
        if guard is not None:
            guard.check(done, planned, last, cell)
        _move_onto(pointer, x, y, point, f"{done} of {planned}")
        last, point = cell, (x, y)
        if pace.settle:
            time.sleep(pace.settle)
            _check_left_alone(pointer, f"{done} of {planned}")
            if guard is not None:
                guard.check(done, planned, cell, None)
        for i in range(len(clicks)):
            if i and pace.pair_gap > pace.gap:
                time.sleep(pace.pair_gap - pace.gap)
            if i and (pace.gap or pace.pair_gap):
                # a user who took the mouse during the gap is seen here, where the next click
                # would pull the pointer back to the cell
                _check_left_alone(pointer, f"{done} of {planned}")
                if guard is not None:
                    guard.check(done, planned, cell, None)
            backend._click(x, y, "left")  # at the pointer's own position: no move, no other screen
            done += 1
            if pace.gap:
                time.sleep(pace.gap)
    return done


def press_backend(gui: PyAutoGUI) -> PressBackend:
    """pyautogui's platform backend, which the clicks call directly.

    pyautogui's public `click(x, y, clicks=2)` asks the X server where the pointer is six times
    per cell (its corner fail-safe before and after its move and before each click, and the move's
    start) on top of the press, release and motions: measured on the 11x11 practice page, 207
    round trips in the click stage, 0.2 ms each while Chromium keeps the server busy. Here the
    pointer has already been checked before every cell (`_check_left_alone`, which any move of the
    user's trips, a move into a corner included) and found on the cell (`_move_onto`)."""
    backend = getattr(gui, "platformModule", None)
    if not callable(getattr(backend, "_click", None)):
        raise ClickAborted("this pyautogui has no platform backend to click through; nothing clicked "
                           "(reinstall the version pyproject.toml asks for)")
    return cast(PressBackend, backend)


def _check_left_alone(pointer: PointerControl, done: str) -> None:
    """Stop when the pointer is not where this run last put it: someone has taken the mouse."""
    moved = pointer.moved_by_someone_else()
    if moved is None:
        return
    place = f"to ({moved.x}, {moved.y})" if moved.on_screen else "to another X screen"
    raise ClickAborted(
        f"stopped after {done} clicks: the mouse was moved {place} while the tool was clicking, "
        "so it stopped and left the mouse to you; run again with the mouse still to finish"
    )


def _move_onto(pointer: PointerControl, x: int, y: int, last: tuple[int, int] | None, done: str) -> None:
    """Put the pointer on (x, y) of the board's screen, or stop: a click anywhere else is never made."""
    # on the last cell, the pointer was found where it was sent: no need to ask the server again
    where = pointer.move_pointer(x, y, before=None if last is None else Pointer(*last, True))
    if where.at(x, y):
        return
    if last is not None and where.on_screen and (where.x, where.y) == last:
        raise ClickAborted(
            f"stopped after {done} clicks: the pointer did not leave the last cell clicked for "
            f"({x}, {y}); something holds the mouse (a window manager or another program "
            "grabbing it); run again"
        )
    place = f"({where.x}, {where.y})" if where.on_screen else "another X screen"
    raise ClickAborted(
        f"stopped after {done} clicks: the pointer was sent to ({x}, {y}) on the board's screen "
        f"but is at {place} (is someone moving the mouse?); run again with the mouse still"
    )
