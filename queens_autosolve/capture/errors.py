"""What can go wrong while finding and grabbing the browser window, each with what to do about it.

All are `QueensError`s: the CLI prints the message as one line and exits with status 2.
"""

from __future__ import annotations

from queens_autosolve.solver.errors import QueensError


def clicked_words(clicks: int) -> str:
    """What was clicked before a stop, in the one wording every message uses."""
    return "nothing was clicked" if clicks == 0 else "nothing more was clicked"


class ClickStop(QueensError):
    """The job stopped before a click, or before the next one. Its message is worded here alone:
    "stopped after N of M clicks: " where clicks were planned, then `reason`, what was clicked
    (`clicked_words`), and `advice`. Whoever made the clicks counts them (`clicks`, of `planned`);
    a caller that made earlier ones too adds them with `after`."""

    def __init__(self, reason: str, advice: str = "", *, clicks: int = 0, planned: int | None = None) -> None:
        self.reason, self.advice, self.clicks, self.planned = reason, advice, clicks, planned
        super().__init__(reason)

    def __str__(self) -> str:
        head = ""
        if self.planned is not None:
            head = f"stopped after {self.clicks} of {self.planned} clicks: "
        elif self.clicks:
            head = f"stopped after {self.clicks} click(s) "
        parts = (head + self.reason, clicked_words(self.clicks), self.advice)
        return "; ".join(part for part in parts if part)

    def after(self, clicks: int, context: str) -> ClickStop:
        """This stop, met after `clicks` in all; `context` (what those clicks did) leads the reason."""
        self.clicks, self.planned = clicks, None
        self.reason = f"{context}: {self.reason}"
        return self


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


class BoardNotVisibleError(CaptureError, ClickStop):
    """The window was found but no whole Queens board shows in it (Start button, tutorial, other
    tab, scrolled away...). `cut_edges` names the edges of the picture that cut the board, if any;
    `seen` is what the reading found, in its own words (the message adds the advice)."""

    def __init__(
        self, reason: str, advice: str = "", cut_edges: tuple[str, ...] = (), seen: str = ""
    ) -> None:
        ClickStop.__init__(self, reason, advice)
        self.cut_edges = cut_edges
        self.seen = seen or reason


class ImageReadError(CaptureError):
    """An image file (a screenshot given with --image, or to detect) is missing or not a picture."""
