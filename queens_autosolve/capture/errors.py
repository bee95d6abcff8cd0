"""What can go wrong while finding and grabbing the browser window, each with what to do about it.

All are `QueensError`s: the CLI prints the message as one line and exits with status 2.
"""

from __future__ import annotations

from queens_autosolve.solver.errors import QueensError


class CaptureError(QueensError):
    """Base for capture problems: the message names the cause and the fix."""


class NoDisplayError(CaptureError):
    """There is no X11 display to look at (DISPLAY unset or the server refuses us)."""


class WaylandSessionError(CaptureError):
    """A Wayland session without X11: other windows cannot be found, read or clicked."""


class UnsupportedDesktopError(CaptureError):
    """The desktop asked for (--desktop) or found (a Wayland session) has no implementation yet."""


class WindowNotFoundError(CaptureError):
    """No window matches the title we look for."""


class WindowMinimisedError(CaptureError):
    """The matching window is minimised (iconic or hidden), so its pixels are not on screen."""


class NotABrowserError(WindowNotFoundError):
    """The window that matched (or shows the board) is not a web browser: an image viewer, a
    terminal. No browser window was found, and this one may not be clicked."""


class WindowOffScreenError(CaptureError):
    """The window lies wholly outside the screen."""


class BoardNotVisibleError(CaptureError):
    """The window was found but no whole Queens board shows in it (Start button, tutorial, other
    tab, scrolled away...). `cut_edges` names the edges of the picture that cut the board, if any;
    `seen` is what the reading found, in its own words (the message adds the advice)."""

    def __init__(self, message: str, cut_edges: tuple[str, ...] = (), seen: str = "") -> None:
        super().__init__(message)
        self.cut_edges = cut_edges
        self.seen = seen or message


class ImageReadError(CaptureError):
    """An image file (a screenshot given with --image, or to detect) is missing or not a picture."""
