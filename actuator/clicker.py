"""Making the clicks with pyautogui: fail-safe on, every point checked against the board box.

pyautogui is imported lazily because it connects to $DISPLAY when imported; `load_pyautogui`
points it at the display we captured from.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from itertools import groupby
from types import ModuleType

from actuator.errors import ClickAborted, ClickOutsideBoard
from actuator.plan import ClickPlan


def load_pyautogui(display: str) -> ModuleType:
    """pyautogui, sending its events to X11 display `display`."""
    before = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display  # read by pyautogui's X11 backend (and mouseinfo) on import
    try:
        import pyautogui
    finally:  # leave the environment as it was: only the import needed it
        if before is None:
            del os.environ["DISPLAY"]
        else:
            os.environ["DISPLAY"] = before

    backend = getattr(pyautogui, "_pyautogui_x11", None)
    connection = getattr(backend, "_display", None)
    if connection is not None and not _connected_to(connection, display):
        # Imported earlier for another X server (tests start one Xvfb per module, and a display
        # number can be reused by a new server after the old one stopped): rebind it.
        from Xlib.display import Display

        backend._display = Display(display)  # type: ignore[union-attr]
    return pyautogui


def _connected_to(connection: object, display: str) -> bool:
    """Whether an Xlib connection is to `display` and its server still answers."""
    from Xlib import error

    if connection.get_display_name() != display:  # type: ignore[attr-defined]
        return False
    try:
        connection.get_input_focus()  # type: ignore[attr-defined]
    except (error.ConnectionClosedError, OSError):
        return False
    return True


def click_plan(
    plan: ClickPlan,
    *,
    display: str,
    delay: float = 0.0,
    before_first: Callable[[], None] | None = None,
) -> int:
    """Click every point of `plan`, `delay` seconds apart; return how many clicks were made.

    `before_first` runs after pyautogui is ready and just before the first click (the window
    check goes there, as late as possible). Pushing the mouse into a screen corner aborts
    (pyautogui's fail-safe) with ClickAborted.
    """
    for click in plan:  # checked before any click, so a bad plan clicks nothing at all
        if not plan.inside_board(click.x, click.y):
            raise ClickOutsideBoard(f"{click.describe()} is outside the board {plan.box}; nothing clicked")
    gui = load_pyautogui(display)
    gui.FAILSAFE = True
    gui.PAUSE = 0.0  # `delay` spaces the clicks; pyautogui's default 0.1 s would make 22 clicks take 2 s
    if before_first is not None:
        before_first()
    done = 0
    try:
        # A cell's clicks go together: one pointer move for both clicks of empty -> X -> queen.
        for _, group in groupby(plan, key=lambda click: click.cell):
            clicks = list(group)
            # pyautogui sleeps `interval` after every click of the group, the last one included.
            gui.click(clicks[0].x, clicks[0].y, clicks=len(clicks), interval=delay)
            done += len(clicks)
    except gui.FailSafeException:
        raise ClickAborted(
            f"stopped after {done} of {len(plan)} clicks: the mouse was moved into a screen corner "
            "(fail-safe)"
        ) from None
    return done
