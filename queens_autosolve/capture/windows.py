"""Choosing the game's window among all top-level windows: pure logic on `WindowRecord`s.

Default: a browser window whose title contains "Queens". Only web browsers are chosen (by
WM_CLASS or WM_WINDOW_ROLE), since only they show the game; `any_window` lifts that for a user
who asks on purpose (`--any-window`). Terminals are never chosen, whatever is asked (a click
there could type into a shell), nor a non-browser window that names this tool (the terminal or
message box running it). Among the rest the window on top wins; but a title given on purpose
(`--window`) that matches more than one window on screen is refused, naming them.
"""

from __future__ import annotations

from collections.abc import Sequence

from queens_autosolve.capture.errors import (
    CaptureError,
    NotABrowserError,
    WindowMinimisedError,
    WindowNotFoundError,
)
from queens_autosolve.capture.models import WindowRecord

DEFAULT_TITLE = "Queens"


def title_matches(record: WindowRecord, title: str) -> bool:
    return title.lower() in record.title.lower()


def eligible(record: WindowRecord, any_window: bool = False) -> bool:
    """Whether a window may be clicked by us, whatever its title."""
    if record.is_terminal:
        return False
    if record.is_browser:
        return True
    return any_window and not record.mentions_tool


def rank_windows(
    records: Sequence[WindowRecord], title: str = DEFAULT_TITLE, any_window: bool = False
) -> list[WindowRecord]:
    """Eligible windows whose title matches, best first (minimised ones included, last)."""
    matches = [r for r in records if title_matches(r, title) and eligible(r, any_window) and not r.rect.empty]
    matches = [r for r in matches if r.viewable or r.minimised]  # withdrawn windows are not windows
    return sorted(
        matches,
        key=lambda r: (r.viewable and not r.minimised, r.is_browser, not r.mentions_tool, r.stacking),
        reverse=True,
    )


def check_browser(window: WindowRecord, any_window: bool = False) -> None:
    """Refuse a window that is not a web browser (unless `any_window`), and always a terminal."""
    if window.is_terminal:
        raise NotABrowserError(
            f"the window {window.title!r} is a terminal; the tool never clicks into a terminal"
        )
    if not eligible(window, any_window):
        kind = "/".join(window.wm_class) or "unknown class"
        raise NotABrowserError(
            f"the window {window.title!r} ({kind}) is not a web browser; the tool "
            "clicks only into browser windows (give --any-window to allow this one on purpose)"
        )


def choose_window(
    records: Sequence[WindowRecord], title: str | None = None, any_window: bool = False
) -> WindowRecord:
    """The window to play in, or an error that lists what we saw and says what to do."""
    wanted = title or DEFAULT_TITLE
    ranked = rank_windows(records, wanted, any_window)
    shown = [r for r in ranked if r.viewable and not r.minimised]
    if title is not None and len(shown) > 1:
        names = ", ".join(repr(r.title) for r in shown[:6]) + (", ..." if len(shown) > 6 else "")
        raise CaptureError(
            f"--window {title!r} matches {len(shown)} windows: {names}; "
            "give more of the title of the one to play in"
        )
    if shown:
        return shown[0]
    if ranked and ranked[0].other_desktop:
        raise WindowMinimisedError(
            f"the window {ranked[0].title!r} is on another desktop (workspace) than the one shown; "
            "switch to that desktop, or move the window to this one, then run again"
        )
    if ranked:
        raise WindowMinimisedError(
            f"the window {ranked[0].title!r} is minimised; restore it (and keep the Queens board "
            "visible), then run again"
        )
    others = [r for r in records if title_matches(r, wanted) and r.viewable and not r.rect.empty]
    if others:
        check_browser(others[-1], any_window)  # says why the window that matched is not taken
    seen = sorted({r.title for r in records if r.title and r.viewable})
    listing = ", ".join(repr(t) for t in seen[:12]) or "none"
    hint = (
        "open the LinkedIn Queens game (or `queens-autosolve practice`) in a browser"
        if title is None
        else f"check the title given with --window {title!r}"
    )
    raise WindowNotFoundError(
        f"no browser window titled {wanted!r} found; windows on screen: {listing}; {hint}"
    )
